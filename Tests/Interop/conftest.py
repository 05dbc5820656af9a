"""Fixtures for the interop suite: one Hearth per session, one project per test.

The suite drives a debug build of Hearth (`.build/debug/hearth`) with the real Google
Python clients over real sockets (gRPC over cleartext HTTP/2, plus plain HTTP/1.1 for the
emulator admin endpoints). Hearth runs in memory with open rules (its firebase.json names
no rules file); tests that need rules PUT them for their own project only.

Sources: docs/reference/firestore-wire.md §2.1 (admin endpoints), §2.2 (auth), §7 (Python
client against an emulator); docs/reference/grpc-and-listen.md §11 (client connection).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path

import firebase_admin
import grpc
import pytest
from firebase_admin import credentials as admin_credentials
from firebase_admin import firestore as admin_firestore
from google.auth.credentials import AnonymousCredentials
from google.cloud import firestore
from google.cloud.firestore_v1.services.firestore import FirestoreClient
from google.cloud.firestore_v1.services.firestore.transports.grpc import FirestoreGrpcTransport

from support import UserClient, unsigned_jwt

REPO = Path(__file__).resolve().parents[2]
HEARTH_BINARY = REPO / ".build" / "debug" / "hearth"
STARTUP_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 10.0


# --------------------------------------------------------------------------- the server


@dataclass(frozen=True)
class Hearth:
    """A running Hearth: `host` is `127.0.0.1:<port>` (the FIRESTORE_EMULATOR_HOST form)."""

    host: str
    log_path: Path

    @property
    def base_url(self) -> str:
        return f"http://{self.host}"

    def http(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        """One HTTP/1.1 request; returns (status, body text). Non-2xx is returned, not raised."""
        request = urllib.request.Request(self.base_url + path, data=body, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ensure_binary() -> Path:
    if not HEARTH_BINARY.exists():
        subprocess.run(["swift", "build", "--product", "hearth"], cwd=REPO, check=True)
    return HEARTH_BINARY


def _wait_ready(process: subprocess.Popen, hearth: Hearth) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    last = None
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"hearth exited with {process.returncode} before it was ready:\n{hearth.log_tail()}")
        try:
            status, text = hearth.http("GET", "/")
            if status == 200 and text.strip() == "Ok":
                return
            last = (status, text)
        except OSError as error:
            last = error
        time.sleep(0.05)
    raise RuntimeError(f"hearth not ready after {STARTUP_TIMEOUT_S} s (last answer {last!r}):\n{hearth.log_tail()}")


_running: list[Hearth] = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Adds the tail of Hearth's log to the report of a failed test."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and _running:
        report.sections.append(("hearth log (tail)", _running[0].log_tail()))


@pytest.fixture(scope="session")
def hearth(tmp_path_factory):
    """Starts one Hearth in memory on a free port for the whole session; stops it with SIGTERM."""
    binary = _ensure_binary()
    workdir = tmp_path_factory.mktemp("hearth")
    port = _free_port()
    config = workdir / "firebase.json"
    # No "firestore.rules" key: open rules (docs/reference/firestore-wire.md §2.1).
    config.write_text(json.dumps({"emulators": {"firestore": {"host": "127.0.0.1", "port": port}}}))
    log_path = workdir / "hearth.log"
    log = open(log_path, "wb")
    process = subprocess.Popen(
        [str(binary), "start", "--config", str(config), "--in-memory", "--firestore-port", str(port),
         "--project", "demo-interop", "--quiet"],
        cwd=workdir, stdout=log, stderr=subprocess.STDOUT,
    )
    server = Hearth(host=f"127.0.0.1:{port}", log_path=log_path)
    _running.append(server)
    saved = {k: os.environ.get(k) for k in ("FIRESTORE_EMULATOR_HOST", "GCLOUD_PROJECT")}
    try:
        _wait_ready(process, server)
        os.environ["FIRESTORE_EMULATOR_HOST"] = server.host
        os.environ["GCLOUD_PROJECT"] = "demo-interop"
        yield server
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                log.close()
                pytest.fail(f"hearth did not stop within {STOP_TIMEOUT_S} s of SIGTERM:\n{server.log_tail()}")
        log.close()
        assert process.returncode == 0, f"hearth exited with {process.returncode}:\n{server.log_tail()}"


# --------------------------------------------------------------------------- per-test projects

_project_numbers = itertools.count(1)


@pytest.fixture
def project(hearth):
    """A project id no other test uses (Hearth serves every project); cleared afterwards."""
    project_id = f"demo-it{next(_project_numbers)}-{uuid.uuid4().hex[:6]}"
    yield project_id
    status, _ = hearth.http("DELETE", f"/emulator/v1/projects/{project_id}/databases/(default)/documents")
    assert status == 200


@pytest.fixture
def db(project):
    """A google-cloud-firestore client for the test's project (admin: `Bearer owner`)."""
    client = firestore.Client(project=project)
    yield client
    client.close()


class _EmulatorCredential(admin_credentials.Base):
    """A firebase-admin credential for emulator use: no Application Default Credentials
    exist here, and with FIRESTORE_EMULATOR_HOST set the client never uses the token
    (docs/reference/grpc-and-listen.md §1.3 O13)."""

    def get_credential(self):
        return AnonymousCredentials()


@pytest.fixture
def admin_db(project):
    """A firebase-admin Firestore client (`initialize_app(options={"projectId"})`) for the project."""
    app = firebase_admin.initialize_app(_EmulatorCredential(), options={"projectId": project}, name=project)
    client = admin_firestore.client(app)
    yield client
    client.close()
    firebase_admin.delete_app(app)


@pytest.fixture(params=["google-cloud-firestore", "firebase-admin"])
def client(request, project):
    """Both clients, one after the other."""
    return request.getfixturevalue("db" if request.param == "google-cloud-firestore" else "admin_db")


# --------------------------------------------------------------------------- rules and users


@pytest.fixture
def rules(hearth, project):
    """Installs a rules text for the test's project only: `rules(text)`."""

    def install(text: str) -> None:
        body = json.dumps({"rules": {"files": [{"content": text}]}}).encode()
        status, answer = hearth.http("PUT", f"/emulator/v1/projects/{project}:securityRules", body)
        assert status == 200, answer

    return install


@pytest.fixture
def user_client(project):
    """`user_client(uid)` → a client whose calls carry an unsigned JWT for `uid`;
    `user_client(None)` → an unauthenticated client. All are closed afterwards."""
    made = []

    def make(uid: str | None):
        token = None if uid is None else unsigned_jwt(uid, project)
        c = UserClient(token=token, project=project)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


# --------------------------------------------------------------------------- low-level gRPC


@pytest.fixture
def channel(hearth):
    """A plain insecure gRPC channel to Hearth."""
    ch = grpc.insecure_channel(hearth.host)
    yield ch
    ch.close()


@pytest.fixture
def gapic(channel):
    """The generated low-level `FirestoreClient` on a channel of our own."""
    return FirestoreClient(transport=FirestoreGrpcTransport(channel=channel))


# --------------------------------------------------------------------------- hygiene


@pytest.fixture(autouse=True)
def no_leaked_threads():
    """Fails a test that leaves threads behind (e.g. a listener never unsubscribed)."""
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 3.0
    while True:
        extra = [t for t in threading.enumerate() if t not in before and t.is_alive()]
        if not extra or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert not extra, f"threads left running: {[t.name for t in extra]}"


# --------------------------------------------------------------------------- an app's own Hearth

_PORT_LINE = re.compile(r"^(firestore|functions|auth|hub|ui)\s+http://127\.0\.0\.1:(\d+)", re.M)


class AppServer:
    """A Hearth started on an app's firebase.json by `start_app`: its ports by emulator name."""

    def __init__(self, process, ports, log_path):
        self.process, self.ports, self.log_path = process, ports, log_path

    def call(self, name, method, path, body=None, token="owner"):
        """(status, JSON) of one request to emulator `name`; `token` None sends no Authorization."""
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(f"http://127.0.0.1:{self.ports[name]}{path}", data=data, method=method,
                                         headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def stop(self):
        """SIGTERM, then SIGKILL after 10 s."""
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_app(config, project, work, *extra, server=AppServer):
    """Starts the debug Hearth on `config` for `project` (in memory unless `extra` names
    `--data`) on free ports, and waits for "ready".
    Returns a `server` (AppServer or a subclass with an app's own helpers)."""
    binary = _ensure_binary()
    log_path = work / f"hearth-{time.monotonic_ns()}.log"
    flags = [arg for name in ("firestore", "functions", "auth", "hub", "ui") for arg in (f"--{name}-port", "0")]
    storage = [] if "--data" in extra else ["--in-memory"]
    with open(log_path, "wb") as log:
        process = subprocess.Popen([str(binary), "start", "--config", str(config), *storage, "--project", project,
                                    "--quiet", *flags, *extra], cwd=work, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = log_path.read_text(errors="replace")
        if "hearth: ready" in text:
            return server(process, {n: int(p) for n, p in _PORT_LINE.findall(text)}, log_path)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("hearth did not start:\n" + log_path.read_text(errors="replace"))
