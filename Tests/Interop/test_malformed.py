"""Bad input over raw gRPC: garbage protobuf, an unknown method, a wrong first stream
message. Each gets a status, not a crash, and the server keeps answering.

Sources: docs/reference/grpc-and-listen.md §4.3 (Trailers-Only errors), §4.4 (status codes), §7.
"""

import grpc
import pytest
from google.cloud import firestore

from support import owner_metadata

GARBAGE = [
    b"\xff\xff\xff\xff",                    # field 0x1fffffff… with a truncated varint
    b"\x0a\xff\x01abc",                     # LEN field claiming 255 bytes, 3 present
    b"\x0a\x03\xff\xfe\xfd",                # database: invalid UTF-8
    b"\x12\x07\x0a\x05\x0a\x03\xff\xfe\xfd",  # writes[0].update.name: invalid UTF-8
    b"\x0f",                                # wire type 7 (does not exist)
    bytes(range(256)) * 4,
]


def raw_unary(channel, method):
    return channel.unary_unary(method, request_serializer=None, response_deserializer=None)


def assert_server_still_answers(hearth, project):
    status, text = hearth.http("GET", "/")
    assert (status, text.strip()) == (200, "Ok")
    client = firestore.Client(project=project)
    try:
        client.document("alive/doc").set({"ok": True})
        assert client.document("alive/doc").get().to_dict() == {"ok": True}
    finally:
        client.close()


def test_garbage_run_query_is_invalid_argument(hearth, project, channel):
    run_query = channel.unary_stream("/google.firestore.v1.Firestore/RunQuery",
                                     request_serializer=None, response_deserializer=None)
    with pytest.raises(grpc.RpcError) as excinfo:
        list(run_query(b"\x0a\xff\x01abc", metadata=owner_metadata(project), timeout=5))
    assert excinfo.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert_server_still_answers(hearth, project)


@pytest.mark.parametrize("payload", GARBAGE, ids=["bad-varint", "short-len", "utf8-database", "utf8-name", "wire-type-7", "noise"])
def test_garbage_commit_is_invalid_argument(hearth, project, channel, payload):
    with pytest.raises(grpc.RpcError) as excinfo:
        raw_unary(channel, "/google.firestore.v1.Firestore/Commit")(
            payload, metadata=owner_metadata(project), timeout=5)
    assert excinfo.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert_server_still_answers(hearth, project)


def test_unknown_method_is_unimplemented(hearth, project, channel):
    with pytest.raises(grpc.RpcError) as excinfo:
        raw_unary(channel, "/google.firestore.v1.Firestore/NoSuchMethod")(
            b"", metadata=owner_metadata(project), timeout=5)
    assert excinfo.value.code() == grpc.StatusCode.UNIMPLEMENTED
    with pytest.raises(grpc.RpcError) as excinfo:
        raw_unary(channel, "/no.such.Service/Call")(b"", metadata=owner_metadata(project), timeout=5)
    assert excinfo.value.code() == grpc.StatusCode.UNIMPLEMENTED
    assert_server_still_answers(hearth, project)


def test_listen_without_database_is_invalid_argument(hearth, project, channel):
    listen = channel.stream_stream("/google.firestore.v1.Firestore/Listen",
                                   request_serializer=None, response_deserializer=None)
    # ListenRequest{remove_target: 1} — no database on the first message.
    responses = listen(iter([b"\x18\x01"]), metadata=owner_metadata(project), timeout=5)
    with pytest.raises(grpc.RpcError) as excinfo:
        list(responses)
    assert excinfo.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert_server_still_answers(hearth, project)


def test_empty_commit_request_is_invalid_argument(project, channel):
    # An empty body decodes to a CommitRequest without a database.
    with pytest.raises(grpc.RpcError) as excinfo:
        raw_unary(channel, "/google.firestore.v1.Firestore/Commit")(b"", metadata=owner_metadata(project), timeout=5)
    assert excinfo.value.code() == grpc.StatusCode.INVALID_ARGUMENT
