"""Group commit under attack (FirestoreEngine.groupCommit): commits queued while the writer is
busy are checked one after another over the group's earlier commits, stored in ONE SQLite
transaction with one fsync, and acknowledged only after it. So with many writers at once:

- every acknowledged commit survives `kill -9`, whole (its twin document and its increment too);
- a commit that fails its own checks (a precondition, an aborted transaction, bad input) fails
  alone and leaves nothing behind, while the other commits of its group succeed;
- a commit sees its group's earlier commits (no lost update, no two winners of one create);
- each commit of a group keeps its own commit time: reads at that `read_time` and queries over
  the indexes see exactly that commit's version.

The module's server uses a SQLite file (a real fsync per group, so groups really form); the
`kill -9` tests start their own. Facts: docs/reference/firestore-wire.md §1.3 (Commit,
BeginTransaction), §1.4 (preconditions, ABORTED), §1.8 (errors).
"""

from __future__ import annotations

import json
import threading
import time
from urllib.parse import quote

import pytest

from hostile_support import DB, DOCS, PROJECT, Hearth, assert_firestore_error, doc_path, run_threads

BEGIN = f"/v1/{DB}/documents:beginTransaction"
COMMIT = f"/v1/{DB}/documents:commit"
RUN_QUERY = f"/v1/{DOCS}:runQuery"
THREADS = 64


@pytest.fixture(scope="module")
def hearth(tmp_path_factory):
    """SQLite store. Named `hearth` so conftest checks after each test that it still answers."""
    d = tmp_path_factory.mktemp("group")
    h = Hearth(d, data=d / "group.sqlite")
    h.start()
    yield h
    h.stop()


def integer(doc: dict, field: str) -> int:
    return int(doc["fields"][field]["integerValue"])


def count(h: Hearth, collection: str) -> int:
    r = h.request("POST", f"/v1/{DOCS}:runAggregationQuery", {"structuredAggregationQuery": {
        "structuredQuery": {"from": [{"collectionId": collection}]}, "aggregations": [{"alias": "n", "count": {}}]}})
    assert r.status == 200, r
    return int(r.json()[0]["result"]["aggregateFields"]["n"]["integerValue"])


def names_in(h: Hearth, collection: str) -> set[str]:
    out: set[str] = set()
    token = ""
    while True:
        r = h.request("GET", f"/v1/{DOCS}/{collection}?pageSize=1000" + (f"&pageToken={quote(token)}" if token else ""))
        assert r.status == 200, r
        body = r.json()
        out |= {d["name"].rsplit("/", 1)[1] for d in body.get("documents", [])}
        token = body.get("nextPageToken", "")
        if not token:
            return out


# -- 1. kill -9 in the middle of grouped traffic -----------------------------------------------

def test_kill9_mid_group_commit_traffic_keeps_every_acknowledged_commit_whole(durable):
    acked: list[list[str]] = [[] for _ in range(THREADS)]
    unanswered: list[str] = []  # sent, no answer (the kill): either outcome is allowed, but whole
    lock = threading.Lock()
    stop = threading.Event()
    barrier = threading.Barrier(THREADS + 1)

    def worker(t: int):
        barrier.wait()
        i = 0
        while not stop.is_set():
            name = f"t{t:02d}-{i:05d}"
            body = {"writes": [
                {"update": {"name": f"{DOCS}/gc/{name}", "fields": {"t": {"integerValue": str(t)}}}},
                {"update": {"name": f"{DOCS}/gctwin/{name}", "fields": {"of": {"stringValue": name}}}},
                {"transform": {"document": f"{DOCS}/gccounter/c", "fieldTransforms": [
                    {"fieldPath": "n", "increment": {"integerValue": "1"}}]}}]}
            try:
                r = durable.request("POST", COMMIT, body, timeout=10)
            except OSError:
                with lock:
                    unanswered.append(name)
                return  # the server is gone
            assert r.status == 200, r
            acked[t].append(name)
            i += 1

    ts = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for t in ts:
        t.start()
    barrier.wait()
    time.sleep(2.5)
    durable.kill9()
    stop.set()
    for t in ts:
        t.join(15)
    assert not any(t.is_alive() for t in ts), "a writer hung"
    durable.start()

    total = sum(len(a) for a in acked)
    assert total > 100, f"only {total} commits acknowledged in 2.5 s by {THREADS} writers"
    present = names_in(durable, "gc")
    twins = names_in(durable, "gctwin")
    all_acked = {n for a in acked for n in a}
    lost = sorted(all_acked - present)
    lost_twins = sorted(all_acked - twins)
    assert not lost and not lost_twins, (
        f"{len(lost)} acknowledged commits lost, {len(lost_twins)} twins lost of {total}: {lost[:5]} {lost_twins[:5]}")
    # Nothing beyond the acknowledged and the unanswered commits, and never half of one.
    assert present == twins, f"half-applied commits: {sorted(present ^ twins)[:10]}"
    extra = present - all_acked
    assert extra <= set(unanswered), f"documents nobody wrote: {sorted(extra - set(unanswered))[:10]}"
    r = durable.request("GET", doc_path("gccounter", "c"))
    assert r.status == 200, r
    n = integer(r.json(), "n")
    # The counter is incremented by exactly the commits that are present (same commit).
    assert n == len(present), f"counter {n} != {len(present)} commits present ({total} acknowledged)"
    assert total <= n <= total + len(unanswered), (n, total, len(unanswered))


def test_kill9_right_after_a_burst_of_grouped_acks(durable):
    """Every writer sends one commit at the same moment (one or few groups); kill -9 right
    after the last acknowledgement: all of them are there."""
    statuses = [0] * THREADS

    def worker(i, barrier):
        barrier.wait()
        r = durable.request("POST", COMMIT, {"writes": [
            {"update": {"name": f"{DOCS}/burst/b{i:02d}", "fields": {"i": {"integerValue": str(i)}}}},
            {"update": {"name": f"{DOCS}/bursttwin/b{i:02d}", "fields": {}}}]})
        statuses[i] = r.status

    for rnd in range(3):
        run_threads(worker, THREADS)
        assert statuses == [200] * THREADS, statuses
        durable.kill9()
        durable.start()
        assert count(durable, "burst") == THREADS, f"round {rnd}"
        assert count(durable, "bursttwin") == THREADS, f"round {rnd}"
        durable.clear()


# -- 2. racing creates: one winner, and each loser's whole commit is gone -----------------------

def test_racing_creates_in_one_group_exactly_one_wins_and_losers_leave_nothing(hearth):
    for rnd in range(4):
        statuses = [0] * THREADS

        def worker(i, barrier, rnd=rnd):
            barrier.wait()
            r = hearth.request("POST", COMMIT, {"writes": [
                {"update": {"name": f"{DOCS}/side{rnd}/s{i:02d}", "fields": {"by": {"integerValue": str(i)}}}},
                {"update": {"name": f"{DOCS}/create/c{rnd}", "fields": {"by": {"integerValue": str(i)}}},
                 "currentDocument": {"exists": False}}]})
            if r.status != 200:
                assert_firestore_error(r, 409, "ALREADY_EXISTS")
            statuses[i] = r.status

        run_threads(worker, THREADS)
        assert statuses.count(200) == 1, f"round {rnd}: {statuses.count(200)} winners"
        winner = statuses.index(200)
        doc = hearth.request("GET", doc_path("create", f"c{rnd}")).json()
        assert integer(doc, "by") == winner
        # A loser's first write (no precondition of its own) must not survive its failed commit.
        assert names_in(hearth, f"side{rnd}") == {f"s{winner:02d}"}


def test_racing_updates_with_exists_true_on_a_deleted_document(hearth):
    """Half the writers delete, half update with `exists: true`: an update may only win while
    the document exists, as the group's earlier commits left it."""
    for rnd in range(3):
        r = hearth.request("PATCH", doc_path("flip", f"f{rnd}"), {"fields": {"v": {"integerValue": "-1"}}})
        assert r.status == 200
        statuses = [0] * THREADS

        def worker(i, barrier, rnd=rnd):
            barrier.wait()
            if i % 2 == 0:
                r = hearth.request("POST", COMMIT, {"writes": [
                    {"delete": f"{DOCS}/flip/f{rnd}", "currentDocument": {"exists": True}}]})
            else:
                r = hearth.request("POST", COMMIT, {"writes": [
                    {"update": {"name": f"{DOCS}/flipside{rnd}/s{i:02d}", "fields": {}}},
                    {"update": {"name": f"{DOCS}/flip/f{rnd}", "fields": {"v": {"integerValue": str(i)}}},
                     "currentDocument": {"exists": True}}]})
            if r.status != 200:
                assert_firestore_error(r, 404, "NOT_FOUND")
            statuses[i] = r.status

        run_threads(worker, THREADS)
        deletes = [statuses[i] for i in range(0, THREADS, 2)]
        updates = [statuses[i] for i in range(1, THREADS, 2)]
        # Only the first delete finds the document; an update before it may have succeeded, none after.
        assert deletes.count(200) == 1, deletes
        winners = {f"s{i:02d}" for i in range(1, THREADS, 2) if statuses[i] == 200}
        assert names_in(hearth, f"flipside{rnd}") == winners, "a failed update's other write survived"
        assert hearth.request("GET", doc_path("flip", f"f{rnd}")).status == 404
        assert len(winners) == updates.count(200)


# -- 3. read-write transactions racing on one document ------------------------------------------

@pytest.mark.parametrize("retry", [False, True], ids=["fresh", "retryTransaction"])
def test_racing_transactions_lose_no_update(hearth, retry):
    """Each transaction reads the counter and writes read+1 (and a log document); an aborted
    one begins again, fresh or as `retryTransaction` of the aborted one (the retry's priority)."""
    hearth.clear()
    r = hearth.request("PATCH", doc_path("txc", "x"), {"fields": {"n": {"integerValue": "0"}}})
    assert r.status == 200
    successes = [0] * THREADS
    aborts = [0] * THREADS

    def worker(i, barrier):
        barrier.wait()
        deadline = time.monotonic() + 4
        k = 0
        previous = None
        while time.monotonic() < deadline:
            options = {"options": {"readWrite": {"retryTransaction": previous}}} if retry and previous else {}
            r = hearth.request("POST", BEGIN, options)
            assert r.status == 200, r
            tx = r.json()["transaction"]
            r = hearth.request("GET", doc_path("txc", "x") + "?transaction=" + quote(tx, safe=""))
            assert r.status == 200, r
            v = integer(r.json(), "n")
            r = hearth.request("POST", COMMIT, {"transaction": tx, "writes": [
                {"update": {"name": f"{DOCS}/txc/x", "fields": {"n": {"integerValue": str(v + 1)}}}},
                {"update": {"name": f"{DOCS}/txlog/t{i:02d}-{k:04d}", "fields": {"v": {"integerValue": str(v + 1)}}}}]})
            if r.status == 200:
                successes[i] += 1
                previous = None
            else:
                assert_firestore_error(r, 409, "ABORTED")
                aborts[i] += 1
                previous = tx
            k += 1

    run_threads(worker, THREADS)
    total = sum(successes)
    assert total > 0, f"no transaction committed ({sum(aborts)} aborted)"
    assert sum(aborts) > 0, f"{THREADS} racing transactions on one document, none aborted: no contention tested"
    got = integer(hearth.request("GET", doc_path("txc", "x")).json(), "n")
    assert got == total, f"lost update: counter {got} != {total} committed transactions ({sum(aborts)} aborted)"
    # The log: one document per committed transaction, values 1..total each exactly once
    # (two commits that read the same value cannot both have won).
    r = hearth.request("POST", RUN_QUERY, {"structuredQuery": {"from": [{"collectionId": "txlog"}]}})
    values = sorted(integer(x["document"], "v") for x in r.json() if "document" in x)
    assert values == list(range(1, total + 1)), f"aborted commits left writes or values repeat: {values[:20]}"
    assert hearth.stats()["openTransactions"] == 0


def test_one_transaction_committed_by_many_at_once_commits_once(hearth):
    for rnd in range(5):
        tx = hearth.request("POST", BEGIN, {}).json()["transaction"]
        statuses = [0] * 16

        def worker(i, barrier, tx=tx, rnd=rnd):
            barrier.wait()
            r = hearth.request("POST", COMMIT, {"transaction": tx, "writes": [
                {"update": {"name": f"{DOCS}/sametx{rnd}/w{i:02d}", "fields": {}}}]})
            if r.status != 200:
                assert_firestore_error(r, {400, 409})
            statuses[i] = r.status

        run_threads(worker, n=16)
        assert statuses.count(200) == 1, statuses
        assert names_in(hearth, f"sametx{rnd}") == {f"w{statuses.index(200):02d}"}
    assert hearth.stats()["openTransactions"] == 0


# -- 4. each commit of a group keeps its own version ---------------------------------------------

def test_every_commit_of_a_group_is_its_own_version(hearth):
    """All writers set one document at once, each to its own value: a read at each commit's
    time shows that commit's value, and the field index holds only the final one."""
    statuses: list[tuple[int, str | None]] = [(0, None)] * THREADS

    def worker(i, barrier):
        barrier.wait()
        r = hearth.request("POST", COMMIT, {"writes": [
            {"update": {"name": f"{DOCS}/ver/x", "fields": {"v": {"integerValue": str(i)}}}}]})
        statuses[i] = (r.status, r.json().get("commitTime") if r.status == 200 else None)

    run_threads(worker, THREADS)
    assert all(s == 200 for s, _ in statuses), statuses
    times = [t for _, t in statuses]
    assert len(set(times)) == THREADS, "two commits of a group share a commit time"
    order = sorted(range(THREADS), key=lambda i: times[i])
    final = order[-1]
    doc = hearth.request("GET", doc_path("ver", "x")).json()
    assert integer(doc, "v") == final and doc["updateTime"] == times[final]
    wrong = []
    for i in range(THREADS):
        r = hearth.request("GET", doc_path("ver", "x") + "?readTime=" + quote(times[i], safe=""))
        assert r.status == 200, r
        if integer(r.json(), "v") != i or r.json()["updateTime"] != times[i]:
            wrong.append((i, r.json()["fields"], r.json()["updateTime"], times[i]))
    assert not wrong, f"{len(wrong)} versions wrong at their own commit time: {wrong[:3]}"
    hits = []
    for i in range(THREADS):
        r = hearth.request("POST", RUN_QUERY, {"structuredQuery": {"from": [{"collectionId": "ver"}], "where": {
            "fieldFilter": {"field": {"fieldPath": "v"}, "op": "EQUAL", "value": {"integerValue": str(i)}}}}})
        assert r.status == 200, r
        if any("document" in x for x in r.json()):
            hits.append(i)
    assert hits == [final], f"the index matches stale values: {hits[:10]} (final {final})"


# -- 5. bad input in the same moment as good commits --------------------------------------------

BAD_BODIES = [
    b"{not json",
    b'{"writes": 7}',
    b'{"writes": [{"update": {"fields": {}}}]}',  # no name
    json.dumps({"writes": [{"update": {"name": f"{DOCS}/odd", "fields": {}}}]}).encode(),  # a collection
    json.dumps({"writes": [{"update": {"name": f"{DOCS}/a/b/c", "fields": {}}}]}).encode(),
    json.dumps({"writes": [{"update": {"name": "projects/other/databases/(default)/documents/a/b", "fields": {}}}]}).encode(),
    json.dumps({"writes": [{"update": {"name": f"{DOCS}/a/__bad__", "fields": {}}}]}).encode(),
    json.dumps({"writes": [{"update": {"name": f"{DOCS}/a/ok", "fields": {"x": {"integerValue": "nope"}}}}]}).encode(),
    json.dumps({"writes": [{"transform": {"document": f"{DOCS}/a/t", "fieldTransforms": [
        {"fieldPath": "n", "increment": {"stringValue": "1"}}]}}]}).encode(),
    json.dumps({"writes": [{"update": {"name": f"{DOCS}/a/m", "fields": {}}, "updateMask": {"fieldPaths": ["a..b"]}}]}).encode(),
    json.dumps({"transaction": "bm90LWEtdHJhbnNhY3Rpb24=", "writes": [
        {"update": {"name": f"{DOCS}/a/tx", "fields": {}}}]}).encode(),
]


def test_bad_commits_mixed_into_grouped_traffic_fail_alone(hearth):
    rounds = 4
    bad_seen: list[tuple[int, int, bytes]] = []
    good_statuses: list[int] = []
    lock = threading.Lock()

    def worker(i, barrier):
        for rnd in range(rounds):
            barrier.wait()
            if i % 4 == 3:
                body = BAD_BODIES[(i // 4 + rnd) % len(BAD_BODIES)]
                r = hearth.request("POST", COMMIT, body)
                with lock:
                    bad_seen.append((r.status, (i // 4 + rnd) % len(BAD_BODIES), r.body[:200]))
                if r.status == 200:
                    continue
                assert_firestore_error(r, 400)
            else:
                r = hearth.request("POST", COMMIT, {"writes": [
                    {"update": {"name": f"{DOCS}/mixed/m{i:02d}-{rnd}", "fields": {"i": {"integerValue": str(i)}}}},
                    {"update": {"name": f"{DOCS}/mixedtwin/m{i:02d}-{rnd}", "fields": {}}}]})
                with lock:
                    good_statuses.append(r.status)
                assert r.status == 200, r

    run_threads(worker, THREADS)
    accepted = [(k, body) for status, k, body in bad_seen if status == 200]
    assert not accepted, f"bad commits accepted: {accepted[:3]}"
    want = {f"m{i:02d}-{rnd}" for i in range(THREADS) if i % 4 != 3 for rnd in range(rounds)}
    assert names_in(hearth, "mixed") == want
    assert names_in(hearth, "mixedtwin") == want
    assert names_in(hearth, "a") == set(), "a bad commit left a document"


def test_malformed_writes_on_create_update_delete_routes_mixed_with_good_ones(hearth):
    def worker(i, barrier):
        barrier.wait()
        kind = i % 8
        if kind == 0:
            r = hearth.request("POST", f"/v1/{DOCS}/routes?documentId=__x__", {"fields": {}})
            assert_firestore_error(r, 400)
        elif kind == 1:
            r = hearth.request("PATCH", doc_path("routes", "p") + "?updateMask.fieldPaths=a..b", {"fields": {}})
            assert_firestore_error(r, 400)
        elif kind == 2:
            r = hearth.request("PATCH", doc_path("routes", f"bad{i}"), b'{"fields": {"x": {"integerValue": 1.5}}')
            assert_firestore_error(r, 400)
        elif kind == 3:
            r = hearth.request("DELETE", doc_path("routes", "d") + "?currentDocument.updateTime=yesterday")
            assert_firestore_error(r, 400)
        else:
            r = hearth.request("POST", f"/v1/{DOCS}/routes?documentId=good{i:02d}",
                               {"fields": {"i": {"integerValue": str(i)}}})
            assert r.status == 200, r
            r = hearth.request("PATCH", doc_path("routes", f"good{i:02d}"), {"fields": {"j": {"integerValue": str(i)}}})
            assert r.status == 200, r

    run_threads(worker, THREADS)
    assert names_in(hearth, "routes") == {f"good{i:02d}" for i in range(THREADS) if i % 8 >= 4}


# -- 6. gRPC: many clients committing batches at once -------------------------------------------

def test_grpc_concurrent_batch_commits(hearth, monkeypatch):
    firestore = pytest.importorskip("google.cloud.firestore")
    monkeypatch.setenv("FIRESTORE_EMULATOR_HOST", f"127.0.0.1:{hearth.port}")
    client = firestore.Client(project=PROJECT)
    n_threads, per_thread = 32, 8
    try:
        def worker(i, barrier):
            barrier.wait()
            for k in range(per_thread):
                b = client.batch()
                b.set(client.document(f"grpcgc/g{i:02d}-{k}"), {"i": i, "k": k})
                b.set(client.document(f"grpcgctwin/g{i:02d}-{k}"), {"i": i})
                b.set(client.document("grpcgccounter/c"), {"n": firestore.Increment(1)}, merge=True)
                results = b.commit()
                assert len(results) == 3

        run_threads(worker, n=n_threads)
        want = {f"g{i:02d}-{k}" for i in range(n_threads) for k in range(per_thread)}
        assert names_in(hearth, "grpcgc") == want
        assert names_in(hearth, "grpcgctwin") == want
        assert client.document("grpcgccounter/c").get().to_dict()["n"] == n_threads * per_thread

        # Racing creates over gRPC: one winner, ALREADY_EXISTS for the rest, losers leave nothing.
        from google.api_core import exceptions
        outcome = [""] * n_threads

        def creator(i, barrier):
            barrier.wait()
            b = client.batch()
            b.set(client.document(f"grpcside/s{i:02d}"), {"i": i})
            b.create(client.document("grpccreate/one"), {"by": i})
            try:
                b.commit()
                outcome[i] = "ok"
            except exceptions.AlreadyExists:
                outcome[i] = "exists"

        run_threads(creator, n=n_threads)
        assert outcome.count("ok") == 1 and outcome.count("exists") == n_threads - 1, outcome
        assert names_in(hearth, "grpcside") == {f"s{outcome.index('ok'):02d}"}
    finally:
        client.close()


# -- 7. rules get() sees the group's earlier commits ---------------------------------------------

GATE_RULES = """rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /gate/{id} { allow read, write: if true; }
    match /items/{id} {
      allow read: if true;
      allow create: if get(/databases/$(database)/documents/gate/g).data.open == true;
    }
  }
}
"""


def test_rules_get_sees_a_gate_closed_earlier_in_the_group(tmp_path):
    """Writers create items while a rule requires `gate/g.open == true`; the gate closes in the
    middle of the traffic. No item may be accepted with a commit time after the close: a
    commit of the group after the close must see it (rules `get()` over the overlay)."""
    h = Hearth(tmp_path, rules=GATE_RULES, data=tmp_path / "gate.sqlite")
    h.start()
    try:
        r = h.request("PATCH", doc_path("gate", "g"), {"fields": {"open": {"booleanValue": True}}})
        assert r.status == 200, r
        accepted: list[tuple[str, str]] = []
        denied = [0]
        lock = threading.Lock()
        stop = threading.Event()

        def worker(i, barrier):
            barrier.wait()
            k = 0
            while not stop.is_set():
                name = f"i{i:02d}-{k:04d}"
                r = h.request("POST", COMMIT, {"writes": [
                    {"update": {"name": f"{DOCS}/items/{name}", "fields": {"i": {"integerValue": str(i)}}}}]})
                if r.status == 200:
                    with lock:
                        accepted.append((name, r.json()["commitTime"]))
                else:
                    assert_firestore_error(r, 403, "PERMISSION_DENIED")
                    with lock:
                        denied[0] += 1
                k += 1

        closer_out: list[str] = []

        def closer():
            time.sleep(1.0)
            r = h.request("POST", COMMIT, {"writes": [
                {"update": {"name": f"{DOCS}/gate/g", "fields": {"open": {"booleanValue": False}}}}]})
            assert r.status == 200, r
            closer_out.append(r.json()["commitTime"])
            time.sleep(1.0)
            stop.set()

        c = threading.Thread(target=closer)
        c.start()
        run_threads(worker, n=32)
        c.join(10)
        assert closer_out, "the gate did not close"
        closed_at = closer_out[0]

        def ts(t: str):  # RFC 3339 with up to 9 fraction digits, all in Z
            head, _, frac = t.rstrip("Z").partition(".")
            return head, int((frac + "000000000")[:9])

        late = [(n, t) for n, t in accepted if ts(t) >= ts(closed_at)]
        assert not late, f"{len(late)} items accepted at or after the gate closed at {closed_at}: {late[:5]}"
        assert accepted and denied[0] > 0, (len(accepted), denied[0])
        assert names_in(h, "items") == {n for n, _ in accepted}
    finally:
        h.stop()


# -- 8. new databases created inside one group ---------------------------------------------------

def test_commits_to_new_databases_in_one_group(hearth):
    """Writers commit to named databases that do not exist yet, several per database at once
    (the store creates a database row inside the group); racing creates per database have one
    winner each, and the databases do not leak into each other."""
    dbs = [f"grp-{k}" for k in range(4)]
    statuses = [0] * THREADS

    def worker(i, barrier):
        db = dbs[i % len(dbs)]
        docs = f"projects/{PROJECT}/databases/{db}/documents"
        barrier.wait()
        r = hearth.request("POST", f"/v1/projects/{PROJECT}/databases/{db}/documents:commit", {"writes": [
            {"update": {"name": f"{docs}/own/o{i:02d}", "fields": {"i": {"integerValue": str(i)}}}},
            {"update": {"name": f"{docs}/one/x", "fields": {"by": {"integerValue": str(i)}}},
             "currentDocument": {"exists": False}}]})
        if r.status != 200:
            assert_firestore_error(r, 409, "ALREADY_EXISTS")
        statuses[i] = r.status

    run_threads(worker, THREADS)
    for k, db in enumerate(dbs):
        mine = [i for i in range(THREADS) if i % len(dbs) == k]
        winners = [i for i in mine if statuses[i] == 200]
        assert len(winners) == 1, f"{db}: winners {winners}"
        r = hearth.request("GET", f"/v1/projects/{PROJECT}/databases/{db}/documents/own?pageSize=1000")
        assert r.status == 200, r
        names = {d["name"].rsplit("/", 1)[1] for d in r.json().get("documents", [])}
        assert names == {f"o{winners[0]:02d}"}, f"{db}: {sorted(names)}"
        r = hearth.request("GET", f"/v1/projects/{PROJECT}/databases/{db}/documents/one/x")
        assert integer(r.json(), "by") == winners[0]
    assert hearth.request("GET", doc_path("one", "x")).status == 404, "a named database's write reached (default)"


# -- 9. the gRPC Write stream: pipelined batches from many streams at once -----------------------

def write_stream(hearth, requests, timeout=30):
    """Runs one Write stream with `requests` (WriteRequest dicts) sent without waiting;
    returns (responses, grpc error or None)."""
    grpc = pytest.importorskip("grpc")
    from google.cloud.firestore_v1.types import firestore as F
    ch = grpc.insecure_channel(f"127.0.0.1:{hearth.port}")
    try:
        call = ch.stream_stream("/google.firestore.v1.Firestore/Write", request_serializer=F.WriteRequest.serialize,
                                response_deserializer=F.WriteResponse.deserialize)
        out = []
        try:
            for resp in call(iter([F.WriteRequest(r) for r in requests]), timeout=timeout,
                             metadata=[("google-cloud-resource-prefix", DB), ("authorization", "Bearer owner")]):
                out.append(resp)
        except grpc.RpcError as e:
            return out, e
        return out, None
    finally:
        ch.close()


def stream_batch(i: int, k: int, extra=None, log: str = "wslog") -> dict:
    writes = [
        {"update": {"name": f"{DOCS}/ws/s{i:02d}", "fields": {"k": {"integer_value": k}}}},
        {"update": {"name": f"{DOCS}/{log}/s{i:02d}-{k:03d}", "fields": {}}},
        {"transform": {"document": f"{DOCS}/wscounter/c", "field_transforms": [
            {"field_path": "n", "increment": {"integer_value": 1}}]}},
    ]
    return {"writes": writes + (extra or [])}


def test_write_streams_pipelined_from_many_clients(hearth):
    n_streams, per_stream = 16, 20

    def worker(i, barrier):
        reqs = [{"database": DB}] + [stream_batch(i, k) for k in range(per_stream)]
        barrier.wait()
        out, err = write_stream(hearth, reqs)
        assert err is None, err
        assert len(out) == 1 + per_stream, len(out)
        times = [r.commit_time.timestamp_pb().ToNanoseconds() for r in out[1:]]
        assert times == sorted(times) and len(set(times)) == per_stream, "stream batches out of order"
        assert all(len(r.write_results) == 3 for r in out[1:])

    run_threads(worker, n=n_streams)
    for i in range(n_streams):
        r = hearth.request("GET", doc_path("ws", f"s{i:02d}"))
        assert integer(r.json(), "k") == per_stream - 1, f"stream {i}: batches applied out of order"
    assert names_in(hearth, "wslog") == {f"s{i:02d}-{k:03d}" for i in range(n_streams) for k in range(per_stream)}
    assert integer(hearth.request("GET", doc_path("wscounter", "c")).json(), "n") == n_streams * per_stream


def test_write_stream_failing_batch_ends_only_its_stream(hearth):
    """Each stream's batch 5 carries a failing precondition: that stream ends with its status,
    its batches 0-4 stay, batch 5 leaves nothing (its other writes included), later batches are
    not applied; the other streams' good batches in the same groups all commit."""
    n_streams, per_stream, bad = 16, 10, 5
    errors: list = [None] * n_streams

    def worker(i, barrier):
        reqs = [{"database": DB}]
        for k in range(per_stream):
            extra = None
            if i % 2 == 0 and k == bad:
                extra = [{"update": {"name": f"{DOCS}/wsmissing/m{i:02d}", "fields": {}},
                          "current_document": {"exists": True}}]
            reqs.append(stream_batch(100 + i, k, extra, log="wsfail"))
        barrier.wait()
        out, err = write_stream(hearth, reqs)
        errors[i] = err
        assert len(out) == 1 + (bad if i % 2 == 0 else per_stream), (i, len(out), err)

    run_threads(worker, n=n_streams)
    grpc = pytest.importorskip("grpc")
    want = set()
    for i in range(n_streams):
        if i % 2 == 0:
            assert errors[i] is not None and errors[i].code() == grpc.StatusCode.NOT_FOUND, errors[i]
            want |= {f"s{100 + i:02d}-{k:03d}" for k in range(bad)}
        else:
            assert errors[i] is None, errors[i]
            want |= {f"s{100 + i:02d}-{k:03d}" for k in range(per_stream)}
    got = names_in(hearth, "wsfail")
    assert got == want, f"extra {sorted(got - want)[:5]}, missing {sorted(want - got)[:5]}"


# -- 10. grouped and ungrouped writers on one document ------------------------------------------

def test_batch_write_and_grouped_commits_increment_one_counter(hearth):
    """BatchWrite commits each write on its own, outside the group queue; Commit joins groups.
    Both increment one counter at once: no increment is lost between the two paths."""
    per_thread = 15

    def worker(i, barrier):
        barrier.wait()
        inc = {"transform": {"document": f"{DOCS}/mix/c", "fieldTransforms": [
            {"fieldPath": "n", "increment": {"integerValue": "1"}}]}}
        for k in range(per_thread):
            if i % 2:
                r = hearth.request("POST", f"/v1/{DB}/documents:batchWrite", {"writes": [
                    inc, {"update": {"name": f"{DOCS}/mixlog/b{i:02d}-{k:02d}", "fields": {}}}]},
                    headers={"Authorization": "Bearer owner"})
                assert r.status == 200, r
                assert all(s.get("code", 0) == 0 for s in r.json().get("status", [])), r
            else:
                r = hearth.request("POST", COMMIT, {"writes": [
                    inc, {"update": {"name": f"{DOCS}/mixlog/c{i:02d}-{k:02d}", "fields": {}}}]})
                assert r.status == 200, r

    run_threads(worker, n=32)
    assert integer(hearth.request("GET", doc_path("mix", "c")).json(), "n") == 32 * per_thread
    assert count(hearth, "mixlog") == 32 * per_thread


# -- 11. read your own acknowledged write, at once ----------------------------------------------

def test_an_acknowledged_grouped_write_is_visible_to_the_next_read(hearth):
    """An acknowledgement comes after the group's transaction is durable and visible: the
    writer's very next GET, query and aggregation see it (no stale reader snapshot)."""
    rounds = 6

    def worker(i, barrier):
        barrier.wait()
        for k in range(rounds):
            r = hearth.request("POST", COMMIT, {"writes": [
                {"update": {"name": f"{DOCS}/ryw/r{i:02d}", "fields": {"k": {"integerValue": str(k)}, "i": {"integerValue": str(i)}}}},
                {"update": {"name": f"{DOCS}/rywlog/r{i:02d}-{k}", "fields": {"i": {"integerValue": str(i)}}}}]})
            assert r.status == 200, r
            t = r.json()["commitTime"]
            doc = hearth.request("GET", doc_path("ryw", f"r{i:02d}")).json()
            assert integer(doc, "k") == k and doc["updateTime"] == t, (k, t, doc)
            q = hearth.request("POST", RUN_QUERY, {"structuredQuery": {"from": [{"collectionId": "ryw"}], "where": {
                "compositeFilter": {"op": "AND", "filters": [
                    {"fieldFilter": {"field": {"fieldPath": "i"}, "op": "EQUAL", "value": {"integerValue": str(i)}}},
                    {"fieldFilter": {"field": {"fieldPath": "k"}, "op": "EQUAL", "value": {"integerValue": str(k)}}}]}}}})
            assert q.status == 200, q
            assert sum("document" in x for x in q.json()) == 1, f"thread {i} round {k}: query misses the write"
            a = hearth.request("POST", f"/v1/{DOCS}:runAggregationQuery", {"structuredAggregationQuery": {
                "structuredQuery": {"from": [{"collectionId": "rywlog"}], "where": {"fieldFilter": {
                    "field": {"fieldPath": "i"}, "op": "EQUAL", "value": {"integerValue": str(i)}}}},
                "aggregations": [{"alias": "n", "count": {}}]}})
            assert a.json()[0]["result"]["aggregateFields"]["n"] == {"integerValue": str(k + 1)}, a

    run_threads(worker, THREADS)


# -- 12. clients that vanish while their commit waits for its group -----------------------------

def test_clients_resetting_while_their_commit_waits(hearth):
    """Writers send a commit and reset the connection at once (no one to acknowledge): each
    abandoned commit is whole or absent, the server keeps serving, good commits still land."""
    import socket
    import struct
    from hostile_support import connect

    def worker(i, barrier):
        barrier.wait()
        for k in range(5):
            name = f"v{i:02d}-{k}"
            body = json.dumps({"writes": [
                {"update": {"name": f"{DOCS}/vanish/{name}", "fields": {}}},
                {"update": {"name": f"{DOCS}/vanishtwin/{name}", "fields": {}}}]}).encode()
            if i % 2:
                s = connect(hearth.port)
                s.sendall(f"POST {COMMIT} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                s.close()  # RST
            else:
                r = hearth.request("POST", COMMIT, body)
                assert r.status == 200, r

    run_threads(worker, THREADS)
    time.sleep(0.5)  # let the abandoned ones finish
    present, twins = names_in(hearth, "vanish"), names_in(hearth, "vanishtwin")
    assert present == twins, f"half-applied abandoned commits: {sorted(present ^ twins)[:10]}"
    good = {f"v{i:02d}-{k}" for i in range(0, THREADS, 2) for k in range(5)}
    assert good <= present
    r = hearth.request("POST", COMMIT, {"writes": [{"update": {"name": f"{DOCS}/vanish/after", "fields": {}}}]})
    assert r.status == 200, r


# -- 13. big commits in one group ----------------------------------------------------------------

def test_big_commits_grouped_together(hearth):
    per_commit = 400

    def worker(i, barrier):
        writes = [{"update": {"name": f"{DOCS}/bigg/b{i:02d}-{j:03d}", "fields": {"s": {"stringValue": "x" * 100}}}}
                  for j in range(per_commit)]
        barrier.wait()
        r = hearth.request("POST", COMMIT, {"writes": writes}, timeout=60)
        assert r.status == 200, r
        assert len(r.json()["writeResults"]) == per_commit

    run_threads(worker, n=32)
    assert count(hearth, "bigg") == 32 * per_commit


def test_kill9_mid_write_streams_keeps_acknowledged_batches_in_order(durable):
    """Write streams pipeline batches while the server is killed: after the restart every
    acknowledged batch is there, and each stream's surviving batches are a prefix of what it
    sent (in order, none half-applied)."""
    grpc = pytest.importorskip("grpc")
    from google.cloud.firestore_v1.types import firestore as F
    n_streams, per_stream = 16, 400
    acked = [0] * n_streams
    started = threading.Barrier(n_streams + 1)

    def worker(i):
        ch = grpc.insecure_channel(f"127.0.0.1:{durable.port}")
        try:
            call = ch.stream_stream("/google.firestore.v1.Firestore/Write", request_serializer=F.WriteRequest.serialize,
                                    response_deserializer=F.WriteResponse.deserialize)
            reqs = [F.WriteRequest({"database": DB})] + [
                F.WriteRequest(stream_batch(200 + i, k, log="wskill")) for k in range(per_stream)]
            started.wait()
            try:
                for n, _ in enumerate(call(iter(reqs), timeout=30, metadata=[("google-cloud-resource-prefix", DB)])):
                    acked[i] = n  # responses after the handshake = acknowledged batches
            except grpc.RpcError:
                pass
        finally:
            ch.close()

    ts = [threading.Thread(target=worker, args=(i,)) for i in range(n_streams)]
    for t in ts:
        t.start()
    started.wait()
    time.sleep(1.0)
    durable.kill9()
    for t in ts:
        t.join(20)
    assert not any(t.is_alive() for t in ts), "a stream hung"
    durable.start()
    assert sum(acked) > 50, f"only {sum(acked)} batches acknowledged before the kill"
    assert sum(acked) < n_streams * per_stream, "every stream finished before the kill: nothing was in flight"
    present = names_in(durable, "wskill")
    problems = []
    for i in range(n_streams):
        ks = sorted(int(n.rsplit("-", 1)[1]) for n in present if n.startswith(f"s{200 + i}-"))
        if ks != list(range(len(ks))):
            problems.append(f"stream {i}: batches not a prefix: {ks[:5]}..{ks[-5:]}")
        if len(ks) < acked[i]:
            problems.append(f"stream {i}: {acked[i]} acknowledged, {len(ks)} survived")
        # A stream has one batch in flight; an acknowledgement or two may not have been read yet.
        if len(ks) > acked[i] + 3:
            problems.append(f"stream {i}: {len(ks)} survived, beyond the {acked[i]} acknowledged")
        if ks:
            doc = durable.request("GET", doc_path("ws", f"s{200 + i}")).json()
            if integer(doc, "k") != ks[-1]:
                problems.append(f"stream {i}: document at batch {integer(doc, 'k')}, log ends at {ks[-1]}")
    assert not problems, problems[:5]
    n = integer(durable.request("GET", doc_path("wscounter", "c")).json(), "n")
    assert n == len(present), f"counter {n} != {len(present)} batches present"
