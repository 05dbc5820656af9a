"""Every Firestore value type written by a client and read back unchanged, and the
cross-type ordering a query sees.

Sources: docs/reference/firestore-wire.md §1.7 (Value), §1.9 (total ordering of values),
§7 (Python decoding: timestamps → DatetimeWithNanoseconds, references).
"""

import datetime
import math

import pytest
from google.api_core import exceptions
from google.cloud import firestore

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
UTC = datetime.timezone.utc


def _sample(client):
    return {
        "null": None,
        "t": True,
        "f": False,
        "zero": 0,
        "imax": INT64_MAX,
        "imin": INT64_MIN,
        "dbl": 1.5,
        "tiny": 5e-324,
        "huge": 1.7976931348623157e308,
        "nan": float("nan"),
        "inf": float("inf"),
        "ninf": float("-inf"),
        "negzero": -0.0,
        "when": datetime.datetime(2024, 2, 29, 23, 59, 58, 123456, tzinfo=UTC),
        "epoch": datetime.datetime(1970, 1, 1, tzinfo=UTC),
        "old": datetime.datetime(1, 1, 1, 0, 0, 0, 1, tzinfo=UTC),
        "bytes": b"\x00\xff\x10binary",
        "emptybytes": b"",
        "geo": firestore.GeoPoint(-33.8688, 151.2093),
        "ref": client.collection("rooms").document("r1"),
        "nestedref": client.document("a/b/c/d"),
        "str": "",
        "uni": "café ☕ 日本語 😀 \u0000 nul",
        "map": {"a": {"b": {"c": [1, {"d": None}, {"e": [2, 3]}]}}, "ключ": "значение"},
        "emptymap": {},
        "arr": [None, True, 1, 2.5, "s", b"b", {}, {"inner": ["x", {"deeper": [1]}]}],
        "emptyarr": [],
    }


def test_every_value_type_round_trips(client):
    sample = _sample(client)
    ref = client.collection("values").document("all")
    ref.set(sample)
    got = ref.get().to_dict()
    assert set(got) == set(sample)
    for key in ("null", "t", "f", "zero", "imax", "imin", "dbl", "tiny", "huge", "inf", "ninf",
                "bytes", "emptybytes", "str", "uni", "map", "emptymap", "emptyarr"):
        assert got[key] == sample[key], key
        assert type(got[key]) is type(sample[key]), key
    assert math.isnan(got["nan"])
    # -0.0 reads back with its sign, as production keeps it (googleapis/nodejs-firestore#1638);
    # the official emulator answers +0.0 (json_roundtrip r000, listed in skips.json).
    assert type(got["negzero"]) is float and got["negzero"] == 0.0
    assert math.copysign(1.0, got["negzero"]) == -1.0
    for key in ("when", "epoch", "old"):
        assert got[key] == sample[key], key
        assert got[key].microsecond == sample[key].microsecond
    assert got["geo"] == firestore.GeoPoint(-33.8688, 151.2093)
    assert isinstance(got["ref"], firestore.DocumentReference)
    assert got["ref"].path == "rooms/r1"
    assert got["nestedref"].path == "a/b/c/d"
    assert got["arr"] == sample["arr"]
    assert [type(v) for v in got["arr"]] == [type(None), bool, int, float, str, bytes, dict, dict]


def test_negative_zero_keeps_its_sign_and_equals_zero_in_queries(client):
    import threading

    col = client.collection("zeros")
    col.document("neg").set({"z": -0.0, "geo": firestore.GeoPoint(-0.0, -0.0), "arr": [-0.0]})
    col.document("pos").set({"z": 0.0})
    col.document("int").set({"z": 0})
    col.document("one").set({"z": 1})
    neg = col.document("neg").get().to_dict()
    assert math.copysign(1.0, neg["z"]) == -1.0
    assert math.copysign(1.0, neg["geo"].latitude) == -1.0 and math.copysign(1.0, neg["geo"].longitude) == -1.0
    assert math.copysign(1.0, neg["arr"][0]) == -1.0
    # Queries compare by value: -0.0 == 0.0 == 0, ordered as equals (ties by name).
    assert sorted(s.id for s in col.where(filter=firestore.FieldFilter("z", "==", 0)).stream()) == ["int", "neg", "pos"]
    assert sorted(s.id for s in col.where(filter=firestore.FieldFilter("z", "==", -0.0)).stream()) == ["int", "neg", "pos"]
    assert [s.id for s in col.where(filter=firestore.FieldFilter("z", "in", [0.0])).stream()] == ["int", "neg", "pos"]
    assert [s.id for s in col.order_by("z").stream()] == ["int", "neg", "pos", "one"]
    assert [s.id for s in col.where(filter=firestore.FieldFilter("arr", "array_contains", 0)).stream()] == ["neg"]
    assert [s.id for s in col.where(filter=firestore.FieldFilter("z", ">", -0.0)).stream()] == ["one"]
    # Query results and the Listen stream carry the sign too.
    [doc] = [s for s in col.order_by("z").stream() if s.id == "neg"]
    assert math.copysign(1.0, doc.get("z")) == -1.0
    seen = threading.Event()
    values = []

    def on_snapshot(snapshots, changes, read_time):
        values.extend(s.get("z") for s in snapshots)
        seen.set()

    watch = col.document("neg").on_snapshot(on_snapshot)
    try:
        assert seen.wait(10)
    finally:
        watch.unsubscribe()
    assert values and math.copysign(1.0, values[0]) == -1.0
    # Writing -0.0 over 0.0 is a change: the stored value takes the new sign.
    before = col.document("pos").get()
    col.document("pos").set({"z": -0.0})
    after = col.document("pos").get()
    assert math.copysign(1.0, after.get("z")) == -1.0 and after.update_time > before.update_time


def test_array_directly_inside_array_is_invalid_argument(client):
    ref = client.collection("values").document("nested")
    with pytest.raises(exceptions.InvalidArgument):
        ref.set({"a": [1, [2]]})
    assert not ref.get().exists


def test_unicode_ids_and_field_names(client):
    ref = client.collection("ünïcødé").document("ドキュメント 😀")
    ref.set({"名前": "値", "emoji😀": "✓"})
    snap = ref.get()
    assert snap.id == "ドキュメント 😀"
    assert snap.to_dict() == {"名前": "値", "emoji😀": "✓"}
    assert [s.id for s in client.collection("ünïcødé").stream()] == ["ドキュメント 😀"]


def test_values_sort_across_types(client):
    col = client.collection("order")
    values = [
        ("v00", None),
        ("v01", False),
        ("v02", True),
        ("v03", float("nan")),
        ("v04", float("-inf")),
        ("v05", INT64_MIN),
        ("v06", -1.5),
        ("v07", 0),
        ("v08", 1),
        ("v09", 1.5),
        ("v10", INT64_MAX),
        ("v11", float("inf")),
        ("v12", datetime.datetime(2000, 1, 1, tzinfo=UTC)),
        ("v13", ""),
        ("v14", "A"),
        ("v15", "a"),
        ("v16", "é"),       # UTF-8 byte order: é (c3 a9) sorts after ASCII
        ("v17", "😀"),
        ("v18", b""),
        ("v19", b"\x00"),
        ("v20", client.document("a/a")),
        ("v21", client.document("a/b")),
        ("v22", firestore.GeoPoint(-10, 10)),
        ("v23", firestore.GeoPoint(10, -10)),
        ("v24", []),
        ("v25", [1]),
        ("v26", {}),
        ("v27", {"a": 1}),
    ]
    batch = client.batch()
    for doc_id, value in reversed(values):
        batch.set(col.document(doc_id), {"v": value})
    batch.commit()
    expected = [doc_id for doc_id, _ in values]
    assert [s.id for s in col.order_by("v").stream()] == expected
    assert [s.id for s in col.order_by("v", direction=firestore.Query.DESCENDING).stream()] == expected[::-1]
    # Equality across int and double: 1 == 1.0, and -0.0 == 0.
    assert [s.id for s in col.where(filter=firestore.FieldFilter("v", "==", 1.0)).stream()] == ["v08"]
    assert [s.id for s in col.where(filter=firestore.FieldFilter("v", "==", -0.0)).stream()] == ["v07"]
    # NaN and null equality become IS_NAN / IS_NULL filters.
    assert [s.id for s in col.where(filter=firestore.FieldFilter("v", "==", float("nan"))).stream()] == ["v03"]
    assert [s.id for s in col.where(filter=firestore.FieldFilter("v", "==", None)).stream()] == ["v00"]
    # Range filters stay within their type.
    numbers = col.where(filter=firestore.FieldFilter("v", ">", float("-inf")))
    assert [s.id for s in numbers.stream()] == ["v05", "v06", "v07", "v08", "v09", "v10", "v11"]
    strings = col.where(filter=firestore.FieldFilter("v", ">=", ""))
    assert [s.id for s in strings.stream()] == ["v13", "v14", "v15", "v16", "v17"]
