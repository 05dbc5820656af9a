#!/usr/bin/env python3
"""Run google-cloud-firestore's own system tests against Hearth.

Usage:
    python3 scripts/google_suite.py [--report-only] [--hearth .build/debug/hearth] [--timeout 120] [-- PYTEST_ARGS]

What it does, in order:

  1. makes the venv .venv-google from Tests/GoogleSuite/requirements.txt (every package pinned)
     unless it is there already with the same requirements
  2. fetches the google-cloud-firestore 2.34.1 sdist from PyPI by exact version
     (`pip download --no-binary :all: --no-deps`) and extracts it under .build/google-suite/
     (git-ignored), unless it is there already; Google's files are run as shipped, never edited
  3. starts the debug Hearth (`hearth start --in-memory --quiet`, project demo-gsuite, an empty
     firebase.json in a temporary folder, free loopback ports) and runs
     tests/system/test_system.py and tests/system/test_system_async.py against it with
     FIRESTORE_EMULATOR_HOST, from the sdist folder with `-c /dev/null` (no ini file, no
     conftest of ours), pytest-timeout per test, and Tests/GoogleSuite/google_suite_plugin.py,
     which skips each test Tests/GoogleSuite/emulator_verdicts.json records the official
     emulator failing (scripts/record_google_suite.py writes that file)
  4. stops Hearth, prints pytest's closing line, every test that failed on Hearth, and
     `google suite: Hearth N passed / emulator M passed (recorded DATE)`

Exits non-zero when any test that was not skipped failed or errored (or nothing ran), unless
--report-only, which prints the same and exits 0 when the suite itself could run.

The helpers here (venv, sdist, pytest command) are shared with scripts/record_google_suite.py.
"""

import argparse
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SUITE_DIR = os.path.join(REPO, "Tests", "GoogleSuite")
REQUIREMENTS = os.path.join(SUITE_DIR, "requirements.txt")
VERDICTS = os.path.join(SUITE_DIR, "emulator_verdicts.json")
VENV = os.path.join(REPO, ".venv-google")
WORK = os.path.join(REPO, ".build", "google-suite")

PACKAGE = "google-cloud-firestore"
VERSION = "2.34.1"
SDIST_NAME = f"google_cloud_firestore-{VERSION}"
SDIST_FILE = f"{SDIST_NAME}.tar.gz"
SDIST_DIR = os.path.join(WORK, SDIST_NAME)
TEST_FILES = ["tests/system/test_system.py", "tests/system/test_system_async.py"]
PROJECT = "demo-gsuite"
DEFAULT_TIMEOUT_S = 120
# A backstop over the whole run (it takes under a minute): a hang that even pytest-timeout
# cannot break must not eat CI's time.
TOTAL_TIMEOUT_S = 1800
STARTUP_TIMEOUT_S = 60.0


def log(message):
    print(f"google-suite: {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- venv and sdist

def venv_python():
    return os.path.join(VENV, "bin", "python")


def ensure_venv():
    """Makes .venv-google from the pinned requirements once (stamp: a copy of the file)."""
    stamp = os.path.join(VENV, ".requirements")
    with open(REQUIREMENTS, "rb") as f:
        wanted = f.read()
    if os.access(venv_python(), os.X_OK) and os.path.exists(stamp):
        with open(stamp, "rb") as f:
            if f.read() == wanted:
                return
    log(f"making {os.path.relpath(VENV, REPO)} from {os.path.relpath(REQUIREMENTS, REPO)}")
    subprocess.run([sys.executable, "-m", "venv", "--clear", VENV], check=True)
    subprocess.run([venv_python(), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    "-r", REQUIREMENTS], check=True)
    with open(stamp, "wb") as f:
        f.write(wanted)


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def ensure_sdist():
    """Fetches the sdist by exact version and extracts it under .build/google-suite/, once.

    Returns the sdist's sha256 (recorded in the verdicts so both runs are known to use the
    same file)."""
    archive = os.path.join(WORK, "download", SDIST_FILE)
    marker = os.path.join(SDIST_DIR, ".extracted")
    if not os.path.exists(archive):
        log(f"fetching {PACKAGE}=={VERSION} (sdist) from PyPI")
        os.makedirs(os.path.dirname(archive), exist_ok=True)
        subprocess.run([venv_python(), "-m", "pip", "download", "-q", "--disable-pip-version-check",
                        "--no-binary", ":all:", "--no-deps", "--dest", os.path.dirname(archive),
                        f"{PACKAGE}=={VERSION}"], check=True)
        if not os.path.exists(archive):
            sys.exit(f"google-suite: pip download did not produce {archive}")
    digest = sha256_of(archive)
    if os.path.exists(marker):
        with open(marker, encoding="utf-8") as f:
            if f.read().strip() == digest:
                return digest
    log(f"extracting {SDIST_FILE} into {os.path.relpath(WORK, REPO)}/")
    with tarfile.open(archive, "r:gz") as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(WORK, filter="data")
        else:
            for member in tar.getmembers():
                if member.name.startswith("/") or ".." in member.name.split("/"):
                    sys.exit(f"google-suite: unsafe path in {SDIST_FILE}: {member.name}")
            tar.extractall(WORK)
    for name in TEST_FILES:
        if not os.path.exists(os.path.join(SDIST_DIR, name)):
            sys.exit(f"google-suite: {SDIST_FILE} has no {name}")
    with open(marker, "w", encoding="utf-8") as f:
        f.write(digest + "\n")
    return digest


def prepare():
    """venv + sdist; returns the sdist's sha256."""
    os.makedirs(WORK, exist_ok=True)
    ensure_venv()
    return ensure_sdist()


# --------------------------------------------------------------------------- servers

def free_ports(count):
    """`count` distinct free loopback ports (all held open while choosing)."""
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def wait_ready(process, host, log_path, timeout_s=STARTUP_TIMEOUT_S):
    """Waits until `GET /` on host answers `Ok` (Hearth and the emulator both do)."""
    deadline = time.monotonic() + timeout_s
    last = None
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode} before it was ready:\n{tail(log_path)}")
        try:
            with urllib.request.urlopen(f"http://{host}/", timeout=5) as response:
                if response.status == 200 and response.read().decode().strip() == "Ok":
                    return
        except (OSError, urllib.error.URLError) as error:
            last = error
        time.sleep(0.1)
    raise RuntimeError(f"server not ready on {host} after {timeout_s} s ({last!r}):\n{tail(log_path)}")


def tail(path, lines=40):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return "(no log)"


def stop_group(process, timeout_s=15.0):
    """SIGTERM to the process group started with start_new_session, then SIGKILL."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)  # whatever of the group is left (a JVM's children)
    except ProcessLookupError:
        pass
    process.wait()


def exit_on_termination():
    """SIGTERM/SIGHUP become SystemExit, so the `finally` that stops a server (which runs in its
    own session, out of reach of a signal to our process group) still runs."""
    def handler(signum, frame):
        raise SystemExit(128 + signum)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, handler)


def start_hearth(binary, folder, log_path):
    """Starts Hearth in memory on free ports; returns (process, FIRESTORE_EMULATOR_HOST)."""
    config = os.path.join(folder, "firebase.json")
    with open(config, "w", encoding="utf-8") as f:
        f.write("{}\n")
    process, hosts = start_hearth_on(binary, config, PROJECT, log_path)
    return process, hosts["firestore"]


def start_hearth_on(binary, config, project, log_path):
    """Starts Hearth in memory with `config` for `project` on free loopback ports, ready;
    returns (process, {"firestore"|"functions"|"auth"|"hub": "127.0.0.1:PORT"})."""
    ports = dict(zip(("firestore", "functions", "auth", "hub"), free_ports(4)))
    command = [binary, "start", "--config", config, "--project", project, "--in-memory", "--quiet"]
    for name, port in ports.items():
        command += [f"--{name}-port", str(port)]
    with open(log_path, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    hosts = {name: f"127.0.0.1:{port}" for name, port in ports.items()}
    try:
        wait_ready(process, hosts["firestore"], log_path)
    except BaseException:
        stop_group(process)
        raise
    return process, hosts


# --------------------------------------------------------------------------- pytest

def run_pytest(host, outcomes_path, timeout_s, skip_from=None, extra=()):
    """Runs Google's two system-test files against host; returns pytest's exit status.

    From the sdist folder, with no ini file (`-c /dev/null`), no cache, and our plugin."""
    env = dict(os.environ)
    env.update({
        "FIRESTORE_EMULATOR_HOST": host,
        "GCLOUD_PROJECT": PROJECT,
        "GOOGLE_CLOUD_PROJECT": PROJECT,
        "PYTHONPATH": SUITE_DIR,
        "GOOGLE_SUITE_OUTCOMES": outcomes_path,
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    for name in ("GOOGLE_SUITE_SKIP_FROM", "FIRESTORE_APPLICATION_CREDENTIALS",
                 "GOOGLE_APPLICATION_CREDENTIALS", "PYTEST_ADDOPTS", "PYTEST_PLUGINS"):
        env.pop(name, None)
    if skip_from:
        env["GOOGLE_SUITE_SKIP_FROM"] = skip_from
    # Loopback only: never through a proxy a CI machine may configure.
    for name in ("no_proxy", "NO_PROXY"):
        env[name] = "127.0.0.1,localhost,::1" + ("," + env[name] if env.get(name) else "")
    # The console script, not `python -m pytest`: that would put the sdist folder (and its
    # `google/` source tree) first on sys.path instead of the installed package.
    command = [os.path.join(VENV, "bin", "pytest"), "-c", "/dev/null", "--rootdir", SDIST_DIR,
               "-p", "no:cacheprovider", "-p", "google_suite_plugin",
               f"--timeout={timeout_s}", "-q", "--tb=short", "-rN", *extra, *TEST_FILES]
    try:
        return subprocess.run(command, cwd=SDIST_DIR, env=env, stdin=subprocess.DEVNULL,
                              timeout=TOTAL_TIMEOUT_S).returncode
    except subprocess.TimeoutExpired:
        print(f"google suite: pytest still running after {TOTAL_TIMEOUT_S} s: killed", flush=True)
        return 3


def load_outcomes(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)["tests"]
    except (OSError, ValueError, KeyError):
        return None


def count(tests):
    counts = {}
    for verdict in tests.values():
        counts[verdict["outcome"]] = counts.get(verdict["outcome"], 0) + 1
    return dict(sorted(counts.items()))


# --------------------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--report-only", action="store_true",
                        help="print the verdicts but exit 0 when tests fail on Hearth")
    parser.add_argument("--hearth", default=os.path.join(REPO, ".build", "debug", "hearth"),
                        help="the Hearth binary (default: the debug build)")
    parser.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT_S, help="seconds per test")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (e.g. -k NAME)")
    args = parser.parse_args()

    if not os.access(args.hearth, os.X_OK):
        sys.exit(f"google-suite: no Hearth binary at {args.hearth} (run `swift build` first)")
    if not os.path.exists(VERDICTS):
        sys.exit(f"google-suite: no {os.path.relpath(VERDICTS, REPO)}: record it with "
                 f"scripts/record_google_suite.py (needs Google's emulator)")
    with open(VERDICTS, encoding="utf-8") as f:
        verdicts = json.load(f)
    if verdicts["suite"]["version"] != VERSION:
        sys.exit(f"google-suite: {os.path.relpath(VERDICTS, REPO)} was recorded with suite "
                 f"{verdicts['suite']['version']}, this runs {VERSION}: re-record it with "
                 f"scripts/record_google_suite.py")
    digest = prepare()
    if verdicts["suite"]["sha256"] != digest:
        sys.exit(f"google-suite: {SDIST_FILE} has sha256 {digest}, the verdicts were recorded "
                 f"with {verdicts['suite']['sha256']}: re-record with scripts/record_google_suite.py")

    exit_on_termination()
    outcomes_path = os.path.join(WORK, "hearth-outcomes.json")
    log_path = os.path.join(WORK, "hearth.log")
    if os.path.exists(outcomes_path):
        os.remove(outcomes_path)
    with tempfile.TemporaryDirectory(prefix="hearth-gsuite-") as folder:
        process, host = start_hearth(args.hearth, folder, log_path)
        skipped = sorted(n for n, v in verdicts["tests"].items() if v["outcome"] in ("failed", "error"))
        log(f"Hearth on {host} (log: {os.path.relpath(log_path, REPO)}); skipping the {len(skipped)} "
            f"tests the official emulator {verdicts['emulator']['version']} fails "
            f"(recorded {verdicts['recorded']}): {', '.join(n.split('::')[-1] for n in skipped)}")
        try:
            status = run_pytest(host, outcomes_path, args.timeout, skip_from=VERDICTS,
                                extra=args.pytest_args)
        finally:
            stop_group(process)

    tests = load_outcomes(outcomes_path)
    if tests is None:
        print(f"google suite: pytest (exit {status}) recorded no outcomes")
        return status or 1
    failing = [(nodeid, v) for nodeid, v in tests.items() if v["outcome"] in ("failed", "error", "xpassed")]
    if failing:
        print(f"google suite: {len(failing)} tests fail on Hearth that the official emulator passes:")
        for nodeid, verdict in failing:
            print(f"  {verdict['outcome'].upper()} {nodeid} - {verdict.get('reason', '')}")
    hearth_passed = count(tests).get("passed", 0)
    emulator_passed = verdicts["counts"].get("passed", 0)
    print(f"google suite: Hearth {hearth_passed} passed / emulator {emulator_passed} passed "
          f"(recorded {verdicts['recorded']})", flush=True)
    if status not in (0, 1):  # 2 interrupted, 3 internal error, 4 usage, 5 no tests
        print(f"google suite: pytest could not run the suite (exit {status})")
        return status
    if args.report_only:
        return 0
    if status != 0 or failing or hearth_passed == 0:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
