"""A full disk (issue 18 item 3): writes fail with RESOURCE_EXHAUSTED and one clear log line,
reads go on, and writes resume when there is room again. (A read-only data file answers
UNAVAILABLE the same way; as root it cannot be made here: the file system will not remount
read-only while Hearth holds the file open, and root ignores file modes.) The data file lives on a small tmpfs this test mounts (root only: skipped with
one line where mounting is not allowed)."""

import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HEARTH = REPO / ".build" / "debug" / "hearth"


def request(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    r = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                               headers={"Authorization": "Bearer owner", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(r, timeout=30) as x:
            return x.status, json.loads(x.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


@pytest.fixture
def small_disk():
    mount = Path(tempfile.mkdtemp(prefix="hearth-tmpfs-"))
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        mount.rmdir()
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.decode().strip() or 'not root'}): disk-full test skipped")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)
        mount.rmdir()


def test_a_full_disk_refuses_writes_keeps_reads_and_recovers(small_disk, tmp_path):
    (tmp_path / "firebase.json").write_text('{"firestore": {}}')
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log_path = tmp_path / "hearth.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [str(HEARTH), "start", "--config", str(tmp_path / "firebase.json"), "--data", str(small_disk / "d.sqlite"),
             "--quiet", "--project", "p", "--firestore-port", str(port), "--functions-port", "0", "--auth-port", "0",
             "--hub-port", "0", "--ui-port", "0"], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while "hearth: ready" not in log_path.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        docs = "/v1/projects/p/databases/(default)/documents"
        assert request(port, "PATCH", f"{docs}/c/first", {"fields": {"n": {"integerValue": "1"}}})[0] == 200
        filler = small_disk / "filler"
        filler.write_bytes(b"\0" * (2000 << 10))
        status, body = 200, {}
        for i in range(300):
            status, body = request(port, "PATCH", f"{docs}/c/d{i}", {"fields": {"s": {"stringValue": "x" * 20000}}})
            if status != 200:
                break
        assert status == 429 and body["error"]["status"] == "RESOURCE_EXHAUSTED", body
        assert "disk is full" in body["error"]["message"]
        assert request(port, "GET", f"{docs}/c/first")[0] == 200  # reads go on
        filler.unlink()
        assert request(port, "PATCH", f"{docs}/c/after", {"fields": {}})[0] == 200  # room again: writes resume
        text = log_path.read_text()
        assert text.count("hearth: storage: writes fail:") == 1, text  # once per episode, not per request
        assert text.count("hearth: storage: writes succeed again") == 1, text
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
