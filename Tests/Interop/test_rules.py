"""Security rules enforced on gRPC calls made with end-user tokens (unsigned JWTs, as the
Auth emulator issues), unauthenticated calls, and `Bearer owner` (admin, bypasses rules).

Sources: docs/reference/firestore-wire.md §2.2 (auth in the emulator), §4.4 (emulator ID
tokens); docs/reference/grpc-and-listen.md §11 (metadata), §8.1 (a target error is a REMOVE with
`cause`), §8.4 (Python raises on REMOVE).
"""

import logging
import queue
import threading

import grpc
import pytest
from google.api_core import exceptions
from google.cloud.firestore_v1.types import firestore as firestore_types

from support import unsigned_jwt

RULES = """rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /users/{uid} {
      allow read, write: if request.auth != null && request.auth.uid == uid;
    }
    match /public/{doc} {
      allow read: if true;
      allow write: if request.auth != null && request.resource.data.author == request.auth.uid;
    }
  }
}
"""


def assert_permission_denied(excinfo, message):
    """gRPC status 7 with the emulator's message (docs/reference/security-rules.md §8:
    "false for '<method>' @ L<line>", after a newline)."""
    assert excinfo.value.grpc_status_code == grpc.StatusCode.PERMISSION_DENIED
    assert excinfo.value.grpc_status_code.value[0] == 7
    assert excinfo.value.message == message


def test_user_writes_own_document_and_is_denied_others(rules, db, user_client):
    rules(RULES)
    alice = user_client("alice")
    alice.document("users/alice").set({"name": "Alice"})
    assert alice.document("users/alice").get().to_dict() == {"name": "Alice"}

    db.document("users/bob").set({"name": "Bob"})             # owner bypasses rules
    with pytest.raises(exceptions.PermissionDenied) as excinfo:
        alice.document("users/bob").set({"name": "Mallory"})
    # set() is an upsert: the emulator's message lists the create and update statements
    # (recorded in Tests/Conformance/rules, groups write/quirk).
    assert_permission_denied(excinfo, "\nfalse for 'create' @ L5, false for 'update' @ L5")
    with pytest.raises(exceptions.PermissionDenied) as excinfo:
        alice.document("users/bob").get()
    assert_permission_denied(excinfo, "\nfalse for 'get' @ L5")
    with pytest.raises(exceptions.PermissionDenied):
        alice.document("users/bob").delete()
    with pytest.raises(exceptions.PermissionDenied):
        list(alice.collection("users").stream())             # the list rule fails for bob's doc
    assert db.document("users/bob").get().to_dict() == {"name": "Bob"}


def test_request_resource_data_and_unauthenticated_calls(rules, db, user_client):
    rules(RULES)
    alice, nobody = user_client("alice"), user_client(None)
    alice.document("public/p1").set({"author": "alice", "text": "hi"})
    with pytest.raises(exceptions.PermissionDenied) as excinfo:
        alice.document("public/p2").set({"author": "bob", "text": "forged"})
    assert_permission_denied(excinfo, "\nfalse for 'create' @ L9, false for 'update' @ L9")
    with pytest.raises(exceptions.PermissionDenied):
        nobody.document("public/p3").set({"author": "alice"})
    assert nobody.document("public/p1").get().to_dict() == {"author": "alice", "text": "hi"}
    assert [s.id for s in nobody.collection("public").stream()] == ["p1"]
    with pytest.raises(exceptions.PermissionDenied):
        nobody.document("users/alice").get()
    # A denied write in a batch fails the whole batch.
    batch = alice.batch()
    batch.set(alice.document("users/alice"), {"n": 1})
    batch.set(alice.document("users/bob"), {"n": 1})
    with pytest.raises(exceptions.PermissionDenied):
        batch.commit()
    assert not db.document("users/alice").get().exists


def test_allowed_listen_for_the_owner(rules, user_client):
    rules(RULES)
    alice = user_client("alice")
    alice.document("users/alice").set({"v": 1})
    got = queue.Queue()
    watch = alice.document("users/alice").on_snapshot(lambda docs, changes, t: got.put([d.to_dict() for d in docs]))
    try:
        assert got.get(timeout=5) == [{"v": 1}]
        alice.document("users/alice").set({"v": 2})
        assert got.get(timeout=5) == [{"v": 2}]
    finally:
        watch.unsubscribe()


def test_denied_listen_target_is_removed_with_permission_denied(rules, project, gapic, db):
    """Raw Listen with alice's token on bob's document: ADD is answered with a REMOVE
    whose cause is PERMISSION_DENIED, and nothing about the document leaks."""
    rules(RULES)
    db.document("users/bob").set({"secret": 1})
    database = f"projects/{project}/databases/(default)"
    metadata = [("google-cloud-resource-prefix", database),
                ("authorization", f"Bearer {unsigned_jwt('alice', project)}")]
    done = threading.Event()

    def requests():
        yield firestore_types.ListenRequest(database=database, add_target={
            "target_id": 7, "documents": {"documents": [f"{database}/documents/users/bob"]}})
        done.wait(5)

    stream = gapic.listen(requests=requests(), metadata=metadata, timeout=10)
    seen = []
    try:
        for response in stream:
            kind = firestore_types.ListenResponse.pb(response).WhichOneof("response_type")
            seen.append(kind)
            if kind == "target_change" and response.target_change.target_change_type.name == "REMOVE":
                change = response.target_change
                assert list(change.target_ids) == [7]
                assert change.cause.code == 7
                assert change.cause.message == "\nfalse for 'get' @ L5"
                break
            assert kind == "target_change", f"leaked {response}"
    finally:
        done.set()
        stream.cancel()
    assert seen[-1] == "target_change"
    assert "document_change" not in seen


def test_denied_listener_never_fires_in_the_python_client(rules, db, user_client):
    """The Python watch raises on a REMOVE (watch.py): its callback never runs and the
    consumer thread stops with `Error 7`."""
    rules(RULES)
    db.document("users/bob").set({"secret": 1})
    alice = user_client("alice")
    fired = threading.Event()
    errors = []

    class Capture(logging.Handler):
        def emit(self, record):
            if record.exc_info:
                errors.append(record.exc_info[1])

    # The consumer thread logs through google.api_core.bidi (the "google" logger may not
    # propagate to the root logger, so pytest's caplog would not see it).
    bidi_logger = logging.getLogger("google.api_core.bidi")
    handler = Capture(level=logging.ERROR)
    bidi_logger.addHandler(handler)
    try:
        watch = alice.document("users/bob").on_snapshot(lambda *args: fired.set())
        try:
            for _ in range(100):
                if errors:
                    break
                fired.wait(0.05)
        finally:
            watch.unsubscribe()
    finally:
        bidi_logger.removeHandler(handler)
    assert not fired.is_set()
    [error] = errors
    assert isinstance(error, RuntimeError)
    assert str(error) == "Error 7:  \nfalse for 'get' @ L5"
    assert isinstance(error.__cause__, exceptions.PermissionDenied)
