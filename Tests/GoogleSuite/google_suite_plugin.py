"""pytest plugin for running google-cloud-firestore's own system tests unedited.

Loaded with `-p google_suite_plugin` (this folder on PYTHONPATH) by scripts/google_suite.py
and scripts/record_google_suite.py. Google's files are never touched; everything this
plugin does is driven by two environment variables:

  GOOGLE_SUITE_SKIP_FROM   a verdicts file (Tests/GoogleSuite/emulator_verdicts.json): each
                           test the official emulator failed there is marked `skip` with
                           reason "official emulator VERSION fails it too: REASON"
  GOOGLE_SUITE_OUTCOMES    a JSON file this plugin writes at the end of the session: for each
                           test node id its outcome (passed, failed, error, skipped, xfailed,
                           xpassed) and, for failed and error, a one-line reason

A test's outcome combines its setup, call, teardown and subtest reports: an error in setup
or teardown is `error`, a failed call or a failed subtest is `failed`, a skipped setup or
call is `skipped` (a skipped subtest alone does not make the test skipped).
"""

import json
import os
import re

import pytest

SKIP_FROM = "GOOGLE_SUITE_SKIP_FROM"
OUTCOMES = "GOOGLE_SUITE_OUTCOMES"

# Worst first: a test's outcome is the worst of its reports'.
RANK = {"error": 0, "failed": 1, "xpassed": 2, "xfailed": 3, "skipped": 4, "passed": 5}


def one_line_reason(report):
    """The exception's first line, e.g. `InvalidArgument: 400 Invalid decimal128 string.`."""
    longrepr = report.longrepr
    crash = getattr(longrepr, "reprcrash", None)
    if crash is not None:
        text = crash.message
    elif isinstance(longrepr, tuple) and len(longrepr) == 3:  # a skip: (path, line, reason)
        text = str(longrepr[2])
    else:
        text = str(longrepr or "")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    first = lines[0] if lines else "(no message)"
    # `google.api_core.exceptions.InvalidArgument: 400 …` -> `InvalidArgument: 400 …`
    first = re.sub(r"^(?:[A-Za-z_][\w]*\.)+([A-Za-z_]\w*)(?=: |$)", r"\1", first)
    return first[:300]


def report_outcome(report):
    """(outcome, is a subtest report) of one report, or None when it says nothing."""
    subtest = hasattr(report, "context") and report.__class__.__name__ == "SubTestReport"
    if hasattr(report, "wasxfail"):
        return ("xfailed" if report.skipped else "xpassed"), subtest
    if report.failed:
        if subtest:
            return "failed", True
        return ("failed" if report.when == "call" else "error"), False
    if report.skipped:
        return ("passed" if subtest else "skipped"), subtest
    if report.when == "call" and not subtest:
        return "passed", False
    return None


class GoogleSuitePlugin:
    def __init__(self, config):
        self.config = config
        self.skips = {}
        self.skip_version = None
        self.outcomes = {}
        self.order = []
        path = os.environ.get(SKIP_FROM)
        if path:
            with open(path, encoding="utf-8") as f:
                verdicts = json.load(f)
            self.skip_version = verdicts["emulator"]["version"]
            for nodeid, verdict in verdicts["tests"].items():
                if verdict["outcome"] in ("failed", "error"):
                    self.skips[nodeid] = verdict.get("reason", "(no reason recorded)")

    def pytest_report_header(self, config):
        import google.cloud.firestore as firestore

        lines = [f"google-cloud-firestore {firestore.__version__} from {os.path.dirname(firestore.__file__)}"]
        if self.skip_version is not None:
            lines.append(f"skip list: {len(self.skips)} tests the official emulator "
                         f"{self.skip_version} fails ({os.environ[SKIP_FROM]})")
        return lines

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session, config, items):
        for item in items:
            reason = self.skips.get(item.nodeid)
            if reason is not None:
                item.add_marker(pytest.mark.skip(
                    reason=f"official emulator {self.skip_version} fails it too: {reason}"))

    def pytest_runtest_logreport(self, report):
        found = report_outcome(report)
        if found is None:
            return
        outcome, _ = found
        nodeid = report.nodeid
        if nodeid not in self.outcomes:
            self.order.append(nodeid)
            self.outcomes[nodeid] = {"outcome": outcome}
            if outcome in ("failed", "error"):
                self.outcomes[nodeid]["reason"] = one_line_reason(report)
            return
        current = self.outcomes[nodeid]
        if RANK[outcome] < RANK[current["outcome"]]:
            current["outcome"] = outcome
            if outcome in ("failed", "error"):
                current["reason"] = one_line_reason(report)
            else:
                current.pop("reason", None)

    def pytest_sessionfinish(self, session, exitstatus):
        path = os.environ.get(OUTCOMES)
        if not path:
            return
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"tests": {nodeid: self.outcomes[nodeid] for nodeid in self.order},
                       "exitstatus": int(exitstatus)}, f, indent=1)
            f.write("\n")


def pytest_configure(config):
    config.pluginmanager.register(GoogleSuitePlugin(config), "google-suite")
