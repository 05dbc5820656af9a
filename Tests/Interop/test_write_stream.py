"""The Write stream (what the mobile SDKs use for every write), driven through the
generated client's bidi `write()` call: handshake, batches, teardown, and a failed batch.

Sources: docs/reference/grpc-and-listen.md §9 (Write stream conversation and the counts the
mobile SDKs assert on).
"""

import queue

import pytest
from google.api_core import exceptions
from google.cloud.firestore_v1 import _helpers
from google.cloud.firestore_v1.types import firestore as firestore_types
from google.cloud.firestore_v1.types import write as write_types

from support import owner_metadata

END = object()


class WriteConversation:
    """A Write stream whose requests are sent one at a time by the test. The handshake
    request is queued before the call starts: api_core waits for the first response
    while it opens a streaming call."""

    def __init__(self, gapic, project, database):
        self.outbox = queue.Queue()
        self.send(database=database)

        def requests():
            while True:
                item = self.outbox.get(timeout=10)
                if item is END:
                    return
                yield item

        self.responses = gapic.write(requests=requests(), metadata=owner_metadata(project), timeout=10)

    def send(self, **fields):
        self.outbox.put(firestore_types.WriteRequest(**fields))

    def receive(self):
        return next(self.responses)

    def close(self):
        self.outbox.put(END)
        return list(self.responses)


def test_handshake_batch_and_teardown(project, gapic, db):
    database = f"projects/{project}/databases/(default)"
    name = f"{database}/documents/mobile/doc1"
    conversation = WriteConversation(gapic, project, database)
    try:
        handshake = conversation.receive()
        assert handshake.stream_id != ""
        assert handshake.stream_token != b""
        assert list(handshake.write_results) == []

        conversation.send(stream_token=handshake.stream_token, writes=[write_types.Write(
            update={"name": name, "fields": {"title": {"string_value": "hello"}, "n": {"integer_value": 1}}},
            update_transforms=[{"field_path": "ts", "set_to_server_value": "REQUEST_TIME"}],
        )])
        batch = conversation.receive()
        assert batch.stream_token != b"" and batch.stream_token != handshake.stream_token
        assert len(batch.write_results) == 1
        [result] = batch.write_results
        assert len(result.transform_results) == 1
        server_time = _helpers.decode_value(result.transform_results[0], db)
        assert server_time == batch.commit_time
        assert result.update_time == batch.commit_time

        # A second batch: two writes, one with an increment on the same document.
        conversation.send(stream_token=batch.stream_token, writes=[
            write_types.Write(update={"name": f"{database}/documents/mobile/doc2", "fields": {}}),
            write_types.Write(transform={"document": name, "field_transforms": [
                {"field_path": "n", "increment": {"integer_value": 41}}]}),
        ])
        second = conversation.receive()
        assert len(second.write_results) == 2
        assert [len(r.transform_results) for r in second.write_results] == [0, 1]
        assert second.write_results[1].transform_results[0].integer_value == 42
        assert second.commit_time > batch.commit_time

        # A delete's result has no update time, as Commit answers (emulator 1.19.9 over gRPC).
        conversation.send(stream_token=second.stream_token, writes=[
            write_types.Write(delete=f"{database}/documents/mobile/doc2"),
            write_types.Write(delete=f"{database}/documents/mobile/never"),
        ])
        deletes = conversation.receive()
        assert [type(r).to_dict(r).get("update_time") for r in deletes.write_results] == [None, None]
        assert deletes.commit_time > second.commit_time

        # The empty teardown request gets no response; the stream then ends with OK.
        conversation.send(stream_token=deletes.stream_token)
        assert conversation.close() == []
    finally:
        conversation.outbox.put(END)
    data = db.document("mobile/doc1").get().to_dict()
    assert data == {"title": "hello", "n": 42, "ts": batch.commit_time}
    assert not db.document("mobile/doc2").get().exists  # Deleted by the third batch.


def test_failed_batch_ends_the_stream_with_its_status(project, gapic, db):
    database = f"projects/{project}/databases/(default)"
    conversation = WriteConversation(gapic, project, database)
    try:
        handshake = conversation.receive()
        # update() of a missing document: an update mask and exists=true, as mobile sends it.
        conversation.send(stream_token=handshake.stream_token, writes=[write_types.Write(
            update={"name": f"{database}/documents/mobile/missing", "fields": {"v": {"integer_value": 1}}},
            update_mask={"field_paths": ["v"]},
            current_document={"exists": True},
        )])
        with pytest.raises(exceptions.NotFound):
            conversation.receive()
    finally:
        conversation.outbox.put(END)
    assert not db.document("mobile/missing").get().exists


def test_negative_zero_through_the_write_stream(project, gapic, db):
    # The mobile SDKs write over this stream: -0.0 keeps its sign (production keeps it,
    # googleapis/nodejs-firestore#1638) and reads back as -0.0.
    import math

    database = f"projects/{project}/databases/(default)"
    name = f"{database}/documents/mobile/negzero"
    conversation = WriteConversation(gapic, project, database)
    try:
        handshake = conversation.receive()
        conversation.send(stream_token=handshake.stream_token, writes=[write_types.Write(
            update={"name": name, "fields": {"z": {"double_value": -0.0}, "g": {"geo_point_value": {"latitude": -0.0}}}},
        )])
        batch = conversation.receive()
        assert len(batch.write_results) == 1
    finally:
        conversation.close()
    got = db.document("mobile/negzero").get().to_dict()
    assert got["z"] == 0.0 and math.copysign(1.0, got["z"]) == -1.0
    assert math.copysign(1.0, got["g"].latitude) == -1.0
