#!/usr/bin/env python3
"""Run the web-clients suites (the real Firebase JS SDK) against a debug Hearth.

Usage:
    python3 scripts/web_clients.py [--hearth .build/debug/hearth] [--timeout 600]
    python3 scripts/web_clients.py --against-emulator PORT

What it does, in order:

  1. locates the Firebase JS SDK: $HEARTH_JS_SDK if set, else ~/.cache/hearth/js-sdk, holding
     node_modules/ as `npm ci --prefix <dir>` left it from Tests/WebClients/package.json (the
     convention of Tests/WebClients/sdk_root.py and Tests/WebClients/node/sdk_root.mjs). When it
     (or node) is absent it prints one `skip: …` line, and only the replay (3) runs.
  2. starts the debug Hearth in memory with the app's firebase/firebase.json (its rules and
     indexes), project demo-p, on free loopback ports (Firestore, Functions, Auth, hub)
  3. replays the browser cases' recorded sessions (Tests/WebClients/replay.py: WebChannel and
     the web SDK's REST calls, as recorded against the official emulator) — on every machine
  4. with the SDK and node: the Node suites, one `node --test` per file, with
     FIRESTORE_EMULATOR_HOST, FIREBASE_AUTH_EMULATOR_HOST and FIREBASE_EMULATOR_HUB set:
       Tests/WebClients/node/firestore_sdk.test.mjs  the SDK over gRPC (own project, own rules)
       Tests/WebClients/node/rules.test.mjs          firebase/firestore.rules with
                                                     @firebase/rules-unit-testing
  5. with the SDK: the browser suite (Tests/WebClients/browser/run_browser.py, headless
     Chromium; it skips with one line without chromium) for each transport: default,
     long-polling, auto-detect, lite
  6. stops Hearth and prints `node: N passed, M failed` (and a line per other suite)

--against-emulator PORT runs only the Node suites against an official Cloud Firestore emulator
already listening on 127.0.0.1:PORT (no hub there: the hub-discovery case is skipped), to compare.

Exits non-zero when any test failed or a suite could not run. Logs (Hearth's,
and the TAP of each suite) go to .build/web-clients/.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from google_suite import exit_on_termination, start_hearth_on, stop_group, tail  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
WEB = os.path.join(REPO, "Tests", "WebClients")
NODE_DIR = os.path.join(WEB, "node")
NODE_SUITES = ["firestore_sdk.test.mjs", "rules.test.mjs"]
BROWSER_RUNNER = os.path.join(WEB, "browser", "run_browser.py")
REPLAY = os.path.join(WEB, "replay.py")
BROWSER_TRANSPORTS = ("default", "long-polling", "auto-detect", "lite")
APP_CONFIG = os.path.join(REPO, "firebase", "firebase.json")
WORK = os.path.join(REPO, ".build", "web-clients")
PROJECT = "demo-p"
sys.path.insert(0, WEB)
from sdk_root import SKIP_MESSAGE, sdk_root  # noqa: E402  (the one SDK locator)
DEFAULT_TIMEOUT_S = 600


def log(message):
    print(f"web-clients: {message}", file=sys.stderr, flush=True)


def suite_env(hosts):
    env = dict(os.environ)
    for name in ("FIRESTORE_EMULATOR_HOST", "FIREBASE_AUTH_EMULATOR_HOST", "FIREBASE_EMULATOR_HUB",
                 "HEARTH_WC_PROJECT"):
        env.pop(name, None)
    env["FIRESTORE_EMULATOR_HOST"] = hosts["firestore"]
    if "auth" in hosts:
        env["FIREBASE_AUTH_EMULATOR_HOST"] = hosts["auth"]
    if "hub" in hosts:
        env["FIREBASE_EMULATOR_HUB"] = hosts["hub"]
    return env


def tap_counts(path):
    """(passed, failed, skipped, names of failed tests) from a node --test TAP file."""
    counts = {"pass": 0, "fail": 0, "skipped": 0, "cancelled": 0}
    failed = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"^# (pass|fail|skipped|cancelled) (\d+)$", line.rstrip())
                if m:
                    counts[m.group(1)] = int(m.group(2))
                m = re.match(r"^\s*not ok \d+ - (.*)$", line.rstrip())
                if m and not m.group(1).endswith(".mjs"):
                    failed.append(m.group(1))
    except OSError:
        pass
    return counts["pass"], counts["fail"] + counts["cancelled"], counts["skipped"], failed


def run_node_suites(hosts, timeout_s):
    """Runs each Node suite; returns (passed, failed, skipped, ran_all)."""
    node = shutil.which("node")
    env = suite_env(hosts)
    total_pass = total_fail = total_skip = 0
    ran_all = True
    for suite in NODE_SUITES:
        tap = os.path.join(WORK, suite.replace(".test.mjs", ".tap"))
        command = [node, "--test", "--test-concurrency=1",
                   "--test-reporter=spec", "--test-reporter-destination=stdout",
                   "--test-reporter=tap", f"--test-reporter-destination={tap}", suite]
        try:
            status = subprocess.run(command, cwd=NODE_DIR, env=env, stdin=subprocess.DEVNULL,
                                    timeout=timeout_s).returncode
        except subprocess.TimeoutExpired:
            log(f"{suite}: timed out after {timeout_s} s")
            status = None
        passed, failed, skipped, names = tap_counts(tap)
        if status not in (0, 1) or (status == 1 and failed == 0):
            log(f"{suite}: node exited {status} with {failed} failures counted")
            ran_all = False
        print(f"node {suite}: {passed} passed, {failed} failed, {skipped} skipped", flush=True)
        for name in names:
            print(f"  FAILED {suite}: {name}")
        total_pass, total_fail, total_skip = total_pass + passed, total_fail + failed, total_skip + skipped
    return total_pass, total_fail, total_skip, ran_all


def run_python_suite(label, script, hosts, timeout_s, extra=()):
    """Runs a Python suite of another part (browser, replay) with the servers' addresses."""
    command = [sys.executable, script, "--firestore", hosts["firestore"], "--auth", hosts["auth"],
               "--functions", hosts["functions"], *extra]
    try:
        status = subprocess.run(command, cwd=REPO, env=suite_env(hosts), stdin=subprocess.DEVNULL,
                                timeout=timeout_s).returncode
    except subprocess.TimeoutExpired:
        log(f"{label}: timed out after {timeout_s} s")
        status = None
    print(f"{label}: {'ok' if status == 0 else f'FAILED (exit {status})'}", flush=True)
    return status == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hearth", default=os.path.join(REPO, ".build", "debug", "hearth"),
                        help="the Hearth binary (default: the debug build)")
    parser.add_argument("--against-emulator", type=int, metavar="PORT",
                        help="run the Node suites against an official emulator on 127.0.0.1:PORT")
    parser.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT_S, help="seconds per suite")
    args = parser.parse_args()

    # The transcript replay needs neither the SDK nor a browser: it always runs. The Node and
    # browser suites need the SDK (and node, chromium); without them they print a skip line.
    have_sdk = sdk_root() is not None
    have_node = shutil.which("node") is not None
    if not have_sdk:
        print(SKIP_MESSAGE)
    elif not have_node:
        print("skip: node not found on PATH (the web-clients suites need Node 20)")
    os.makedirs(WORK, exist_ok=True)

    if args.against_emulator:
        if not (have_sdk and have_node):
            return 0
        hosts = {"firestore": f"127.0.0.1:{args.against_emulator}"}
        log(f"Node suites against the emulator on {hosts['firestore']}")
        passed, failed, skipped, ran_all = run_node_suites(hosts, args.timeout)
        print(f"node: {passed} passed, {failed} failed")
        return 0 if ran_all and failed == 0 and passed > 0 else 1

    if not os.access(args.hearth, os.X_OK):
        sys.exit(f"web-clients: no Hearth binary at {args.hearth} (run `swift build` first)")
    exit_on_termination()
    log_path = os.path.join(WORK, "hearth.log")
    process, hosts = start_hearth_on(args.hearth, APP_CONFIG, PROJECT, log_path)
    others_ok = True
    try:
        log(f"Hearth: firestore {hosts['firestore']}, auth {hosts['auth']}, functions "
            f"{hosts['functions']}, hub {hosts['hub']} (log: {os.path.relpath(log_path, REPO)})")
        # The recorded WebChannel and REST sessions of the browser cases, on every machine.
        others_ok &= run_python_suite("replay", REPLAY, hosts, args.timeout)
        passed = failed = 0
        ran_all = True
        if have_sdk and have_node:
            passed, failed, skipped, ran_all = run_node_suites(hosts, args.timeout)
            ran_all = ran_all and passed > 0
        if have_sdk:
            for transport in BROWSER_TRANSPORTS:
                others_ok &= run_python_suite(
                    f"browser ({transport})", BROWSER_RUNNER, hosts, args.timeout,
                    ("--project", PROJECT, "--transport", transport))
    finally:
        stop_group(process)
    if not ran_all or not others_ok:
        log(f"Hearth log tail:\n{tail(log_path)}")
    if have_sdk and have_node:
        print(f"node: {passed} passed, {failed} failed", flush=True)
    return 0 if ran_all and others_ok and failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
