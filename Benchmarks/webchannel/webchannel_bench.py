"""The `webchannel` section's client (issue 22 item 6): WebChannel, the Firebase JS SDK's
browser transport, on one server's Firestore port. Prints one JSON object on stdout.

  browser  — the published JS SDK in headless Chromium (driven through chromedriver's W3C
             WebDriver HTTP API): one page, a listener on a document in one Firestore
             instance and N sequential setDoc() calls from a second instance, each timed
             with performance.now() from the call to the listener callback that sees the
             value; once with the default transport, once with experimentalForceLongPolling,
             after an unmeasured cold page (only its first snapshot is kept).
  sessions — K WebChannel Listen sessions opened one after another with
             Tests/Interop/webchannel_client.py (one document target each, a streamed back
             channel kept open), the server's VmRSS before, with every session open and
             11 s after terminating them all.

Only the standard library; see Benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import http.client
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Interop"))
from webchannel_client import WebChannel  # noqa: E402

SDK_VERSION = "10.11.1"
GSTATIC = f"https://www.gstatic.com/firebasejs/{SDK_VERSION}"

PAGE = """<!doctype html>
<meta charset="utf-8">
<title>hearth-bench webchannel</title>
<script type="importmap">
{"imports": {
  "%(gstatic)s/firebase-app.js": "/sdk/firebase-app.js",
  "%(gstatic)s/firebase-firestore.js": "/sdk/firebase-firestore.js"
}}
</script>
<script type="module">
import { initializeApp } from "%(gstatic)s/firebase-app.js";
import {
  initializeFirestore, connectFirestoreEmulator, doc, setDoc, onSnapshot, terminate
} from "%(gstatic)s/firebase-firestore.js";

const logged = [];
for (const level of ["error", "warn"]) {
  const original = console[level];
  console[level] = (...args) => { logged.push(level + ": " + args.join(" ").slice(0, 300)); original(...args); };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1)];
}

window.runBench = async ({ host, port, project, path, writes, warmups, longPolling, timeoutMs }) => {
  const config = { projectId: project, apiKey: "bench", appId: "bench" };
  const settings = longPolling ? { experimentalForceLongPolling: true } : {};
  const instances = ["reader", "writer"].map((name) => {
    const db = initializeFirestore(initializeApp(config, name + "-" + path), settings);
    connectFirestoreEmulator(db, host, port);
    return db;
  });
  const [reader, writer] = instances;
  let waiting = null;  // { value, resolve }
  let snapshots = 0;
  let listening;
  const first = new Promise((resolve) => { listening = resolve; });
  const opened = performance.now();
  const unsubscribe = onSnapshot(doc(reader, path), (snap) => {
    snapshots += 1;
    listening(performance.now());
    const n = snap.data()?.n;
    if (waiting && n === waiting.value) { const w = waiting; waiting = null; w.resolve(performance.now()); }
  }, (error) => logged.push("listener error: " + error));
  const samples = [];
  const problems = [];
  const firstSnapshotMs = await Promise.race([first, new Promise((r) => setTimeout(() => r(null), 20000))]);
  if (firstSnapshotMs === null) problems.push("no first snapshot within 20 s");
  const began = performance.now();
  const base = Date.now() * 1000;  // values new to the run: a write that changes nothing raises no snapshot
  for (let i = 0; i < warmups + writes; i++) {
    const value = base + i;
    const seen = new Promise((resolve) => { waiting = { value, resolve }; });
    const start = performance.now();
    const written = setDoc(doc(writer, path), { n: value });
    const bound = i < warmups ? 4 * timeoutMs : timeoutMs;
    const timeout = new Promise((resolve) => setTimeout(() => resolve(null), bound));
    const at = await Promise.race([seen, timeout]);
    await Promise.race([written, timeout]);
    if (at === null) {
      problems.push("write " + i + ": no snapshot within " + bound + " ms");
      waiting = null;
      continue;
    }
    if (i >= warmups) samples.push(at - start);
  }
  const wallMs = performance.now() - began;
  unsubscribe();
  await Promise.all(instances.map((db) => terminate(db)));
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    samples: samples.length, samplesWanted: writes, wallMs, snapshots,
    firstSnapshotMs: firstSnapshotMs === null ? null : firstSnapshotMs - opened,
    p50Ms: sorted.length ? percentile(sorted, 50) : null,
    p99Ms: sorted.length ? percentile(sorted, 99) : null,
    maxMs: sorted.length ? sorted[sorted.length - 1] : null,
    minMs: sorted.length ? sorted[0] : null,
    slowest: samples.map((ms, write) => ({ write, ms })).sort((a, b) => b.ms - a.ms).slice(0, 5),
    problems: problems.slice(0, 5), problemCount: problems.length,
    console: logged.slice(0, 10), consoleCount: logged.length,
  };
};
window.benchReady = true;
</script>
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_page(sdk: str) -> tuple[http.server.ThreadingHTTPServer, int]:
    """A static server on loopback: the page at `/`, the two SDK modules under `/sdk/`."""
    page = (PAGE % {"gstatic": GSTATIC}).encode()
    files = {f"/sdk/{name}": os.path.join(sdk, name) for name in ("firebase-app.js", "firebase-firestore.js")}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            if self.path == "/":
                body, kind = page, "text/html; charset=utf-8"
            elif self.path in files:
                with open(files[self.path], "rb") as f:
                    body, kind = f.read(), "text/javascript"
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


class WebDriver:
    """The few W3C WebDriver commands the benchmark needs, over chromedriver's HTTP API."""

    def __init__(self, chromedriver: str, chromium: str, log: str):
        self.port = free_port()
        self.log = open(log, "wb")
        self.process = subprocess.Popen(
            [chromedriver, f"--port={self.port}"], stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                if self.call("GET", "/status").get("ready"):
                    break
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("chromedriver did not become ready")
            time.sleep(0.1)
        options = {"binary": chromium, "args": ["--headless=new", "--no-sandbox", "--disable-gpu"]}
        session = self.call(
            "POST", "/session", {"capabilities": {"alwaysMatch": {"goog:chromeOptions": options}}}, timeout=60
        )
        self.session = f"/session/{session['sessionId']}"

    def call(self, method: str, path: str, body=None, timeout: float = 30):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"WebDriver {method} {path}: {error.read()[:400]!r}") from None

    def run(self, url: str, script: str, args: list, timeout: float):
        self.call("POST", self.session + "/timeouts", {"script": int(timeout * 1000)})
        self.call("POST", self.session + "/url", {"url": url}, timeout=60)
        return self.call(
            "POST", self.session + "/execute/async", {"script": script, "args": args}, timeout=timeout + 30
        )

    def close(self):
        try:
            self.call("DELETE", self.session, timeout=20)
        except (OSError, RuntimeError):
            pass
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


RUN_SCRIPT = """
const done = arguments[arguments.length - 1];
const options = arguments[0];
const wait = (n) => window.benchReady ? window.runBench(options)
  : n > 200 ? Promise.reject(new Error("the page's module did not load"))
  : new Promise((r) => setTimeout(r, 50)).then(() => wait(n + 1));
wait(0).then(done, (e) => done({ error: String(e && e.stack || e) }));
"""


def browser(args) -> dict:
    server, page_port = serve_page(args.sdk)
    host, port = args.host.rsplit(":", 1)
    out = {"writes": args.writes, "warmups": args.warmups}
    driver = None
    try:
        driver = WebDriver(args.chromedriver, args.chromium, args.driver_log)
        # A cold page first (the browser's first SDK load, the server's first Listen), whose only
        # figure kept is its first snapshot; then a fresh page per measured transport.
        for key, long_polling, writes in (
            ("cold", False, 0), ("default", False, args.writes), ("longPolling", True, args.writes)
        ):
            options = {
                "host": host, "port": int(port), "project": args.project, "path": f"wcbench/latency-{key}",
                "writes": writes, "warmups": args.warmups, "longPolling": long_polling, "timeoutMs": 5000,
            }
            try:
                out[key] = driver.run(f"http://127.0.0.1:{page_port}/", RUN_SCRIPT, [options], args.timeout)
            except (OSError, RuntimeError) as error:
                out[key] = {"error": str(error)[:400]}
            print(f"webchannel: {args.label}, {key}: {json.dumps(out[key])[:300]}", file=sys.stderr, flush=True)
    except (OSError, RuntimeError) as error:
        out["error"] = str(error)[:400]
    finally:
        if driver is not None:
            driver.close()
        server.shutdown()
    return out


def rss_kib(pid: int | None) -> int | None:
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def listen_sessions(stats_url: str | None) -> int | None:
    if not stats_url:
        return None
    try:
        with urllib.request.urlopen(stats_url, timeout=5) as response:
            return json.loads(response.read()).get("listenSessions")
    except (OSError, ValueError):
        return None


def is_current(payload) -> bool:
    return payload != ["noop"] and payload[0].get("targetChange", {}).get("targetChangeType") == "CURRENT"


def open_session(host: str, project: str, i: int):
    """Opens session `i` with one document target and its streamed back channel; returns
    (channel, connection, reached CURRENT) with the back channel left open."""
    database = f"projects/{project}/databases/(default)"
    target = {"documents": {"documents": [f"{database}/documents/wcsessions/d{i}"]}, "targetId": 2}
    channel = WebChannel(host, project, "Listen")
    channel.open([{"database": database, "addTarget": target}])
    status, reader, connection = channel.back_channel(aid=0, timeout=20)
    if status != 200:
        connection.close()
        raise RuntimeError(f"back channel HTTP {status}: {str(reader)[:200]}")
    for _, payload in reader.arrays():
        if is_current(payload):
            return channel, connection, True
    return channel, connection, False


def sessions(args) -> dict:
    out = {"sessions": args.sessions, "parallel": args.parallel, "idleKiB": rss_kib(args.pid)}
    opened = []  # (channel, connection)
    current = 0
    errors = 0
    first_error = None
    began = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.parallel) as pool:
        futures = [pool.submit(open_session, args.host, args.project, i) for i in range(args.sessions)]
        done, late = concurrent.futures.wait(futures, timeout=args.timeout)
        for future in late:
            future.cancel()
        for i, future in enumerate(futures):
            if future.cancelled():
                continue
            try:
                channel, connection, reached = future.result()
            except (OSError, RuntimeError, AssertionError, ValueError, http.client.HTTPException) as error:
                errors += 1
                first_error = first_error or f"session {i}: {type(error).__name__}: {str(error)[:200]}"
                continue
            opened.append((channel, connection))
            current += reached
        if late:
            first_error = first_error or f"{len(late)} sessions not open after {args.timeout:.0f} s"
    out["openMs"] = (time.monotonic() - began) * 1000
    out["opened"] = len(opened)
    out["current"] = current
    time.sleep(2)
    out["openKiB"] = rss_kib(args.pid)
    out["sessionsOpen"] = listen_sessions(args.stats_url)

    def close(pair) -> bool:
        channel, connection = pair
        connection.close()
        try:
            return channel.terminate() == 200
        except (OSError, http.client.HTTPException):
            return False

    with concurrent.futures.ThreadPoolExecutor(args.parallel) as pool:
        out["terminated"] = sum(pool.map(close, opened))
    time.sleep(11)  # past Hearth's periodic malloc_trim (every 10 s)
    out["closedKiB"] = rss_kib(args.pid)
    out["sessionsAfterClose"] = listen_sessions(args.stats_url)
    out["errors"] = errors
    out["firstError"] = first_error
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["browser", "sessions"])
    parser.add_argument("--host", required=True, help="127.0.0.1:<port> of the Firestore port")
    parser.add_argument("--project", default="bench")
    parser.add_argument("--label", default="server")
    parser.add_argument("--sdk", help="directory holding firebase-app.js and firebase-firestore.js")
    parser.add_argument("--chromium", default=shutil.which("chromium"))
    parser.add_argument("--chromedriver", default=shutil.which("chromedriver"))
    parser.add_argument("--driver-log", default=os.devnull)
    parser.add_argument("--writes", type=int, default=200)
    parser.add_argument("--warmups", type=int, default=10)
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--parallel", type=int, default=32, help="sessions being opened at once")
    parser.add_argument("--pid", type=int)
    parser.add_argument("--stats-url")
    parser.add_argument("--timeout", type=float, default=120, help="bound on one browser run or on opening")
    args = parser.parse_args()
    result = browser(args) if args.mode == "browser" else sessions(args)
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
