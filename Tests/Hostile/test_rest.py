"""REST semantics under hostile input: every malformed request must get
`{"error":{"code","message","status"}}` with the right HTTP status (400/403/404/409), never a
500 and never a hang. Facts: docs/reference/firestore-wire.md §1.3–§1.10, §2.2.
"""

from __future__ import annotations

import base64
import json
import time

import pytest

from hostile_support import DB, DOCS, PROJECT, Reply, assert_firestore_error, doc_path

COMMIT = f"/v1/{DB}/documents:commit"
RUN_QUERY = f"/v1/{DOCS}:runQuery"
BEGIN = f"/v1/{DB}/documents:beginTransaction"
ROLLBACK = f"/v1/{DB}/documents:rollback"
BATCH_GET = f"/v1/{DB}/documents:batchGet"


def name(*segments: str) -> str:
    return DOCS + "/" + "/".join(segments)


def commit(hearth, writes, **extra) -> Reply:
    return hearth.request("POST", COMMIT, {"writes": writes, **extra})


def set_fields(fields: dict, doc: str = "d") -> list:
    return [{"update": {"name": name("hostile", doc), "fields": fields}}]


def expect_400(reply: Reply) -> dict:
    return assert_firestore_error(reply, 400, {"INVALID_ARGUMENT", "FAILED_PRECONDITION"})


def b64url(obj) -> str:
    raw = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


# --- malformed JSON ----------------------------------------------------------------------------

@pytest.mark.parametrize("body", [
    b"{", b'{"writes":[', b'{"writes":[{"update":{"name":"', b"[", b'"', b"nul", b"tru", b"{}}", b"{} {}",
    b"{,}", b'{"a":}', b'{"a" 1}', b"{'writes':[]}", b'{"writes":[],}', b"[1,]", b"\x00", b"\xef\xbb\xbf",
    b'{"writes": NaN}', b'{"writes": Infinity}', b"{/*c*/}", b'{"writes":[]}garbage',
    b'{"\\ud800":1}', b'{"a":"\\x41"}', b'{"a":"\\u12"}', b'{"a":"\t"}', b'{"a":01}', b'{"a":-}',
    b'{"a":1.}', b'{"a":.5}', b'{"a":1e}', b'{"a":+1}',
])
def test_malformed_json_gets_400(hearth, body):
    expect_400(hearth.request("POST", COMMIT, body))


@pytest.mark.parametrize("body", [
    b'{"writes":"\xff"}', b'{"\xc0\xaf":1}', b'{"writes":[],"x":"\xed\xa0\x80"}', b'{"a":"\xf8\x88\x80\x80\x80"}',
    b'{"a":"\xe2\x82"}',
])
def test_invalid_utf8_in_json_gets_400(hearth, body):
    expect_400(hearth.request("POST", COMMIT, body))


def test_invalid_utf8_in_string_value_gets_400(hearth):
    body = b'{"writes":[{"update":{"name":"' + name("hostile", "u8").encode() + b'","fields":{"s":{"stringValue":"\xff\xfe"}}}}]}'
    expect_400(hearth.request("POST", COMMIT, body))


@pytest.mark.parametrize("opener,closer", [(b"[", b"]"), (b'{"a":', b"}")])
def test_10000_levels_of_json_nesting_gets_400(hearth, opener, closer):
    body = opener * 10_000 + b"1" + closer * 10_000
    expect_400(hearth.request("POST", COMMIT, body))
    expect_400(hearth.request("POST", RUN_QUERY, body))
    expect_400(hearth.request("PATCH", doc_path("hostile", "deep"), body))


def test_deep_nesting_inside_a_value_gets_400(hearth):
    inner = b'{"nullValue":null}'
    for _ in range(5_000):
        inner = b'{"arrayValue":{"values":[' + inner + b"]}}"
    body = b'{"fields":{"a":' + inner + b"}}"
    expect_400(hearth.request("PATCH", doc_path("hostile", "deep2"), body))


def test_unclosed_deep_nesting_gets_400(hearth):
    expect_400(hearth.request("POST", COMMIT, b"[" * 1_000_000))


@pytest.mark.parametrize("number", [
    b"1" * 5000, b"1e999999999", b"-1e999999999", b"1e-999999999", b"0." + b"0" * 5000 + b"1",
    b"123456789012345678901234567890", b"1" + b"0" * 400 + b".5",
])
def test_huge_numbers_do_not_hang_or_500(hearth, number):
    body = b'{"fields":{"a":{"doubleValue":' + number + b'},"b":{"integerValue":' + number + b"}}}"
    t0 = time.monotonic()
    r = hearth.request("PATCH", doc_path("hostile", "num"), body)
    assert time.monotonic() - t0 < 3
    expect_400(r)


@pytest.mark.parametrize("number,expected", [
    (b"1e999", "Infinity"), (b"-1e999", "-Infinity"), (b"1e-999", 0.0), (b"1.7976931348623157e308", 1.7976931348623157e308),
])
def test_out_of_range_doubles_round_sensibly(hearth, number, expected):
    body = b'{"fields":{"a":{"doubleValue":' + number + b"}}}"
    r = hearth.request("PATCH", doc_path("hostile", "dbl"), body)
    if r.status == 200:
        got = r.json()["fields"]["a"]["doubleValue"]
        assert got == expected or float(got) == float(expected), (got, expected)
    else:
        expect_400(r)


@pytest.mark.parametrize("integer", ["9223372036854775808", "-9223372036854775809", "99999999999999999999999"])
def test_integer_overflow_gets_400(hearth, integer):
    expect_400(commit(hearth, set_fields({"i": {"integerValue": integer}})))


def test_int64_bounds_round_trip(hearth):
    r = commit(hearth, set_fields({"hi": {"integerValue": "9223372036854775807"},
                                   "lo": {"integerValue": "-9223372036854775808"}}, "bounds"))
    assert r.status == 200, r
    doc = hearth.request("GET", doc_path("hostile", "bounds")).json()
    assert doc["fields"]["hi"] == {"integerValue": "9223372036854775807"}
    assert doc["fields"]["lo"] == {"integerValue": "-9223372036854775808"}


def test_duplicate_json_keys_do_not_500(hearth):
    body = ('{"writes":[{"update":{"name":"%s","fields":{"a":{"integerValue":"1"},"a":{"stringValue":"x"}}}}],'
            '"writes":[]}' % name("hostile", "dup"))
    r = hearth.request("POST", COMMIT, body)
    if r.status != 200:
        expect_400(r)


def test_duplicate_value_arm_keys_get_400_or_last_wins(hearth):
    body = '{"fields":{"a":{"integerValue":"1","integerValue":"x"}}}'
    r = hearth.request("PATCH", doc_path("hostile", "dup2"), body)
    if r.status != 200:
        expect_400(r)


@pytest.mark.parametrize("body", [b"null", b"1", b'"x"', b"[]", b"true", b'{"writes":{}}', b'{"writes":[1]}',
                                  b'{"writes":[null]}', b'{"writes":[[]]}', b'{"writes":[{}]}', b'{"unknown":1}',
                                  b'{"writes":[],"transaction":1}'])
def test_wrong_json_shapes_for_commit_get_400(hearth, body):
    expect_400(hearth.request("POST", COMMIT, body))


# --- wrong value shapes for every Value arm ----------------------------------------------------

BAD_VALUES = {
    "nullValue": ["foo", 1.5, {}, [], True],
    "booleanValue": ["true", 1, None, {}, [], "yes"],
    "integerValue": ["abc", "1.5", 1.5, True, {}, [], "", " 1", "0x10", "1e999", "1_000", None, "--1", "+-1", "1e-3"],
    "doubleValue": ["abc", True, {}, [], "", "1.2.3", None, "0x1p3", "nan(1)"],
    "timestampValue": ["yesterday", "2024-13-01T00:00:00Z", "2024-01-01T25:00:00Z", "2024-02-30T00:00:00Z",
                       "10000-01-01T00:00:00Z", "0000-12-31T23:59:59Z", 12345, "2024-01-01", "2024-01-01T00:00:00",
                       "2024-01-01T00:00:00.1234567890Z", "2024-01-01T00:00:60Z", "", {}, None,
                       "2024-01-01T00:00:00+25:00", "2024-01-01T00:00:00.Z"],
    "stringValue": [1, None, {}, [], True],
    "bytesValue": ["!!!", 1, None, {}, "a", "====", "ab=c"],
    "referenceValue": ["not/a/name", f"{DOCS}/c", DOCS, f"{DOCS}//d", "", 1, None, {}, f"{DOCS}/c/d/",
                       "projects//databases/(default)/documents/c/d"],
    "geoPointValue": [{"latitude": 91, "longitude": 0}, {"latitude": 0, "longitude": 181},
                      {"latitude": "x", "longitude": 0}, {"latitude": -90.0001, "longitude": 0}, [], "0,0",
                      {"latitude": 0, "longitude": 0, "x": 1}, {"latitude": "NaN", "longitude": 0}, None, 5],
    "arrayValue": ["x", [], {"values": "x"}, {"values": [1]}, {"values": [{}]}, {"values": [None]},
                  {"values": [{"arrayValue": {}}]}, {"values": {}}, {"x": []}, 1],
    "mapValue": ["x", [], {"fields": []}, {"fields": {"": {"nullValue": None}}}, {"fields": {"a": 1}},
                 {"fields": {"__x__": {"nullValue": None}}}, {"x": {}}, 1,
                 {"fields": {"a": {"stringValue": "x", "integerValue": "1"}}}],
}
BAD_VALUE_CASES = [(arm, v) for arm, vs in BAD_VALUES.items() for v in vs]


@pytest.mark.parametrize("arm,bad", BAD_VALUE_CASES, ids=[f"{a}-{i}" for i, (a, _) in enumerate(BAD_VALUE_CASES)])
def test_wrong_value_shape_gets_400(hearth, arm, bad):
    expect_400(commit(hearth, set_fields({"v": {arm: bad}})))


@pytest.mark.parametrize("value", [
    {}, {"stringValue": "a", "integerValue": "1"}, {"unknownValue": 1}, {"fieldReferenceValue": "a"},
    {"functionValue": {"name": "x"}}, {"pipelineValue": {}}, {"variableReferenceValue": "x"}, None, [], "x",
    {"nullValue": None, "booleanValue": True},
])
def test_zero_several_or_pipeline_value_arms_get_400(hearth, value):
    expect_400(commit(hearth, set_fields({"v": value})))


@pytest.mark.parametrize("arm,good,stored", [
    ("nullValue", "NULL_VALUE", None), ("nullValue", None, None),
    ("integerValue", 42, "42"), ("doubleValue", "-0", -0.0), ("doubleValue", "NaN", "NaN"),
    ("bytesValue", "_-8=", "/+8="), ("timestampValue", "2024-01-01T01:00:00.123456789+01:00", "2024-01-01T00:00:00.123456Z"),
])
def test_lenient_value_forms_are_accepted(hearth, arm, good, stored):
    r = commit(hearth, set_fields({"v": {arm: good}}, "lenient"))
    assert r.status == 200, r
    got = hearth.request("GET", doc_path("hostile", "lenient")).json()["fields"]["v"]
    assert list(got) == [arm]
    if isinstance(stored, float):
        assert float(got[arm]) == stored
    else:
        assert got[arm] == stored, got


# --- document names ----------------------------------------------------------------------------

BAD_NAMES = [
    f"{DOCS}/c", DOCS, f"{DOCS}/c/d/e", f"{DOCS}/c/..", f"{DOCS}/../d", f"{DOCS}/c/.", f"{DOCS}/./d",
    f"{DOCS}/c/__x__", f"{DOCS}/__x__/d", f"{DOCS}/c//d/e", f"{DOCS}//d", f"{DOCS}/c/d/", f"{DOCS}/c/",
    f"{DOCS}/c/" + "a" * 1600, f"{DOCS}/" + "a" * 1600 + "/d",
    "projects/other-project/databases/(default)/documents/c/d",
    f"projects/{PROJECT}/databases/other-db/documents/c/d",
    f"projects/{PROJECT}/databases/(default)/c/d", "c/d", "", "/", f"/{DOCS}/c/d",
    f"{DOCS}/" + "c/d/" * 101 + "c/d",
]


@pytest.mark.parametrize("bad", BAD_NAMES, ids=range(len(BAD_NAMES)))
def test_bad_document_name_in_update_gets_400(hearth, bad):
    expect_400(commit(hearth, [{"update": {"name": bad, "fields": {}}}]))


@pytest.mark.parametrize("bad", BAD_NAMES, ids=range(len(BAD_NAMES)))
def test_bad_document_name_in_delete_gets_400(hearth, bad):
    expect_400(commit(hearth, [{"delete": bad}]))


@pytest.mark.parametrize("bad", BAD_NAMES[:18], ids=range(18))
def test_bad_document_name_in_batch_get_gets_400(hearth, bad):
    r = hearth.request("POST", BATCH_GET, {"documents": [bad]})
    expect_400(r)


@pytest.mark.parametrize("name_value", [1, None, {}, [], True])
def test_non_string_names_get_400(hearth, name_value):
    expect_400(commit(hearth, [{"update": {"name": name_value, "fields": {}}}]))
    expect_400(commit(hearth, [{"delete": name_value}]))


def test_numeric_datastore_ids_are_allowed(hearth):
    r = commit(hearth, [{"update": {"name": name("hostile", "__id123__"), "fields": {}}}])
    assert r.status == 200, r


def test_1500_byte_id_is_allowed_and_1501_is_not(hearth):
    assert commit(hearth, [{"update": {"name": name("hostile", "a" * 1500), "fields": {}}}]).status == 200
    expect_400(commit(hearth, [{"update": {"name": name("hostile", "a" * 1501), "fields": {}}}]))
    expect_400(commit(hearth, [{"update": {"name": name("hostile", "é" * 751), "fields": {}}}]))


def test_create_document_with_hostile_document_id_query_param(hearth):
    for bad in ["..", ".", "__x__", "a/b", "a" * 1600]:
        r = hearth.request("POST", f"/v1/{DOCS}/hostile?documentId={bad}", {"fields": {}})
        expect_400(r)


def test_create_document_with_name_in_body_gets_400(hearth):
    r = hearth.request("POST", f"/v1/{DOCS}/hostile?documentId=named", {"name": name("hostile", "other"), "fields": {}})
    expect_400(r)


def test_patch_name_mismatch_with_url_gets_400(hearth):
    r = hearth.request("PATCH", doc_path("hostile", "one"), {"name": name("hostile", "two"), "fields": {}})
    expect_400(r)


def test_get_other_project_url_does_not_leak(hearth):
    r = hearth.request("GET", "/v1/projects/other-project/databases/(default)/documents/hostile/d")
    # Another project is a separate (empty) namespace on the emulator, or a 400; never 500.
    assert r.status in (200, 400, 404), r
    if r.status != 200:
        assert_firestore_error(r, {400, 404})


# --- limits -------------------------------------------------------------------------------------

def test_field_value_over_limit_gets_400(hearth):
    expect_400(commit(hearth, set_fields({"s": {"stringValue": "x" * 1_048_488}}, "big1")))
    expect_400(commit(hearth, set_fields({"b": {"bytesValue": base64.b64encode(b"x" * 1_048_488).decode()}}, "big1")))


def test_document_over_1mib_gets_400(hearth):
    fields = {"a": {"stringValue": "x" * 600_000}, "b": {"stringValue": "y" * 600_000}}
    expect_400(commit(hearth, set_fields(fields, "big2")))
    expect_400(hearth.request("PATCH", doc_path("hostile", "big2"), {"fields": fields}))
    assert hearth.request("GET", doc_path("hostile", "big2")).status == 404


def test_document_just_under_1mib_is_accepted(hearth):
    r = commit(hearth, set_fields({"a": {"stringValue": "x" * 1_040_000}}, "big3"))
    assert r.status == 200, r


def test_transform_cannot_grow_document_over_1mib(hearth):
    assert commit(hearth, set_fields({"a": {"stringValue": "x" * 600_000}}, "grow")).status == 200
    w = [{"transform": {"document": name("hostile", "grow"), "fieldTransforms": [
        {"fieldPath": "arr", "appendMissingElements": {"values": [{"stringValue": "y" * 600_000}]}}]}}]
    expect_400(commit(hearth, w))
    doc = hearth.request("GET", doc_path("hostile", "grow")).json()
    assert "arr" not in doc.get("fields", {})


def nested_map(levels: int) -> dict:
    v: dict = {"integerValue": "1"}
    for _ in range(levels - 1):
        v = {"mapValue": {"fields": {"m": v}}}
    return v


def test_nesting_20_levels_ok_21_rejected(hearth):
    # A field may hold 20 levels of maps (nested_map(21): 20 maps around the leaf), the 21st is
    # refused: the emulator's count of the documented limit of 20 (Tests/Conformance/limits.json
    # l008/l009; https://firebase.google.com/docs/firestore/quotas).
    assert commit(hearth, set_fields({"m": nested_map(21)}, "n20")).status == 200
    expect_400(commit(hearth, set_fields({"m": nested_map(22)}, "n21")))


def test_transform_at_deep_path_is_bounded(hearth):
    # The emulator stores what transforms build at any depth (limits.json l026-l031: an
    # increment on 100 segments); Hearth's own bound is 100 levels of maps
    # (DocumentLimits.maxTransformedDepth), so 101 segments fit and 102 do not.
    def transform(segments, doc):
        return [{"update": {"name": name("hostile", doc), "fields": {}},
                 "updateTransforms": [{"fieldPath": ".".join(["m"] * segments), "setToServerValue": "REQUEST_TIME"}]}]
    assert commit(hearth, transform(25, "deepT25")).status == 200
    assert commit(hearth, transform(101, "deepT101")).status == 200
    expect_400(commit(hearth, transform(102, "deepT102")))
    assert hearth.request("GET", doc_path("hostile", "deepT101")).status == 200


def test_update_mask_at_deep_path_cannot_exceed_depth(hearth):
    path = ".".join(["m"] * 25)
    w = [{"update": {"name": name("hostile", "deepM"), "fields": {"m": nested_map(25)}},
          "updateMask": {"fieldPaths": [path]}}]
    expect_400(commit(hearth, w))


def test_arrays_in_arrays_rejected(hearth):
    inner = {"arrayValue": {"values": [{"integerValue": "1"}]}}
    expect_400(commit(hearth, set_fields({"a": {"arrayValue": {"values": [inner]}}}, "aa")))
    # An array inside a map inside an array is fine.
    ok = {"arrayValue": {"values": [{"mapValue": {"fields": {"x": inner}}}]}}
    assert commit(hearth, set_fields({"a": ok}, "aa2")).status == 200
    # Through a transform.
    w = [{"transform": {"document": name("hostile", "aa3"), "fieldTransforms": [
        {"fieldPath": "arr", "appendMissingElements": {"values": [inner]}}]}}]
    expect_400(commit(hearth, w))


def test_10000_writes_in_one_commit(hearth):
    writes = [{"update": {"name": name("many", f"d{i:05d}"), "fields": {"i": {"integerValue": str(i)}}}}
              for i in range(10_000)]
    t0 = time.monotonic()
    r = commit(hearth, writes)
    assert r.status == 200, r
    assert len(r.json()["writeResults"]) == 10_000
    assert time.monotonic() - t0 < 30
    got = hearth.request("GET", doc_path("many", "d09999")).json()
    assert got["fields"]["i"] == {"integerValue": "9999"}


def test_10000_writes_to_one_document(hearth):
    writes = [{"update": {"name": name("many1", "d"), "fields": {"i": {"integerValue": str(i)}}}}
              for i in range(10_000)]
    r = commit(hearth, writes)
    assert r.status == 200, r
    assert hearth.request("GET", doc_path("many1", "d")).json()["fields"]["i"] == {"integerValue": "9999"}


def test_commit_with_one_bad_write_among_many_changes_nothing(hearth):
    writes = [{"update": {"name": name("atomic", f"d{i}"), "fields": {}}} for i in range(100)]
    writes.append({"update": {"name": name("atomic", "bad"), "fields": {"__bad__": {"nullValue": None}}}})
    expect_400(commit(hearth, writes))
    assert hearth.request("GET", doc_path("atomic", "d0")).status == 404


def test_request_body_just_over_10mib_is_refused(hearth):
    writes = [{"update": {"name": name("tenmib", f"d{i}"), "fields": {"s": {"stringValue": "x" * 900_000}}}}
              for i in range(12)]
    r = commit(hearth, writes)
    # Production's API request limit is 10 MiB (https://firebase.google.com/docs/firestore/quotas);
    # the emulator refuses from 4 MiB with RESOURCE_EXHAUSTED (Tests/Conformance/limits.json l020).
    err = assert_firestore_error(r, 400, "INVALID_ARGUMENT")
    assert err["message"] == "Request payload size exceeds the limit: 10485760 bytes."
    assert hearth.request("GET", doc_path("tenmib", "d0")).status == 404


def test_heavy_queries_do_not_stall_other_requests(hearth):
    # Queries run on the store's reader threads (FirestoreEngine.offPool), not on the
    # cooperative pool that decodes every request: more CPU-heavy queries than cores (RunQuery
    # over 10,000 documents, ~0.7 s each) stall neither GET / nor a GetDocument.
    import os
    import threading
    writes = [{"update": {"name": name("hol", f"d{i:05d}"), "fields": {"i": {"integerValue": str(i)},
                                                                       "s": {"stringValue": "x" * 100}}}}
              for i in range(10_000)]
    assert commit(hearth, writes).status == 200
    q = {"structuredQuery": {"from": [{"collectionId": "hol"}],
                             "orderBy": [{"field": {"fieldPath": "i"}, "direction": "DESCENDING"}]}}
    ts = [threading.Thread(target=lambda: hearth.request("POST", RUN_QUERY, q, timeout=60))
          for _ in range((os.cpu_count() or 2) + 1)]
    for t in ts:
        t.start()
    time.sleep(0.2)
    t0 = time.monotonic()
    ok = hearth.root_ok(timeout=30)
    latency = time.monotonic() - t0
    t1 = time.monotonic()
    got = hearth.request("GET", doc_path("hol", "d00042"), timeout=30)
    get_latency = time.monotonic() - t1
    busy = sum(t.is_alive() for t in ts)
    for t in ts:
        t.join()
    assert ok and latency < 0.3, f"GET / took {latency:.2f}s behind {len(ts)} heavy queries"
    assert got.status == 200 and get_latency < 0.3, f"GetDocument took {get_latency:.2f}s behind {len(ts)} heavy queries"
    assert busy > 0, "the heavy queries had all finished: the test measured nothing"


# --- transforms ---------------------------------------------------------------------------------

BAD_TRANSFORMS = [
    {"fieldPath": "a", "bogus": 1},
    {"fieldPath": "a"},
    {"fieldPath": "a", "setToServerValue": "NOW"},
    {"fieldPath": "a", "setToServerValue": 99},
    {"fieldPath": "a", "setToServerValue": "SERVER_VALUE_UNSPECIFIED"},
    {"fieldPath": "a", "setToServerValue": None},
    {"fieldPath": "a", "increment": {"stringValue": "x"}},
    {"fieldPath": "a", "increment": {"arrayValue": {}}},
    {"fieldPath": "a", "increment": {"nullValue": None}},
    {"fieldPath": "a", "increment": "1"},
    {"fieldPath": "a", "maximum": {"booleanValue": True}},
    {"fieldPath": "a", "minimum": {"mapValue": {}}},
    {"fieldPath": "a", "increment": {"integerValue": "1"}, "maximum": {"integerValue": "1"}},
    {"fieldPath": "a", "appendMissingElements": {"integerValue": "1"}},
    {"fieldPath": "a", "appendMissingElements": [1]},
    {"fieldPath": "a", "removeAllFromArray": "x"},
    {"fieldPath": "", "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": "__name__", "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": "__x__", "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": "a.__x__", "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": "a..b", "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": "a.", "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": ".a", "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": "`unterminated", "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": "a b", "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": "`a`b", "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": "``", "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": "`a\\", "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": "a" * 1501, "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": 5, "setToServerValue": "REQUEST_TIME"},
    {"fieldPath": None, "setToServerValue": "REQUEST_TIME"},
]


@pytest.mark.parametrize("transform", BAD_TRANSFORMS, ids=range(len(BAD_TRANSFORMS)))
def test_invalid_transform_gets_400(hearth, transform):
    w = {"update": {"name": name("hostile", "t"), "fields": {}}, "updateMask": {"fieldPaths": []},
         "updateTransforms": [transform]}
    expect_400(commit(hearth, [w]))
    w2 = {"transform": {"document": name("hostile", "t"), "fieldTransforms": [transform]}}
    expect_400(commit(hearth, [w2]))


def test_501_transforms_get_400(hearth):
    ts = [{"fieldPath": f"f{i}", "setToServerValue": "REQUEST_TIME"} for i in range(501)]
    w = {"update": {"name": name("hostile", "t501"), "fields": {}}, "updateTransforms": ts}
    expect_400(commit(hearth, [w]))


@pytest.mark.parametrize("write", [
    {"delete": name("hostile", "t"), "updateTransforms": [{"fieldPath": "a", "setToServerValue": "REQUEST_TIME"}]},
    {"delete": name("hostile", "t"), "updateMask": {"fieldPaths": ["a"]}},
    # (A mask on `a` with a transform on `a.b` is accepted: the emulator answers it with 200.)
    {"update": {"name": name("hostile", "t"), "fields": {}},
     "updateTransforms": [{"fieldPath": "a", "setToServerValue": "REQUEST_TIME"},
                          {"fieldPath": "a.b", "setToServerValue": "REQUEST_TIME"}]},
    {"update": {"name": name("hostile", "t"), "fields": {}}, "delete": name("hostile", "t")},
    {"update": {"name": name("hostile", "t"), "fields": {}}, "currentDocument": {"exists": True, "updateTime": "2024-01-01T00:00:00Z"}},
    {"update": {"name": name("hostile", "t"), "fields": {}}, "currentDocument": {"exists": "yes"}},
    {"update": {"name": name("hostile", "t"), "fields": {}}, "currentDocument": {"updateTime": "nope"}},
    {"update": {"name": name("hostile", "t"), "fields": {}}, "updateMask": {"fieldPaths": ["__x__"]}},
    {"update": {"name": name("hostile", "t"), "fields": {}}, "updateMask": {"fieldPaths": ["a..b"]}},
    {"update": {"name": name("hostile", "t"), "fields": {}}, "updateMask": {"fieldPaths": "a"}},
    {"update": {"name": name("hostile", "t"), "fields": {}}, "updateMask": ["a"]},
    {"verify": name("hostile", "t"), "updateMask": {"fieldPaths": ["a"]}},
    {"verify": 5},
    {"transform": {"document": name("hostile", "t")}, "update": {"name": name("hostile", "t")}},
    {},
    {"currentDocument": {"exists": True}},
])
def test_invalid_write_combinations_get_400(hearth, write):
    expect_400(commit(hearth, [write]))


def test_increment_saturates_instead_of_trapping(hearth):
    assert commit(hearth, set_fields({"n": {"integerValue": "9223372036854775807"}}, "sat")).status == 200
    w = [{"transform": {"document": name("hostile", "sat"), "fieldTransforms": [
        {"fieldPath": "n", "increment": {"integerValue": "9223372036854775807"}}]}}]
    r = commit(hearth, w)
    assert r.status == 200, r
    assert r.json()["writeResults"][0]["transformResults"][0] == {"integerValue": "9223372036854775807"}
    w[0]["transform"]["fieldTransforms"][0]["increment"] = {"integerValue": "-9223372036854775808"}
    for _ in range(3):
        r = commit(hearth, w)
        assert r.status == 200, r
    assert r.json()["writeResults"][0]["transformResults"][0] == {"integerValue": "-9223372036854775808"}


# --- queries -----------------------------------------------------------------------------------

def run_query(hearth, sq, parent_suffix: str = "") -> Reply:
    path = f"/v1/{DOCS}{parent_suffix}:runQuery"
    return hearth.request("POST", path, {"structuredQuery": sq})


def ff(field, op, value):
    return {"fieldFilter": {"field": {"fieldPath": field}, "op": op, "value": value}}


INT1 = {"integerValue": "1"}
BAD_QUERIES = [
    {"from": [{"collectionId": "c"}], "orderBy": [{"field": {"fieldPath": "a"}}],
     "startAt": {"values": [INT1, INT1, INT1]}},
    {"from": [{"collectionId": "c"}], "startAt": {"values": [INT1, INT1]}},
    {"from": [{"collectionId": "c"}], "endAt": {"values": [INT1, INT1]}},
    {"from": [{"collectionId": "c"}], "where": ff("a", "IN", {"arrayValue": {"values": [INT1] * 31}})},
    {"from": [{"collectionId": "c"}], "where": ff("a", "ARRAY_CONTAINS_ANY", {"arrayValue": {"values": [INT1] * 31}})},
    {"from": [{"collectionId": "c"}], "where": ff("a", "NOT_IN", {"arrayValue": {"values": [INT1] * 11}})},
    {"from": [{"collectionId": "c"}], "where": ff("a", "IN", INT1)},
    {"from": [{"collectionId": "c"}], "where": ff("a", "IN", {"arrayValue": {}})},
    {"from": [{"collectionId": "c"}], "where": ff("a", "LIKE", INT1)},
    {"from": [{"collectionId": "c"}], "where": ff("a", "OPERATOR_UNSPECIFIED", INT1)},
    {"from": [{"collectionId": "c"}], "where": ff("a", 999, INT1)},
    {"from": [{"collectionId": "c"}], "where": ff("a", None, INT1)},
    {"from": [{"collectionId": "c"}], "where": ff("a", "EQUAL", None)},
    {"from": [{"collectionId": "c"}], "where": ff("", "EQUAL", INT1)},
    {"from": [{"collectionId": "c"}], "where": ff("a..b", "EQUAL", INT1)},
    {"from": [{"collectionId": "c"}], "where": ff("__name__", "EQUAL", {"stringValue": "x"})},
    {"from": [{"collectionId": "c"}], "where": {"unaryFilter": {"op": "IS_BANANA", "field": {"fieldPath": "a"}}}},
    {"from": [{"collectionId": "c"}], "where": {"unaryFilter": {"op": "IS_NULL"}}},
    {"from": [{"collectionId": "c"}], "where": {"compositeFilter": {"op": "XOR", "filters": [ff("a", "EQUAL", INT1)]}}},
    {"from": [{"collectionId": "c"}], "where": {}},
    {"from": [{"collectionId": "c"}], "where": {"fieldFilter": {}, "unaryFilter": {}}},
    {"from": [{"collectionId": "c"}], "orderBy": [{"field": {"fieldPath": "a"}, "direction": "SIDEWAYS"}]},
    {"from": [{"collectionId": "c"}], "orderBy": [{"direction": "ASCENDING"}]},
    {"from": [{"collectionId": "c"}], "limit": -1},
    {"from": [{"collectionId": "c"}], "limit": "abc"},
    {"from": [{"collectionId": "c"}], "limit": 2_147_483_648},
    {"from": [{"collectionId": "c"}], "limit": 1.5},
    {"from": [{"collectionId": "c"}], "limit": {"value": -1}},
    {"from": [{"collectionId": "c"}], "offset": -1},
    {"from": [{"collectionId": "c"}], "offset": 1e30},
    {"from": [{"collectionId": "c"}, {"collectionId": "d"}]},
    {"from": [{"collectionId": ""}]},
    {"from": [{"collectionId": 5}]},
    {"from": "c"},
    {"from": [{"collectionId": "c"}], "select": {"fields": [{"fieldPath": "a..b"}]}},
    {"from": [{"collectionId": "c"}], "select": "a"},
    {"from": [{"collectionId": "c"}], "bogus": 1},
    {"from": [{"collectionId": "c"}], "where": ff("a", "GREATER_THAN", INT1), "orderBy": [{"field": {"fieldPath": "b"}}],
     "startAt": {"values": [INT1, INT1, INT1, INT1]}},
    {"from": [{"collectionId": "c"}], "where": {"compositeFilter": {"op": "AND", "filters": [
        ff("a", "NOT_IN", {"arrayValue": {"values": [INT1]}}), ff("b", "NOT_EQUAL", INT1)]}}},
    {"from": [{"collectionId": "c"}], "where": {"compositeFilter": {"op": "AND", "filters": [
        ff("a", "NOT_IN", {"arrayValue": {"values": [INT1]}}), ff("b", "NOT_IN", {"arrayValue": {"values": [INT1]}})]}}},
]


@pytest.mark.parametrize("sq", BAD_QUERIES, ids=range(len(BAD_QUERIES)))
def test_invalid_query_gets_400(hearth, sq):
    expect_400(run_query(hearth, sq))


def test_find_nearest_is_refused_cleanly(hearth):
    sq = {"from": [{"collectionId": "c"}], "findNearest": {"vectorField": {"fieldPath": "v"}, "queryVector": INT1,
                                                           "distanceMeasure": "EUCLIDEAN", "limit": 1}}
    assert_firestore_error(run_query(hearth, sq), {400, 501})


QUERY_GAPS = {
    "collection-id-with-slash": {"from": [{"collectionId": "a/b"}]},
    "reserved-collection-id": {"from": [{"collectionId": "__x__"}]},
    # (An empty AND is accepted: the emulator answers it, see Tests/Conformance/query_cases.json.)
    "31-disjunctions": {"from": [{"collectionId": "c"}], "where": {"compositeFilter": {"op": "OR", "filters": [
        ff("a", "EQUAL", {"integerValue": str(i)}) for i in range(31)]}}},
}


@pytest.mark.parametrize("sq", QUERY_GAPS.values(), ids=QUERY_GAPS.keys())
def test_query_validation_gaps(hearth, sq):
    expect_400(run_query(hearth, sq))


@pytest.mark.parametrize("ref", [f"{DOCS}/c/..", f"{DOCS}/c/__x__", f"{DOCS}/../d"])
def test_reference_value_with_invalid_ids_is_rejected(hearth, ref):
    expect_400(commit(hearth, set_fields({"r": {"referenceValue": ref}}, "badref")))


def test_runquery_body_shapes(hearth):
    for body in [b"[]", b'{"structuredQuery":1}', b'{"structuredQuery":[]}', b'{"bogus":{}}',
                 b'{"structuredQuery":{},"transaction":"!!!"}', b'{"structuredQuery":{},"readTime":"never"}',
                 b'{"structuredQuery":{},"newTransaction":5}']:
        expect_400(hearth.request("POST", RUN_QUERY, body))


def test_runquery_on_collection_parent_gets_400(hearth):
    assert_firestore_error(run_query(hearth, {"from": [{"collectionId": "c"}]}, "/odd"), {400, 404})


def test_dnf_explosion_is_answered_quickly(hearth):
    """AND of 30 ORs of 2 filters is 2^30 disjunctions in DNF: must never be expanded."""
    ors = [{"compositeFilter": {"op": "OR", "filters": [ff(f"a{i}", "EQUAL", INT1), ff(f"b{i}", "EQUAL", INT1)]}}
           for i in range(30)]
    sq = {"from": [{"collectionId": "c"}], "where": {"compositeFilter": {"op": "AND", "filters": ors}}}
    t0 = time.monotonic()
    r = run_query(hearth, sq)
    elapsed = time.monotonic() - t0
    assert elapsed < 3, f"DNF query took {elapsed:.1f}s"
    if r.status != 200:  # production refuses it (> 30 disjunctions); see test_query_validation_gaps
        expect_400(r)


def test_in_filter_product_explosion_is_answered_quickly(hearth):
    ins = [ff(f"a{i}", "IN", {"arrayValue": {"values": [{"integerValue": str(j)} for j in range(30)]}}) for i in range(6)]
    sq = {"from": [{"collectionId": "c"}], "where": {"compositeFilter": {"op": "AND", "filters": ins}}}
    t0 = time.monotonic()
    r = run_query(hearth, sq)
    elapsed = time.monotonic() - t0
    assert elapsed < 3, f"took {elapsed:.1f}s"
    if r.status != 200:
        expect_400(r)


def test_deeply_nested_composite_filters_do_not_crash(hearth):
    f = ff("a", "EQUAL", INT1)
    for i in range(30):
        f = {"compositeFilter": {"op": "AND" if i % 2 else "OR", "filters": [f]}}
    r = run_query(hearth, {"from": [{"collectionId": "c"}], "where": f})
    if r.status != 200:
        expect_400(r)


def test_aggregation_shapes(hearth):
    path = f"/v1/{DOCS}:runAggregationQuery"
    base = {"structuredQuery": {"from": [{"collectionId": "c"}]}}
    bad = [
        {"aggregations": []},
        {"aggregations": [{"count": {}}] * 6},
        {"aggregations": [{"alias": "x", "count": {}}, {"alias": "x", "count": {}}]},
        {"aggregations": [{"bogus": {}}]},
        {"aggregations": [{"count": {"upTo": "-1"}}]},
        {"aggregations": [{"count": {"upTo": "abc"}}]},
        {"aggregations": [{"sum": {}}]},
        {"aggregations": [{"avg": {"field": {"fieldPath": "a..b"}}}]},
        {"aggregations": [{"count": {}, "sum": {"field": {"fieldPath": "a"}}}]},
    ]
    for agg in bad:
        r = hearth.request("POST", path, {"structuredAggregationQuery": {**base, **agg}})
        expect_400(r)


# --- transactions ------------------------------------------------------------------------------

@pytest.mark.parametrize("tx", ["!!!", "AAAA", "", "a" * 100_000, base64.b64encode(b"\xff" * 64).decode(), 5, {}, []],
                         ids=["bang", "AAAA", "empty", "100k", "ff64", "int", "obj", "list"])
def test_invalid_transaction_ids(hearth, tx):
    for r in [commit(hearth, set_fields({}, "tx"), transaction=tx),
              hearth.request("POST", ROLLBACK, {"transaction": tx}),
              hearth.request("POST", RUN_QUERY, {"structuredQuery": {"from": [{"collectionId": "c"}]}, "transaction": tx}),
              hearth.request("POST", BATCH_GET, {"documents": [name("c", "d")], "transaction": tx})]:
        if tx == "" and r.status == 200:
            continue  # an empty bytes field is proto3 "absent"
        assert_firestore_error(r, {400, 409}, {"INVALID_ARGUMENT", "ABORTED"})
    if isinstance(tx, str) and tx and len(tx) < 1000:
        r = hearth.request("GET", doc_path("c", "d") + "?transaction=" + tx.replace("+", "%2B"))
        assert_firestore_error(r, {400, 409}, {"INVALID_ARGUMENT", "ABORTED"})


def test_transaction_cannot_commit_twice_or_after_rollback(hearth):
    tx = hearth.request("POST", BEGIN, {}).json()["transaction"]
    assert commit(hearth, set_fields({}, "tx2"), transaction=tx).status == 200
    assert_firestore_error(commit(hearth, set_fields({}, "tx2"), transaction=tx), {400, 409})
    tx = hearth.request("POST", BEGIN, {}).json()["transaction"]
    assert hearth.request("POST", ROLLBACK, {"transaction": tx}).status == 200
    assert_firestore_error(commit(hearth, set_fields({}, "tx2"), transaction=tx), {400, 409})
    # Rolling back a transaction that already ended succeeds (the emulator answers 200 after a
    # commit or a failed commit); an id never issued is refused.
    assert hearth.request("POST", ROLLBACK, {"transaction": tx}).status == 200
    assert_firestore_error(hearth.request("POST", ROLLBACK, {"transaction": "AAAA"}), 400)


def test_read_only_transaction_cannot_write(hearth):
    tx = hearth.request("POST", BEGIN, {"options": {"readOnly": {}}}).json()["transaction"]
    expect_400(commit(hearth, set_fields({}, "ro"), transaction=tx))


@pytest.mark.parametrize("options", [{"readOnly": {}, "readWrite": {}}, {"bogus": {}}, "x", {"readWrite": {"retryTransaction": "!!!"}},
                                     {"readOnly": {"readTime": "never"}}])
def test_invalid_transaction_options_get_400(hearth, options):
    expect_400(hearth.request("POST", BEGIN, {"options": options}))


def test_transaction_from_other_database_is_rejected(hearth):
    tx = hearth.request("POST", BEGIN, {}).json()["transaction"]
    r = hearth.request("POST", "/v1/projects/other-project/databases/(default)/documents:commit",
                       {"writes": [], "transaction": tx})
    assert_firestore_error(r, {400, 409})
    hearth.request("POST", ROLLBACK, {"transaction": tx})


def test_open_read_only_transactions_do_not_pin_unbounded_memory(hearth):
    writes = [{"update": {"name": name("pin", f"d{i:05d}"), "fields": {"s": {"stringValue": "x" * 100}}}}
              for i in range(5_000)]
    assert commit(hearth, writes).status == 200
    rss0 = hearth.rss_kib()
    txs = []
    try:
        for i in range(600):
            r = hearth.request("POST", BEGIN, {"options": {"readOnly": {}}})
            if r.status != 200:
                assert_firestore_error(r, {400, 429})  # a cap (RESOURCE_EXHAUSTED) is a fine answer
                break
            txs.append(r.json()["transaction"])
            assert commit(hearth, [{"update": {"name": name("pin", f"d{i:05d}"), "fields": {}}}]).status == 200
        growth = hearth.rss_kib() - rss0
    finally:
        for tx in txs:
            hearth.request("POST", ROLLBACK, {"transaction": tx})
    assert growth < 100 * 1024, f"RSS grew {growth // 1024} MiB for {len(txs)} open read-only transactions"


# --- bearer tokens -----------------------------------------------------------------------------

GOOD_HEADER = b64url({"alg": "none", "typ": "JWT"})
BAD_TOKENS = [
    "garbage", "a.b.c", "...", "a..", "..c", "!!!.!!!.!!!", f"{GOOD_HEADER}.%%%.", f"{GOOD_HEADER}.{b64url([1, 2])}.",
    f"{GOOD_HEADER}.{b64url('str')}.", f"{GOOD_HEADER}.{b64url(b'not json')}.", f"{GOOD_HEADER}.{b64url({'name': 'x'})}.",
    f"{GOOD_HEADER}.{b64url({'sub': ''})}.", f"{GOOD_HEADER}.{b64url({'sub': 5})}.", f"{b64url([1])}.{b64url({'sub': 'a'})}.",
    f"{GOOD_HEADER}.{b64url({'sub': 'a'})}.sig.extra", f"{GOOD_HEADER}",  # ("ya29.…" OAuth tokens are a signed-out caller on the emulator, not a 400)
    f"{GOOD_HEADER}.{b64url(b'[' * 5000 + b']' * 5000)}.", f"{GOOD_HEADER}.{b64url(b'{' * 3000)}.",
    GOOD_HEADER + "." + b64url(b"\xff\xfe") + ".", "owner2", "Owner",
]


@pytest.mark.parametrize("token", BAD_TOKENS, ids=range(len(BAD_TOKENS)))
def test_invalid_bearer_tokens_get_400(hearth, token):
    r = hearth.request("GET", doc_path("c", "d"), headers={"Authorization": "Bearer " + token})
    assert_firestore_error(r, 400, "INVALID_ARGUMENT")
    r = hearth.request("POST", COMMIT, {"writes": set_fields({}, "tok")}, headers={"Authorization": "Bearer " + token})
    assert_firestore_error(r, 400, "INVALID_ARGUMENT")


@pytest.mark.parametrize("header", ["Basic dXNlcjpwYXNz", "Bearer", "Bearer ", "bearer\towner", "Token owner",
                                    "Bearer " + "a" * 60_000])
def test_odd_authorization_headers(hearth, header):
    r = hearth.request("GET", doc_path("c", "d"), headers={"Authorization": header})
    if r.status != 404:  # an empty bearer may count as no token
        assert_firestore_error(r, 400, "INVALID_ARGUMENT")


def test_deeply_nested_claims_do_not_crash(hearth):
    claims = {"sub": "alice"}
    inner: dict = {}
    cur = inner
    for _ in range(400):
        cur["x"] = {}
        cur = cur["x"]
    claims["deep"] = inner
    token = f"{GOOD_HEADER}.{b64url(claims)}."
    r = hearth.request("GET", doc_path("c", "d"), headers={"Authorization": "Bearer " + token})
    assert r.status in (400, 404), r


# --- routing odds -----------------------------------------------------------------------------

@pytest.mark.parametrize("method,path", [
    ("POST", f"/v1/{DB}/documents:bogus"), ("GET", f"/v1/{DB}/documents:commit"),
    ("PUT", doc_path("c", "d")), ("POST", doc_path("c", "d")), ("PATCH", f"/v1/{DOCS}/c"),
    ("DELETE", f"/v1/{DOCS}/c"), ("GET", "/v1/"), ("GET", "/v1/projects"), ("GET", f"/v1/{DB}"),
    ("POST", f"/v1/{DOCS}/c/d:commit"), ("GET", "/emulator/v1/bogus"), ("DELETE", "/emulator/v1/projects/x/databases"),
    ("POST", f"/v1/{DOCS}:listen"), ("POST", f"/v1/{DOCS}:write"),
    ("GET", f"/v1/{DOCS}/c/d:runQuery"), ("POST", f"/v1/{DOCS}/c:runQuery"),
])
def test_unknown_routes_get_json_errors(hearth, method, path):
    r = hearth.request(method, path, b"{}")
    assert_firestore_error(r, {400, 404, 501})


def test_security_rules_endpoint_with_garbage(hearth):
    for body in [b"", b"{", b"[]", b'{"rules":1}', b'{"rules":{"files":[{"content":"rules_version=\'2\'; service x {"}]}}',
                 b'{"rules":{"files":[{"content":' + json.dumps("{" * 20_000).encode() + b"}]}}"]:
        r = hearth.request("PUT", f"/emulator/v1/projects/{PROJECT}:securityRules", body)
        assert r.status < 500, r
    # Restore open access for later tests.
    r = hearth.request("PUT", f"/emulator/v1/projects/{PROJECT}:securityRules",
                       {"rules": {"files": [{"content": "rules_version = '2';\nservice cloud.firestore {\n"
                                             " match /databases/{db}/documents { match /{d=**} { allow read, write: if true; } } }"}]}})
    assert r.status == 200, r
