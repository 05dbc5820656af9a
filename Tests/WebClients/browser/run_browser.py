"""Runs the Firebase JS SDK 10.11.1 in headless Chromium against a Firestore emulator.

usage: run_browser.py --firestore HOST:PORT [--auth HOST:PORT] [--functions HOST:PORT]
                      [--project ID] [--transport default|long-polling|auto-detect|lite]
                      [--record DIR] [--only CASE] [--timeout S]

A static server on its own port (another origin than Firestore's, so CORS is exercised) serves
page/index.html with an import map pointing the SDK's gstatic URLs at the local SDK
($HEARTH_JS_SDK or ~/.cache/hearth/js-sdk), and page/*.js, the cases. Each case runs in the page
with a fresh project id; the page posts each verdict back. One line per case, then
`browser: N passed, M failed (transport T)`; exit 1 on a failure, 0 with a skip line when the SDK
or Chromium is missing. Auth and callable cases need --auth / --functions (and --project, the
project those emulators serve); without them they are skipped.

--record DIR puts recorder.RecordingProxy between the page and the Firestore port and writes
DIR/<transport>/<case>.json: that case's HTTP exchanges in order.
"""
import argparse
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from sdk_root import SKIP_MESSAGE, sdk_root  # noqa: E402
from recorder import RecordingProxy  # noqa: E402

TRANSPORTS = ("default", "long-polling", "auto-detect", "lite")
PROJECT_RE = re.compile(r"projects(?:/|%2F)([A-Za-z0-9_.-]+)")


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Run:
    """The state one page run shares between the static server and the runner."""

    def __init__(self, args, fs_target, page_firestore):
        self.args = args
        self.fs_target = fs_target
        self.config = {
            "firestore": page_firestore, "auth": args.auth, "functions": args.functions,
            "project": args.project, "transport": args.transport, "only": args.only,
            "run": "%x" % int(time.time() * 1000),
        }
        self.results = []
        self.projects = {}  # project id -> case
        self.rules = {}  # project id -> the rules a case PUT (kept in its transcript for replay.py)
        self.done = threading.Event()
        self.lock = threading.Lock()


def make_static_server(run, sdk):
    firebase_dir = os.path.join(sdk, "node_modules", "firebase")
    page_dir = os.path.join(HERE, "page")

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def handle(self):
            try:
                super().handle()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the browser went away (the run is over)

        def reply(self, status, body, ctype="application/json"):
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            path = self.path.split("?")[0]
            if path == "/":
                path = "/page/index.html"
            if path == "/config.json":
                return self.reply(200, json.dumps(run.config).encode())
            if path == "/app-rules":  # The app's firestore.rules, for cases that restore them.
                with open(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))),
                                       "firebase", "firestore.rules"), "rb") as f:
                    return self.reply(200, f.read(), "text/plain")
            for prefix, root in (("/sdk/", firebase_dir), ("/page/", page_dir)):
                name = path[len(prefix):]
                if path.startswith(prefix) and re.fullmatch(r"[A-Za-z0-9_.-]+", name):
                    try:
                        with open(os.path.join(root, name), "rb") as f:
                            data = f.read()
                    except OSError:
                        break
                    ctype = "text/html" if name.endswith(".html") else "text/javascript"
                    return self.reply(200, data, ctype)
            self.reply(404, b"not found", "text/plain")

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            if self.path == "/begin":
                with run.lock:
                    run.projects[body["project"]] = body["case"]
            elif self.path == "/result":
                with run.lock:
                    run.results.append(body)
                mark = {"pass": "PASS", "fail": "FAIL", "skip": "SKIP"}[body["verdict"]]
                line = "  %s %s" % (mark, body["case"])
                if body.get("detail") and body["verdict"] != "pass":
                    line += " — " + body["detail"]
                print(line, flush=True)
            elif self.path == "/log":
                if run.args.verbose:
                    print("    page: " + body.get("text", ""), flush=True)
            elif self.path == "/rules":
                with run.lock:
                    run.rules[body["project"]] = body["rules"]
                status = put_rules(run.fs_target, body["project"], body["rules"])
                return self.reply(200, json.dumps({"status": status}).encode())
            elif self.path == "/done":
                run.done.set()
            self.reply(200, b"{}")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    return server


def put_rules(target, project, rules):
    """PUT the rules of `project` straight to the Firestore port (not through the proxy)."""
    body = json.dumps({"rules": {"files": [{"name": "firestore.rules", "content": rules}]}})
    req = urllib.request.Request(
        "http://%s/emulator/v1/projects/%s:securityRules" % (target, project),
        data=body.encode(), method="PUT", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return 0


def write_transcripts(run, proxy, out_dir):
    by_case = {}
    current = None
    for ex in proxy.exchanges_for(lambda ex: True):
        m = PROJECT_RE.search(ex["path"]) or PROJECT_RE.search(ex["request_body"])
        case = run.projects.get(m.group(1)) if m else None
        case = case or current or "unattributed"
        current = case
        ex = dict(ex)
        by_case.setdefault(case, []).append(ex)
    os.makedirs(out_dir, exist_ok=True)
    for case, exchanges in by_case.items():
        t0 = min(ex["seq"] for ex in exchanges)
        w0 = min(ex["wall"] for ex in exchanges)
        for ex in exchanges:
            ex["seq"] -= t0 - 1
            # Seconds since the case's first exchange began; chunk times count from this.
            ex["start"] = round(ex.pop("wall") - w0, 3)
        with open(os.path.join(out_dir, case + ".json"), "w") as f:
            transcript = {"case": case, "transport": run.args.transport, "exchanges": exchanges}
            rules = {p: text for p, text in run.rules.items() if run.projects.get(p) == case}
            if rules:
                transcript["rules"] = rules  # Not seen by the proxy: PUT straight to the port.
            json.dump(transcript, f, indent=1, ensure_ascii=False)
            f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--firestore", required=True, help="HOST:PORT of the Firestore emulator")
    ap.add_argument("--auth")
    ap.add_argument("--functions")
    ap.add_argument("--project", default="demo-hearth",
                    help="the project the Auth/Functions emulators serve (auth, callable cases)")
    ap.add_argument("--transport", default="default", choices=TRANSPORTS)
    ap.add_argument("--record", metavar="DIR")
    ap.add_argument("--only", help="run only the case of this name")
    ap.add_argument("--timeout", type=float, default=600, help="seconds for the whole page run")
    ap.add_argument("--verbose", action="store_true", help="print the page's log lines")
    args = ap.parse_args()

    sdk = sdk_root()
    chromium = find_chromium()
    if sdk is None:
        print(SKIP_MESSAGE)
        return 0
    if chromium is None:
        print("skip: chromium not found (install with: apt-get install -y chromium)")
        return 0

    proxy = None
    page_firestore = args.firestore
    if args.record:
        host, port = args.firestore.rsplit(":", 1)
        proxy = RecordingProxy((host, int(port)))
        proxy.start()
        page_firestore = "127.0.0.1:%d" % proxy.port
    run = Run(args, args.firestore, page_firestore)
    static = make_static_server(run, sdk)
    threading.Thread(target=static.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/" % static.server_address[1]

    profile = tempfile.mkdtemp(prefix="hearth-browser-")
    cmd = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--disable-background-networking", "--disable-extensions", "--disable-sync",
           "--disable-dev-shm-usage", "--no-proxy-server", "--user-data-dir=" + profile,
           "--remote-debugging-port=0", url]
    browser = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        finished = run.done.wait(args.timeout)
    finally:
        try:
            os.killpg(browser.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            browser.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(browser.pid, signal.SIGKILL)
        shutil.rmtree(profile, ignore_errors=True)
        static.shutdown()
    if proxy:
        time.sleep(0.5)
        write_transcripts(run, proxy, os.path.join(args.record, args.transport))
        proxy.stop()

    passed = sum(r["verdict"] == "pass" for r in run.results)
    failed = sum(r["verdict"] == "fail" for r in run.results)
    skipped = sum(r["verdict"] == "skip" for r in run.results)
    if not finished:
        print("  FAIL page did not finish within %gs" % args.timeout)
        failed += 1
    if not run.results and finished is not False:
        print("  FAIL no case ran (check --only)")
        failed += 1
    extra = ", %d skipped" % skipped if skipped else ""
    print("browser: %d passed, %d failed%s (transport %s)" % (passed, failed, extra, args.transport))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
