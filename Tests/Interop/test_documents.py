"""Single-document writes and reads through both clients: set/get/update, every field
transform, merge sets, preconditions, deletes and batches (Commit and BatchGetDocuments).

Sources: docs/reference/firestore-wire.md §1.4 (write semantics), §7 (Python client RPCs);
docs/reference/grpc-and-listen.md §7 (Commit precondition codes); googleapis write.proto
(DocumentTransform.FieldTransform semantics of increment/maximum/minimum).
"""

import datetime

import pytest
from google.api_core import exceptions
from google.cloud import firestore
from google.cloud.firestore_v1 import _helpers
from google.cloud.firestore_v1.field_path import FieldPath

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)


def test_set_then_get_round_trips_and_times(client):
    ref = client.collection("people").document("ada")
    result = ref.set({"name": "Ada", "born": 1815})
    snap = ref.get()
    assert snap.exists
    assert snap.id == "ada"
    assert snap.reference.path == "people/ada"
    assert snap.to_dict() == {"name": "Ada", "born": 1815}
    assert snap.create_time == result.update_time
    assert snap.update_time == result.update_time
    # Overwrite keeps create_time, advances update_time, drops absent fields.
    second = ref.set({"name": "Ada Lovelace"})
    again = ref.get()
    assert again.to_dict() == {"name": "Ada Lovelace"}
    assert again.create_time == result.update_time
    assert again.update_time == second.update_time
    assert second.update_time > result.update_time


def test_get_missing_document(client):
    snap = client.collection("people").document("nobody").get()
    assert not snap.exists
    assert snap.to_dict() is None
    assert snap.create_time is None and snap.update_time is None


def test_every_transform_in_one_update(client):
    ref = client.collection("t").document("all")
    ref.set({"i": 1, "f": 1.5, "mx": 5, "mn": 5, "arr": [1, 2, 3], "rm": [1, 2, "x", 1], "gone": "bye", "keep": True})
    result = ref.update({
        "ts": firestore.SERVER_TIMESTAMP,
        "i": firestore.Increment(2),
        "f": firestore.Increment(0.25),
        "mx": firestore.Maximum(9),
        "mn": firestore.Minimum(-1),
        "arr": firestore.ArrayUnion([3, 4, 4]),
        "rm": firestore.ArrayRemove([1, "x"]),
        "gone": firestore.DELETE_FIELD,
    })
    snap = ref.get()
    data = snap.to_dict()
    assert data == {"ts": data["ts"], "i": 3, "f": 1.75, "mx": 9, "mn": -1, "arr": [1, 2, 3, 4], "rm": [2], "keep": True}
    assert type(data["i"]) is int and type(data["f"]) is float
    # The server timestamp is the commit time, which is also the write's update time.
    assert isinstance(data["ts"], datetime.datetime)
    assert data["ts"] == result.update_time == snap.update_time
    # One transform result per field transform, in the request's order (the client sorts
    # them by field path; DELETE_FIELD is a mask entry, not a transform): the new value for
    # increment/maximum/minimum, null for the array transforms, the commit time for the
    # server timestamp (docs/reference/grpc-and-listen.md §9).
    decoded = [_helpers.decode_value(v, client) for v in result.transform_results]
    assert decoded == [None, 1.75, 3, -1, 9, None, result.update_time]
    assert [type(v) for v in decoded[1:5]] == [float, int, int, int]


def test_transforms_on_missing_fields_and_documents(client):
    ref = client.collection("t").document("fresh")
    # set() with only transforms creates the document.
    ref.set({"n": firestore.Increment(5), "hi": firestore.Maximum(2.5), "lo": firestore.Minimum(-3),
             "u": firestore.ArrayUnion(["a"]), "r": firestore.ArrayRemove(["a"])})
    assert ref.get().to_dict() == {"n": 5, "hi": 2.5, "lo": -3, "u": ["a"], "r": []}


def test_increment_type_rules_and_saturation(client):
    ref = client.collection("t").document("num")
    ref.set({"big": INT64_MAX, "small": INT64_MIN, "i": 3, "s": "text", "eq": 5})
    ref.update({
        "big": firestore.Increment(1),          # integer overflow clamps to int64 max
        "small": firestore.Increment(-1),       # and to int64 min
        "i": firestore.Increment(0.5),          # int + double → double
        "s": firestore.Increment(7),            # non-numeric field → replaced by the operand
        "eq": firestore.Maximum(5.0),           # equivalent operands: field unchanged (stays int)
    })
    data = ref.get().to_dict()
    assert data == {"big": INT64_MAX, "small": INT64_MIN, "i": 3.5, "s": 7, "eq": 5}
    assert type(data["eq"]) is int and type(data["i"]) is float


def test_merge_set(client):
    ref = client.collection("m").document("doc")
    ref.set({"a": 1, "m": {"x": 1, "y": 2}})
    ref.set({"m": {"y": 3, "z": 4}, "b": 2}, merge=True)
    assert ref.get().to_dict() == {"a": 1, "m": {"x": 1, "y": 3, "z": 4}, "b": 2}
    # merge=[paths]: only the named paths are written.
    ref.set({"m": {"x": 9, "y": 100}, "c": 5}, merge=["m.x"])
    assert ref.get().to_dict() == {"a": 1, "m": {"x": 9, "y": 3, "z": 4}, "b": 2}
    # A merge onto a missing document creates it.
    other = client.collection("m").document("new")
    other.set({"k": {"v": 1}, "ts": firestore.SERVER_TIMESTAMP}, merge=True)
    data = other.get().to_dict()
    assert set(data) == {"k", "ts"} and data["k"] == {"v": 1}


def test_update_nested_and_quoted_field_paths(client):
    ref = client.collection("u").document("doc")
    ref.set({"m": {"x": 1, "y": 2}, "a.b": {"c": 1}, "top": 0})
    ref.update({"m.x": 10, FieldPath("a.b", "c").to_api_repr(): 2, "new.deep": "v"})
    assert ref.get().to_dict() == {"m": {"x": 10, "y": 2}, "a.b": {"c": 2}, "top": 0, "new": {"deep": "v"}}
    # Updating a map field replaces the whole map.
    ref.update({"m": {"z": 0}})
    assert ref.get().to_dict()["m"] == {"z": 0}


def test_create_on_existing_is_already_exists(client):
    ref = client.collection("c").document("one")
    ref.create({"v": 1})
    with pytest.raises(exceptions.AlreadyExists):
        ref.create({"v": 2})
    assert ref.get().to_dict() == {"v": 1}


def test_update_on_missing_is_not_found(client):
    ref = client.collection("c").document("missing")
    with pytest.raises(exceptions.NotFound):
        ref.update({"v": 1})
    assert not ref.get().exists


def test_delete_with_preconditions(client):
    ref = client.collection("d").document("doc")
    first = ref.set({"v": 1})
    second = ref.set({"v": 2})
    stale = client.write_option(last_update_time=first.update_time)
    with pytest.raises(exceptions.FailedPrecondition):
        ref.delete(option=stale)
    assert ref.get().to_dict() == {"v": 2}
    ref.delete(option=client.write_option(last_update_time=second.update_time))
    assert not ref.get().exists
    with pytest.raises(exceptions.NotFound):
        ref.delete(option=client.write_option(exists=True))
    # Deleting a missing document without a precondition succeeds.
    ref.delete()
    assert not ref.get().exists


def test_update_with_stale_update_time_is_failed_precondition(client):
    ref = client.collection("d").document("u")
    first = ref.set({"v": 1})
    ref.update({"v": 2})
    with pytest.raises(exceptions.FailedPrecondition):
        ref.update({"v": 3}, option=client.write_option(last_update_time=first.update_time))
    assert ref.get().to_dict() == {"v": 2}


def test_later_update_time_is_invalid_argument(client):
    # As the emulator and production answer (google-cloud-firestore test_document_delete and
    # test_update_document): a required update time after the stored one is not a failed
    # precondition but an invalid argument; an earlier one stays FAILED_PRECONDITION.
    ref = client.collection("d").document("later")
    written = ref.set({"v": 1})
    later = client.write_option(last_update_time=written.update_time + datetime.timedelta(hours=1))
    with pytest.raises(exceptions.InvalidArgument, match="Invalid base version, it is greater than the stored version"):
        ref.delete(option=later)
    with pytest.raises(exceptions.InvalidArgument, match="Invalid base version, it is greater than the stored version"):
        ref.update({"v": 2}, option=later)
    assert ref.get().to_dict() == {"v": 1}
    # On a missing document any required update time is FAILED_PRECONDITION (version 0).
    with pytest.raises(exceptions.FailedPrecondition, match=r"the stored version \(0\) does not match"):
        client.collection("d").document("never").delete(option=later)


def test_batch_commits_all_writes(client):
    col = client.collection("b")
    col.document("upd").set({"n": 1})
    col.document("del").set({"n": 1})
    batch = client.batch()
    batch.set(col.document("new"), {"n": 1})
    batch.create(col.document("created"), {"n": 2})
    batch.update(col.document("upd"), {"n": firestore.Increment(1)})
    batch.delete(col.document("del"))
    results = batch.commit()
    assert len(results) == 4
    times = {r.update_time for r in results[:3]}
    assert len(times) == 1  # one commit time for the whole batch
    got = {s.id: s.to_dict() for s in col.stream()}
    assert got == {"new": {"n": 1}, "created": {"n": 2}, "upd": {"n": 2}}


def test_batch_is_atomic(client):
    col = client.collection("b")
    batch = client.batch()
    batch.set(col.document("a"), {"n": 1})
    batch.update(col.document("missing"), {"n": 1})
    with pytest.raises(exceptions.NotFound):
        batch.commit()
    assert list(col.stream()) == []


def test_get_all_in_request_order_with_missing_and_mask(client):
    col = client.collection("g")
    col.document("a").set({"x": 1, "y": 2})
    col.document("b").set({"x": 3, "y": 4})
    refs = [col.document("b"), col.document("zz"), col.document("a")]
    snaps = {s.id: s for s in client.get_all(refs)}
    assert set(snaps) == {"a", "b", "zz"}
    assert snaps["a"].to_dict() == {"x": 1, "y": 2}
    assert snaps["b"].to_dict() == {"x": 3, "y": 4}
    assert not snaps["zz"].exists
    masked = {s.id: s.to_dict() for s in client.get_all(refs[::2], field_paths=["y"])}
    assert masked == {"b": {"y": 4}, "a": {"y": 2}}
    assert col.document("a").get(field_paths=["x"]).to_dict() == {"x": 1}


def test_large_document_over_flow_control_window(client):
    # 300 kB is several times the 64 KiB initial HTTP/2 window (docs/reference/grpc-and-listen.md §1.3 O1).
    ref = client.collection("big").document("doc")
    blob = "x" * 300_000
    ref.set({"blob": blob, "bytes": bytes(range(256)) * 400})
    data = ref.get().to_dict()
    assert data["blob"] == blob
    assert data["bytes"] == bytes(range(256)) * 400
