"""Size limits as production documents them, over gRPC with the real Python clients: Commit
(set, transforms), BatchWrite and the mobile Write stream all refuse the same documents.

Sources: https://firebase.google.com/docs/firestore/quotas (1 MiB documents, 6 KiB document
names, 1,500-byte field names, 20 levels of maps/arrays, 10 MiB requests) and
https://firebase.google.com/docs/firestore/storage-size (how sizes are counted). The texts
are production's for the document size (quoted from production in GitHub
divriots/story-to-design #41) and the request size, else the emulator's (limits.json).
"""

import pytest
from google.api_core import exceptions
from google.cloud import firestore
from google.cloud.firestore_v1.types import firestore as firestore_types
from google.cloud.firestore_v1.types import write as write_types

from support import owner_metadata
from test_write_stream import END, WriteConversation


def nested(levels):
    v = 1
    for _ in range(levels):
        v = {"m": v}
    return v


def test_document_over_1_mib_is_refused_with_productions_message(client, project):
    ref = client.collection("limits").document("big")
    # name limits/big = 7 + 4 + 16; a = 2 + 600,001; b = 2 + m + 1; overhead 32: 1,048,576 bytes fit.
    m = 1_048_576 - 27 - 600_003 - 3 - 32
    ref.set({"a": "x" * 600_000, "b": "x" * m})
    with pytest.raises(exceptions.InvalidArgument) as e:
        ref.set({"a": "x" * 600_000, "b": "x" * (m + 1)})
    assert e.value.message == (
        f"Document 'projects/{project}/databases/(default)/documents/limits/big' cannot be written because "
        "its size (1,048,577 bytes) exceeds the maximum allowed size of 1,048,576 bytes.")
    assert len(ref.get().to_dict()["b"]) == m


def test_a_transform_that_grows_the_document_past_1_mib_is_refused(client):
    ref = client.collection("limits").document("grow")
    ref.set({"a": ["x" * 600_000]})
    with pytest.raises(exceptions.InvalidArgument, match="exceeds the maximum allowed size of 1,048,576 bytes"):
        ref.update({"a": firestore.ArrayUnion(["y" * 600_000])})
    assert ref.get().to_dict() == {"a": ["x" * 600_000]}


def test_twenty_levels_of_maps_fit_twenty_one_do_not(client):
    ref = client.collection("limits").document("deep")
    ref.set({"top": nested(20)})
    with pytest.raises(exceptions.InvalidArgument) as e:
        ref.set({"top": nested(21)})
    assert e.value.message == "Property top contains an invalid nested entity."
    assert ref.get().to_dict() == {"top": nested(20)}


def test_update_paths_stop_at_20_segments_transforms_build_deeper(client):
    """As the emulator answers over gRPC (limits.json records the same over REST): an update
    mask path has at most 20 segments; transforms may nest past 20 levels."""
    ref = client.collection("limits").document("paths")
    ref.set({"x": 1})
    ref.update({".".join(["a"] * 20): 1})
    with pytest.raises(exceptions.InvalidArgument) as e:
        ref.update({".".join(["a"] * 21): 1})
    assert e.value.message == "paths must have at most 20 elements"
    ref.update({".".join(["b"] * 22): firestore.Increment(1)})
    ref.update({"arr": firestore.ArrayUnion([nested(21)])})
    got = ref.get().to_dict()
    assert got["arr"] == [nested(21)]
    v = got["b"]
    for _ in range(20):
        v = v["b"]
    assert v == {"b": 1}


def test_field_names_and_values_at_their_limits(client):
    ref = client.collection("limits").document("names")
    ref.set({"k" * 1500: 1})
    client.collection("limits").document("value").set({"s": "x" * 1_048_487})
    with pytest.raises(exceptions.InvalidArgument) as e:
        ref.set({"k" * 1501: 1})
    assert e.value.message == "The property.name is longer than 1500 bytes."
    with pytest.raises(exceptions.InvalidArgument) as e:
        ref.set({"s": "x" * 1_048_488})
    assert e.value.message == 'The value of property "s" is longer than 1048487 bytes.'


def test_document_name_over_6_kib_is_refused(client):
    long = "x" * 1500
    # name size: 16 + 5 x 2 + 4 x 1,501 + (tail + 1) = 6,144 for a 113-byte tail.
    path = ["c", long, "c", long, "c", long, "c", long, "c"]
    client.document(*path, "y" * 113).set({})
    with pytest.raises(exceptions.InvalidArgument) as e:
        client.document(*path, "y" * 114).set({})
    # The gRPC decoder names the field it refused, as for every malformed name.
    assert e.value.message.endswith("The document name size (6,145 bytes) exceeds the maximum of 6,144 bytes.")


def test_commit_over_10_mib_is_refused_and_under_it_accepted(db):
    batch = db.batch()
    for k in range(9):  # ~9 MB: over the emulator's 4 MiB gRPC limit, under production's 10 MiB
        batch.set(db.collection("limits").document(f"nine{k}"), {"s": "x" * 1_000_000})
    batch.commit()
    batch = db.batch()
    for k in range(11):
        batch.set(db.collection("limits").document(f"eleven{k}"), {"s": "x" * 1_000_000})
    with pytest.raises(exceptions.InvalidArgument) as e:
        batch.commit()
    assert e.value.message == "Request payload size exceeds the limit: 10485760 bytes."
    assert not db.collection("limits").document("eleven0").get().exists


def test_batch_write_reports_the_oversized_document_per_write(project, gapic):
    root = f"projects/{project}/databases/(default)/documents"
    response = gapic.batch_write(request=firestore_types.BatchWriteRequest(
        database=f"projects/{project}/databases/(default)",
        writes=[write_types.Write(update={"name": f"{root}/limits/bw1", "fields": {"a": {"string_value": "ok"}}}),
                write_types.Write(update={"name": f"{root}/limits/bw2",
                                          "fields": {"a": {"string_value": "x" * 600_000},
                                                     "b": {"string_value": "x" * 600_000}}})]),
        metadata=owner_metadata(project))
    assert [s.code for s in response.status] == [0, 3]
    assert "exceeds the maximum allowed size of 1,048,576 bytes" in response.status[1].message


def test_write_stream_refuses_an_oversized_document(project, gapic, db):
    database = f"projects/{project}/databases/(default)"
    conversation = WriteConversation(gapic, project, database)
    try:
        handshake = conversation.receive()
        conversation.send(stream_token=handshake.stream_token, writes=[write_types.Write(
            update={"name": f"{database}/documents/limits/mobile", "fields": {"top": {"map_value": {}}}},
        ), write_types.Write(
            update={"name": f"{database}/documents/limits/mobile2",
                    "fields": {"s": {"string_value": "x" * 1_048_488}}},
        )])
        with pytest.raises(exceptions.InvalidArgument, match='The value of property "s" is longer than 1048487 bytes.'):
            conversation.receive()
    finally:
        conversation.outbox.put(END)
    assert not db.document("limits/mobile").get().exists
