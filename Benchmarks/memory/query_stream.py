"""Streams one RunQuery over gRPC with google-cloud-firestore, reading slowly, and prints
`{"documents": n, "seconds": t}`: the memory section's gRPC RunQuery (issue 14 item 4).

Usage: query_stream.py --host 127.0.0.1:8080 --project bench --collection items --limit 200000
       [--pause-every 20000 --pause 0.2]
"""

import argparse
import json
import os
import time

from google.auth.credentials import AnonymousCredentials
from google.cloud import firestore


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", required=True)
    ap.add_argument("--project", required=True)
    ap.add_argument("--collection", required=True)
    ap.add_argument("--limit", type=int, required=True)
    ap.add_argument("--pause-every", type=int, default=20_000)
    ap.add_argument("--pause", type=float, default=0.2)
    args = ap.parse_args()
    os.environ["FIRESTORE_EMULATOR_HOST"] = args.host
    db = firestore.Client(project=args.project, credentials=AnonymousCredentials())
    started = time.monotonic()
    n = 0
    for _ in db.collection(args.collection).limit(args.limit).stream():
        n += 1
        if args.pause_every and n % args.pause_every == 0:
            time.sleep(args.pause)  # a reader slower than the server
    print(json.dumps({"documents": n, "seconds": time.monotonic() - started}))


if __name__ == "__main__":
    main()
