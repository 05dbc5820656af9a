"""Point-in-time reads (`read_time`) as the Python clients make them: documents, queries,
aggregations, collection ids, read-only transactions, and a Listen resumed from an earlier
snapshot; the window's edges answer as emulator 1.19.9 does (INVALID_ARGUMENT for the
future, FAILED_PRECONDITION for a read time past the retention window).

Source: googleapis firestore.proto `read_time` on each request and on Target; issue 10 §2.
"""

import datetime
import threading
import time

import pytest
from google.api_core import exceptions
from google.cloud import firestore


def _history(db):
    """Writes three states of `pit/d` and returns the update times of the first two."""
    doc = db.collection("pit").document("d")
    t1 = doc.set({"v": 1}).update_time
    db.collection("pit").document("other").set({"v": 10})
    t2 = doc.set({"v": 2}).update_time
    db.collection("pit").document("other").delete()
    doc.delete()
    return doc, t1, t2


def test_get_and_batch_get_at_read_time(client):
    doc, t1, t2 = _history(client)
    assert doc.get(read_time=t1).to_dict() == {"v": 1}
    assert doc.get(read_time=t2).to_dict() == {"v": 2}
    assert not doc.get().exists
    before = t1 - datetime.timedelta(microseconds=1)
    assert not doc.get(read_time=before).exists
    got = list(client.get_all([doc, client.collection("pit").document("other")], read_time=t2))
    assert {s.id: s.to_dict() for s in got if s.exists} == {"d": {"v": 2}, "other": {"v": 10}}


def test_query_aggregation_and_collections_at_read_time(client):
    _, _, t2 = _history(client)
    col = client.collection("pit")
    assert sorted(s.id for s in col.stream(read_time=t2)) == ["d", "other"]
    assert list(col.stream()) == []
    assert col.count().get(read_time=t2)[0][0].value == 2
    assert col.sum("v").get(read_time=t2)[0][0].value == 12
    assert [c.id for c in client.collections(read_time=t2)] == ["pit"]
    assert [c.id for c in client.collections()] == []
    assert sorted(d.id for d in col.list_documents(read_time=t2)) == ["d", "other"]


def test_read_only_transaction_at_read_time(db):
    """The client has no read_time on `transaction()`: BeginTransaction through its GAPIC layer."""
    from google.cloud.firestore_v1.types import common

    doc, t1, _ = _history(db)
    options = common.TransactionOptions(read_only=common.TransactionOptions.ReadOnly(read_time=t1))
    tx = db._firestore_api.begin_transaction(
        request={"database": db._database_string, "options": options}, metadata=db._rpc_metadata
    ).transaction
    got = db._firestore_api.get_document(
        request={"name": doc._document_path, "transaction": tx}, metadata=db._rpc_metadata)
    assert got.fields["v"].integer_value == 1
    db._firestore_api.rollback(request={"database": db._database_string, "transaction": tx}, metadata=db._rpc_metadata)


def test_read_times_outside_the_window_are_refused(db):
    doc = db.collection("pit").document("d")
    doc.set({"v": 1})
    now = datetime.datetime.now(datetime.timezone.utc)
    with pytest.raises(exceptions.InvalidArgument, match="cannot be in the future"):
        doc.get(read_time=now + datetime.timedelta(minutes=5))
    with pytest.raises(exceptions.FailedPrecondition, match="is too old"):
        doc.get(read_time=now - datetime.timedelta(hours=2))
    with pytest.raises(exceptions.FailedPrecondition, match="is too old"):
        list(db.collection("pit").stream(read_time=now - datetime.timedelta(hours=2)))


def test_listen_resumed_from_a_resume_token_sends_only_changes(hearth, project):
    """A raw gRPC Listen: the second stream resumes with the first one's token and receives
    the document written in between, not the one it already had (no reset)."""
    from google.cloud.firestore_v1.types import firestore as fs, query as q
    from google.cloud.firestore_v1.services.firestore import FirestoreClient
    from google.cloud.firestore_v1.services.firestore.transports.grpc import FirestoreGrpcTransport
    import grpc

    db = firestore.Client(project=project)
    db.collection("live").document("a").set({"n": 1})
    channel = grpc.insecure_channel(hearth.host)
    api = FirestoreClient(transport=FirestoreGrpcTransport(channel=channel))
    database = f"projects/{project}/databases/(default)"
    query = fs.Target.QueryTarget(
        parent=f"{database}/documents", structured_query=q.StructuredQuery(from_=[q.StructuredQuery.CollectionSelector(collection_id="live")]))

    def listen(target):
        responses = []
        done = threading.Event()

        def requests():
            yield fs.ListenRequest(database=database, add_target=target)
            done.wait(10)

        stream = api.listen(iter(requests()), metadata=[("authorization", "Bearer owner"), ("google-cloud-resource-prefix", database)])
        for r in stream:
            responses.append(r)
            if r.target_change.target_change_type == fs.TargetChange.TargetChangeType.CURRENT:
                break
        done.set()
        stream.cancel()
        return responses

    first = listen(fs.Target(target_id=1, query=query))
    token = next(r.target_change.resume_token for r in first if r.target_change.target_change_type == fs.TargetChange.TargetChangeType.CURRENT)
    assert [r.document_change.document.name.rsplit("/", 1)[1] for r in first if "document_change" in r] == ["a"]
    db.collection("live").document("b").set({"n": 2})
    resumed = listen(fs.Target(target_id=1, query=query, resume_token=token))
    kinds = [r.target_change.target_change_type for r in resumed if "target_change" in r]
    assert fs.TargetChange.TargetChangeType.RESET not in kinds
    assert [r.document_change.document.name.rsplit("/", 1)[1] for r in resumed if "document_change" in r] == ["b"]
    channel.close()
    db.close()
