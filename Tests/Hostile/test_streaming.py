"""A RunQuery far larger than memory should hold, read by a slow client (issue 14 item 4).

gRPC RunQuery is answered page by page from one snapshot: a page is read, encoded and sent
(as HTTP/2 flow control allows) before the next is read, so the server's memory stays flat
however large the answer and however slowly it is read. Facts: docs/reference/grpc-and-listen.md
§2 (flow control).
"""

from __future__ import annotations

import os
import threading
import time

import pytest

from hostile_support import DOCS, PROJECT

grpc = pytest.importorskip("grpc")
firestore = pytest.importorskip("google.cloud.firestore")
from google.auth.credentials import AnonymousCredentials  # noqa: E402

DOCUMENTS = 40_000
PAYLOAD = "x" * 1_400  # about 1.5 KB per document: a 60 MB answer


def seed(h, collection: str, n: int) -> None:
    for start in range(0, n, 500):
        writes = [{"update": {"name": f"{DOCS}/{collection}/d{i:06d}",
                              "fields": {"i": {"integerValue": str(i)}, "p": {"stringValue": PAYLOAD}}}}
                  for i in range(start, min(start + 500, n))]
        r = h.request("POST", f"/v1/{DOCS}:commit", {"writes": writes}, headers={"Authorization": "Bearer owner"},
                      timeout=120)
        assert r.status == 200, r


def anon_kib(h) -> int:
    """Anonymous resident memory (the heap; RSS also counts the database file's mapped pages)."""
    for line in open(f"/proc/{h.pid}/status"):
        if line.startswith("RssAnon:"):
            return int(line.split()[1])
    raise RuntimeError("no RssAnon")


def client(h):
    os.environ["FIRESTORE_EMULATOR_HOST"] = f"127.0.0.1:{h.port}"
    return firestore.Client(project=PROJECT, credentials=AnonymousCredentials())


def test_a_slow_reader_of_a_60_mb_answer_keeps_memory_flat(durable):
    seed(durable, "big", DOCUMENTS)
    db = client(durable)
    base = anon_kib(durable)
    peak = base
    stop = threading.Event()

    def sample():
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, anon_kib(durable))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    seen = 0
    last = -1
    try:
        for snap in db.collection("big").stream():
            i = snap.get("i")
            assert i == last + 1, (i, last)
            last = i
            seen += 1
            if seen % 2_000 == 0:
                time.sleep(0.25)  # a slow reader: the server must wait, not buffer
    finally:
        stop.set()
        sampler.join()
    assert seen == DOCUMENTS
    grew_mib = (peak - base) / 1024
    # Buffered whole, the answer's documents and messages alone are well over 100 MiB.
    assert grew_mib < 40, f"server anonymous RSS grew {grew_mib:.0f} MiB while streaming a 60 MB answer"


def test_an_answer_in_pages_is_the_answer_in_one_piece(durable):
    seed(durable, "pages", 2_345)
    db = client(durable)
    q = db.collection("pages").order_by("i", direction=firestore.Query.DESCENDING).offset(17).limit(2_100)
    got = [s.get("i") for s in q.stream()]
    assert got == list(range(2_344 - 17, 2_344 - 17 - 2_100, -1))
    # The same query over REST, answered whole.
    r = durable.request("POST", f"/v1/{DOCS}:runQuery", {"structuredQuery": {
        "from": [{"collectionId": "pages"}], "orderBy": [{"field": {"fieldPath": "i"}, "direction": "DESCENDING"}],
        "offset": 17, "limit": 2_100}}, headers={"Authorization": "Bearer owner"}, timeout=60)
    assert r.status == 200
    rest = [int(e["document"]["fields"]["i"]["integerValue"]) for e in r.json() if "document" in e]
    assert rest == got
    assert r.json()[0].get("skippedResults") == 17
