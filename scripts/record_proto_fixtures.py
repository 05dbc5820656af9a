#!/usr/bin/env python3
"""Re-records the protobuf fixtures of Tests/ProtoWireTests from the real Python client.

Serializes google.firestore.v1 messages with the protobuf classes shipped in
google-cloud-firestore (2.x) — request messages built the way the client builds them
(batch writes, queries, aggregations, watch targets) and response messages as a server
would send them — and writes them as hex string literals into
Tests/ProtoWireTests/Fixtures/PythonProtoFixtures.swift (Swift source, so the test target
needs no resource declarations). Nothing touches the network.

Usage (in a throw-away virtualenv outside the repository):
    python3 -m venv <venv> && <venv>/bin/pip install 'google-cloud-firestore==2.*'
    <venv>/bin/python scripts/record_proto_fixtures.py

Responses are serialized with deterministic=True (map entries sorted by key), which is
the order Hearth's encoder uses, so the Swift tests compare bytes exactly.
"""

import datetime
import math

from google.cloud import firestore
from google.cloud.firestore_v1 import _helpers
from google.cloud.firestore_v1.base_query import FieldFilter, Or
from google.cloud.firestore_v1.field_path import FieldPath
from google.cloud.firestore_v1.types import common, document, firestore as fs, query as q, write
from google.protobuf import wrappers_pb2
from google.rpc import status_pb2
from google.type import latlng_pb2

from proto_fixtures import DB, DOCS, TS, TS2, add, client, fixtures, write_swift


# ---------------------------------------------------------------- requests (decode side)

b = client.batch()
b.set(
    client.document("users/alice"),
    {
        "score": 1.5, "age": 30, "name": "Alice", "nothing": None, "tags": ["a", "b"], "nested": {"x": None},
        "ts": firestore.SERVER_TIMESTAMP,
    },
)
add("commitSet", "CommitRequest from `batch.set(users/alice, {score: 1.5, age: 30, name: \"Alice\", nothing: None, "
    "tags: [\"a\", \"b\"], nested: {x: None}, ts: SERVER_TIMESTAMP})` (the shape of docs/reference/grpc-and-listen.md §1.4).",
    fs.CommitRequest(database=DB, writes=b._write_pbs))

b = client.batch()
b.create(client.document("users/bob"), {"n": 0, "flag": False, "empty": ""})
b.update(client.document("users/carol"), {"a.b": 1, FieldPath("x y", "z").to_api_repr(): "q"})
b.update(client.document("users/dave"), {"visits": firestore.Increment(1)})
b.delete(client.document("users/erin"), option=client.write_option(last_update_time=TS))
b.set(client.document("users/frank"), {"m": {"k": 2}, "hi": firestore.Maximum(5), "lo": firestore.Minimum(-2.5),
                                        "add": firestore.ArrayUnion([1, "x"]), "rm": firestore.ArrayRemove([None])},
      merge=True)
add("commitMixed", "CommitRequest in transaction `tx-1`: create(users/bob {n: 0, flag: false, empty: \"\"}), "
    "update(users/carol {a.b: 1, `x y`.z: \"q\"}), update(users/dave {visits: Increment(1)}), "
    "delete(users/erin, last_update_time=TS), set(users/frank, {m: {k: 2}, hi: Maximum(5), lo: Minimum(-2.5), "
    "add: ArrayUnion([1, \"x\"]), rm: ArrayRemove([None])}, merge=True).",
    fs.CommitRequest(database=DB, writes=b._write_pbs, transaction=b"tx-1"))

every_arm = {
    "a_null": None, "b_true": True, "c_false": False, "d_zero": 0, "e_min": -(2**63), "f_max": 2**63 - 1,
    "g_double": 1.5, "h_negzero": -0.0, "i_nan": math.nan, "j_inf": -math.inf,
    "k_ts": datetime.datetime(2023, 11, 14, 22, 13, 20, 500000, tzinfo=datetime.timezone.utc),
    "l_str": "héllo", "m_emptystr": "", "n_bytes": b"\x00\xff", "o_emptybytes": b"",
    "p_ref": client.document("rooms/r1"), "q_geo": firestore.GeoPoint(-33.5, 151.25),
    "r_array": [1, "two", None, [] if False else 3.0], "s_emptyarray": [], "t_map": {"k": {"deep": True}},
    "u_emptymap": {},
}
add("valueEveryArm", "Value from `_helpers.encode_value` of a dict holding every arm and the defaults "
    "(null, true, false, 0, int64 min/max, 1.5, -0.0, NaN, -inf, a timestamp, \"héllo\", \"\", bytes 00 ff, empty bytes, "
    "reference rooms/r1, GeoPoint(-33.5, 151.25), [1, \"two\", null, 3.0], [], {k: {deep: true}}, {}); "
    "deterministic serialization (sorted keys).",
    _helpers.encode_value(every_arm), deterministic=True)

users = client.collection("users")
filters = [
    FieldFilter("a", "<", 1), FieldFilter("b", "<=", 2), FieldFilter("c", ">", 3), FieldFilter("d", ">=", 4),
    FieldFilter("e", "==", "x"), FieldFilter("f", "!=", False), FieldFilter("g", "array_contains", 5),
    FieldFilter("h", "in", [1, 2]), FieldFilter("i", "array_contains_any", ["p"]), FieldFilter("j", "not-in", [0]),
    FieldFilter("k", "==", None), FieldFilter("l", "!=", None), FieldFilter("m", "==", math.nan),
    FieldFilter("n", "!=", math.nan),
]
query = users
for f in filters:
    query = query.where(filter=f)
query = query.where(filter=Or([FieldFilter("o.p", "==", 1), FieldFilter("`q r`", ">", 2)]))
query = (query.select(["name", "age"]).order_by("a", direction="DESCENDING").order_by("b")
         .start_after({"a": 1, "b": 2}).end_at({"a": 9, "b": 9}).offset(3).limit(7))
add("runQueryEveryFilter", "RunQueryRequest (transaction `tx`) from users.where(a < 1, b <= 2, c > 3, d >= 4, e == \"x\", "
    "f != false, g array_contains 5, h in [1, 2], i array_contains_any [\"p\"], j not-in [0], k == None, l != None, "
    "m == NaN, n != NaN, Or(o.p == 1, `q r` > 2)).select([name, age]).order_by(a desc).order_by(b)"
    ".start_after({a: 1, b: 2}).end_at({a: 9, b: 9}).offset(3).limit(7).",
    fs.RunQueryRequest(parent=DOCS, structured_query=query._to_protobuf(), transaction=b"tx"))

group = client.collection_group("msgs").where(filter=FieldFilter("n", "==", 0)).limit(0)
add("runQueryCollectionGroup", "RunQueryRequest (read_time TS) under rooms/r1 for a collection group `msgs` "
    "where n == 0, limit 0.",
    fs.RunQueryRequest(parent=DOCS + "/rooms/r1", structured_query=group._to_protobuf(), read_time=TS))

aggregation = users.where(filter=FieldFilter("age", ">", 1)).count()
aggregation.sum("score")
aggregation.avg("score", alias="mean")
aggregation.count(alias="c")
aggregation.sum("x")
agg_pb = aggregation._to_protobuf()
agg_pb.aggregations[0].count.up_to = 10
add("runAggregation", "RunAggregationQueryRequest (new read-only transaction) for users.where(age > 1) with "
    "count(up_to 10), sum(score), avg(score) as \"mean\", count as \"c\", sum(x): unnamed ones become field_1…3.",
    fs.RunAggregationQueryRequest(parent=DOCS, structured_aggregation_query=agg_pb,
                                  new_transaction=common.TransactionOptions(read_only={"read_time": TS})))

watch_query = users.where(filter=FieldFilter("age", ">=", 18)).order_by("age")
add("listenAddQuery", "ListenRequest as Python Watch sends it on reconnect: add_target query users where "
    "age >= 18 order by age, target_id 0x5079, resume_token \"rt-1\".",
    fs.ListenRequest(database=DB, add_target=fs.Target(
        query=fs.Target.QueryTarget(parent=DOCS, structured_query=watch_query._to_protobuf()),
        target_id=0x5079, resume_token=b"rt-1")))
add("listenAddDocuments", "ListenRequest as the mobile SDKs send it: add_target documents [rooms/r1], "
    "target_id 2, read_time TS, expected_count 1, once, labels {goog-listen-tags: existence-filter-mismatch}.",
    fs.ListenRequest(database=DB, labels={"goog-listen-tags": "existence-filter-mismatch"}, add_target=fs.Target(
        documents=fs.Target.DocumentsTarget(documents=[DOCS + "/rooms/r1"]), target_id=2, read_time=TS,
        expected_count=wrappers_pb2.Int32Value(value=1), once=True)))
add("listenRemove", "ListenRequest remove_target 2.", fs.ListenRequest(database=DB, remove_target=2))

add("batchGet", "BatchGetDocumentsRequest for users/alice and users/bob, mask [name], new read-write "
    "transaction retrying `old`.",
    fs.BatchGetDocumentsRequest(database=DB, documents=[DOCS + "/users/alice", DOCS + "/users/bob"],
                                mask=common.DocumentMask(field_paths=["name"]),
                                new_transaction=common.TransactionOptions(read_write={"retry_transaction": b"old"})))
add("beginTransactionReadOnly", "BeginTransactionRequest with options read_only {read_time TS}.",
    fs.BeginTransactionRequest(database=DB, options=common.TransactionOptions(read_only={"read_time": TS})))
add("listDocuments", "ListDocumentsRequest as `collection.list_documents()` sends it: parent root, "
    "collection users, page_size 50, empty mask, show_missing.",
    fs.ListDocumentsRequest(parent=DOCS, collection_id="users", page_size=50, mask=common.DocumentMask(),
                            show_missing=True))
add("writeHandshake", "WriteRequest handshake: database only.", fs.WriteRequest(database=DB))
b = client.batch()
b.update(client.document("users/alice"), {"visits": firestore.Increment(1)})
add("writeBatch", "WriteRequest batch without database: update(users/alice {visits: Increment(1)}), "
    "stream_token \"tok-1\".", fs.WriteRequest(writes=b._write_pbs, stream_token=b"tok-1"))

# ---------------------------------------------------------------- responses (encode side)

doc = document.Document(name=DOCS + "/users/alice", fields={"age": {"integer_value": 30}, "name": {"string_value": "Alice"}},
                        create_time=TS, update_time=TS2)
add("listenAdd", "ListenResponse target_change ADD [20601] (docs/reference/grpc-and-listen.md §1.4).",
    fs.ListenResponse(target_change=fs.TargetChange(target_change_type=fs.TargetChange.TargetChangeType.ADD,
                                                    target_ids=[20601])), True)
add("listenCurrent", "ListenResponse target_change CURRENT [20601], resume_token \"rt-1\", read_time TS.",
    fs.ListenResponse(target_change=fs.TargetChange(target_change_type=fs.TargetChange.TargetChangeType.CURRENT,
                                                    target_ids=[20601], resume_token=b"rt-1", read_time=TS)), True)
add("listenGlobalNoChange", "ListenResponse global NO_CHANGE: no ids, resume_token \"rt-1\", read_time TS.",
    fs.ListenResponse(target_change=fs.TargetChange(resume_token=b"rt-1", read_time=TS)), True)
add("listenRemoveWithCause", "ListenResponse REMOVE [3] with cause PERMISSION_DENIED \"denied\".",
    fs.ListenResponse(target_change=fs.TargetChange(target_change_type=fs.TargetChange.TargetChangeType.REMOVE,
                                                    target_ids=[3], cause=status_pb2.Status(code=7, message="denied"))),
    True)
add("listenDocumentChange", "ListenResponse document_change users/alice {age: 30, name: \"Alice\"} "
    "(create TS, update TS2), target_ids [1, 2], removed_target_ids [3].",
    fs.ListenResponse(document_change=write.DocumentChange(document=doc, target_ids=[1, 2], removed_target_ids=[3])), True)
add("listenDocumentDelete", "ListenResponse document_delete users/bob, removed_target_ids [1], read_time TS.",
    fs.ListenResponse(document_delete=write.DocumentDelete(document=DOCS + "/users/bob", removed_target_ids=[1],
                                                           read_time=TS)), True)
add("listenDocumentRemove", "ListenResponse document_remove users/bob, removed_target_ids [1, 20601], read_time TS.",
    fs.ListenResponse(document_remove=write.DocumentRemove(document=DOCS + "/users/bob", removed_target_ids=[1, 20601],
                                                           read_time=TS)), True)
add("listenFilter", "ListenResponse filter target 2, count 3, bloom filter bitmap 0f f0 padding 4 hash_count 7.",
    fs.ListenResponse(filter=write.ExistenceFilter(target_id=2, count=3, unchanged_names={
        "bits": {"bitmap": b"\x0f\xf0", "padding": 4}, "hash_count": 7})), True)
add("runQueryDocument", "RunQueryResponse document users/alice, read_time TS, skipped_results 2.",
    fs.RunQueryResponse(document=doc, read_time=TS, skipped_results=2), True)
add("runQueryDone", "RunQueryResponse with transaction \"tx\", read_time TS, done.",
    fs.RunQueryResponse(transaction=b"tx", read_time=TS, done=True), True)
add("batchGetMissing", "BatchGetDocumentsResponse missing users/bob, read_time TS.",
    fs.BatchGetDocumentsResponse(missing=DOCS + "/users/bob", read_time=TS), True)
add("batchGetFound", "BatchGetDocumentsResponse found users/alice, transaction \"tx\", read_time TS.",
    fs.BatchGetDocumentsResponse(found=doc, transaction=b"tx", read_time=TS), True)
add("commitResponse", "CommitResponse: [update_time TS2 + transform_results [timestamp TS2, null]], "
    "[no update_time], commit_time TS2.",
    fs.CommitResponse(write_results=[write.WriteResult(update_time=TS2, transform_results=[
        {"timestamp_value": TS2}, {"null_value": 0}]), write.WriteResult()], commit_time=TS2), True)
add("writeResponseHandshake", "WriteResponse handshake: stream_id \"s1\", stream_token 01.",
    fs.WriteResponse(stream_id="s1", stream_token=b"\x01"), True)
add("batchWriteResponse", "BatchWriteResponse: ok (update_time TS2) and ALREADY_EXISTS \"exists\".",
    fs.BatchWriteResponse(write_results=[write.WriteResult(update_time=TS2), write.WriteResult()],
                          status=[status_pb2.Status(), status_pb2.Status(code=6, message="exists")]), True)
add("aggregationResponse", "RunAggregationQueryResponse {c: 0, field_1: 2.5, mean: null}, read_time TS.",
    fs.RunAggregationQueryResponse(result={"aggregate_fields": {
        "c": {"integer_value": 0}, "field_1": {"double_value": 2.5}, "mean": {"null_value": 0}}}, read_time=TS), True)
add("listDocumentsResponse", "ListDocumentsResponse: users/alice (full) and users/ghost (missing: name only), "
    "next_page_token \"p2\".",
    fs.ListDocumentsResponse(documents=[doc, document.Document(name=DOCS + "/users/ghost")], next_page_token="p2"), True)
add("partitionQueryResponse", "PartitionQueryResponse: one partition cursor [reference users/m] (before false).",
    fs.PartitionQueryResponse(partitions=[q.Cursor(values=[{"reference_value": DOCS + "/users/m"}])]), True)

# ---------------------------------------------------------------- output

out = write_swift("Tests/ProtoWireTests/Fixtures/PythonProtoFixtures.swift", "scripts/record_proto_fixtures.py",
                  "PythonFixtures", [
    "/// Serialized google.firestore.v1 messages made with the protobuf classes of the real Python",
    "/// client (hex, whitespace-insensitive). TS = 1_700_000_000 s + 500_000_000 ns,",
    "/// TS2 = 1_700_000_001 s + 123_456_000 ns; database projects/demo-proj/databases/(default).",
])
print(f"wrote {len(fixtures)} fixtures to {out.name}")
