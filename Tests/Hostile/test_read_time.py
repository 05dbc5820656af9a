"""Point-in-time reads (`read_time`, document version history) under attack: malformed and
out-of-window read times on every method, read times combined with transactions, exact commit
times, repeatability while writers run, thousands of versions of one document, a point-in-time
query over many archived versions beside other traffic, the cap on held read-only snapshots,
Listen resumes with hostile tokens, and version collection (`--version-retention 5s`) racing
reads, writes and `kill -9`.

The oracle for "as of T" is Hearth itself: a strong read answers with the read time T it
reflects, so a later read at `read_time = T` must return exactly the same (Firestore v1
`read_time`: "reads documents as they were at the given time"). Where behaviour is in doubt the
official emulator (cloud-firestore-emulator, gcloud SDK) was asked; its answers are quoted.
"""

from __future__ import annotations

import http.client
import json
import queue
import random
import sqlite3
import threading
import time
import urllib.parse
from datetime import datetime, timedelta, timezone

import pytest

from hostile_support import DB, DOCS, PROJECT, Hearth, assert_firestore_error, doc_path

grpc = pytest.importorskip("grpc")
firestore_types = pytest.importorskip("google.cloud.firestore_v1.types")
from google.cloud.firestore_v1.types import firestore as F  # noqa: E402
from google.cloud.firestore_v1.types import query as Q  # noqa: E402
from google.protobuf import timestamp_pb2  # noqa: E402

ADMIN = {"Authorization": "Bearer owner"}
FUTURE = "The requested 'read_time' cannot be in the future."
TOO_OLD = "The requested 'read_time' is too old."
RETENTION = 5.0  # seconds, the `short` server's --version-retention
COLLECTION_INTERVAL = 10.0  # HearthApp.versionCollectionInterval


# -- servers ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def hearth(tmp_path_factory):
    """SQLite store, default retention (1 h). Named `hearth` so conftest checks it after each test."""
    d = tmp_path_factory.mktemp("pit")
    h = Hearth(d, data=d / "pit.sqlite")
    h.start()
    yield h
    h.stop()


class ShortHearth(Hearth):
    """A Hearth with `--version-retention 5s` that remembers when it became ready (the version
    collector's first pass comes about 10 s after that)."""

    def start(self, timeout: float = 30.0) -> None:
        super().start(timeout)
        self.ready_at = time.monotonic()


@pytest.fixture(scope="module")
def short(tmp_path_factory):
    d = tmp_path_factory.mktemp("pit-short")
    h = ShortHearth(d, data=d / "short.sqlite", extra_args=["--version-retention", "5s"])
    h.start()
    yield h
    problem = h.health_problem()
    h.stop()
    assert problem is None, f"short-retention server down: {problem}\n{h.log_tail()}"


@pytest.fixture(scope="module", autouse=True)
def idle_transaction(tmp_path_factory):
    """Its own idle 5 s-retention server, set up when the module starts: a document replaced
    once and a read-only transaction at the read time before the replacement. The last test
    of the module reads in it after the collector's first pass (the wait overlaps the others)."""
    d = tmp_path_factory.mktemp("pit-idle")
    h = ShortHearth(d, data=d / "idle.sqlite", extra_args=["--version-retention", "5s"])
    h.start()
    p = name("ro", "a")
    t1 = put(h, p, v=1)
    put(h, p, v=2)
    ended = time.monotonic()
    r = h.request("POST", f"/v1/{DOCS}:beginTransaction", {"options": {"readOnly": {"readTime": t1}}})
    assert r.status == 200, r
    state = {"server": h, "t1": t1, "tx": r.json()["transaction"], "ended": ended}
    yield state
    h.stop()


# -- helpers ------------------------------------------------------------------------------------

def parse_ts(s: str) -> datetime:
    """RFC 3339 with up to 9 fractional digits, to microseconds (Hearth's precision)."""
    assert s.endswith("Z"), s
    main, _, frac = s[:-1].partition(".")
    dt = datetime.strptime(main, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc)
    return dt + timedelta(microseconds=int((frac + "000000")[:6]) if frac else 0)


def fmt_ts(dt: datetime) -> str:
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def shift(ts: str, micros: int) -> str:
    return fmt_ts(parse_ts(ts) + timedelta(microseconds=micros))


def epoch(ts: str) -> float:
    return parse_ts(ts).timestamp()


def name(*segments: str) -> str:
    return f"{DOCS}/" + "/".join(segments)


def int_field(v: int) -> dict:
    return {"integerValue": str(v)}


def commit(h: Hearth, writes: list, timeout: float = 15.0) -> str:
    r = h.request("POST", f"/v1/{DOCS}:commit", {"writes": writes}, timeout=timeout)
    assert r.status == 200, r
    return r.json()["commitTime"]


def put(h: Hearth, path: str, **fields: int) -> str:
    return commit(h, [{"update": {"name": path, "fields": {k: int_field(v) for k, v in fields.items()}}}])


def delete(h: Hearth, path: str) -> str:
    return commit(h, [{"delete": path}])


def run_query(h: Hearth, q: dict, read_time: str | None = None, parent: str = DOCS, **extra):
    body = {"structuredQuery": q, **extra}
    if read_time is not None:
        body["readTime"] = read_time
    r = h.request("POST", f"/v1/{parent}:runQuery", body)
    assert r.status == 200, r
    rows = r.json()
    docs = [(x["document"]["name"], x["document"].get("fields", {}), x["document"]["updateTime"],
             x["document"]["createTime"]) for x in rows if "document" in x]
    times = [x["readTime"] for x in rows if "readTime" in x]
    return docs, (times[-1] if times else None)


def batch_get(h: Hearth, names: list[str], read_time: str | None = None):
    body = {"documents": names}
    if read_time is not None:
        body["readTime"] = read_time
    r = h.request("POST", f"/v1/{DOCS}:batchGet", body)
    assert r.status == 200, r
    out, rt = {}, None
    for x in r.json():
        rt = x.get("readTime", rt)
        if "found" in x:
            out[x["found"]["name"]] = (x["found"].get("fields", {}), x["found"]["updateTime"])
        else:
            out[x["missing"]] = None
    return out, rt


def list_docs(h: Hearth, collection: str, read_time: str, extra: str = "") -> list:
    r = h.request("GET", f"/v1/{DOCS}/{collection}?pageSize=1000&readTime={read_time}{extra}", headers=ADMIN)
    assert r.status == 200, r
    return [(d["name"], d.get("fields", {}), d.get("updateTime")) for d in r.json().get("documents", [])]


def count_sum(h: Hearth, collection: str, read_time: str | None = None):
    body = {"structuredAggregationQuery": {
        "structuredQuery": {"from": [{"collectionId": collection}]},
        "aggregations": [{"alias": "n", "count": {}}, {"alias": "s", "sum": {"field": {"fieldPath": "v"}}}]}}
    if read_time is not None:
        body["readTime"] = read_time
    r = h.request("POST", f"/v1/{DOCS}:runAggregationQuery", body)
    assert r.status == 200, r
    row = [x for x in r.json() if "result" in x][0]
    return row["result"]["aggregateFields"], row.get("readTime")


def collection_ids(h: Hearth, read_time: str | None = None, parent: str = DOCS):
    body = {} if read_time is None else {"readTime": read_time}
    r = h.request("POST", f"/v1/{parent}:listCollectionIds", body, headers=ADMIN)
    assert r.status == 200, r
    return r.json().get("collectionIds", [])


def strong_now(h: Hearth) -> str:
    """A read time the server has issued (at or after its last commit)."""
    _, rt = run_query(h, {"from": [{"collectionId": "no-such-collection"}]})
    return rt


# -- 1. malformed and out-of-window read times ----------------------------------------------------

REST_READS = {
    "runQuery": lambda rt: ("POST", f"/v1/{DOCS}:runQuery",
                            {"structuredQuery": {"from": [{"collectionId": "c"}]}, "readTime": rt}),
    "runAggregationQuery": lambda rt: ("POST", f"/v1/{DOCS}:runAggregationQuery", {
        "structuredAggregationQuery": {"structuredQuery": {"from": [{"collectionId": "c"}]},
                                       "aggregations": [{"alias": "n", "count": {}}]}, "readTime": rt}),
    "batchGet": lambda rt: ("POST", f"/v1/{DOCS}:batchGet", {"documents": [name("c", "a")], "readTime": rt}),
    "listCollectionIds": lambda rt: ("POST", f"/v1/{DOCS}:listCollectionIds", {"readTime": rt}),
    "partitionQuery": lambda rt: ("POST", f"/v1/{DOCS}:partitionQuery", {
        "structuredQuery": {"from": [{"collectionId": "c", "allDescendants": True}]}, "partitionCount": 2,
        "readTime": rt}),
    "beginTransaction": lambda rt: ("POST", f"/v1/{DOCS}:beginTransaction", {"options": {"readOnly": {"readTime": rt}}}),
}

MALFORMED = ["yesterday", "", "2026-13-01T00:00:00Z", "2026-12-01T21:00:00", "2026-12-01T21:00:00.1000000000Z",
             "2026-12-01T25:00:00Z", "2026-12-01T21:00:00.Z", "10000-01-01T00:00:00Z", "0000-12-31T23:59:59Z",
             12345, {"seconds": 1}, ["2026-12-01T21:00:00Z"], True, "\u0000", "x" * 100_000]


@pytest.mark.parametrize("method", sorted(REST_READS))
def test_malformed_read_time_in_body_is_invalid_argument(hearth, method):
    for bad in MALFORMED:
        verb, path, body = REST_READS[method](bad)
        r = hearth.request(verb, path, body, headers=ADMIN)
        assert_firestore_error(r, 400, "INVALID_ARGUMENT")


def test_malformed_read_time_query_parameter_is_invalid_argument(hearth):
    put(hearth, name("c", "a"), v=1)
    for bad in ["yesterday", "", "2026-13-01T00:00:00Z", "2026-12-01T21:00:00", "%00", "1" * 10_000]:
        for path in (doc_path("c", "a"), f"/v1/{DOCS}/c"):
            r = hearth.request("GET", f"{path}?readTime={urllib.parse.quote(bad)}")
            assert_firestore_error(r, 400, "INVALID_ARGUMENT")


def test_out_of_window_read_times_on_every_method(hearth):
    """Future: INVALID_ARGUMENT; older than the window: FAILED_PRECONDITION (emulator 1.19.9's
    texts for beginTransaction and listCollectionIds, checked); the epoch and before (year 0001
    too): INVALID_ARGUMENT "Only timestamps past epoch are supported." as the emulator answers
    (Hearth said FAILED_PRECONDITION "too old" before)."""
    put(hearth, name("c", "a"), v=1)
    now = datetime.now(timezone.utc)
    future = [fmt_ts(now + timedelta(seconds=2)), fmt_ts(now + timedelta(days=3650)), "9999-12-31T23:59:59.999999Z"]
    old = [fmt_ts(now - timedelta(hours=2)), "1970-01-01T00:00:01Z"]
    pre_epoch = ["1970-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "0001-01-01T00:00:00Z"]
    sends = [REST_READS[m] for m in sorted(REST_READS)]
    sends += [lambda rt: ("GET", doc_path("c", "a") + f"?readTime={rt}", None),
              lambda rt: ("GET", f"/v1/{DOCS}/c?readTime={rt}", None),
              lambda rt: ("GET", f"/v1/{DOCS}/c?readTime={rt}&showMissing=true", None)]
    for send in sends:
        for rt in future:
            verb, path, body = send(rt)
            err = assert_firestore_error(hearth.request(verb, path, body, headers=ADMIN), 400, "INVALID_ARGUMENT")
            assert err["message"] == FUTURE, (path, err)
        for rt in old:
            verb, path, body = send(rt)
            err = assert_firestore_error(hearth.request(verb, path, body, headers=ADMIN), 400, "FAILED_PRECONDITION")
            assert err["message"] == TOO_OLD, (path, err)
        for rt in pre_epoch:
            verb, path, body = send(rt)
            err = assert_firestore_error(hearth.request(verb, path, body, headers=ADMIN), 400, "INVALID_ARGUMENT")
            assert err["message"] == "Only timestamps past epoch are supported.", (path, err)


def test_read_time_exactly_now_and_exactly_a_commit_time(hearth):
    """A commit at T is seen by a read at T and not at T - 1 µs; a version ended at T is seen
    at T - 1 µs and not at T. Delete and re-create under the same name."""
    p = name("exact", "d")
    t1 = put(hearth, p, v=1)
    t2 = put(hearth, p, v=2)
    t3 = delete(hearth, p)
    t4 = put(hearth, p, v=4)
    put(hearth, name("exact", "other"), v=9)
    expected = [(shift(t1, -1), None), (t1, 1), (shift(t2, -1), 1), (t2, 2), (shift(t3, -1), 2), (t3, None),
                (shift(t4, -1), None), (t4, 4)]
    q = {"from": [{"collectionId": "exact"}], "where": {"fieldFilter": {
        "field": {"fieldPath": "v"}, "op": "LESS_THAN", "value": int_field(5)}}}
    for rt, v in expected:
        got, got_rt = batch_get(hearth, [p], rt)
        # Instants, not strings: ".866Z" and ".866000Z" are one time (the JSON mapping allows 0,
        # 3, 6 or 9 fractional digits, and a commit on a whole millisecond prints 3).
        assert parse_ts(got_rt) == parse_ts(rt)
        assert (got[p] and int(got[p][0]["v"]["integerValue"])) == v, (rt, got)
        r = hearth.request("GET", doc_path("exact", "d") + f"?readTime={rt}")
        assert r.status == (404 if v is None else 200), (rt, r)
        docs, qrt = run_query(hearth, q, rt)
        assert [int(d[1]["v"]["integerValue"]) for d in docs] == ([] if v is None else [v]), (rt, docs)
        listed = [x for x in list_docs(hearth, "exact", rt) if x[0] == p]
        assert [int(x[1]["v"]["integerValue"]) for x in listed] == ([] if v is None else [v]), (rt, listed)
    # The re-created document's createTime is the re-creation, not the first creation.
    docs, _ = run_query(hearth, q, t4)
    assert docs[0][3] == t4 and docs[0][2] == t4
    docs, _ = run_query(hearth, q, t2)
    assert docs[0][3] == t1 and docs[0][2] == t2
    # Exactly now: the newest issued read time reads the latest state; 1 µs later is the future.
    now = strong_now(hearth)
    assert batch_get(hearth, [p], now)[0][p][0]["v"] == int_field(4)
    later = shift(now, 1_000_000)
    err = assert_firestore_error(hearth.request("POST", f"/v1/{DOCS}:batchGet", {"documents": [p], "readTime": later}),
                                 400, "INVALID_ARGUMENT")
    assert err["message"] == FUTURE


def test_read_time_with_transaction_in_body_is_invalid_argument(hearth):
    put(hearth, name("c", "a"), v=1)
    rt = strong_now(hearth)
    r = hearth.request("POST", f"/v1/{DOCS}:beginTransaction", {"options": {"readOnly": {}}})
    tx = r.json()["transaction"]
    q = {"structuredQuery": {"from": [{"collectionId": "c"}]}}
    agg = {"structuredAggregationQuery": {"structuredQuery": {"from": [{"collectionId": "c"}]},
                                          "aggregations": [{"alias": "n", "count": {}}]}}
    bg = {"documents": [name("c", "a")]}
    for base, path in [(q, "runQuery"), (agg, "runAggregationQuery"), (bg, "batchGet")]:
        for extra in [{"readTime": rt, "transaction": tx}, {"readTime": rt, "newTransaction": {"readOnly": {}}},
                      {"readTime": rt, "newTransaction": {}}, {"readTime": rt, "transaction": tx, "newTransaction": {}}]:
            r = hearth.request("POST", f"/v1/{DOCS}:{path}", {**base, **extra})
            assert_firestore_error(r, 400, "INVALID_ARGUMENT")
    hearth.request("POST", f"/v1/{DOCS}:rollback", {"transaction": tx})


def test_get_and_list_with_read_time_and_transaction_parameters_is_invalid_argument(hearth):
    t1 = put(hearth, name("both", "a"), v=1)
    put(hearth, name("both", "a"), v=2)
    r = hearth.request("POST", f"/v1/{DOCS}:beginTransaction", {"options": {"readOnly": {}}})
    tx = urllib.parse.quote(r.json()["transaction"])
    try:
        for path in (doc_path("both", "a"), f"/v1/{DOCS}/both"):
            r = hearth.request("GET", f"{path}?readTime={t1}&transaction={tx}")
            assert_firestore_error(r, 400, "INVALID_ARGUMENT")
    finally:
        hearth.request("POST", f"/v1/{DOCS}:rollback", {"transaction": urllib.parse.unquote(tx)})


def test_sub_microsecond_read_time_is_invalid_argument(hearth):
    """The emulator answers 400 INVALID_ARGUMENT "timestamp cannot have more than microseconds
    precision" (runQuery, 2026-12-01) and the v1 reference says read_time "must be a
    microsecond precision timestamp". Was: accepted and echoed back ("...829050500Z")."""
    t1 = put(hearth, name("nanos", "a"), v=1)
    put(hearth, name("nanos", "a"), v=2)
    rt = t1[:-1] + "500Z"  # t1 has 6 fractional digits: 9 digits, 500 ns after the commit
    for method in sorted(REST_READS):
        verb, path, body = REST_READS[method](rt)
        err = assert_firestore_error(hearth.request(verb, path, body, headers=ADMIN), 400, "INVALID_ARGUMENT")
        assert err["message"] == "timestamp cannot have more than microseconds precision", (method, err)
    err = assert_firestore_error(hearth.request("GET", doc_path("nanos", "a") + f"?readTime={rt}"), 400,
                                 "INVALID_ARGUMENT")


# -- 2. repeatability under concurrent writes -----------------------------------------------------

QUERIES = [
    {"from": [{"collectionId": "k"}]},
    {"from": [{"collectionId": "k"}], "orderBy": [{"field": {"fieldPath": "v"}, "direction": "DESCENDING"}], "limit": 7},
    {"from": [{"collectionId": "k"}], "where": {"fieldFilter": {"field": {"fieldPath": "g"}, "op": "EQUAL",
                                                               "value": int_field(1)}}},
    {"from": [{"collectionId": "k"}], "orderBy": [{"field": {"fieldPath": "v"}}], "offset": 3, "limit": 5},
    {"from": [{"collectionId": "k"}], "orderBy": [{"field": {"fieldPath": "v"}}],
     "startAt": {"values": [int_field(500)], "before": True}, "endAt": {"values": [int_field(800)]}, "limit": 4},
    {"from": [{"collectionId": "k"}], "where": {"fieldFilter": {"field": {"fieldPath": "v"}, "op": "GREATER_THAN",
                                                               "value": int_field(300)}},
     "orderBy": [{"field": {"fieldPath": "v"}, "direction": "DESCENDING"}], "limit": 3},
    {"from": [{"collectionId": "sub", "allDescendants": True}],
     "orderBy": [{"field": {"fieldPath": "v"}, "direction": "DESCENDING"}], "limit": 6},
    {"from": [{"collectionId": "sub", "allDescendants": True}], "where": {"fieldFilter": {
        "field": {"fieldPath": "v"}, "op": "LESS_THAN_OR_EQUAL", "value": int_field(400)}}},
    {"from": [{"collectionId": "k"}], "where": {"fieldFilter": {"field": {"fieldPath": "t"}, "op": "ARRAY_CONTAINS",
                                                               "value": int_field(3)}}, "limit": 5},
    {"from": [{"collectionId": "k"}], "where": {"fieldFilter": {"field": {"fieldPath": "v"}, "op": "NOT_IN", "value": {
        "arrayValue": {"values": [int_field(x) for x in range(0, 1000, 100)]}}}}, "limit": 9},
    {"from": [{"collectionId": "k"}], "where": {"compositeFilter": {"op": "OR", "filters": [
        {"fieldFilter": {"field": {"fieldPath": "g"}, "op": "IN", "value": {"arrayValue": {"values": [int_field(0)]}}}},
        {"fieldFilter": {"field": {"fieldPath": "t"}, "op": "ARRAY_CONTAINS_ANY", "value": {"arrayValue": {
            "values": [int_field(5), int_field(6)]}}}}]}}},
    {"from": [{"collectionId": "k", "allDescendants": True}], "orderBy": [{"field": {"fieldPath": "g"}}], "limit": 10},
    {"from": [{"collectionId": "k"}], "orderBy": [{"field": {"fieldPath": "__name__"}, "direction": "DESCENDING"}],
     "startAt": {"values": [{"referenceValue": name("k", "d030")}], "before": False}, "limit": 8},
]


def _kdoc_writes(i: int, v: int, deleting: bool) -> list:
    main = name("k", f"d{i:03d}")
    sub = name("k", f"d{i % 5:03d}", "sub", f"s{i:03d}")
    w = [{"delete": main}] if deleting else [
        {"update": {"name": main, "fields": {"v": int_field(v), "g": int_field(i % 4), "t": {"arrayValue": {
            "values": [int_field(i % 4), int_field(v % 7)]}}}}}]
    return w + [{"update": {"name": sub, "fields": {"v": int_field(v)}}}]


def test_point_in_time_reads_repeat_strong_reads_while_writers_run(hearth):
    """Every read at T, repeated while two writers keep committing (updates, deletes and
    re-creations under the same names, a collection group below), equals the strong read
    that reported T — queries with filters, limits, offsets, cursors and descending orders,
    batch gets, list documents, aggregations and collection ids."""
    for i in range(40):
        commit(hearth, _kdoc_writes(i, i * 10, False))
    stop = threading.Event()
    errors: list = []

    def writer(seed: int):
        rnd = random.Random(seed)
        while not stop.is_set():
            i = rnd.randrange(40)
            try:
                commit(hearth, _kdoc_writes(i, rnd.randrange(1000), rnd.random() < 0.2))
                if rnd.random() < 0.05:  # a subcollection appears or goes away
                    commit(hearth, [{"update": {"name": name("k", f"d{i:03d}", f"x{i % 3}", "y"), "fields": {}}}]
                           if rnd.random() < 0.5 else [{"delete": name("k", f"d{i:03d}", f"x{i % 3}", "y")}])
            except AssertionError as e:  # pragma: no cover - reported below
                errors.append(str(e))

    writers = [threading.Thread(target=writer, args=(s,), daemon=True) for s in range(2)]
    for t in writers:
        t.start()
    names = [name("k", f"d{i:03d}") for i in range(40)]
    snaps = []
    try:
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            for qi, q in enumerate(QUERIES):
                docs, rt = run_query(hearth, q)
                snaps.append(("q", qi, rt, docs))
            got, rt = batch_get(hearth, names)
            snaps.append(("bg", None, rt, got))
            got, rt = count_sum(hearth, "k")
            snaps.append(("agg", None, rt, got))
        # list and collection ids have no read time in their answer: bracket them by two
        # strong reads with no write between (stop the writers briefly).
        stop.set()
        for t in writers:
            t.join(timeout=10)
        listing_rt = strong_now(hearth)
        listing = (list_docs(hearth, "k", listing_rt), list_docs(hearth, "k", listing_rt, "&showMissing=true"),
                   collection_ids(hearth), collection_ids(hearth, parent=name("k", "d001")))
        assert strong_now(hearth) >= listing_rt and batch_get(hearth, names)[0] == batch_get(hearth, names, listing_rt)[0]
        stop.clear()
        writers = [threading.Thread(target=writer, args=(s + 10,), daemon=True) for s in range(2)]
        for t in writers:
            t.start()
        assert len(snaps) > 20
        mismatches = []
        for _ in range(2):
            for kind, qi, rt, want in snaps:
                if kind == "q":
                    got = run_query(hearth, QUERIES[qi], rt)
                elif kind == "bg":
                    got = batch_get(hearth, names, rt)
                else:
                    got = count_sum(hearth, "k", rt)
                if got != (want, rt):
                    mismatches.append((kind, qi, rt, want, got[0]))
            rt_l = listing_rt
            r_list = (list_docs(hearth, "k", rt_l), list_docs(hearth, "k", rt_l, "&showMissing=true"),
                      collection_ids(hearth, rt_l), collection_ids(hearth, rt_l, parent=name("k", "d001")))
            if r_list != listing:
                mismatches.append(("listing", None, rt_l, listing, r_list))
        assert not mismatches, f"{len(mismatches)} point-in-time reads differ from the strong read, first: {mismatches[0]}"
    finally:
        stop.set()
        for t in writers:
            t.join(timeout=10)
    assert not errors, errors[:3]



# -- 3. version collection racing reads, writes and kill -9 (--version-retention 5s) -------------

def test_collection_under_traffic_and_kill9_keeps_reads_in_the_window_exact(short):
    """Writers (each owning its documents, so the last acknowledged value is known) and a
    recorder of strong batch gets run; `kill -9` lands mid-traffic. After the restart every
    acknowledged write is there, reads at recorded times still inside the 5 s window return
    exactly what the strong read did, older ones are FAILED_PRECONDITION; then traffic runs
    across a collection pass with every fresh point-in-time read checked against its strong read."""
    owners = 3
    names = {t: [name("gc", f"w{t}-{j}") for j in range(6)] for t in range(owners)}
    everything = [n for t in range(owners) for n in names[t]]
    acked: dict = {}
    in_flight: dict = {}
    snaps: list = []
    mismatches: list = []
    stop = threading.Event()

    def writer(t: int, seed: int):
        rnd = random.Random(seed)
        v = 0
        while not stop.is_set():
            n = rnd.choice(names[t])
            v += 1
            value = None if rnd.random() < 0.15 else v
            in_flight[n] = value
            w = [{"delete": n}] if value is None else [{"update": {"name": n, "fields": {"v": int_field(value)}}}]
            try:
                r = short.request("POST", f"/v1/{DOCS}:commit", {"writes": w}, timeout=5)
            except OSError:
                return
            if r.status == 200:
                acked[n] = value
                in_flight.pop(n, None)

    def recorder(check: bool):
        while not stop.is_set():
            try:
                got, rt = batch_get(short, everything)
                snaps.append((rt, got, time.monotonic()))
                if check and len(snaps) > 5:
                    old_rt, old_got, _ = snaps[-5]
                    again, _ = batch_get(short, everything, old_rt)
                    if again != old_got:
                        mismatches.append((old_rt, old_got, again))
            except (OSError, AssertionError):
                if not short.alive():
                    return
            time.sleep(0.02)

    def run(seconds: float, check: bool, kill: bool):
        stop.clear()
        threads = [threading.Thread(target=writer, args=(t, random.randrange(1 << 30)), daemon=True)
                   for t in range(owners)] + [threading.Thread(target=recorder, args=(check,), daemon=True)]
        for th in threads:
            th.start()
        time.sleep(seconds)
        if kill:
            short.kill9()
        stop.set()
        for th in threads:
            th.join(timeout=10)

    run(2.5, check=False, kill=True)
    short.start()
    # Acknowledged writes survived.
    now_state, now_rt = batch_get(short, everything)
    for n in everything:
        got = now_state[n] and int(now_state[n][0]["v"]["integerValue"])
        allowed = {acked.get(n, None)} | ({in_flight[n]} if n in in_flight else set())
        assert got in allowed, f"{n}: after kill -9 read {got}, acknowledged {acked.get(n)} (in flight {in_flight.get(n)})"
    # Reads inside the window are exact; outside it they are refused.
    checked = refused = 0
    for rt, want, _ in snaps:
        age = epoch(now_rt) - epoch(rt)
        if age < RETENTION - 1.0:
            got, got_rt = batch_get(short, everything, rt)
            assert (got, parse_ts(got_rt)) == (want, parse_ts(rt)), f"read at {rt} after restart differs"
            checked += 1
        elif age > RETENTION + 1.0:
            r = short.request("POST", f"/v1/{DOCS}:batchGet", {"documents": everything, "readTime": rt})
            assert_firestore_error(r, 400, "FAILED_PRECONDITION")
            refused += 1
    assert checked > 10, f"only {checked} recorded reads were checkable after the restart"
    # More than two collection batches' worth of versions, all expired by the coming pass.
    for r in range(4):
        commit(short, [{"update": {"name": name("gc-bulk", f"d{i:03d}"), "fields": {"v": int_field(r)}}}
                       for i in range(500)], timeout=30)
    # Traffic across at least one collection pass, every recent read re-checked at its time.
    snaps.clear()
    run(max(short.ready_at + COLLECTION_INTERVAL + 1.5 - time.monotonic(), 1.0), check=True, kill=False)
    assert not mismatches, f"{len(mismatches)} reads at a recent read time changed, first: {mismatches[0]}"
    assert len(snaps) > 20
    assert short.alive()
    # The pass really collected (in batches of 1,000; 1,500 bulk versions plus the traffic's):
    # no version that ended well before it is left.
    wall_ready = time.time() - (time.monotonic() - short.ready_at)
    horizon = wall_ready + COLLECTION_INTERVAL - RETENTION - 1.5
    db = sqlite3.connect(f"file:{short.data}?mode=ro", uri=True, timeout=10)
    try:
        left, total = db.execute("SELECT SUM(end_seconds + end_nanos / 1e9 < ?), COUNT(*) FROM document_versions",
                                 (horizon,)).fetchone()
    finally:
        db.close()
    assert total and not left, f"{left} of {total} archived versions ended before the collection horizon are still there"


# -- 4. many versions, big history beside other traffic, held read-only snapshots ---------------

def test_thousands_of_versions_of_one_document(hearth):
    """800 commits rewrite one document (deleted now and then); a read at any recorded
    commit time returns that commit's value, by get, batch get, query, list and aggregation."""
    p = name("many", "one")
    history = []  # (commitTime, value or None)

    def writes(start: int, count: int):
        c = http.client.HTTPConnection("127.0.0.1", hearth.port, timeout=15)  # keep-alive: many small commits
        try:
            for v in range(start, start + count):
                w = [{"delete": p}] if v % 97 == 0 else [{"update": {"name": p, "fields": {"v": int_field(v)}}}]
                c.request("POST", f"/v1/{DOCS}:commit", body=json.dumps({"writes": w}),
                          headers={"Content-Type": "application/json"})
                r = c.getresponse()
                body = r.read()
                assert r.status == 200, body
                history.append((json.loads(body)["commitTime"], None if v % 97 == 0 else v))
        finally:
            c.close()

    # One writer: the document's versions must be in commit order with known values.
    writes(1, 800)
    rnd = random.Random(7)
    for t, value in rnd.sample(history, 25) + history[-3:] + history[:3]:
        got, _ = batch_get(hearth, [p], t)
        assert (got[p] and int(got[p][0]["v"]["integerValue"])) == value, (t, value, got)
        r = hearth.request("GET", doc_path("many", "one") + f"?readTime={t}")
        assert r.status == (404 if value is None else 200), (t, r)
        docs, _ = run_query(hearth, {"from": [{"collectionId": "many"}]}, t)
        assert [int(d[1]["v"]["integerValue"]) for d in docs] == ([] if value is None else [value])
        agg, _ = count_sum(hearth, "many", t)
        assert agg["n"] == int_field(0 if value is None else 1)
        # Between two commits: the earlier one's value.
        nxt = [h for h in history if h[0] > t]
        if nxt and epoch(nxt[0][0]) - epoch(t) > 2e-6:
            got, _ = batch_get(hearth, [p], shift(t, 1))
            assert (got[p] and int(got[p][0]["v"]["integerValue"])) == value


def test_point_in_time_query_over_a_big_history_does_not_stall_other_reads(hearth):
    """200 documents rewritten 40 times (8,000 archived versions); point-in-time queries
    over all of it run in 3 threads while a 4th measures a plain GetDocument."""
    n, rounds = 200, 40
    commit_times = []
    for r in range(rounds + 1):
        commit_times.append(commit(hearth, [{"update": {"name": name("hist", f"d{i:03d}"), "fields": {
            "v": int_field(r), "i": int_field(i)}}} for i in range(n)], timeout=60))
    put(hearth, name("probe", "x"), v=1)
    stop = threading.Event()
    slow: list = []
    wrong: list = []

    def heavy(seed: int):
        rnd = random.Random(seed)
        while not stop.is_set():
            r = rnd.randrange(rounds + 1)
            t0 = time.monotonic()
            docs, _ = run_query(hearth, {"from": [{"collectionId": "hist"}],
                                         "orderBy": [{"field": {"fieldPath": "i"}, "direction": "DESCENDING"}]},
                                commit_times[r])
            slow.append(time.monotonic() - t0)
            if len(docs) != n or {d[1]["v"]["integerValue"] for d in docs} != {str(r)}:
                wrong.append((r, len(docs)))

    threads = [threading.Thread(target=heavy, args=(s,), daemon=True) for s in range(3)]
    for t in threads:
        t.start()
    latencies = []
    try:
        time.sleep(0.3)
        for _ in range(25):
            t0 = time.monotonic()
            r = hearth.request("GET", doc_path("probe", "x"), timeout=10)
            latencies.append(time.monotonic() - t0)
            assert r.status == 200, r
            time.sleep(0.05)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=30)
    assert not wrong, wrong[:3]
    assert slow and max(slow) < 10.0, f"a point-in-time query over the history took {max(slow):.2f} s"
    assert max(latencies) < 3.0, f"GetDocument waited {max(latencies):.2f} s beside point-in-time queries"


def test_held_read_only_snapshots_at_old_read_times_are_capped_and_exact(hearth):
    """40 read-only transactions at read times across a history: the first 16 hold snapshots,
    the rest are refused RESOURCE_EXHAUSTED (Hearth's documented cap); each held one keeps
    reading its own time while writes continue; rolling back frees the slots."""
    p = name("ro", "a")
    times = [put(hearth, p, v=v) for v in range(20)]
    began, refused = [], 0
    for i in range(40):
        t = times[i % 20]
        r = hearth.request("POST", f"/v1/{DOCS}:beginTransaction", {"options": {"readOnly": {"readTime": t}}})
        if r.status == 200:
            began.append((r.json()["transaction"], i % 20))
        else:
            assert_firestore_error(r, 429, "RESOURCE_EXHAUSTED")
            refused += 1
    try:
        assert len(began) == 16 and refused == 24
        for v in range(20, 60):
            put(hearth, p, v=v)
        for tx, v in began:
            r = hearth.request("GET", doc_path("ro", "a") + f"?transaction={urllib.parse.quote(tx)}")
            assert r.status == 200 and r.json()["fields"]["v"] == int_field(v), r
            docs, _ = run_query(hearth, {"from": [{"collectionId": "ro"}], "where": {"fieldFilter": {
                "field": {"fieldPath": "v"}, "op": "GREATER_THAN_OR_EQUAL", "value": int_field(0)}}}, transaction=tx)
            assert [d[1]["v"] for d in docs] == [int_field(v)]
            r = hearth.request("POST", f"/v1/{DOCS}:commit", {"transaction": tx, "writes": [
                {"update": {"name": p, "fields": {}}}]})
            assert_firestore_error(r, 400, "INVALID_ARGUMENT")
    finally:
        for tx, _ in began:
            hearth.request("POST", f"/v1/{DOCS}:rollback", {"transaction": tx})
    r = hearth.request("POST", f"/v1/{DOCS}:beginTransaction", {"options": {"readOnly": {"readTime": times[0]}}})
    assert r.status == 200, r
    hearth.request("POST", f"/v1/{DOCS}:rollback", {"transaction": r.json()["transaction"]})


# -- 5. Listen resumes -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def listen_call(hearth):
    ch = grpc.insecure_channel(f"127.0.0.1:{hearth.port}")
    call = ch.stream_stream("/google.firestore.v1.Firestore/Listen", request_serializer=F.ListenRequest.serialize,
                            response_deserializer=F.ListenResponse.deserialize)
    yield call
    ch.close()


def listen(call, target: dict, database: str = DB, timeout: float = 10.0) -> list:
    """Adds one target (id 1) and reads until it is CURRENT; returns simplified events:
    ("ADD"|"RESET"|"CURRENT"|..., token, read_time) / ("CHANGE", name, fields, update) /
    ("DELETE"|"REMOVE", name)."""
    requests: queue.Queue = queue.Queue()
    requests.put(F.ListenRequest(database=database, add_target=F.Target(target_id=1, **target)))

    def gen():
        while True:
            x = requests.get()
            if x is None:
                return
            yield x

    stream = call(gen(), metadata=[("google-cloud-resource-prefix", database)], timeout=timeout)
    out = []
    try:
        for r in stream:
            pb = r._pb
            kind = pb.WhichOneof("response_type")
            if kind == "target_change":
                tc = pb.target_change
                out.append((F.TargetChange.TargetChangeType(tc.target_change_type).name, bytes(tc.resume_token),
                            (tc.read_time.seconds, tc.read_time.nanos)))
                if tc.HasField("cause"):
                    out.append(("CAUSE", tc.cause.code, tc.cause.message))
                if tc.target_change_type == F.TargetChange.TargetChangeType.CURRENT:
                    break
            elif kind == "document_change":
                d = pb.document_change.document
                out.append(("CHANGE", d.name, {k: v.integer_value for k, v in d.fields.items()},
                            (d.update_time.seconds, d.update_time.nanos)))
            elif kind == "document_delete":
                out.append(("DELETE", pb.document_delete.document))
            elif kind == "document_remove":
                out.append(("REMOVE", pb.document_remove.document))
    finally:
        requests.put(None)
        stream.cancel()
    assert out and out[-1][0] == "CURRENT", f"target never CURRENT: {out[-5:]}"
    return out


def apply(state: dict, events: list) -> dict:
    s = dict(state)
    for e in events:
        if e[0] == "RESET":
            s = {}
        elif e[0] == "CHANGE":
            s[e[1]] = (e[2], e[3])
        elif e[0] in ("DELETE", "REMOVE"):
            s.pop(e[1], None)
    return s


def query_target(collection: str, **q) -> dict:
    sq = Q.StructuredQuery(from_=[Q.StructuredQuery.CollectionSelector(collection_id=collection)], **q)
    return {"query": F.Target.QueryTarget(parent=DOCS, structured_query=sq)}


def lt(field: str, v: int):
    return Q.StructuredQuery.Filter(field_filter=Q.StructuredQuery.FieldFilter(
        field=Q.StructuredQuery.FieldReference(field_path=field),
        op=Q.StructuredQuery.FieldFilter.Operator.LESS_THAN, value={"integer_value": v}))


def test_listen_resumed_in_the_window_delivers_exactly_the_changes(hearth, listen_call):
    """A target resumed (by resume token, and by read_time) after adds, updates, deletes,
    moves out of the filter, a delete + re-create and an identical rewrite gets no RESET, only
    the changes: applied to the old view they give exactly a fresh listen's view."""
    coll = f"L{random.randrange(1 << 30)}"
    for k, v in {"a": 1, "b": 2, "c": 3, "d": 4, "f": 7}.items():
        put(hearth, name(coll, k), v=v)
    targets = {
        "filter": query_target(coll, where=lt("v", 10)),
        "limit": query_target(coll, order_by=[Q.StructuredQuery.Order(
            field=Q.StructuredQuery.FieldReference(field_path="v"),
            direction=Q.StructuredQuery.Direction.DESCENDING)], limit={"value": 2}),
        "documents": {"documents": F.Target.DocumentsTarget(documents=[name(coll, x) for x in ("a", "b", "e", "zz")])},
    }
    first = {k: listen(listen_call, t) for k, t in targets.items()}
    put(hearth, name(coll, "a"), v=5)
    delete(hearth, name(coll, "b"))
    put(hearth, name(coll, "c"), v=50)  # leaves the filter, tops the limit
    put(hearth, name(coll, "e"), v=6)
    delete(hearth, name(coll, "d"))
    put(hearth, name(coll, "d"), v=4)  # same content, new version
    put(hearth, name(coll, "f"), v=7)  # identical rewrite
    put(hearth, name(coll, "zz"), v=1)
    for k, t in targets.items():
        before = apply({}, first[k])
        fresh = apply({}, listen(listen_call, t))
        token, rt = first[k][-1][1], first[k][-1][2]
        for resume in ({"resume_token": token}, {"read_time": timestamp_pb2.Timestamp(seconds=rt[0], nanos=rt[1])}):
            events = listen(listen_call, {**t, **resume})
            kinds = [e[0] for e in events]
            assert "RESET" not in kinds, (k, resume, events)
            assert apply(before, events) == fresh, (k, resume, events)
            changed = {e[1] for e in events if e[0] == "CHANGE"}
            assert changed == {n for n, v in fresh.items() if before.get(n) != v}, (k, events)
            gone = {e[1] for e in events if e[0] in ("DELETE", "REMOVE")}
            assert gone == set(before) - set(fresh), (k, events)
            for e in events:
                if e[0] in ("DELETE", "REMOVE"):
                    exists = hearth.request("GET", "/v1/" + e[1]).status == 200
                    assert e[0] == ("REMOVE" if exists else "DELETE"), (k, e)


def test_listen_hostile_resume_tokens_and_read_times_reset_and_resend(hearth, listen_call):
    """Tokens that are not a read time in the window (2 h old, truncated, 1 MiB, in the
    future, nanos out of range, the emulator's token format, empty) and read_time values in
    the future / too old: a RESET, then the full current results, equal to a fresh listen (as
    the emulator does: it always answers a resume with RESET)."""
    coll = f"H{random.randrange(1 << 30)}"
    for k, v in {"a": 1, "b": 2, "c": 30}.items():
        put(hearth, name(coll, k), v=v)
    t = query_target(coll, where=lt("v", 10))
    fresh_events = listen(listen_call, t)
    fresh = apply({}, fresh_events)
    token = fresh_events[-1][1]
    now = int(time.time())
    tokens = [(now - 7200).to_bytes(8, "big") + (0).to_bytes(4, "big"), token[:7], token + b"\x00",
              b"\x01" * (1 << 20), (now + 3600).to_bytes(8, "big") + (0).to_bytes(4, "big"),
              token[:8] + (2_000_000_000).to_bytes(4, "big"), token[:8] + b"\xff\xff\xff\xff",
              (1 << 63 | 5).to_bytes(8, "big") + bytes(4), bytes.fromhex("0a0908b4ba9ba49ab39803"), b""]
    read_times = [timestamp_pb2.Timestamp(seconds=now + 3600), timestamp_pb2.Timestamp(seconds=now - 7200),
                  timestamp_pb2.Timestamp(seconds=1), timestamp_pb2.Timestamp(seconds=253402300799, nanos=999999000)]
    for resume in [{"resume_token": x} for x in tokens] + [{"read_time": x} for x in read_times]:
        events = listen(listen_call, {**t, **resume})
        assert events[0][0] == "ADD" and events[1][0] == "RESET", (resume if len(str(resume)) < 200 else "huge", events[:3])
        assert apply({}, events) == fresh
    # A token is a read time, not a project's: resuming another project's target with it is a
    # plain in-window resume there.
    other = "projects/demo-other/databases/(default)"
    r = hearth.request("PATCH", f"/v1/{other}/documents/{coll}/x", {"fields": {"v": int_field(1)}})
    assert r.status == 200, r
    ot = {"query": F.Target.QueryTarget(parent=f"{other}/documents", structured_query=Q.StructuredQuery(
        from_=[Q.StructuredQuery.CollectionSelector(collection_id=coll)]))}
    events = listen(listen_call, {**ot, "resume_token": token}, database=other)
    assert apply({}, events) == apply({}, listen(listen_call, ot, database=other))


def test_listen_resumed_across_a_clear_forgets_the_cleared_documents(hearth, listen_call):
    coll = f"C{random.randrange(1 << 30)}"
    put(hearth, name(coll, "a"), v=1)
    put(hearth, name(coll, "b"), v=2)
    t = query_target(coll)
    first = listen(listen_call, t)
    before = apply({}, first)
    assert len(before) == 2
    hearth.clear()
    put(hearth, name(coll, "c"), v=3)
    fresh = apply({}, listen(listen_call, t))
    resumed = apply(before, listen(listen_call, {**t, "resume_token": first[-1][1]}))
    assert resumed == fresh, f"resumed view {sorted(resumed)} != fresh {sorted(fresh)}"


def test_reads_before_history_was_kept_are_refused_not_wrong(tmp_path):
    h = Hearth(tmp_path, data=tmp_path / "h.sqlite", extra_args=["--version-retention", "0"])
    h.start()
    try:
        t1 = put(h, name("nohist", "a"), v=1)
        put(h, name("nohist", "a"), v=2)
        h.stop()
        h.extra_args = []
        h.start()
        r = h.request("GET", doc_path("nohist", "a") + f"?readTime={t1}")
        if r.status == 200:
            assert r.json()["fields"]["v"] == int_field(1), r
        else:
            assert_firestore_error(r, 400, "FAILED_PRECONDITION")
    finally:
        h.stop()


def test_read_only_transaction_at_read_time_outlives_collection(idle_transaction):
    """A read-only transaction at a read time keeps reading that time after the collector has
    dropped the versions (its snapshot predates the deletion), also when its first query builds
    an index while nothing else commits. Was broken: SQLiteDocumentStore.collectVersions did not
    bump the store's sequence, so SQLiteSnapshot.runQuery's `store.repin(connection, ifAt:
    sequence)` saw "no commit since" and moved the point-in-time view to the newest SQLite
    state, where the archived version is gone: the query and every later read in the
    transaction found nothing."""
    h, t1, tx = idle_transaction["server"], idle_transaction["t1"], idle_transaction["tx"]
    quoted = urllib.parse.quote(tx)
    try:
        k = 1  # the first collection pass at least RETENTION after the version ended
        while h.ready_at + k * COLLECTION_INTERVAL - 0.5 < idle_transaction["ended"] + RETENTION + 0.3:
            k += 1
        delay = h.ready_at + k * COLLECTION_INTERVAL + 1.0 - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        err = assert_firestore_error(h.request("GET", doc_path("ro", "a") + f"?readTime={t1}"), 400,
                                     "FAILED_PRECONDITION")
        assert err["message"] == TOO_OLD
        q = {"from": [{"collectionId": "ro"}], "where": {"fieldFilter": {
            "field": {"fieldPath": "v"}, "op": "EQUAL", "value": int_field(1)}}}
        docs, _ = run_query(h, q, transaction=tx)
        after = h.request("GET", doc_path("ro", "a") + f"?transaction={quoted}")
        assert [d[1]["v"] for d in docs] == [int_field(1)], f"query in the read-only transaction at {t1}: {docs}"
        assert after.status == 200 and after.json()["fields"]["v"] == int_field(1), after
    finally:
        h.request("POST", f"/v1/{DOCS}:rollback", {"transaction": tx})
        assert h.alive()


def _rfc(rt: tuple) -> str:
    return fmt_ts(datetime.fromtimestamp(rt[0], timezone.utc) + timedelta(microseconds=rt[1] // 1000))


def test_listen_fresh_and_resumed_views_equal_a_read_at_their_read_time_while_writers_run(hearth, listen_call):
    """With two writers updating and deleting under a filter, every fresh or resumed target's
    view at CURRENT equals a point-in-time query at the read time CURRENT carries."""
    coll = f"W{random.randrange(1 << 30)}"
    for i in range(30):
        put(hearth, name(coll, f"d{i:02d}"), v=i)
    stop = threading.Event()

    def writer(seed: int):
        rnd = random.Random(seed)
        while not stop.is_set():
            p = name(coll, f"d{rnd.randrange(30):02d}")
            if rnd.random() < 0.2:
                delete(hearth, p)
            else:
                put(hearth, p, v=rnd.randrange(40))

    threads = [threading.Thread(target=writer, args=(s,), daemon=True) for s in range(2)]
    for th in threads:
        th.start()
    t = query_target(coll, where=lt("v", 20))
    rest_q = {"from": [{"collectionId": coll}], "where": {"fieldFilter": {
        "field": {"fieldPath": "v"}, "op": "LESS_THAN", "value": int_field(20)}}}
    views, problems = [], []
    try:
        for rep in range(12):
            events = listen(listen_call, t)
            views.append((apply({}, events), events[-1]))
            checks = [(views[-1][0], events[-1][2], "fresh")]
            if rep >= 2:
                old, current = views[rep - 2]
                resumed = listen(listen_call, {**t, "resume_token": current[1]})
                if any(e[0] == "RESET" for e in resumed):
                    problems.append(("RESET in the window", rep))
                checks.append((apply(old, resumed), resumed[-1][2], "resumed"))
            for view, rt, kind in checks:
                docs, _ = run_query(hearth, rest_q, _rfc(rt))
                want = {d[0]: d[1]["v"] for d in docs}
                if {k: int_field(v[0]["v"]) for k, v in view.items()} != want:
                    problems.append((kind, rep, _rfc(rt)))
    finally:
        stop.set()
        for th in threads:
            th.join(timeout=10)
    assert not problems, problems[:3]


# -- 6. gRPC read_time values: conformance with the emulator --------------------------------------

# (label, seconds (or offset from now when relative), nanos, relative, the emulator's status for
# GetDocument with this read_time — cloud-firestore-emulator, asked 2026-12-01).
GRPC_READ_TIMES = [
    ("nanos 1e9", -10, 1_000_000_000, True, "INVALID_ARGUMENT"),
    ("nanos -1", -10, -1, True, "INVALID_ARGUMENT"),
    ("below 0001-01-01", -62_135_596_801, 0, False, "INVALID_ARGUMENT"),
    ("above 9999-12-31", 253_402_300_800, 0, False, "INVALID_ARGUMENT"),
    ("seconds 2^62", 1 << 62, 0, False, "INVALID_ARGUMENT"),
    ("seconds -2^62", -(1 << 62), 0, False, "INVALID_ARGUMENT"),
    ("9999-12-31T23:59:59.999999999", 253_402_300_799, 999_999_999, False, "INVALID_ARGUMENT"),
    ("1 h in the future", 3600, 0, True, "INVALID_ARGUMENT"),
    ("2 s in the future", 2, 0, True, "INVALID_ARGUMENT"),
    ("1970-01-01T00:00:01", 1, 0, False, "FAILED_PRECONDITION"),
    ("1 s ago", -1, 0, True, "NOT_FOUND"),
    ("500 ns after a whole second, 10 s ago", -10, 500, True, "INVALID_ARGUMENT"),  # was accepted
    ("the epoch", 0, 0, False, "INVALID_ARGUMENT"),  # was FAILED_PRECONDITION
    ("1 s before the epoch", -1, 0, False, "INVALID_ARGUMENT"),
    ("0001-01-01T00:00:00", -62_135_596_800, 0, False, "INVALID_ARGUMENT"),
]


@pytest.fixture(scope="module")
def grpc_get(hearth):
    ch = grpc.insecure_channel(f"127.0.0.1:{hearth.port}")
    yield ch.unary_unary("/google.firestore.v1.Firestore/GetDocument",
                         request_serializer=F.GetDocumentRequest.serialize, response_deserializer=lambda b: b)
    ch.close()


# A project no other test clears: a read time before a database's clear is refused as too old
# (its history is gone), which would turn "1 s ago" into FAILED_PRECONDITION after a clear.
UNCLEARED_DB = f"projects/{PROJECT}-rt-values/databases/(default)"


@pytest.mark.parametrize("label,seconds,nanos,relative,emulator", GRPC_READ_TIMES)
def test_grpc_read_time_values_answer_as_the_emulator(hearth, grpc_get, label, seconds, nanos, relative, emulator):
    t = timestamp_pb2.Timestamp(seconds=seconds + (int(time.time()) if relative else 0), nanos=nanos)
    try:
        grpc_get(F.GetDocumentRequest(name=f"{UNCLEARED_DB}/documents/grpc-rt/absent", read_time=t),
                 metadata=[("google-cloud-resource-prefix", UNCLEARED_DB)], timeout=5)
        code = "OK"
    except grpc.RpcError as e:
        code = e.code().name
    assert code == emulator, label


def test_rules_judge_a_past_read_at_the_time_of_the_request(hearth):
    """`request.time` is when the request arrives, also for a read at a past read_time: with
    `allow read: if request.time > X` and X between the read time and now, the read is allowed
    (the emulator allows it: runQuery at such a read_time answered 200, asked 2026-12-01).
    Was broken: FirestoreEngine.read passed the past read time as the AccessRequest time."""
    coll = f"R{random.randrange(1 << 30)}"
    t1 = put(hearth, name(coll, "a"), v=1)
    cutoff_ms = int((epoch(t1) + 0.3) * 1000)
    time.sleep(0.6)
    rules = ("rules_version = '2';\nservice cloud.firestore { match /databases/{db}/documents { match /{d=**} {"
             f" allow write: if true; allow read: if request.time > timestamp.value({cutoff_ms}); }} }} }}")
    allow_all = ("rules_version = '2';\nservice cloud.firestore { match /databases/{db}/documents {"
                 " match /{d=**} { allow read, write: if true; } } }")
    url = f"/emulator/v1/projects/{PROJECT}:securityRules"
    r = hearth.request("PUT", url, {"rules": {"files": [{"name": "firestore.rules", "content": rules}]}})
    assert r.status == 200, r
    try:
        time.sleep(0.2)
        assert hearth.request("GET", doc_path(coll, "a")).status == 200
        r = hearth.request("GET", doc_path(coll, "a") + f"?readTime={t1}")
        assert r.status == 200, r
        r = hearth.request("POST", f"/v1/{DOCS}:runQuery", {"structuredQuery": {"from": [{"collectionId": coll}]},
                                                           "readTime": t1})
        assert r.status == 200, r
        r = hearth.request("POST", f"/v1/{DOCS}:beginTransaction", {"options": {"readOnly": {"readTime": t1}}})
        tx = r.json()["transaction"]
        r = hearth.request("POST", f"/v1/{DOCS}:batchGet", {"documents": [name(coll, "a")], "transaction": tx})
        hearth.request("POST", f"/v1/{DOCS}:rollback", {"transaction": tx})
        assert r.status == 200, r
    finally:
        r = hearth.request("PUT", url, {"rules": {"files": [{"name": "firestore.rules", "content": allow_all}]}})
        assert r.status == 200, r
