#!/usr/bin/env python3
"""Record the official Firestore emulator's verdicts on google-cloud-firestore's system tests.

Usage:
    python3 scripts/record_google_suite.py [--out Tests/GoogleSuite/emulator_verdicts.json] [--timeout 120]

Runs the same two files scripts/google_suite.py runs against Hearth
(tests/system/test_system.py and test_system_async.py of the google-cloud-firestore 2.34.1
sdist, same venv, same pytest options, no skip list) against Google's Cloud Firestore
emulator, and writes its verdicts as data: the emulator's version and build, the suite's
version and sdist sha256, the date, the counts, and for each test node id its outcome, with
a one-line reason (the exception's first line) for each failed one. The tests it fails are
the only ones scripts/google_suite.py skips on Hearth.

The emulator is found through `gcloud info --format='value(installation.sdk_root)'`
(platform/cloud-firestore-emulator/cloud_firestore_emulator) or `cloud_firestore_emulator` on
the PATH (install it with `gcloud components install cloud-firestore-emulator`, or Debian's
google-cloud-cli-firestore-emulator package from Google's apt repository; it needs Java). It
runs in its own process group on a free loopback port, which is killed whole afterwards (it
is a JVM). Nothing of the emulator is written into the repository.
"""

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile

import google_suite as suite

EMULATOR_SUBPATH = os.path.join("platform", "cloud-firestore-emulator", "cloud_firestore_emulator")


# --------------------------------------------------------------------------- the emulator

def gcloud_sdk_root():
    gcloud = shutil.which("gcloud")
    if not gcloud:
        return None
    try:
        out = subprocess.run([gcloud, "info", "--format=value(installation.sdk_root)"],
                             capture_output=True, text=True, timeout=120, check=True).stdout.strip()
    except (subprocess.SubprocessError, OSError):
        return None
    return out or None


def find_emulator():
    """(path of cloud_firestore_emulator, SDK root or None); exits with a message if absent."""
    root = gcloud_sdk_root()
    if root and os.access(os.path.join(root, EMULATOR_SUBPATH), os.X_OK):
        return os.path.join(root, EMULATOR_SUBPATH), root
    on_path = shutil.which("cloud_firestore_emulator")
    if on_path:
        real = os.path.realpath(on_path)
        guess = os.path.abspath(os.path.join(os.path.dirname(real), "..", ".."))
        return on_path, guess if os.path.isdir(os.path.join(guess, ".install")) else root
    sys.exit("record-google-suite: Google's Cloud Firestore emulator was not found: neither "
             "`gcloud info --format='value(installation.sdk_root)'`/" + EMULATOR_SUBPATH +
             " nor `cloud_firestore_emulator` on the PATH. Install the Google Cloud CLI with the "
             "cloud-firestore-emulator component (and Java), then run this again.")


def emulator_version(sdk_root):
    """{"version", "build"} of the cloud-firestore-emulator component, as far as known."""
    if sdk_root:
        snapshot = os.path.join(sdk_root, ".install", "cloud-firestore-emulator.snapshot.json")
        try:
            with open(snapshot, encoding="utf-8") as f:
                data = json.load(f)
            for component in data.get("components", []):
                if component.get("id") == "cloud-firestore-emulator":
                    version = component.get("version", {})
                    return {"version": version.get("version_string", "unknown"),
                            "build": str(version.get("build_number", "unknown"))}
        except (OSError, ValueError):
            pass
    gcloud = shutil.which("gcloud")
    if gcloud:
        try:
            out = subprocess.run([gcloud, "version"], capture_output=True, text=True, timeout=120).stdout
            for line in out.splitlines():
                if line.startswith("cloud-firestore-emulator "):
                    return {"version": line.split()[1], "build": "unknown"}
        except (subprocess.SubprocessError, OSError):
            pass
    return {"version": "unknown", "build": "unknown"}


def start_emulator(binary, log_path):
    """Starts the emulator in a new session on a free port; returns (process, host)."""
    (port,) = suite.free_ports(1)
    host = f"127.0.0.1:{port}"
    with open(log_path, "wb") as out:
        process = subprocess.Popen([binary, "start", "--host=127.0.0.1", f"--port={port}"],
                                   stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
    try:
        suite.wait_ready(process, host, log_path, timeout_s=120.0)
    except BaseException:
        suite.stop_group(process)
        raise
    return process, host


# --------------------------------------------------------------------------- the file

def write_verdicts(path, data):
    """JSON with one test per line, so re-recordings diff line by line."""
    tests = data.pop("tests")
    head = json.dumps(data, indent=1, ensure_ascii=False)
    lines = [f" {json.dumps(nodeid, ensure_ascii=False)}: {json.dumps(verdict, ensure_ascii=False)}"
             for nodeid, verdict in tests.items()]
    body = head[:-2] + ',\n "tests": {\n' + ",\n".join(" " + line for line in lines) + "\n }\n}\n"
    json.loads(body)  # well-formed
    with open(path, "w", encoding="utf-8") as f:
        f.write(body)


# --------------------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=suite.VERDICTS)
    parser.add_argument("--timeout", type=int, default=suite.DEFAULT_TIMEOUT_S, help="seconds per test")
    args = parser.parse_args()

    binary, sdk_root = find_emulator()
    version = emulator_version(sdk_root)
    digest = suite.prepare()
    outcomes_path = os.path.join(suite.WORK, "emulator-outcomes.json")
    log_path = os.path.join(suite.WORK, "emulator.log")
    if os.path.exists(outcomes_path):
        os.remove(outcomes_path)
    print(f"record-google-suite: Cloud Firestore emulator {version['version']} (build {version['build']})",
          file=sys.stderr, flush=True)
    suite.exit_on_termination()
    process, host = start_emulator(binary, log_path)
    try:
        status = suite.run_pytest(host, outcomes_path, args.timeout)
    finally:
        suite.stop_group(process)
    tests = suite.load_outcomes(outcomes_path)
    if tests is None or status not in (0, 1):
        sys.exit(f"record-google-suite: pytest exited {status} without a full run; nothing written")

    data = {
        "description": "Verdicts of Google's Cloud Firestore emulator on google-cloud-firestore's own "
                       "system tests (tests/system/test_system.py and test_system_async.py of its sdist, "
                       "run unedited), recorded by scripts/record_google_suite.py. scripts/google_suite.py "
                       "runs the same files against Hearth and skips exactly the tests whose outcome here "
                       "is failed or error; `reason` is the first line of the exception.",
        "emulator": {"component": "cloud-firestore-emulator", **version},
        "suite": {"package": suite.PACKAGE, "version": suite.VERSION, "sdist": suite.SDIST_FILE,
                  "sha256": digest, "files": suite.TEST_FILES},
        "recorded": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "python": ".".join(map(str, sys.version_info[:3])),
        "pytestExit": status,
        "counts": suite.count(tests),
        "tests": tests,
    }
    write_verdicts(args.out, data)
    print(f"record-google-suite: wrote {os.path.relpath(args.out, suite.REPO)}: {data['counts']}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
