"""A stop signal is never lost (issue 23 item 5).

Starts `hearth start --in-memory` 500 times, 8 at a time, every port 0, and sends SIGTERM or
SIGINT at a random moment: 60 % after a random delay of 0-300 ms from the spawn (before,
during or after start-up), 40 % the instant the "hearth: ready" line is read. Every process
must exit within 2 s of the signal.

Expected status: 0, a clean stop (Hearth takes the signal on its signal thread, stops what it
started and returns 0). A signal that lands before Hearth's `main` has run (while the dynamic
loader is still at work) meets the kernel's default action and the process dies by it
(return code -N); that is a stop too, counted and allowed, but never after "ready". A lost signal is a process still
running 2 s after it.

Environment: HEARTH_STOP_STARTS (default 500), HEARTH_STOP_PARALLEL (default 8).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile_support import hearth_binary  # noqa: E402

STARTS = int(os.environ.get("HEARTH_STOP_STARTS", "500"))
PARALLEL = int(os.environ.get("HEARTH_STOP_PARALLEL", "8"))
STOP_WITHIN = 2.0


def one_start(config: Path, seed: int) -> dict:
    rng = random.Random(seed)
    sig = rng.choice([signal.SIGTERM, signal.SIGINT])
    on_ready = rng.random() < 0.4
    delay = rng.uniform(0.0, 0.3)
    args = [hearth_binary(), "start", "--config", str(config), "--in-memory", "--quiet",
            "--firestore-port", "0", "--hub-port", "0", "--project", "demo-stop"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    output = b""
    saw_ready = False
    if on_ready:
        for line in proc.stdout:
            output += line
            if b"hearth: ready" in line:
                saw_ready = True
                break
    else:
        time.sleep(delay)
    sent = time.monotonic()
    proc.send_signal(sig)
    try:
        rest, _ = proc.communicate(timeout=STOP_WITHIN)
        output += rest or b""
        took = time.monotonic() - sent
        lost = False
    except subprocess.TimeoutExpired:
        lost = True
        took = STOP_WITHIN
        proc.kill()
        rest, _ = proc.communicate()
        output += rest or b""
    return {"seed": seed, "signal": int(sig), "on_ready": on_ready, "delay": delay, "saw_ready": saw_ready,
            "lost": lost, "status": proc.returncode, "took": took, "output": output.decode(errors="replace")}


def test_stop_signal_is_never_lost(tmp_path):
    config = tmp_path / "firebase.json"
    config.write_text(json.dumps({"emulators": {"firestore": {"host": "127.0.0.1", "port": 0},
                                                "hub": {"host": "127.0.0.1", "port": 0}}}))
    base = random.randrange(1 << 30)
    started = time.monotonic()
    with ThreadPoolExecutor(PARALLEL) as pool:
        results = list(pool.map(lambda i: one_start(config, base + i), range(STARTS)))
    elapsed = time.monotonic() - started
    lost = [r for r in results if r["lost"]]
    clean = [r for r in results if not r["lost"] and r["status"] == 0]
    by_default = [r for r in results if not r["lost"] and r["status"] == -r["signal"]]
    other = [r for r in results if not r["lost"] and r not in clean and r not in by_default]
    slowest = max(r["took"] for r in results)
    print(f"\n{STARTS} starts, {PARALLEL} at a time, {elapsed:.1f} s: {len(clean)} clean (0), "
          f"{len(by_default)} died by the signal before main, {len(lost)} lost, {len(other)} other; "
          f"{sum(r['on_ready'] for r in results)} sent on 'ready'; slowest stop {slowest:.2f} s")
    def describe(r):
        return (f"seed {r['seed']} signal {r['signal']} on_ready {r['on_ready']} delay {r['delay']:.3f} "
                f"status {r['status']}:\n{r['output'][-1500:]}")
    assert not lost, f"{len(lost)} of {STARTS} signals lost, e.g. " + describe(lost[0])
    late = [r for r in by_default if r["saw_ready"]]
    assert not late, f"{len(late)} died by the signal after 'ready', e.g. " + describe(late[0])
    assert not other, f"{len(other)} unexpected statuses, e.g. " + describe(other[0])
