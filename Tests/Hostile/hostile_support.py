"""Shared helpers for the hostile suite: a Hearth process, raw sockets, REST calls.

Everything here uses the standard library only. Hearth is the binary named by the
HEARTH_BIN environment variable, else `.build/debug/hearth` in the repository.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROJECT = "demo-attack"
DB = f"projects/{PROJECT}/databases/(default)"
DOCS = f"{DB}/documents"
# Google API error status names by HTTP status (docs/reference/firestore-wire.md §1.8).
STATUS_BY_HTTP = {
    400: {"INVALID_ARGUMENT", "FAILED_PRECONDITION", "OUT_OF_RANGE"},
    401: {"UNAUTHENTICATED"},
    403: {"PERMISSION_DENIED"},
    404: {"NOT_FOUND"},
    409: {"ALREADY_EXISTS", "ABORTED"},
    413: {"RESOURCE_EXHAUSTED", "INVALID_ARGUMENT"},
    429: {"RESOURCE_EXHAUSTED"},
    501: {"UNIMPLEMENTED"},
}


def hearth_binary() -> str:
    return os.environ.get("HEARTH_BIN") or str(REPO / ".build" / "debug" / "hearth")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Hearth:
    """One `hearth start` process on a free loopback port."""

    def __init__(self, workdir: Path, rules: str | None = None, data: Path | None = None,
                 extra_args: list[str] | None = None):
        self.workdir = Path(workdir)
        self.extra_args = list(extra_args or [])
        self.rules = rules
        self.data = data
        self.port = 0
        self.proc: subprocess.Popen | None = None
        self.log_path = self.workdir / "hearth.log"
        self.starts = 0

    # -- lifecycle -------------------------------------------------------------------------
    def firebase_config(self) -> dict:
        """The `firebase.json` of the next start (on `self.port`); writes the rules file."""
        config = {"emulators": {"firestore": {"host": "127.0.0.1", "port": self.port}}}
        if self.rules is not None:
            (self.workdir / "firestore.rules").write_text(self.rules)
            config["firestore"] = {"rules": "firestore.rules"}
        return config

    def start_flags(self) -> list[str]:
        """Flags of `hearth start` besides the config, port, project and data."""
        return ["--quiet"]

    def start(self, timeout: float = 30.0) -> None:
        self.port = free_port()
        (self.workdir / "firebase.json").write_text(json.dumps(self.firebase_config()))
        args = [hearth_binary(), "start", "--config", str(self.workdir / "firebase.json"),
                "--firestore-port", str(self.port), "--project", PROJECT, *self.start_flags()]
        args += ["--data", str(self.data)] if self.data else ["--in-memory"]
        args += self.extra_args
        log = open(self.log_path, "ab")
        log.write(f"--- start #{self.starts} on port {self.port}\n".encode())
        log.flush()
        self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     cwd=self.workdir)
        log.close()
        self.starts += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"hearth exited with {self.proc.returncode} at start:\n{self.log_tail()}")
            if self.root_ok(timeout=1.0):
                return
            time.sleep(0.05)
        raise RuntimeError(f"hearth did not answer GET / within {timeout}s:\n{self.log_tail()}")

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def restart(self) -> None:
        self.stop()
        self.start()

    # -- health ----------------------------------------------------------------------------
    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def root_ok(self, timeout: float = 5.0) -> bool:
        try:
            c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            c.request("GET", "/")
            r = c.getresponse()
            body = r.read()
            c.close()
            return r.status == 200 and body.strip() == b"Ok"
        except OSError:
            return False

    def health_problem(self) -> str | None:
        """None when the process runs and answers `GET /` with `Ok` within 5 s."""
        if not self.alive():
            code = self.proc.returncode if self.proc else None
            return f"process exited (returncode {code}, signal {-code if code and code < 0 else '-'})"
        for _ in range(3):
            if self.root_ok(timeout=5.0):
                return None
            time.sleep(0.2)
        return "process alive but GET / does not answer Ok"

    def log_tail(self, n: int = 4000) -> str:
        try:
            return self.log_path.read_bytes()[-n:].decode("utf-8", "replace")
        except OSError:
            return ""

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def thread_count(self) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                return int(line.split()[1])
        raise RuntimeError("no Threads")

    def fd_count(self) -> int:
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    # -- REST ------------------------------------------------------------------------------
    def request(self, method: str, path: str, body=None, headers: dict | None = None,
                timeout: float = 15.0) -> "Reply":
        """One HTTP/1.1 request on a fresh connection. `body`: bytes, str, or a JSON-able value."""
        if body is not None and not isinstance(body, (bytes, bytearray, str)):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        h = {"Content-Type": "application/json"}
        h.update(headers or {})
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            c.request(method, path, body=body, headers=h)
            r = c.getresponse()
            return Reply(r.status, {k.lower(): v for k, v in r.getheaders()}, r.read())
        finally:
            c.close()

    def stats(self) -> dict:
        r = self.request("GET", "/emulator/v1/stats")
        assert r.status == 200, r
        return r.json()

    def clear(self) -> None:
        r = self.request("DELETE", f"/emulator/v1/projects/{PROJECT}/databases/(default)/documents")
        assert r.status == 200, r


class Reply:
    def __init__(self, status: int, headers: dict, body: bytes):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body)

    def __repr__(self) -> str:
        return f"Reply({self.status}, {self.body[:600]!r})"


def assert_firestore_error(reply: Reply, http_status: int | set, status_name: str | set | None = None) -> dict:
    """The reply is `{"error":{"code","message","status"}}` with a matching HTTP status."""
    wanted = {http_status} if isinstance(http_status, int) else set(http_status)
    assert reply.status in wanted, f"expected HTTP {sorted(wanted)}, got {reply!r}"
    try:
        doc = reply.json()
    except ValueError as e:
        raise AssertionError(f"error body is not JSON: {reply!r}") from e
    if isinstance(doc, list) and len(doc) == 1:
        doc = doc[0]  # streaming REST methods may wrap the error in an array (docs/reference/firestore-wire.md §1.8)
    assert isinstance(doc, dict) and isinstance(doc.get("error"), dict), f"not a Firestore error: {reply!r}"
    err = doc["error"]
    assert err.get("code") == reply.status, f"error.code {err.get('code')} != HTTP {reply.status}: {reply!r}"
    assert isinstance(err.get("message"), str) and err["message"], f"empty message: {reply!r}"
    names = STATUS_BY_HTTP.get(reply.status, set())
    assert err.get("status") in names, f"status {err.get('status')} does not fit HTTP {reply.status}: {reply!r}"
    if status_name is not None:
        allowed = {status_name} if isinstance(status_name, str) else set(status_name)
        assert err["status"] in allowed, f"expected {sorted(allowed)}, got {reply!r}"
    return err


# -- raw sockets -----------------------------------------------------------------------------

def connect(port: int, timeout: float = 5.0) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def recv_until_close(s: socket.socket, timeout: float = 5.0, limit: int = 1 << 24) -> tuple[bytes, bool]:
    """Reads until EOF/reset or `timeout`; returns (bytes, closed_by_peer)."""
    s.settimeout(0.25)
    buf = bytearray()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and len(buf) < limit:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return bytes(buf), True
        if not chunk:
            return bytes(buf), True
        buf += chunk
    return bytes(buf), False


def raw_exchange(port: int, data: bytes, timeout: float = 5.0) -> tuple[bytes, bool]:
    """Sends `data` on a fresh connection and reads until the server closes or `timeout`."""
    s = connect(port)
    try:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        return recv_until_close(s, timeout)
    finally:
        s.close()


def parse_responses(buf: bytes) -> list[tuple[int, dict, bytes]]:
    """Splits complete HTTP/1.1 responses (Content-Length or chunked framing) from a byte
    stream; an incomplete trailing response is left out."""
    out = []
    i = 0
    while i < len(buf):
        end = buf.find(b"\r\n\r\n", i)
        if end < 0:
            break
        head = buf[i:end].decode("latin-1").split("\r\n")
        parts = head[0].split(" ", 2)
        status = int(parts[1])
        headers = {}
        for line in head[1:]:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        j = end + 4
        if 100 <= status < 200:
            i = j
            continue
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = bytearray()
            while True:
                le = buf.find(b"\r\n", j)
                if le < 0:
                    return out
                size = int(buf[j:le].split(b";")[0], 16)
                j = le + 2
                if size == 0:
                    te = buf.find(b"\r\n\r\n", j - 2)
                    if te < 0:
                        return out
                    j = te + 4
                    break
                if j + size + 2 > len(buf):
                    return out
                body += buf[j:j + size]
                j += size + 2
            out.append((status, headers, bytes(body)))
        else:
            n = int(headers.get("content-length", "0"))
            if j + n > len(buf):
                return out
            out.append((status, headers, buf[j:j + n]))
            j += n
        i = j
    return out


def first_response(port: int, data: bytes, timeout: float = 5.0, close_wait: float = 2.0):
    """Sends raw bytes on a fresh connection; returns (status, headers, body, closed) of the
    first complete response, then waits up to `close_wait` s to see whether the server closes."""
    s = connect(port)
    try:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        s.settimeout(0.2)
        buf = bytearray()
        closed = False
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if parse_responses(bytes(buf)):
                break
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                continue
            except (ConnectionResetError, BrokenPipeError):
                closed = True
                break
            if not chunk:
                closed = True
                break
            buf += chunk
        rs = parse_responses(bytes(buf))
        assert rs, f"no response within {timeout}s to {data[:120]!r} (closed={closed}, got {bytes(buf[:200])!r})"
        if not closed:
            rest, closed = recv_until_close(s, close_wait)
        status, headers, body = rs[0]
        return status, headers, body, closed
    finally:
        s.close()


def doc_path(*segments: str) -> str:
    return "/v1/" + DOCS + "/" + "/".join(segments)


def run_threads(target, n, timeout=60):
    """Runs `target(i, barrier)` on `n` threads started together behind one barrier; fails on a
    hung thread or on any thread's exception."""
    errors: list[str] = []
    barrier = threading.Barrier(n)

    def wrapped(i):
        try:
            target(i, barrier)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(f"thread {i}: {e!r}")

    ts = [threading.Thread(target=wrapped, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(timeout)
    assert not any(t.is_alive() for t in ts), "a thread hung"
    assert not errors, errors[:5]
