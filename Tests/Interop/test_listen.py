"""Realtime listeners (`on_snapshot`) over the Listen stream: document and query targets
seeing adds, modifies and removes, and silence after unsubscribe.

Sources: docs/reference/grpc-and-listen.md §8.1 (server sequence), §8.4 (what Python requires:
target 0x5079, snapshots only on a global NO_CHANGE, modified = new update_time).
"""

import queue

import pytest
from google.cloud.firestore import FieldFilter

WAIT_S = 5.0


class Snapshots:
    """Collects listener callbacks on a queue; `next()` waits for the next one."""

    def __init__(self):
        self.q = queue.Queue()

    def __call__(self, docs, changes, read_time):
        self.q.put((docs, changes, read_time))

    def next(self):
        try:
            return self.q.get(timeout=WAIT_S)
        except queue.Empty:
            pytest.fail(f"no snapshot within {WAIT_S} s")

    def assert_quiet(self, seconds=0.3):
        try:
            extra = self.q.get(timeout=seconds)
        except queue.Empty:
            return
        pytest.fail(f"unexpected snapshot: {extra!r}")


def changes_of(changes):
    return [(c.type.name, c.document.id) for c in changes]


def test_document_listener_sees_create_modify_delete(client):
    ref = client.collection("live").document("doc")
    seen = Snapshots()
    watch = ref.on_snapshot(seen)
    try:
        docs, changes, _ = seen.next()
        assert docs == [] and changes == []              # initial snapshot of a missing doc
        ref.set({"v": 1})
        [snap], changes, read_time = seen.next()
        assert snap.exists and snap.to_dict() == {"v": 1}
        assert changes_of(changes) == [("ADDED", "doc")]
        assert read_time >= snap.update_time
        ref.update({"v": 2})
        [snap], changes, _ = seen.next()
        assert snap.to_dict() == {"v": 2}
        assert changes_of(changes) == [("MODIFIED", "doc")]
        ref.delete()
        docs, changes, _ = seen.next()
        assert docs == []
        assert changes_of(changes) == [("REMOVED", "doc")]
    finally:
        watch.unsubscribe()
    ref.set({"v": 3})
    seen.assert_quiet()


def test_document_listener_starts_with_existing_data(client):
    ref = client.collection("live").document("existing")
    written = ref.set({"name": "x", "n": 1})
    seen = Snapshots()
    watch = ref.on_snapshot(seen)
    try:
        [snap], changes, _ = seen.next()
        assert snap.to_dict() == {"name": "x", "n": 1}
        assert snap.update_time == written.update_time and snap.create_time == written.update_time
        assert changes_of(changes) == [("ADDED", "existing")]
        # Another document in the same collection is not this target's business.
        client.collection("live").document("other").set({"n": 9})
        seen.assert_quiet()
    finally:
        watch.unsubscribe()


def test_query_listener_sees_adds_modifies_and_removes(client):
    col = client.collection("scores")
    col.document("old").set({"n": 50})
    col.document("low").set({"n": 1})
    # Ascending: the client sorts a watch's documents with `direction * comparison`, and
    # DESCENDING is 2 in the proto enum, so descending queries come out ascending.
    query = col.where(filter=FieldFilter("n", ">=", 10)).order_by("n")
    seen = Snapshots()
    watch = query.on_snapshot(seen)
    try:
        docs, changes, _ = seen.next()
        assert [d.id for d in docs] == ["old"]
        assert changes_of(changes) == [("ADDED", "old")]

        col.document("a").set({"n": 10})                  # starts matching
        docs, changes, _ = seen.next()
        assert [d.id for d in docs] == ["a", "old"]
        assert changes_of(changes) == [("ADDED", "a")]

        col.document("b").set({"n": 5})                   # never matches: no snapshot
        seen.assert_quiet()

        col.document("a").update({"n": 99})               # modified, moves to the end
        docs, changes, _ = seen.next()
        assert [(d.id, d.get("n")) for d in docs] == [("old", 50), ("a", 99)]
        assert changes_of(changes) == [("MODIFIED", "a")]

        col.document("old").update({"n": 3})              # stops matching
        docs, changes, _ = seen.next()
        assert [d.id for d in docs] == ["a"]
        assert changes_of(changes) == [("REMOVED", "old")]

        col.document("a").delete()                        # deleted while matching
        docs, changes, _ = seen.next()
        assert docs == []
        assert changes_of(changes) == [("REMOVED", "a")]

        batch = client.batch()                            # one commit, one snapshot
        batch.set(col.document("x"), {"n": 20})
        batch.set(col.document("y"), {"n": 30})
        batch.commit()
        docs, changes, _ = seen.next()
        assert [d.id for d in docs] == ["x", "y"]
        assert sorted(changes_of(changes)) == [("ADDED", "x"), ("ADDED", "y")]
    finally:
        watch.unsubscribe()
    col.document("z").set({"n": 100})
    seen.assert_quiet()


def test_collection_listener_with_limit(client):
    col = client.collection("top")
    for i in range(4):
        col.document(f"d{i}").set({"rank": i})
    seen = Snapshots()
    watch = col.order_by("rank").limit(2).on_snapshot(seen)
    try:
        docs, _, _ = seen.next()
        assert [d.id for d in docs] == ["d0", "d1"]
        col.document("d0").delete()                       # d2 moves into the window
        docs, changes, _ = seen.next()
        assert [d.id for d in docs] == ["d1", "d2"]
        assert sorted(changes_of(changes)) == [("ADDED", "d2"), ("REMOVED", "d0")]
    finally:
        watch.unsubscribe()


def test_two_listeners_on_one_client(client):
    a, b = client.collection("pair").document("a"), client.collection("pair").document("b")
    seen_a, seen_b = Snapshots(), Snapshots()
    watch_a, watch_b = a.on_snapshot(seen_a), b.on_snapshot(seen_b)
    try:
        seen_a.next()
        seen_b.next()
        a.set({"v": "a"})
        [snap], _, _ = seen_a.next()
        assert snap.to_dict() == {"v": "a"}
        seen_b.assert_quiet()
    finally:
        watch_a.unsubscribe()
        watch_b.unsubscribe()


def test_large_initial_snapshot(client):
    # ~1 MB in the first snapshot: the Listen stream must respect flow control.
    col = client.collection("many")
    blob = "z" * 5000
    batch = client.batch()
    for i in range(200):
        batch.set(col.document(f"d{i:04}"), {"i": i, "blob": blob})
    batch.commit()
    seen = Snapshots()
    watch = col.on_snapshot(seen)
    try:
        docs, changes, _ = seen.next()
        assert [d.id for d in docs] == [f"d{i:04}" for i in range(200)]
        assert len(changes) == 200 and {c.type.name for c in changes} == {"ADDED"}
        assert all(len(d.get("blob")) == 5000 for d in docs)
    finally:
        watch.unsubscribe()


def test_collection_group_listener(client):
    client.document("g/1/items/a").set({"v": 1})
    seen = Snapshots()
    watch = client.collection_group("items").on_snapshot(seen)
    try:
        docs, _, _ = seen.next()
        assert [d.reference.path for d in docs] == ["g/1/items/a"]
        client.document("h/2/items/b").set({"v": 2})
        client.document("h/2/notitems/c").set({"v": 3})
        docs, changes, _ = seen.next()
        assert [d.reference.path for d in docs] == ["g/1/items/a", "h/2/items/b"]
        assert changes_of(changes) == [("ADDED", "b")]
    finally:
        watch.unsubscribe()
