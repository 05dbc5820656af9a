"""Durability: every write acknowledged with 200 survives `kill -9` (engineering rule;
`hearth start --data <sqlite file>`). Commits race the kill from several threads, so the
kill lands mid-traffic; only acknowledged writes are required afterwards.
"""

from __future__ import annotations

import threading
import time

import pytest

from hostile_support import DB, DOCS, Hearth, doc_path

COMMIT = f"/v1/{DB}/documents:commit"


def get_status(h: Hearth, *segments: str) -> int:
    return h.request("GET", doc_path(*segments)).status


def test_sequential_acknowledged_writes_survive_kill9(durable):
    n = 300
    for i in range(n):
        r = durable.request("PATCH", doc_path("durable", f"d{i:04d}"), {"fields": {"i": {"integerValue": str(i)}}})
        assert r.status == 200, r
    durable.kill9()  # right after the last 200
    durable.start()
    missing = [i for i in range(n) if get_status(durable, "durable", f"d{i:04d}") != 200]
    assert not missing, f"{len(missing)} acknowledged documents lost, e.g. {missing[:10]}"
    r = durable.request("GET", f"/v1/{DOCS}/durable?pageSize=1000").json()
    assert len(r["documents"]) == n


def test_acknowledged_writes_survive_kill9_mid_traffic(durable):
    acked: list[list[str]] = [[] for _ in range(6)]
    deleted: list[list[str]] = [[] for _ in range(6)]
    increments = [0] * 6
    in_flight_deletes: set[str] = set()  # sent, not acknowledged: either outcome is allowed
    stop = threading.Event()

    def worker(t: int):
        i = 0
        while not stop.is_set():
            name = f"t{t}-{i:05d}"
            try:
                if i % 10 == 9:  # delete an acknowledged doc
                    victim = acked[t][-1] if acked[t] else None
                    if victim:
                        in_flight_deletes.add(victim)
                        r = durable.request("DELETE", doc_path("race", victim), timeout=5)
                        if r.status == 200:
                            deleted[t].append(victim)
                        in_flight_deletes.discard(victim)
                elif i % 10 == 8:  # transform on a shared counter
                    r = durable.request("POST", COMMIT, {"writes": [{"transform": {
                        "document": f"{DOCS}/counter/c", "fieldTransforms": [
                            {"fieldPath": "n", "increment": {"integerValue": "1"}}]}}]}, timeout=5)
                    if r.status == 200:
                        increments[t] += 1
                else:
                    r = durable.request("POST", COMMIT, {"writes": [
                        {"update": {"name": f"{DOCS}/race/{name}", "fields": {"t": {"integerValue": str(t)}}}},
                        {"update": {"name": f"{DOCS}/race/{name}-twin", "fields": {}}}]}, timeout=5)
                    if r.status == 200:
                        acked[t].append(name)
            except OSError:
                return  # the server is gone
            i += 1

    ts = [threading.Thread(target=worker, args=(t,)) for t in range(6)]
    for t in ts:
        t.start()
    time.sleep(2.0)
    durable.kill9()
    stop.set()
    for t in ts:
        t.join(10)
    durable.start()
    gone = {d for ds in deleted for d in ds}
    lost = []
    for names in acked:
        for name in names:
            if name in in_flight_deletes:
                continue
            want = 404 if name in gone else 200
            if get_status(durable, "race", name) != want:
                lost.append(name)
            elif name not in gone and get_status(durable, "race", f"{name}-twin") != 200:
                lost.append(name + "-twin")  # half a commit survived: atomicity broken
    total = sum(len(a) for a in acked)
    assert total > 50, f"only {total} commits acknowledged before the kill"
    assert not lost, f"{len(lost)} of {total} acknowledged commits lost or half-applied: {lost[:10]}"
    r = durable.request("GET", doc_path("counter", "c"))
    n = int(r.json()["fields"]["n"]["integerValue"]) if r.status == 200 else 0
    # Each acknowledged increment is there; at most the in-flight ones (one per thread) more.
    assert sum(increments) <= n <= sum(increments) + 6, (n, sum(increments))


def test_big_acknowledged_batch_survives_kill9(durable):
    writes = [{"update": {"name": f"{DOCS}/bulk/d{i:05d}", "fields": {"s": {"stringValue": "x" * 200}}}}
              for i in range(5_000)]
    r = durable.request("POST", COMMIT, {"writes": writes}, timeout=60)
    assert r.status == 200, r
    durable.kill9()
    durable.start()
    r = durable.request("POST", f"/v1/{DOCS}:runAggregationQuery", {"structuredAggregationQuery": {
        "structuredQuery": {"from": [{"collectionId": "bulk"}]}, "aggregations": [{"alias": "n", "count": {}}]}})
    assert r.status == 200, r
    assert r.json()[0]["result"]["aggregateFields"]["n"] == {"integerValue": "5000"}


def test_restart_after_kill9_keeps_serving_and_time_does_not_go_back(durable):
    r = durable.request("PATCH", doc_path("clock", "a"), {"fields": {}})
    t1 = r.json()["updateTime"]
    durable.kill9()
    durable.start()
    r = durable.request("PATCH", doc_path("clock", "b"), {"fields": {}})
    assert r.status == 200
    assert r.json()["updateTime"] > t1, "commit time went backwards across a restart"


def test_open_transactions_cannot_exhaust_file_descriptors(tmp_path):
    import shutil
    import hostile_support
    prlimit = shutil.which("prlimit")
    if prlimit is None:
        pytest.skip("prlimit not installed")
    wrapper = tmp_path / "hearth-limited"
    wrapper.write_text(f"#!/bin/sh\nexec {prlimit} --nofile=300:300 {hostile_support.hearth_binary()} \"$@\"\n")
    wrapper.chmod(0o755)
    h = Hearth(tmp_path, data=tmp_path / "hearth.sqlite")
    old = hostile_support.os.environ.get("HEARTH_BIN")
    hostile_support.os.environ["HEARTH_BIN"] = str(wrapper)
    try:
        h.start()
    finally:
        if old is None:
            del hostile_support.os.environ["HEARTH_BIN"]
        else:
            hostile_support.os.environ["HEARTH_BIN"] = old
    try:
        statuses = []
        for _ in range(200):
            r = h.request("POST", f"/v1/{DB}/documents:beginTransaction", {"options": {"readOnly": {}}})
            statuses.append(r.status)
            if r.status != 200:
                break
        assert 500 not in statuses, f"beginTransaction answered 500 after {statuses.count(200)} transactions"
        r = h.request("PATCH", doc_path("fd", "x"), {"fields": {}})
        assert r.status == 200, f"an unrelated write failed while transactions were open: {r!r}"
    finally:
        h.stop()
