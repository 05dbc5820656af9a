"""Every query kind through RunQuery, collection groups, ListDocuments, ListCollectionIds
and RunAggregationQuery, with exact result ids.

Sources: docs/reference/firestore-wire.md §1.5 (StructuredQuery, implicit ordering, cursors),
§1.6 (aggregations), §8 items 14–15 (filters and ordering gotchas); docs/reference/grpc-and-listen.md §7 (RunQuery, RunAggregationQuery, ListDocuments, ListCollectionIds),
§1.3 O14 (aggregations without alias).
"""

import pytest
from google.cloud import firestore
from google.cloud.firestore import And, FieldFilter, Or

from support import owner_metadata

ASC = firestore.Query.ASCENDING
DESC = firestore.Query.DESCENDING

CITIES = {
    "BJ": {"name": "Beijing", "state": "BJ", "pop": 21540, "tags": ["asia"], "capital": True, "area": 16410.5},
    "DC": {"name": "Washington", "state": None, "pop": 690, "tags": ["east"], "capital": True, "rank": 5, "area": 177.0},
    "LA": {"name": "Los Angeles", "state": "CA", "pop": 3900, "tags": ["west", "coast", "south"], "capital": False, "rank": 1, "area": 1302.0},
    "NYC": {"name": "New York", "state": "NY", "pop": 8400, "tags": ["east", "coast"], "capital": False, "rank": 2, "area": 783.8},
    "SAC": {"name": "Sacramento", "state": "CA", "pop": 525, "tags": ["west"], "capital": True, "rank": 7, "area": 259.0},
    "SF": {"name": "San Francisco", "state": "CA", "pop": 870, "tags": ["west", "coast"], "capital": False, "rank": 3, "area": 121.4},
    "TOK": {"name": "Tokyo", "state": "TK", "pop": 13960, "tags": [], "capital": True, "rank": 0, "area": 2194.1},
}
POP_ORDER = ["SAC", "DC", "SF", "LA", "NYC", "TOK", "BJ"]


@pytest.fixture
def cities(client):
    batch = client.batch()
    col = client.collection("cities")
    for doc_id, data in CITIES.items():
        batch.set(col.document(doc_id), data)
    batch.commit()
    return col


def ids(query):
    return [s.id for s in query.stream()]


def where(col, field, op, value):
    return col.where(filter=FieldFilter(field, op, value))


@pytest.mark.parametrize("field, op, value, expected", [
    ("state", "==", "CA", ["LA", "SAC", "SF"]),
    ("state", "!=", "CA", ["BJ", "NYC", "TOK"]),   # null and missing excluded; implicit order by state
    ("pop", "<", 870, ["SAC", "DC"]),
    ("pop", "<=", 870, ["SAC", "DC", "SF"]),
    ("pop", ">", 8400, ["TOK", "BJ"]),
    ("pop", ">=", 8400, ["NYC", "TOK", "BJ"]),
    ("state", "in", ["CA", "NY"], ["LA", "NYC", "SAC", "SF"]),
    ("state", "not-in", ["CA", "NY"], ["BJ", "TOK"]),
    ("tags", "array_contains", "coast", ["LA", "NYC", "SF"]),
    ("tags", "array_contains_any", ["asia", "south"], ["BJ", "LA"]),
    ("state", "==", None, ["DC"]),
    ("rank", "!=", None, ["TOK", "LA", "NYC", "SF", "DC", "SAC"]),   # IS_NOT_NULL orders by rank
    ("area", ">", 1000, ["LA", "TOK", "BJ"]),          # int bound against doubles
    ("capital", "==", True, ["BJ", "DC", "SAC", "TOK"]),
])
def test_field_filters(cities, field, op, value, expected):
    assert ids(where(cities, field, op, value)) == expected


def test_or_and_composite_filters(cities):
    equalities = cities.where(filter=Or([FieldFilter("state", "==", "NY"), FieldFilter("capital", "==", False)]))
    assert ids(equalities) == ["LA", "NYC", "SF"]
    # An inequality inside a disjunction still orders the result by its field.
    either = cities.where(filter=Or([FieldFilter("pop", ">", 10000), FieldFilter("capital", "==", False)]))
    assert ids(either) == ["SF", "LA", "NYC", "TOK", "BJ"]
    nested = cities.where(filter=And([
        FieldFilter("state", "==", "CA"),
        Or([FieldFilter("pop", "<", 600), FieldFilter("rank", "==", 1)]),
    ]))
    assert ids(nested) == ["SAC", "LA"]
    chained = where(where(cities, "capital", "==", True), "pop", "<", 1000)
    assert ids(chained) == ["SAC", "DC"]


def test_order_by_and_missing_fields(cities):
    assert ids(cities.order_by("pop")) == POP_ORDER
    assert ids(cities.order_by("pop", direction=DESC)) == POP_ORDER[::-1]
    # A document without the order field is excluded (BJ has no rank).
    assert ids(cities.order_by("rank")) == ["TOK", "LA", "NYC", "SF", "DC", "SAC"]
    # null sorts first; ties broken by document name in the last direction.
    assert ids(cities.order_by("state").order_by("pop", direction=DESC)) == ["DC", "BJ", "LA", "SF", "SAC", "NYC", "TOK"]
    assert ids(cities.order_by("capital", direction=DESC).order_by("name")) == ["BJ", "SAC", "TOK", "DC", "LA", "NYC", "SF"]


def test_limit_limit_to_last_and_offset(cities):
    by_pop = cities.order_by("pop")
    assert ids(by_pop.limit(2)) == ["SAC", "DC"]
    assert ids(by_pop.offset(5)) == ["TOK", "BJ"]
    # limit_to_last: the client flips the order, sends a limit, and reverses the answer.
    # (Its get() flips the Order objects in place, shared with `by_pop`: use a fresh query.)
    assert [s.id for s in cities.order_by("pop").limit_to_last(2).get()] == ["TOK", "BJ"]
    assert [s.id for s in cities.order_by("pop", direction=DESC).limit_to_last(3).get()] == ["SF", "DC", "SAC"]
    assert ids(by_pop.offset(2).limit(2)) == ["SF", "LA"]
    assert ids(by_pop.offset(10)) == []
    assert ids(cities.limit(3)) == ["BJ", "DC", "LA"]


def test_value_cursors(cities):
    by_pop = cities.order_by("pop")
    assert ids(by_pop.start_at({"pop": 870})) == ["SF", "LA", "NYC", "TOK", "BJ"]
    assert ids(by_pop.start_after({"pop": 870})) == ["LA", "NYC", "TOK", "BJ"]
    assert ids(by_pop.end_at({"pop": 3900})) == ["SAC", "DC", "SF", "LA"]
    assert ids(by_pop.end_before({"pop": 3900})) == ["SAC", "DC", "SF"]
    assert ids(by_pop.start_after({"pop": 690}).end_before({"pop": 13960})) == ["SF", "LA", "NYC"]
    two = cities.order_by("state").order_by("pop", direction=DESC)
    assert ids(two.start_at({"state": "CA", "pop": 870})) == ["SF", "SAC", "NYC", "TOK"]
    assert ids(two.end_before({"state": "CA", "pop": 870})) == ["DC", "BJ", "LA"]
    # A cursor on a prefix of the order-by fields.
    assert ids(two.start_after({"state": "CA"})) == ["NYC", "TOK"]


def test_document_snapshot_cursors(cities):
    la = cities.document("LA").get()
    # The snapshot supplies the order-by values and the document name as tie-breaker.
    assert ids(cities.order_by("state").start_after(la)) == ["SAC", "SF", "NYC", "TOK"]
    assert ids(cities.order_by("state").start_at(la)) == ["LA", "SAC", "SF", "NYC", "TOK"]
    assert ids(cities.order_by("state").end_at(la)) == ["DC", "BJ", "LA"]
    assert ids(cities.order_by("state").end_before(la)) == ["DC", "BJ"]
    # No explicit order: the cursor is on __name__ only.
    assert ids(cities.start_after(la)) == ["NYC", "SAC", "SF", "TOK"]
    # With an inequality filter the implicit order is (pop, __name__).
    big = where(cities, "pop", ">", 700)
    sf = cities.document("SF").get()
    assert ids(big.start_after(sf)) == ["LA", "NYC", "TOK", "BJ"]


def test_select_projection(cities):
    got = {s.id: s.to_dict() for s in cities.select(["name", "pop"]).where(filter=FieldFilter("pop", "<", 700)).stream()}
    assert got == {"DC": {"name": "Washington", "pop": 690}, "SAC": {"name": "Sacramento", "pop": 525}}
    empty = [s.to_dict() for s in cities.select([]).limit(2).stream()]
    assert empty == [{}, {}]


def test_collection_group(client):
    batch = client.batch()
    batch.set(client.document("cities/SF/landmarks/golden"), {"type": "bridge", "n": 2})
    batch.set(client.document("cities/SF/landmarks/park"), {"type": "park", "n": 1})
    batch.set(client.document("cities/LA/landmarks/griffith"), {"type": "park", "n": 3})
    batch.set(client.document("landmarks/top"), {"type": "park", "n": 4})
    batch.set(client.document("a/b/c/d/landmarks/deep"), {"type": "park", "n": 5})
    batch.set(client.document("cities/SF/notlandmarks/x"), {"type": "park", "n": 6})
    batch.commit()
    group = client.collection_group("landmarks")
    assert [s.reference.path for s in group.stream()] == [
        "a/b/c/d/landmarks/deep", "cities/LA/landmarks/griffith", "cities/SF/landmarks/golden",
        "cities/SF/landmarks/park", "landmarks/top",
    ]
    parks = group.where(filter=FieldFilter("type", "==", "park")).order_by("n", direction=DESC)
    assert ids(parks) == ["deep", "top", "griffith", "park"]


def test_list_documents_and_collections(client):
    batch = client.batch()
    batch.set(client.document("rooms/a"), {"v": 1})
    batch.set(client.document("rooms/b/messages/m1"), {"v": 2})   # rooms/b itself is missing
    batch.set(client.document("rooms/a/members/x"), {"v": 3})
    batch.set(client.document("rooms/a/log/y"), {"v": 4})
    batch.set(client.document("users/u"), {"v": 5})
    batch.commit()
    listed = {ref.id for ref in client.collection("rooms").list_documents()}
    assert listed == {"a", "b"}
    assert not client.document("rooms/b").get().exists
    assert sorted(c.id for c in client.collections()) == ["rooms", "users"]
    assert sorted(c.id for c in client.document("rooms/a").collections()) == ["log", "members"]
    assert [c.id for c in client.document("rooms/b").collections()] == ["messages"]
    assert list(client.document("users/u").collections()) == []
    paged = {ref.id for ref in client.collection("rooms").list_documents(page_size=1)}
    assert paged == {"a", "b"}


def test_aggregations_with_aliases(cities):
    query = cities.count(alias="n").sum("pop", alias="total").avg("pop", alias="mean")
    [results] = query.get()
    got = {r.alias: r.value for r in results}
    assert got == {"n": 7, "total": 49885, "mean": pytest.approx(49885 / 7, rel=1e-15)}
    assert type(got["n"]) is int and type(got["total"]) is int and type(got["mean"]) is float
    # Sum over doubles is a double; a filter narrows every aggregation.
    ca = where(cities, "state", "==", "CA")
    [results] = ca.count(alias="c").sum("area", alias="a").get()
    got = {r.alias: r.value for r in results}
    assert got == {"c": 3, "a": pytest.approx(1302.0 + 259.0 + 121.4, rel=1e-15)}
    # A limit applies before counting; rank is missing on BJ, so avg runs over six values.
    assert cities.order_by("pop").limit(2).count(alias="c").get()[0][0].value == 2
    assert cities.avg("rank", alias="r").get()[0][0].value == pytest.approx(18 / 6)


def test_aggregations_without_alias(cities):
    [results] = cities.count().get()
    assert [(r.alias, r.value) for r in results] == [("field_1", 7)]
    [results] = cities.count().sum("pop").get()
    assert sorted((r.alias, r.value) for r in results) == [("field_1", 7), ("field_2", 49885)]


def test_aggregations_on_empty_results_exact_values(project, cities, gapic):
    # The Python client reads `integer_value or double_value`, so 0, 0.0 and null all come
    # back as 0.0; the generated client shows the Values themselves.
    nothing = where(cities, "pop", ">", 10**9)
    [results] = nothing.count(alias="c").sum("pop", alias="s").avg("pop", alias="a").get()
    assert {r.alias: r.value for r in results} == {"c": 0, "s": 0, "a": 0}
    request = {
        "parent": f"projects/{project}/databases/(default)/documents",
        "structured_aggregation_query": {
            "structured_query": nothing._to_protobuf(),
            "aggregations": [
                {"alias": "c", "count": {}},
                {"alias": "s", "sum": {"field": {"field_path": "pop"}}},
                {"alias": "a", "avg": {"field": {"field_path": "pop"}}},
            ],
        },
    }
    responses = list(gapic.run_aggregation_query(request=request, metadata=owner_metadata(project)))
    assert len(responses) == 1
    fields = responses[0].result.aggregate_fields
    kinds = {k: type(v).pb(v).WhichOneof("value_type") for k, v in fields.items()}
    assert kinds == {"c": "integer_value", "s": "integer_value", "a": "null_value"}
    assert fields["c"].integer_value == 0 and fields["s"].integer_value == 0
    assert responses[0].read_time is not None



def test_aggregation_limit_takes_the_smallest_summed_values(client):
    # google-cloud-firestore test_sum_query_get_with_limit, run against production as well:
    # sum/avg read the field's index, so limit(12) keeps the 12 smallest products whatever
    # the document names; a count beside them counts those 12. Recorded from the emulator in
    # Tests/Conformance/aggregation_cases.json.
    col = client.collection("grid")
    batch = client.batch()
    for a in range(5):
        for b in range(5):
            batch.set(col.document(f"g{24 - 5 * a - b:02d}"), {"a": a, "b": b, "stats": {"product": a * b}})
    batch.commit()
    assert col.sum("stats.product", alias="t").get()[0][0].value == 100
    [results] = col.limit(12).sum("stats.product", alias="s").avg("stats.product", alias="m").count(alias="c").get()
    assert {r.alias: r.value for r in results} == {"s": 5, "m": 5 / 12, "c": 12}
    streamed = [r.value for rs in col.limit(12).sum("stats.product", alias="s").stream() for r in rs]
    assert streamed == [5]
    # A count alone counts every document; a sum leaves out those without its field.
    client.document("grid/nofield").set({"a": 9})
    [results] = col.count(alias="c").get()
    assert results[0].value == 26
    [results] = col.count(alias="c").sum("stats.product", alias="s").get()
    assert {r.alias: r.value for r in results} == {"c": 25, "s": 100}


def test_aggregation_list_errors_carry_the_emulators_messages(client):
    from google.api_core.exceptions import InvalidArgument
    from google.cloud.firestore_v1.aggregation import AggregationQuery

    col = client.collection("agg-errors")
    with pytest.raises(InvalidArgument, match="Aggregation aliases contain duplicate alias: total."):
        col.count(alias="total").count(alias="total").get()
    with pytest.raises(InvalidArgument, match="Aggregations can not be empty."):
        AggregationQuery(where(col, "a", ">=", 0)).get()
    with pytest.raises(InvalidArgument, match="Aggregations can not be empty."):
        list(AggregationQuery(where(col, "a", ">=", 0)).stream())


@pytest.mark.parametrize("build, message", [
    (lambda c: where(c, "a", "in", list(range(31))), "'IN' supports up to 30 comparison values."),
    (lambda c: where(where(c, "a", "not-in", [5]), "b", "in", [1]),
     "'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'."),
    (lambda c: where(where(c, "t", "array_contains", 1), "t", "array_contains_any", [2]),
     "A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction."),
    (lambda c: c.where(filter=Or([FieldFilter("a", "==", k) for k in range(31)])),
     "Too many disjunctions after normalization. Result had 31 disjunctions which is more than the maximum of 30"),
    (lambda c: where(where(c, "a", "!=", 5), "b", "not-in", [1]),
     "Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query."),
], ids=["in-31", "not-in-with-in", "two-array-contains", "31-disjunctions", "not-equal-with-not-in"])
def test_query_shapes_production_refuses(client, build, message):
    # Over gRPC, with the emulator's messages (Tests/Conformance/query_cases.json).
    from google.api_core.exceptions import InvalidArgument

    with pytest.raises(InvalidArgument) as info:
        list(build(client.collection("shapes")).stream())
    assert info.value.message == message


def test_large_result_stream(client):
    # ~1 MB of results: more than the 64 KiB initial HTTP/2 window, in many DATA frames.
    col = client.collection("bulk")
    blob = "y" * 5000
    batch = client.batch()
    for i in range(200):
        batch.set(col.document(f"d{i:04}"), {"i": i, "blob": blob})
    batch.commit()
    got = [(s.id, s.get("i"), len(s.get("blob"))) for s in col.order_by("i", direction=DESC).stream()]
    assert got == [(f"d{i:04}", i, 5000) for i in reversed(range(200))]


def test_bulk_writer_is_not_atomic(client):
    col = client.collection("bw")
    col.document("gone").set({"v": 0})
    failures = []
    writer = client.bulk_writer()
    writer.on_write_error(lambda error, bulk_writer: failures.append(error.code) and False)
    for i in range(30):
        writer.set(col.document(f"s{i:02}"), {"i": i})
    writer.update(col.document("missing"), {"v": 1})
    writer.delete(col.document("gone"))
    writer.close()
    assert failures == [5]                                  # NOT_FOUND for the update only
    assert sorted(s.id for s in col.stream()) == [f"s{i:02}" for i in range(30)]


def test_recursive_query_and_recursive_delete(client):
    batch = client.batch()
    for path in ("rooms/a", "rooms/b", "rooms/a/msgs/m1", "rooms/a/msgs/m1/reactions/r",
                 "rooms/c/deep/x", "other/keep", "roomsx/keep", "x/y/rooms/z"):
        batch.set(client.document(path), {"p": path})
    batch.commit()
    rooms = client.collection("rooms")
    # The client's recursive query: every collection (empty collection_id, all descendants)
    # from the root, bounded by __name__ cursors to rooms/… (firestore_v1 base_query.py).
    assert [s.reference.path for s in rooms.recursive().stream()] == [
        "rooms/a", "rooms/a/msgs/m1", "rooms/a/msgs/m1/reactions/r", "rooms/b", "rooms/c/deep/x",
    ]
    assert client.recursive_delete(rooms) == 5
    assert [s.id for s in rooms.stream()] == []
    assert client.document("rooms/a/msgs/m1").get().exists is False
    assert [client.document(p).get().exists for p in ("other/keep", "roomsx/keep", "x/y/rooms/z")] == [True] * 3
