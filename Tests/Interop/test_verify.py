"""`verify` writes over gRPC, as the web and mobile SDKs' transactions send them (field 5 of
Write, absent from the generated client's protos, so the requests are encoded by hand).

What the Cloud Firestore emulator 1.19.9 answers over gRPC, probed by hand; the REST answers
are recorded in Tests/Conformance/transforms.json (`requests`): Commit and BatchWrite refuse
a verify without a precondition and the combinations below with INVALID_ARGUMENT; the Write
stream only wants the precondition.
"""

import queue

import grpc
import pytest

from support import owner_metadata


def varint(n):
    out = b""
    while True:
        low, n = n & 0x7F, n >> 7
        if not n:
            return out + bytes([low])
        out += bytes([low | 0x80])


def field(number, payload):
    """A length-delimited field."""
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def verify(name, exists=None):
    write = field(5, name.encode())
    if exists is not None:
        write += field(4, varint(1 << 3 | 0) + varint(1 if exists else 0))  # current_document.exists
    return write


def update(name):
    value = varint(2 << 3 | 0) + varint(2)  # integer_value: 2
    document = field(1, name.encode()) + field(2, field(1, b"a") + field(2, value))
    return field(1, document)


def fields(message):
    """The top-level fields of a message: [(number, bytes or int)]."""
    out, i = [], 0

    def read_varint():
        nonlocal i
        value, shift = 0, 0
        while True:
            byte = message[i]
            i += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value

    while i < len(message):
        key = read_varint()
        if key & 7 == 0:
            out.append((key >> 3, read_varint()))
        else:
            assert key & 7 == 2, message.hex()
            length = read_varint()
            out.append((key >> 3, message[i:i + length]))
            i += length
    return out


def request(database, writes):
    return field(1, database.encode()) + b"".join(field(2, w) for w in writes)


def unary(channel, method):
    return channel.unary_unary(f"/google.firestore.v1.Firestore/{method}",
                               request_serializer=None, response_deserializer=None)


REFUSALS = [
    ("no-precondition", lambda e: [verify(e)], "a verify must contain a precondition"),
    ("twice", lambda e: [verify(e, True), verify(e, True)],
     "the same document cannot be verified more than once in a single request"),
    ("written-then-verified", lambda e: [update(e), verify(e, True)],
     "the same document cannot be written and then verified in a single request"),
    ("verified-then-written", lambda e: [verify(e, True), update(e)],
     "the same document cannot be verified and then written in a single request"),
]


@pytest.mark.parametrize("note,writes,message", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_commit_refuses_as_the_emulator(project, channel, note, writes, message):
    database = f"projects/{project}/databases/(default)"
    name = f"{database}/documents/v/e"
    unary(channel, "Commit")(request(database, [update(name)]), metadata=owner_metadata(project), timeout=5)
    with pytest.raises(grpc.RpcError) as excinfo:
        unary(channel, "Commit")(request(database, writes(name)), metadata=owner_metadata(project), timeout=5)
    assert (excinfo.value.code(), excinfo.value.details()) == (grpc.StatusCode.INVALID_ARGUMENT, message)


def test_batch_write_refuses_a_repeated_document_and_a_verify_without_precondition(project, channel):
    database = f"projects/{project}/databases/(default)"
    name = f"{database}/documents/v/e"
    for writes, message in [
        ([verify(name, True), verify(name, True)],
         "the same document cannot be written more than once in a single request"),
        ([verify(name)], "a verify must contain a precondition"),
    ]:
        with pytest.raises(grpc.RpcError) as excinfo:
            unary(channel, "BatchWrite")(request(database, writes), metadata=owner_metadata(project), timeout=5)
        assert (excinfo.value.code(), excinfo.value.details()) == (grpc.StatusCode.INVALID_ARGUMENT, message)


def test_a_document_verified_missing_has_an_update_time(project, channel):
    database = f"projects/{project}/databases/(default)"
    reply = unary(channel, "Commit")(request(database, [verify(f"{database}/documents/v/none", False)]),
                                     metadata=owner_metadata(project), timeout=5)
    # CommitResponse {write_results (1): [{update_time (1)}], commit_time (2)}: the write
    # result is not empty; Hearth answers the commit time there.
    reply = fields(reply)
    results = [value for number, value in reply if number == 1]
    commit_time = [value for number, value in reply if number == 2]
    assert len(results) == 1 and len(commit_time) == 1, reply
    assert fields(results[0]) == [(1, commit_time[0])], reply


def test_the_write_stream_only_wants_the_precondition(project, channel):
    database = f"projects/{project}/databases/(default)"
    name = f"{database}/documents/v/stream"
    write = channel.stream_stream("/google.firestore.v1.Firestore/Write",
                                  request_serializer=None, response_deserializer=None)

    def converse(writes):
        outbox = queue.Queue()
        outbox.put(field(1, database.encode()))

        def requests():
            while True:
                item = outbox.get(timeout=10)
                if item is None:
                    return
                yield item

        responses = write(requests(), metadata=owner_metadata(project), timeout=10)
        try:
            token = dict(fields(next(responses)))[2]  # the handshake's stream_token
            outbox.put(field(1, database.encode()) + b"".join(field(3, w) for w in writes) + field(4, token))
            return fields(next(responses))
        finally:
            outbox.put(None)

    # Accepted on the stream, as the emulator's stream accepts them (Commit refuses both).
    reply = converse([update(name), verify(name, True), verify(name, True)])
    assert len([value for number, value in reply if number == 3]) == 3, reply  # write_results
    with pytest.raises(grpc.RpcError) as excinfo:
        converse([verify(name)])
    assert (excinfo.value.code(), excinfo.value.details()) == (
        grpc.StatusCode.INVALID_ARGUMENT, "a verify must contain a precondition")
