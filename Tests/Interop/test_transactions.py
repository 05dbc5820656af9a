"""Transactions as the Python clients run them: BeginTransaction → reads with the id →
Commit, ABORTED on a conflict with a retry that names the old id, Rollback on error;
read-only transactions on one snapshot.

Sources: docs/reference/grpc-and-listen.md §10 (transactions as the clients do them), §7
(BeginTransaction, Rollback, Commit); docs/reference/firestore-wire.md §8 item 18
(the official emulator's lock stalls that a clone should not copy).
"""

import threading
import time

import pytest
from google.api_core import exceptions
from google.cloud import firestore
from google.cloud.firestore import FieldFilter

from support import owner_metadata


def test_transaction_reads_and_writes(client):
    src = client.collection("acct").document("a")
    dst = client.collection("acct").document("b")
    src.set({"balance": 100})
    dst.set({"balance": 5})

    @firestore.transactional
    def move(tx, amount):
        a = src.get(transaction=tx).get("balance")
        b = dst.get(transaction=tx).get("balance")
        tx.update(src, {"balance": a - amount})
        tx.update(dst, {"balance": b + amount})
        return a - amount

    assert move(client.transaction(), 30) == 70
    assert src.get().to_dict() == {"balance": 70}
    assert dst.get().to_dict() == {"balance": 35}


def test_transaction_query_read_and_create(client):
    col = client.collection("tickets")
    col.document("t1").set({"open": True})
    col.document("t2").set({"open": False})

    @firestore.transactional
    def close_all(tx):
        opened = list(col.where(filter=FieldFilter("open", "==", True)).stream(transaction=tx))
        for snap in opened:
            tx.update(snap.reference, {"open": False})
        tx.create(col.document("log"), {"closed": [s.id for s in opened]})
        return len(opened)

    assert close_all(client.transaction()) == 1
    assert {s.id: s.to_dict() for s in col.stream()} == {
        "t1": {"open": False}, "t2": {"open": False}, "log": {"closed": ["t1"]},
    }


def test_conflicting_write_aborts_and_the_retry_succeeds(client):
    ref = client.collection("c").document("counter")
    ref.set({"n": 0})
    attempts = []

    @firestore.transactional
    def bump(tx):
        n = ref.get(transaction=tx).get("n")
        if not attempts:
            # Someone else writes the document after this transaction read it.
            ref.update({"n": 100})
        attempts.append(n)
        tx.update(ref, {"n": n + 1})

    bump(client.transaction())
    assert attempts == [0, 100]        # the first commit was ABORTED, the retry re-read
    assert ref.get().to_dict() == {"n": 101}


def test_exception_rolls_back(client):
    ref = client.collection("r").document("doc")
    ref.set({"v": 1})

    @firestore.transactional
    def fail(tx):
        ref.get(transaction=tx)
        tx.update(ref, {"v": 2})
        raise RuntimeError("give up")

    with pytest.raises(RuntimeError, match="give up"):
        fail(client.transaction())
    assert ref.get().to_dict() == {"v": 1}


def test_two_threads_increment_one_counter(client):
    """Two writers contend for one document 20 times each: every increment lands exactly
    once, and conflicts are immediate ABORTEDs (no lock stalls), so it finishes quickly.

    Each thread decorates its own function: a `_Transactional` keeps the current and retry
    transaction ids of its call on itself, so one shared between threads mixes their ids.
    `max_attempts=20` because Hearth gives a retried transaction no priority (see
    test_retried_transaction_keeps_its_place_in_line); with the default 5 attempts about
    one run in eight exhausts them.
    """
    ref = client.collection("contended").document("counter")
    ref.set({"n": 0})
    rounds = 20
    attempts = [0, 0]
    errors = []

    def work(worker):
        @firestore.transactional
        def increment(tx):
            attempts[worker] += 1
            snap = ref.get(transaction=tx)
            tx.update(ref, {"n": snap.get("n") + 1})

        try:
            for _ in range(rounds):
                increment(client.transaction(max_attempts=20))
        except Exception as error:  # reported below, on the main thread
            errors.append(error)

    start = time.monotonic()
    threads = [threading.Thread(target=work, args=(w,), name=f"incrementer-{w}") for w in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    elapsed = time.monotonic() - start
    assert not any(t.is_alive() for t in threads), "incrementers still running after 30 s"
    assert errors == []
    assert ref.get().to_dict() == {"n": 2 * rounds}
    assert sum(attempts) >= 2 * rounds
    assert elapsed < 10, f"40 contended transactions took {elapsed:.1f} s"


def test_failed_transactional_commit_reports_its_own_error(client):
    missing = client.collection("tx").document("missing")

    @firestore.transactional
    def update_missing(tx):
        missing.get(transaction=tx)
        tx.update(missing, {"n": 1})

    with pytest.raises(exceptions.NotFound):
        update_missing(client.transaction())


def test_exhausted_retries_report_failed_to_commit(client):
    ref = client.collection("tx").document("busy")
    ref.set({"n": 0})

    @firestore.transactional
    def always_conflicts(tx):
        n = ref.get(transaction=tx).get("n")
        ref.set({"n": n + 100})             # a competing write after every read
        tx.update(ref, {"n": n + 1})

    with pytest.raises(ValueError, match="Failed to commit transaction in 2 attempts"):
        always_conflicts(client.transaction(max_attempts=2))


def test_retried_transaction_keeps_its_place_in_line(project, gapic):
    """The Python client retries an ABORTED transaction at once, without backoff, naming
    the old id in `retry_transaction` "to preserve its spot in line" (transaction.py); a
    competitor that starts after the retry must not make the retry fail again."""
    database = f"projects/{project}/databases/(default)"
    name = f"{database}/documents/line/doc"
    md = owner_metadata(project)

    def begin(retry=None):
        options = {"read_write": {"retry_transaction": retry}} if retry else {}
        return gapic.begin_transaction(request={"database": database, "options": options}, metadata=md).transaction

    def read(tx):
        [r] = list(gapic.batch_get_documents(
            request={"database": database, "documents": [name], "transaction": tx}, metadata=md))
        return int(r.found.fields["n"].integer_value)

    def commit(tx, n):
        write = {"update": {"name": name, "fields": {"n": {"integer_value": n}}}}
        return gapic.commit(request={"database": database, "writes": [write], "transaction": tx}, metadata=md)

    gapic.commit(request={"database": database, "writes": [
        {"update": {"name": name, "fields": {"n": {"integer_value": 0}}}}]}, metadata=md)
    a1 = begin()
    read(a1)
    b1 = begin()
    commit(b1, read(b1) + 1)                       # the competitor wins the first round
    with pytest.raises(exceptions.Aborted):
        commit(a1, 1)
    a2 = begin(retry=a1)                           # A retries at once, naming a1
    n = read(a2)
    b2 = begin()
    b_value = read(b2) + 1
    outcome = {}

    def competitor():                              # may wait or be aborted; must not win
        try:
            commit(b2, b_value)
            outcome["b"] = "committed"
        except exceptions.GoogleAPICallError as error:
            outcome["b"] = type(error).__name__

    t = threading.Thread(target=competitor, name="competitor")
    t.start()
    time.sleep(0.2)
    commit(a2, n + 1)                              # the retry must succeed
    t.join(timeout=10)
    assert not t.is_alive()


def test_read_only_transaction_reads_one_snapshot(client):
    ref = client.collection("ro").document("doc")
    ref.set({"v": 1})
    seen = []

    @firestore.transactional
    def read_twice(tx):
        seen.append(ref.get(transaction=tx).get("v"))
        ref.set({"v": 2})                      # a write outside the transaction
        seen.append(ref.get(transaction=tx).get("v"))

    read_twice(client.transaction(read_only=True))
    assert seen == [1, 1]
    assert ref.get().to_dict() == {"v": 2}


def test_commit_with_unknown_transaction_is_rejected(project, gapic):
    request = {
        "database": f"projects/{project}/databases/(default)",
        "writes": [{"update": {"name": f"projects/{project}/databases/(default)/documents/x/y", "fields": {}}}],
        "transaction": b"no-such-transaction",
    }
    with pytest.raises((exceptions.InvalidArgument, exceptions.Aborted)):
        gapic.commit(request=request, metadata=owner_metadata(project))
