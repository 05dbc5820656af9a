"""Re-records Tests/WebClients/transcripts/ from the official Cloud Firestore emulator.

usage: record_transcripts.py [--firestore HOST:PORT] [--port 8181]

With --firestore it records against that running emulator; otherwise it starts the emulator of
the Google Cloud SDK (`gcloud` on PATH, component cloud-firestore-emulator) on 127.0.0.1:PORT,
and stops it afterwards. Every transport (default, long-polling, auto-detect, lite) is run with
run_browser.py --record; the old transcripts are replaced. Exit 1 when a case fails.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "transcripts")
TRANSPORTS = ("default", "long-polling", "auto-detect", "lite")


def emulator_binary():
    gcloud = shutil.which("gcloud")
    if not gcloud:
        return None
    root = subprocess.run([gcloud, "info", "--format=value(installation.sdk_root)"],
                          capture_output=True, text=True).stdout.strip()
    path = os.path.join(root, "platform", "cloud-firestore-emulator", "cloud_firestore_emulator")
    return path if os.access(path, os.X_OK) else None


def wait_up(target, seconds=60):
    end = time.time() + seconds
    while time.time() < end:
        try:
            with urllib.request.urlopen("http://%s/" % target, timeout=2):
                return True
        except OSError:
            time.sleep(0.5)
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--firestore", help="HOST:PORT of a running official emulator")
    ap.add_argument("--port", type=int, default=8181)
    args = ap.parse_args()
    emulator = None
    target = args.firestore
    if not target:
        binary = emulator_binary()
        if not binary:
            print("skip: the Cloud Firestore emulator was not found (gcloud components install "
                  "cloud-firestore-emulator)")
            return 0
        target = "127.0.0.1:%d" % args.port
        emulator = subprocess.Popen([binary, "start", "--host=127.0.0.1", "--port=%d" % args.port],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    start_new_session=True)
    try:
        if not wait_up(target):
            print("emulator at %s did not come up" % target)
            return 1
        shutil.rmtree(OUT, ignore_errors=True)
        status = 0
        for transport in TRANSPORTS:
            rc = subprocess.call([sys.executable, os.path.join(HERE, "run_browser.py"),
                                  "--firestore", target, "--transport", transport, "--record", OUT])
            status = status or rc
        return status
    finally:
        if emulator:
            os.killpg(emulator.pid, signal.SIGTERM)
            emulator.wait(30)


if __name__ == "__main__":
    sys.exit(main())
