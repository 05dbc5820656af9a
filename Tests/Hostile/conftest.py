"""One Hearth per test module; after every test the server must still be alive and answer `GET /`.

A module may set `HEARTH_RULES = "<rules source>"` to start its server with security rules.
If a test leaves the server dead or deaf, the test gets a teardown error carrying the log
tail, and the server is restarted so the rest of the module still runs.
"""

from __future__ import annotations

import os
import resource
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile_support import Hearth, hearth_binary  # noqa: E402


def pytest_configure(config):
    # 1,000 concurrent connections need more than the usual 1,024 descriptors.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, 8192) if hard != resource.RLIM_INFINITY else 8192
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    if not os.path.exists(hearth_binary()):
        raise pytest.UsageError(f"no hearth binary at {hearth_binary()} (swift build --product hearth)")


@pytest.fixture(scope="module")
def hearth(request, tmp_path_factory):
    rules = getattr(request.module, "HEARTH_RULES", None)
    h = Hearth(tmp_path_factory.mktemp("hearth"), rules=rules)
    h.start()
    yield h
    h.stop()


@pytest.fixture()
def durable(tmp_path):
    """A server of its own on a SQLite file, for tests that kill -9 and restart it."""
    h = Hearth(tmp_path, data=tmp_path / "hearth.sqlite")
    h.start()
    yield h
    h.stop()


@pytest.fixture(autouse=True)
def _server_survives(request):
    """Checks after EVERY test that the module's server is alive and answers `GET /`."""
    h = request.getfixturevalue("hearth") if "hearth" in request.fixturenames else None
    yield
    if h is None:
        return
    problem = h.health_problem()
    if problem is not None and request.node.get_closest_marker("xfail") is not None:
        # A known (xfail) crash: the test itself asserts liveness; bring the server back.
        h.restart()
        return
    if problem is not None:
        tail = h.log_tail()
        h.restart()
        pytest.fail(f"SERVER DOWN after {request.node.name}: {problem}\n--- log tail ---\n{tail}", pytrace=False)
