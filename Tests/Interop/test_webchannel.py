"""WebChannel on the Firestore port, driven as the Firebase JS SDK drives it in a browser
(Tests/Interop/webchannel_client.py speaks the protocol; no browser needed): the handshake,
Listen and Write streams, streamed and long-polled back channels, exactly-once arrays by
AID, retried forward POSTs, stream errors, terminate and Unknown SID, rules, CORS.

Source: Tests/WebClients/PROTOCOL.md; issue 22 item 1.
"""

import json
import time

from support import unsigned_jwt
from webchannel_client import FrameReader, WebChannel, utf16_length

ORIGIN = "http://127.0.0.1:5173"


def _doc_name(project, path):
    return f"projects/{project}/databases/(default)/documents/{path}"


def _add_document_target(project, path, target_id=2):
    return {
        "database": f"projects/{project}/databases/(default)",
        "addTarget": {"documents": {"documents": [_doc_name(project, path)]}, "targetId": target_id},
    }


def _write(hearth, project, path, fields):
    body = json.dumps({"fields": fields}).encode()
    status, text = hearth.http(
        "PATCH", f"/v1/projects/{project}/databases/(default)/documents/{path}", body,
        {"Authorization": "Bearer owner", "Content-Type": "application/json"},
    )
    assert status == 200, text


def _until(arrays, predicate, limit=50):
    """Arrays up to and including the first whose payload satisfies `predicate`."""
    seen = []
    for array_id, payload in arrays:
        seen.append((array_id, payload))
        if predicate(payload):
            return seen
        assert len(seen) < limit, seen
    raise AssertionError(f"back channel ended first: {seen}")


def _is_current(payload):
    return payload != ["noop"] and payload[0].get("targetChange", {}).get("targetChangeType") == "CURRENT"


def test_handshake_framing_and_cors(hearth, project):
    channel = WebChannel(hearth.host, project, "Listen", origin=ORIGIN)
    handshake = channel.open([{"database": f"projects/{project}/databases/(default)"}])
    assert handshake[2:] == ["", 8, 12, 30000] and len(channel.sid) >= 16
    headers = channel.open_headers
    assert headers["access-control-allow-origin"] == ORIGIN
    assert headers["access-control-allow-credentials"] == "true"
    assert "x-http-initial-response" in headers["access-control-expose-headers"]
    assert channel.terminate() == 200


def test_listen_streams_changes_on_one_back_channel(hearth, project):
    channel = WebChannel(hearth.host, project, "Listen")
    channel.open([_add_document_target(project, "wc/a")])
    status, reader, connection = channel.back_channel(aid=0)
    assert status == 200
    arrays = reader.arrays()
    initial = _until(arrays, _is_current)
    assert [i for i, _ in initial] == list(range(1, len(initial) + 1))  # ids count up from 1
    assert initial[0][1][0]["targetChange"] == {"targetChangeType": "ADD", "targetIds": [2]}
    # A non-ASCII value: the frame length counts UTF-16 units (the emoji is two).
    _write(hearth, project, "wc/a", {"s": {"stringValue": "é😀"}})
    changed = _until(arrays, lambda p: p != ["noop"] and "documentChange" in p[0])
    change = changed[-1][1][0]["documentChange"]
    assert change["document"]["name"] == _doc_name(project, "wc/a")
    assert change["document"]["fields"] == {"s": {"stringValue": "é😀"}}
    assert change["targetIds"] == [2]
    assert changed[0][0] == initial[-1][0] + 1
    connection.close()
    assert channel.terminate() == 200


def test_long_polling_answers_once_and_never_repeats_an_acknowledged_array(hearth, project):
    channel = WebChannel(hearth.host, project, "Listen")
    channel.open([_add_document_target(project, "wc/lp")])
    received = []
    deadline = time.monotonic() + 10
    while not any(_is_current(p) for _, p in received):
        assert time.monotonic() < deadline, received
        aid = received[-1][0] if received else 0
        status, reader, connection = channel.back_channel(aid=aid, long_polling=True)
        assert status == 200
        batch = list(reader.arrays())  # The response ends by itself.
        connection.close()
        assert batch and all(i > aid for i, _ in batch)
        received += batch
    ids = [i for i, _ in received]
    assert ids == sorted(set(ids))
    # A back channel that claims less than it processed gets the same arrays again (the
    # client lost them with its old back channel); one that acknowledges all gets only new ones.
    status, reader, connection = channel.back_channel(aid=ids[0], long_polling=True)
    again = list(reader.arrays())
    connection.close()
    assert [i for i, _ in again] == ids[1:]
    _write(hearth, project, "wc/lp", {"n": {"integerValue": "1"}})
    status, reader, connection = channel.back_channel(aid=ids[-1], long_polling=True)
    fresh = list(reader.arrays())
    connection.close()
    assert fresh and fresh[0][0] == ids[-1] + 1
    assert any(p != ["noop"] and "documentChange" in p[0] for _, p in fresh)
    channel.terminate()


def test_write_stream_and_a_retried_post_applies_once(hearth, project):
    channel = WebChannel(hearth.host, project, "Write")
    channel.open([{"database": f"projects/{project}/databases/(default)"}])
    status, reader, connection = channel.back_channel(aid=0)
    arrays = reader.arrays()
    array_id, [first] = next(arrays)
    assert array_id == 1 and set(first) == {"streamId", "streamToken"}
    write = {
        "streamToken": first["streamToken"],
        "writes": [{
            "transform": {
                "document": _doc_name(project, "wc/counter"),
                "fieldTransforms": [{"fieldPath": "n", "increment": {"integerValue": "1"}}],
            }
        }],
    }
    status, answer = channel.post([write], aid=1)
    assert status == 200 and answer[0] == 1, answer
    # The same map again (a retried POST, same ofs): skipped, not committed twice.
    status, answer = channel.post([write], offset=1, aid=1)
    assert status == 200
    _, [result] = next(arrays)
    assert result["writeResults"][0]["transformResults"] == [{"integerValue": "1"}]
    assert "commitTime" in result
    connection.close()
    status, text = hearth.http(
        "GET", f"/v1/projects/{project}/databases/(default)/documents/wc/counter", None,
        {"Authorization": "Bearer owner"},
    )
    assert json.loads(text)["fields"]["n"] == {"integerValue": "1"}
    channel.terminate()


def test_a_failed_write_ends_the_stream_with_its_error(hearth, project):
    channel = WebChannel(hearth.host, project, "Write")
    channel.open([{"database": f"projects/{project}/databases/(default)"}])
    status, reader, connection = channel.back_channel(aid=0)
    arrays = reader.arrays()
    _, [first] = next(arrays)
    missing = {
        "streamToken": first["streamToken"],
        "writes": [{"update": {"name": _doc_name(project, "wc/none"), "fields": {}},
                    "currentDocument": {"exists": True}}],
    }
    channel.post([missing], aid=1)
    rest = list(arrays)  # The back channel ends after the error.
    connection.close()
    [(_, [payload])] = [(i, p) for i, p in rest if p != ["noop"]]
    assert set(payload["error"]) == {"message", "status"}, payload  # As the emulator sends it.
    assert payload["error"]["status"] == "NOT_FOUND", payload
    deadline = time.monotonic() + 10
    while (answer := channel.post([missing], aid=2))[0] == 200:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert answer[0] == 400 and "Unknown SID" in answer[1]


def test_terminate_and_unknown_sessions(hearth, project):
    channel = WebChannel(hearth.host, project, "Listen")
    channel.open([_add_document_target(project, "wc/t")])
    assert channel.terminate() == 200
    status, text = channel.post([_add_document_target(project, "wc/u", 4)], aid=0)
    assert status == 400 and text.find("Unknown SID") > 0  # The client looks past offset 0.
    status, text, connection = channel.back_channel(aid=0)
    connection.close()
    assert status == 400 and "Unknown SID" in text
    stranger = WebChannel(hearth.host, project, "Write")
    stranger.sid = "nope"
    assert stranger.post([{}], offset=0)[0] == 400


def test_malformed_forms_are_refused_and_lose_nothing(hearth, project):
    channel = WebChannel(hearth.host, project, "Listen")
    for body in ["count=x", "count=2&ofs=0&req0___data__={}", "count=99999", "count=1&ofs=-1&req0___data__={}"]:
        status, _, connection, response = channel.request("POST", channel._url(RID=1, CVER=22), body)
        assert status == 400, body
        response.read()
        connection.close()
    channel.open([_add_document_target(project, "wc/ok")])
    status, reader, connection = channel.back_channel(aid=0)
    _until(reader.arrays(), _is_current)
    connection.close()
    channel.terminate()


def test_a_denied_listener_is_removed_with_its_cause(hearth, project, rules):
    rules("rules_version = '2';\nservice cloud.firestore { match /databases/{db}/documents {"
          " match /open/{d} { allow read: if true; } } }")
    token = unsigned_jwt("alice", project)
    channel = WebChannel(hearth.host, project, "Listen")
    channel.open([_add_document_target(project, "secret/x")], headers={"Authorization": f"Bearer {token}"})
    status, reader, connection = channel.back_channel(aid=0)
    arrays = _until(
        reader.arrays(),
        lambda p: p != ["noop"] and p[0].get("targetChange", {}).get("targetChangeType") == "REMOVE",
    )
    connection.close()
    change = arrays[-1][1][0]["targetChange"]
    assert change["targetIds"] == [2]
    assert change["cause"]["code"] == 7 and change["cause"]["message"], change
    channel.terminate()


def test_frame_lengths_count_utf16_units():
    assert utf16_length("é😀") == 3
    reader = FrameReader(None)
    reader.buffer = '6\n["😀"]5\n[1,2]'
    assert reader._take() == ["😀"] and reader._take() == [1, 2]
