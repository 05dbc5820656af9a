#!/usr/bin/env python3
"""Record conformance corpora from Google's Cloud Firestore emulator (the oracle).

Usage:
    gcloud emulators firestore start --host-port=127.0.0.1:8089 &
    python3 scripts/record_conformance.py [--host 127.0.0.1:8089] [--out Tests/Conformance]

Talks REST v1 only (urllib, stdlib) with `Authorization: Bearer owner`, project
`demo-conformance`. Writes five JSON files (`--only NAME…` re-records some of them):

  value_ordering.json  every value type and edge, the emulator's ascending order and which
                       values compare equal (groups found with inclusive startAt/endAt cursors)
  query_cases.json     a fixed dataset and ~70 structured queries with the result ids or the
                       error status the emulator answers
  json_roundtrip.json  values written and read back: the exact JSON the emulator emits
                       (number text kept verbatim), or the error it answers
  aggregation_cases.json  a dataset and runAggregationQuery requests (aliases, limits and the
                       implicit order of summed fields, overflow, errors) with the emulator's answers
  transforms.json      commits with field transforms / masks / preconditions on given
                       documents: write results and the resulting documents; and requests of
                       several writes (Commit, transactions, BatchWrite) combining verifies with
                       other writes of one document: the answers
  rest_paths.json      document ids with ':', '%', spaces, '@', '+', '=', UTF-8 and '%2F' in REST paths,
                       beside the custom verbs (`…/c/a:b:listCollectionIds`): what each call answers
  cors.json            the CORS headers of REST answers and OPTIONS preflights with and without Origin
  limits.json          writes at and just past each size limit (value, field name, nesting,
                       document size, document name, request size) on every REST write path:
                       the status and error the emulator answers

`--only FILE…` records just those files instead of all of them.

Numbers in emulator responses are kept as their exact text (e.g. `1.0E21`), so the files
show the emulator's formatting. Clock readings are replaced by placeholders (`<commitTime>`,
`<requestTime>`, …), so re-running against the same emulator version gives the same files
except for error messages that quote a stored version and the `requestTimeVsCommitTime`
samples, which keep one real pair per REQUEST_TIME case to show how the two clocks relate.
"""

import argparse
import json
import os
import sys
import urllib.error
import urllib.request

PROJECT = "demo-conformance"
DB = f"projects/{PROJECT}/databases/(default)"
DOCS = f"{DB}/documents"


# --------------------------------------------------------------------------- JSON with raw numbers

class RawNumber:
    """A JSON number kept as its source text."""

    def __init__(self, text):
        self.text = text

    def __eq__(self, other):
        return isinstance(other, RawNumber) and other.text == self.text

    def __repr__(self):
        return self.text


def loads_raw(text):
    """json.loads that keeps every number's text."""
    return json.loads(text, parse_float=RawNumber, parse_int=RawNumber,
                      parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))


def dumps(value, indent=0, step=1, inline_depth=None):
    """Deterministic JSON writer that writes RawNumber text verbatim.

    Objects and arrays nested deeper than `inline_depth` levels are written on one line,
    so the files stay readable and diffable.
    """
    pad = " " * indent
    if isinstance(value, RawNumber):
        return value.text
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    inline = inline_depth is not None and inline_depth <= 0
    child_depth = None if inline_depth is None else inline_depth - 1
    if isinstance(value, list):
        if not value:
            return "[]"
        if inline:
            return "[" + ", ".join(dumps(v, 0, step, 0) for v in value) + "]"
        inner = ",\n".join(" " * (indent + step) + dumps(v, indent + step, step, child_depth) for v in value)
        return "[\n" + inner + "\n" + pad + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        if inline:
            return "{" + ", ".join(json.dumps(k, ensure_ascii=False) + ": " + dumps(v, 0, step, 0)
                                   for k, v in value.items()) + "}"
        inner = ",\n".join(" " * (indent + step) + json.dumps(k, ensure_ascii=False) + ": "
                           + dumps(v, indent + step, step, child_depth) for k, v in value.items())
        return "{\n" + inner + "\n" + pad + "}"
    raise TypeError(type(value))


# --------------------------------------------------------------------------- HTTP

class Emulator:
    def __init__(self, host):
        self.base = f"http://{host}"

    def call(self, method, path, body=None, raw_body=None):
        """Returns (status, parsed JSON with raw numbers)."""
        data = raw_body.encode() if raw_body is not None else (
            dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.base + path, data=data, method=method, headers={
            "Authorization": "Bearer owner", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req) as resp:
                text = resp.read().decode()
                status = resp.status
        except urllib.error.HTTPError as e:
            text = e.read().decode()
            status = e.code
        return status, (loads_raw(text) if text.strip() else None)

    def clear(self):
        status, _ = self.call("DELETE", f"/emulator/v1/{DOCS}")
        assert status == 200, status

    def patch(self, path, fields):
        return self.call("PATCH", f"/v1/{DOCS}/{path}", {"fields": fields})

    def get(self, path):
        return self.call("GET", f"/v1/{DOCS}/{path}")

    def commit(self, writes):
        return self.call("POST", f"/v1/{DOCS}:commit", {"writes": writes})

    def run_query(self, query, parent=""):
        suffix = f"/{parent}" if parent else ""
        return self.call("POST", f"/v1/{DOCS}{suffix}:runQuery", {"structuredQuery": query})


def error_of(body):
    err = (body or {}).get("error", {}) if isinstance(body, dict) else body[0].get("error", {})
    return {"status": err.get("status"), "message": err.get("message")}


def result_ids(body):
    """The document ids of a runQuery answer, in order."""
    return [e["document"]["name"].rsplit("/", 1)[1] for e in body if "document" in e]


# --------------------------------------------------------------------------- value constructors

def n(text):
    return RawNumber(text)


def i(v):
    return {"integerValue": str(v)}


def d(v):
    return {"doubleValue": v if isinstance(v, (str, RawNumber)) else n(repr(float(v)))}


def s(v):
    return {"stringValue": v}


def ts(v):
    return {"timestampValue": v}


def b64(v):
    return {"bytesValue": v}


def ref(path):
    return {"referenceValue": f"{DOCS}/{path}"}


def geo(lat, lng):
    return {"geoPointValue": {"latitude": n(repr(float(lat))), "longitude": n(repr(float(lng)))}}


def arr(*vs):
    return {"arrayValue": {"values": list(vs)}} if vs else {"arrayValue": {}}


def mp(**fields):
    return {"mapValue": {"fields": fields}} if fields else {"mapValue": {}}


def mpd(fields):
    return {"mapValue": {"fields": fields}}


NULL = {"nullValue": None}
TRUE = {"booleanValue": True}
FALSE = {"booleanValue": False}


def vector(*xs):
    return mpd({"__type__": s("__vector__"), "value": arr(*[d(x) for x in xs])})


# --------------------------------------------------------------------------- value_ordering.json

ORDERING_VALUES = [
    ("null", NULL),
    ("false", FALSE), ("true", TRUE),
    ("NaN", d("NaN")), ("-Infinity", d("-Infinity")),
    ("int64 min", i(-9223372036854775808)), ("double -2^63", d(n("-9.223372036854775808E18"))),
    ("double -1e300", d(n("-1e300"))), ("double -1.5", d(-1.5)), ("int -1", i(-1)), ("double -1.0", d(n("-1.0"))),
    ("double -0.0 (as \"-0\")", d("-0")), ("int 0", i(0)), ("double 0.0", d(n("0.0"))),
    ("double 5e-324", d(n("4.9E-324"))), ("double 0.5", d(0.5)),
    ("int 1", i(1)), ("double 1.0", d(n("1.0"))), ("int 3", i(3)), ("double 3.0", d(n("3.0"))), ("double 3.5", d(3.5)),
    ("int 2^53", i(9007199254740992)), ("double 2^53", d(n("9007199254740992.0"))),
    ("int 2^53+1", i(9007199254740993)), ("double 2^53+2", d(n("9007199254740994.0"))),
    ("int64 max", i(9223372036854775807)), ("double 2^63", d(n("9.223372036854775808E18"))),
    ("double 1e21", d(n("1e21"))), ("Infinity", d("Infinity")),
    ("ts 0001-01-01", ts("0001-01-01T00:00:00Z")), ("ts 1969-12-31T23:59:59.999999", ts("1969-12-31T23:59:59.999999Z")),
    ("ts epoch", ts("1970-01-01T00:00:00Z")), ("ts epoch+1us", ts("1970-01-01T00:00:00.000001Z")),
    ("ts epoch+1s", ts("1970-01-01T00:00:01Z")), ("ts 2024-02-29 +01:00", ts("2024-02-29T12:00:00+01:00")),
    ("ts 2024-02-29T11:00Z (same instant)", ts("2024-02-29T11:00:00Z")), ("ts 9999-12-31 max", ts("9999-12-31T23:59:59.999999Z")),
    ("string empty", s("")), ("string NUL", s("\u0000")), ("string A", s("A")), ("string Z", s("Z")),
    ("string a", s("a")), ("string a NUL b", s("a\u0000b")), ("string ab", s("ab")), ("string b", s("b")),
    ("string U+007F", s("\u007f")), ("string U+00E9", s("\u00e9")), ("string e + U+0301 (decomposed)", s("e\u0301")),
    ("string U+FFFD", s("\ufffd")), ("string U+FF5E", s("\uff5e")), ("string U+1F600", s("\U0001F600")),
    ("string 1500 x + a", s("x" * 1500 + "a")), ("string 1500 x + b", s("x" * 1500 + "b")),
    ("bytes empty", b64("")), ("bytes 00", b64("AA==")), ("bytes 00 00", b64("AAA=")), ("bytes 01", b64("AQ==")),
    ("bytes 7f", b64("fw==")), ("bytes 80", b64("gA==")), ("bytes ff", b64("/w==")),
    ("ref other project", {"referenceValue": "projects/a-project/databases/(default)/documents/c/a"}),
    ("ref c/__id-5__", ref("c/__id-5__")), ("ref c/__id5__", ref("c/__id5__")), ("ref c/__id10__", ref("c/__id10__")),
    ("ref c/A", ref("c/A")), ("ref c/a", ref("c/a")), ("ref c/a/s/x", ref("c/a/s/x")), ("ref c/b", ref("c/b")),
    ("ref c/__idx__", None), ("ref ca/a", ref("ca/a")), ("ref c/a (named db)", {"referenceValue": f"projects/{PROJECT}/databases/other/documents/c/a"}),
    ("geo -90,0", geo(-90, 0)), ("geo 0,-180", geo(0, -180)), ("geo 0,0", geo(0, 0)), ("geo 0,1", geo(0, 1)),
    ("geo 1,-1", geo(1, -1)), ("geo 90,180", geo(90, 180)),
    ("array empty", arr()), ("array [null]", arr(NULL)), ("array [false]", arr(FALSE)), ("array [1]", arr(i(1))),
    ("array [1.0]", arr(d(n("1.0")))), ("array [1,2]", arr(i(1), i(2))), ("array [1,2,3]", arr(i(1), i(2), i(3))),
    ("array [1,2,3,1]", arr(i(1), i(2), i(3), i(1))), ("array [2]", arr(i(2))), ("array [\"a\"]", arr(s("a"))),
    ("array [{}]", arr(mp())),
    ("vector [1,2]", vector(1, 2)), ("vector [3]", vector(3)), ("vector [1,2,3]", vector(1, 2, 3)),
    ("map empty", mp()), ("map {a:1}", mpd({"a": i(1)})), ("map {a:1.0}", mpd({"a": d(n("1.0"))})),
    ("map {a:1,b:1}", mpd({"a": i(1), "b": i(1)})), ("map {a:2}", mpd({"a": i(2)})), ("map {a:\"x\"}", mpd({"a": s("x")})),
    ("map {b:0}", mpd({"b": i(0)})), ("map {B:9}", mpd({"B": i(9)})), ("map {é:0}", mpd({"\u00e9": i(0)})),
    ("map {a:{b:1}}", mpd({"a": mpd({"b": i(1)})})),
]


def record_ordering(emu):
    emu.clear()
    values = []
    for k, (note, value) in enumerate(ORDERING_VALUES):
        if value is None:
            continue
        vid = f"v{len(values):03d}"
        status, body = emu.patch(f"ordering/{vid}", {"v": value})
        entry = {"id": vid, "note": note, "value": value}
        if status != 200:
            entry["writeError"] = error_of(body)
        values.append(entry)
    written = [e for e in values if "writeError" not in e]

    order_query = {"from": [{"collectionId": "ordering"}], "orderBy": [{"field": {"fieldPath": "v"}}]}
    status, body = emu.run_query(order_query)
    assert status == 200, body
    ascending = result_ids(body)
    status, body = emu.run_query({**order_query, "orderBy": [{"field": {"fieldPath": "v"}, "direction": "DESCENDING"}]})
    descending = result_ids(body)

    # Equality groups: documents between inclusive cursors at the value itself.
    by_id = {e["id"]: e for e in written}
    groups = []
    placed = set()
    for vid in ascending:
        if vid in placed:
            continue
        v = by_id[vid]["value"]
        status, body = emu.run_query({
            "from": [{"collectionId": "ordering"}], "orderBy": [{"field": {"fieldPath": "v"}}],
            "startAt": {"values": [v], "before": True}, "endAt": {"values": [v], "before": False}})
        group = result_ids(body) if status == 200 else [vid]
        assert vid in group, (vid, group)
        groups.append(group)
        placed.update(group)
    assert [x for g in groups for x in g] == ascending, "groups must tile the ascending order"
    return {
        "description": "Values written as field `v` of documents ordering/{id}; `groups` is the emulator's "
                       "ascending orderBy v (ties broken by __name__), values in one group compare equal "
                       "(found with inclusive startAt/endAt cursors at the value). `descending` is orderBy v DESC.",
        "values": values,
        "groups": groups,
        "descending": descending,
    }


# --------------------------------------------------------------------------- json_roundtrip.json

ROUNDTRIP_VALUES = [
    ("double -0.0 number", d(n("-0.0"))), ("double \"-0\" string", d("-0")), ("double 0.0", d(n("0.0"))),
    ("double 1.0", d(n("1.0"))), ("double 1 (integer text)", d(n("1"))), ("double 1.5", d(n("1.5"))),
    ("double \"1.5\" string", d("1.5")), ("double 0.1", d(n("0.1"))), ("double 100", d(n("100"))),
    ("double 1234567", d(n("1234567"))), ("double 9999999", d(n("9999999"))), ("double 1e7", d(n("1e7"))),
    ("double 12345678.9", d(n("12345678.9"))), ("double 0.001", d(n("0.001"))), ("double 0.0001", d(n("0.0001"))),
    ("double 1e-7", d(n("1e-7"))), ("double 1e21", d(n("1e21"))), ("double 1e22", d(n("1e22"))),
    ("double 2^53", d(n("9007199254740992"))), ("double 2^53+1 (rounds)", d(n("9007199254740993"))),
    ("double 0.30000000000000004", d(n("0.30000000000000004"))), ("double -2.5e-5", d(n("-2.5e-5"))),
    ("double max", d(n("1.7976931348623157e308"))), ("double min normal", d(n("2.2250738585072014E-308"))),
    ("double min subnormal", d(n("5e-324"))), ("double 1e400 (overflow)", d(n("1e400"))),
    ("double NaN", d("NaN")), ("double Infinity", d("Infinity")), ("double -Infinity", d("-Infinity")),
    ("double \"nan\" (lowercase)", d("nan")), ("double \"1e2\" string", d("1e2")),
    ("int 0", i(0)), ("int -0 text", {"integerValue": "-0"}), ("int max", i(9223372036854775807)),
    ("int min", i(-9223372036854775808)), ("int max+1", {"integerValue": "9223372036854775808"}),
    ("int min-1", {"integerValue": "-9223372036854775809"}), ("int as number", {"integerValue": n("42")}),
    ("int as number 5.0", {"integerValue": n("5.0")}), ("int as number 1.5", {"integerValue": n("1.5")}),
    ("int \"1e3\"", {"integerValue": "1e3"}), ("int \"abc\"", {"integerValue": "abc"}),
    ("ts 0 digits", ts("2024-01-02T03:04:05Z")), ("ts 1 digit", ts("2024-01-02T03:04:05.1Z")),
    ("ts 3 digits", ts("2024-01-02T03:04:05.123Z")), ("ts 3 digits trailing zero", ts("2024-01-02T03:04:05.120Z")),
    ("ts 6 digits", ts("2024-01-02T03:04:05.123456Z")), ("ts 6 digits = whole ms", ts("2024-01-02T03:04:05.123000Z")),
    ("ts 7 digits", ts("2024-01-02T03:04:05.1234567Z")), ("ts 9 digits", ts("2024-01-02T03:04:05.123456789Z")),
    ("ts 9 digits sub-us only", ts("2024-01-02T03:04:05.000000999Z")),
    ("ts offset +05:30", ts("2024-01-02T03:04:05.5+05:30")), ("ts offset -08:00 crossing day", ts("2024-01-01T20:00:00-08:00")),
    ("ts lowercase t z", ts("2024-01-02t03:04:05z")), ("ts min", ts("0001-01-01T00:00:00Z")),
    ("ts max", ts("9999-12-31T23:59:59.999999999Z")), ("ts leap day", ts("2024-02-29T00:00:00Z")),
    ("ts not leap day", ts("2023-02-29T00:00:00Z")), ("ts space separator", ts("2024-01-02 03:04:05Z")),
    ("ts no offset", ts("2024-01-02T03:04:05")), ("ts 10 digits", ts("2024-01-02T03:04:05.1234567891Z")),
    ("ts year 0", ts("0000-12-31T23:59:59Z")), ("ts second 60", ts("2024-01-02T03:04:60Z")),
    ("bytes padded", b64("AQID")), ("bytes unpadded", b64("AQI")), ("bytes url-safe", b64("_-8")),
    ("bytes standard", b64("/+8=")), ("bytes empty", b64("")), ("bytes invalid char", b64("A*==")),
    ("string escapes", s("q\"b\\n\n\t\u0001\u001f\u007f</>&='\u2028\u2029\u00e9\U0001F600")),
    ("null as null", NULL), ("null as NULL_VALUE", {"nullValue": "NULL_VALUE"}), ("bool true", TRUE),
    ("geo 0,0", geo(0, 0)), ("geo empty object", {"geoPointValue": {}}), ("geo 1.5,-2", geo(1.5, -2)),
    ("geo lat only 0", {"geoPointValue": {"longitude": n("2")}}), ("geo -0.0,-0.0", geo("-0.0", "-0.0")),
    ("geo lat 91", geo(91, 0)), ("geo lng -181", geo(0, -181)),
    ("array empty object", {"arrayValue": {}}), ("array empty values", {"arrayValue": {"values": []}}),
    ("array nested array", arr(arr(i(1)))), ("map empty", {"mapValue": {}}), ("map empty fields", {"mapValue": {"fields": {}}}),
    ("map nested", mpd({"b": i(1), "a": mpd({"z": NULL, "y": arr()})})),
    ("ref valid", ref("c/d")), ("ref collection (odd)", {"referenceValue": f"{DOCS}/c"}),
    ("ref other project", {"referenceValue": "projects/other/databases/(default)/documents/c/d"}),
    ("ref not a name", {"referenceValue": "x"}),
    ("value with no key", {}), ("value with two keys", {"nullValue": None, "booleanValue": True}),
    ("value with unknown key", {"bogusValue": 1}), ("snake_case key", {"string_value": "snake"}),
    ("map reserved key __x__", mpd({"__x__": i(1)})), ("map empty key", mpd({"": i(1)})),
]


def record_roundtrip(emu):
    emu.clear()
    cases = []
    for k, (note, value) in enumerate(ROUNDTRIP_VALUES):
        cid = f"r{k:03d}"
        status, body = emu.patch(f"roundtrip/{cid}", {"v": value})
        case = {"id": cid, "note": note, "input": value}
        if status == 200:
            status, body = emu.get(f"roundtrip/{cid}")
            assert status == 200, body
            case["output"] = body["fields"]["v"]
        else:
            case["error"] = error_of(body)
        cases.append(case)

    # Does writing -0.0 over 0.0 (and 1.0 over integer 1) count as a change?
    emu.patch("roundtrip/same", {"z": d(n("0.0")), "one": i(1)})
    _, before = emu.get("roundtrip/same")
    emu.patch("roundtrip/same", {"z": d("-0"), "one": i(1)})
    _, after_negzero = emu.get("roundtrip/same")
    emu.patch("roundtrip/same", {"z": d("-0"), "one": d(n("1.0"))})
    _, after_double = emu.get("roundtrip/same")
    changes = {
        "zero then -0: updateTime changed": before["updateTime"] != after_negzero["updateTime"],
        "integer 1 then double 1.0: updateTime changed": after_negzero["updateTime"] != after_double["updateTime"],
        "integer 1 then double 1.0: stored as": after_double["fields"]["one"],
    }
    return {
        "description": "Each input written as field `v` of roundtrip/{id} (PATCH), then read back with GetDocument. "
                       "`output` is the value JSON the emulator returned (number text verbatim); `error` when the "
                       "write was rejected.",
        "cases": cases,
        "rewrites": changes,
    }


# --------------------------------------------------------------------------- query_cases.json

DATASET = {
    "d01": {"a": i(1), "b": TRUE, "arr": arr(i(1), i(2)), "s": s("apple"), "m": mpd({"x": i(1)})},
    "d02": {"a": i(2), "b": FALSE, "arr": arr(i(3)), "s": s("banana"), "m": mpd({"x": i(2)})},
    "d03": {"a": i(3), "arr": arr(d(n("3.0"))), "s": s("Cherry")},
    "d04": {"a": d(n("3.0")), "arr": arr(i(3), i(4)), "s": s("cherry")},
    "d05": {"a": d(n("2.5")), "arr": arr(), "s": s("")},
    "d06": {"a": d("NaN"), "arr": arr(d("NaN")), "s": s("\u00e9clair")},
    "d07": {"a": NULL, "arr": arr(NULL), "s": NULL},
    "d08": {"b": TRUE, "s": s("zebra")},
    "d09": {"a": s("3"), "arr": arr(s("3")), "s": s("3")},
    "d10": {"a": s("apple"), "arr": arr(s("a"), s("b"))},
    "d11": {"a": d("-Infinity"), "arr": arr(i(-1))},
    "d12": {"a": d("Infinity"), "m": mpd({"x": d(n("1.0"))})},
    "d13": {"a": i(-9223372036854775808), "b": FALSE},
    "d14": {"a": i(9223372036854775807)},
    "d15": {"a": d(n("-0.0")), "arr": arr(d(n("0.0")))},
    "d16": {"a": i(0), "arr": arr(i(0), NULL)},
    "d17": {"a": TRUE},
    "d18": {"a": FALSE},
    "d19": {"a": ts("2024-01-01T00:00:00Z"), "t": ts("2024-01-01T00:00:00Z")},
    "d20": {"a": ts("2023-06-15T12:30:00.5Z"), "t": ts("2023-06-15T12:30:00.5Z")},
    "d21": {"a": b64("AQI="), "arr": arr(b64("AQI="))},
    "d22": {"a": ref("q/d01")},
    "d23": {"a": geo(10, 20)},
    "d24": {"a": arr(i(1), i(2))},
    "d25": {"a": arr(i(3))},
    "d26": {"a": mpd({"x": i(1)})},
    "d27": {"a": mp()},
    "d28": {"a": d(n("1.5")), "b": TRUE, "m": mpd({"x": s("one")})},
    "d29": {"a": i(9007199254740993)},
    "d30": {"a": d(n("9007199254740992.0"))},
    "d31": {"arr": arr(i(1), i(2), i(3))},
    "d32": {"a": d(n("-1.5")), "b": NULL},
    # Sub-collections named like the queried one: only collection-group queries see them.
    "d01/q/x1": {"a": i(3), "s": s("nested")},
    "d02/other/x2": {"a": i(3)},
    "d02/other/x2/q/x3": {"a": d(n("3.0"))},
}


def ff(field, op, value):
    return {"fieldFilter": {"field": {"fieldPath": field}, "op": op, "value": value}}


def uf(field, op):
    return {"unaryFilter": {"field": {"fieldPath": field}, "op": op}}


def AND(*fs):
    return {"compositeFilter": {"op": "AND", "filters": list(fs)}}


def OR(*fs):
    return {"compositeFilter": {"op": "OR", "filters": list(fs)}}


def asc(field):
    return {"field": {"fieldPath": field}, "direction": "ASCENDING"}


def desc(field):
    return {"field": {"fieldPath": field}, "direction": "DESCENDING"}


def Q(where=None, order=None, **extra):
    q = {"from": [{"collectionId": "q"}]}
    if where is not None:
        q["where"] = where
    if order is not None:
        q["orderBy"] = order
    q.update(extra)
    return q


QUERIES = [
    ("all, default order", Q()),
    ("orderBy a asc (missing excluded; cross-type order)", Q(order=[asc("a")])),
    ("orderBy a desc", Q(order=[desc("a")])),
    ("orderBy s asc (UTF-8 order)", Q(order=[asc("s")])),
    ("orderBy b desc then a asc", Q(order=[desc("b"), asc("a")])),
    ("orderBy m.x asc", Q(order=[asc("m.x")])),
    ("orderBy __name__ desc", Q(order=[desc("__name__")])),
    ("a == 3 (int matches 3.0)", Q(ff("a", "EQUAL", i(3)))),
    ("a == 3.0", Q(ff("a", "EQUAL", d(n("3.0"))))),
    ("a == -0.0 (matches 0)", Q(ff("a", "EQUAL", d(n("-0.0"))))),
    ("a == \"3\"", Q(ff("a", "EQUAL", s("3")))),
    ("a == true", Q(ff("a", "EQUAL", TRUE))),
    ("a == [1,2]", Q(ff("a", "EQUAL", arr(i(1), i(2))))),
    ("a == {x:1}", Q(ff("a", "EQUAL", mpd({"x": i(1)})))),
    ("a == null (EQUAL with null)", Q(ff("a", "EQUAL", NULL))),
    ("a == NaN (EQUAL with NaN)", Q(ff("a", "EQUAL", d("NaN")))),
    ("a == 2^53 double (int 2^53+1 differs)", Q(ff("a", "EQUAL", d(n("9007199254740992.0"))))),
    ("a == int 2^53+1", Q(ff("a", "EQUAL", i(9007199254740993)))),
    ("a != 3", Q(ff("a", "NOT_EQUAL", i(3)))),
    ("a != null", Q(ff("a", "NOT_EQUAL", NULL))),
    ("a != NaN", Q(ff("a", "NOT_EQUAL", d("NaN")))),
    ("a > 2 (numbers only)", Q(ff("a", "GREATER_THAN", i(2)))),
    ("a >= 3.0", Q(ff("a", "GREATER_THAN_OR_EQUAL", d(n("3.0"))))),
    ("a < 3", Q(ff("a", "LESS_THAN", i(3)))),
    ("a <= 0", Q(ff("a", "LESS_THAN_OR_EQUAL", i(0)))),
    ("a > -Infinity", Q(ff("a", "GREATER_THAN", d("-Infinity")))),
    ("a < Infinity", Q(ff("a", "LESS_THAN", d("Infinity")))),
    ("a > NaN (range with NaN)", Q(ff("a", "GREATER_THAN", d("NaN")))),
    ("a >= NaN", Q(ff("a", "GREATER_THAN_OR_EQUAL", d("NaN")))),
    ("a < NaN", Q(ff("a", "LESS_THAN", d("NaN")))),
    ("a > \"\" (strings only)", Q(ff("a", "GREATER_THAN", s("")))),
    ("a < true (booleans only)", Q(ff("a", "LESS_THAN", TRUE))),
    ("a > null", Q(ff("a", "GREATER_THAN", NULL))),
    ("a >= null", Q(ff("a", "GREATER_THAN_OR_EQUAL", NULL))),
    ("a > timestamp 2023", Q(ff("a", "GREATER_THAN", ts("2023-01-01T00:00:00Z")))),
    ("a < [5] (arrays only)", Q(ff("a", "LESS_THAN", arr(i(5))))),
    ("a > {} (maps only)", Q(ff("a", "GREATER_THAN", mp()))),
    ("a >= 2^53 double", Q(ff("a", "GREATER_THAN_OR_EQUAL", d(n("9007199254740992.0"))))),
    ("a > 2^53 double (int 2^53+1 is greater)", Q(ff("a", "GREATER_THAN", d(n("9007199254740992.0"))))),
    ("a > 1 and a < 3", Q(AND(ff("a", "GREATER_THAN", i(1)), ff("a", "LESS_THAN", i(3))))),
    ("a > 1 orderBy a desc", Q(ff("a", "GREATER_THAN", i(1)), [desc("a")])),
    ("a in [3, \"3\"]", Q(ff("a", "IN", arr(i(3), s("3"))))),
    ("a in [3.0] (double vs stored int 3)", Q(ff("a", "IN", arr(d(n("3.0")))))),
    ("a in [0] (matches -0.0?)", Q(ff("a", "IN", arr(i(0))))),
    ("a in [null]", Q(ff("a", "IN", arr(NULL)))),
    ("a in [NaN]", Q(ff("a", "IN", arr(d("NaN"))))),
    ("a not-in [3, true]", Q(ff("a", "NOT_IN", arr(i(3), TRUE)))),
    ("a not-in [null]", Q(ff("a", "NOT_IN", arr(NULL)))),
    ("a not-in [NaN]", Q(ff("a", "NOT_IN", arr(d("NaN"))))),
    ("arr array-contains 3 (int vs 3.0)", Q(ff("arr", "ARRAY_CONTAINS", i(3)))),
    ("arr array-contains 3.0", Q(ff("arr", "ARRAY_CONTAINS", d(n("3.0"))))),
    ("arr array-contains null", Q(ff("arr", "ARRAY_CONTAINS", NULL))),
    ("arr array-contains NaN", Q(ff("arr", "ARRAY_CONTAINS", d("NaN")))),
    ("arr array-contains -0.0", Q(ff("arr", "ARRAY_CONTAINS", d(n("-0.0"))))),
    ("arr array-contains-any [2, \"a\", 4.0]", Q(ff("arr", "ARRAY_CONTAINS_ANY", arr(i(2), s("a"), d(n("4.0")))))),
    ("arr array-contains-any [null, NaN]", Q(ff("arr", "ARRAY_CONTAINS_ANY", arr(NULL, d("NaN"))))),
    ("a IS_NAN", Q(uf("a", "IS_NAN"))),
    ("a IS_NOT_NAN", Q(uf("a", "IS_NOT_NAN"))),
    ("a IS_NULL", Q(uf("a", "IS_NULL"))),
    ("a IS_NOT_NULL", Q(uf("a", "IS_NOT_NULL"))),
    ("s IS_NOT_NAN (strings are not NaN)", Q(uf("s", "IS_NOT_NAN"))),
    ("b == true OR a == 3", Q(OR(ff("b", "EQUAL", TRUE), ff("a", "EQUAL", i(3))))),
    ("(b == false AND a == 2) OR s == \"zebra\"", Q(OR(AND(ff("b", "EQUAL", FALSE), ff("a", "EQUAL", i(2))), ff("s", "EQUAL", s("zebra"))))),
    ("b == true AND (a > 1 OR a < 0)", Q(AND(ff("b", "EQUAL", TRUE), OR(ff("a", "GREATER_THAN", i(1)), ff("a", "LESS_THAN", i(0)))))),
    ("OR with one filter", Q(OR(ff("a", "EQUAL", i(1))))),
    ("AND of nothing", Q(AND())),
    ("a > 1 and s > \"a\" (two inequality fields)", Q(AND(ff("a", "GREATER_THAN", i(1)), ff("s", "GREATER_THAN", s("a"))))),
    ("m.x == 1", Q(ff("m.x", "EQUAL", i(1)))),
    ("__name__ == q/d03", Q(ff("__name__", "EQUAL", ref("q/d03")))),
    ("__name__ > q/d28", Q(ff("__name__", "GREATER_THAN", ref("q/d28")))),
    ("__name__ in [d02, d05]", Q(ff("__name__", "IN", arr(ref("q/d02"), ref("q/d05"))))),
    ("orderBy a startAt [3]", Q(order=[asc("a")], startAt={"values": [i(3)], "before": True})),
    ("orderBy a startAfter [3]", Q(order=[asc("a")], startAt={"values": [i(3)], "before": False})),
    ("orderBy a endAt [3.0]", Q(order=[asc("a")], endAt={"values": [d(n("3.0"))], "before": False})),
    ("orderBy a endBefore [3.0]", Q(order=[asc("a")], endAt={"values": [d(n("3.0"))], "before": True})),
    ("orderBy a startAt [3, q/d04] (name tie-break)", Q(order=[asc("a")], startAt={"values": [i(3), ref("q/d04")], "before": True})),
    ("orderBy a desc startAt [2]", Q(order=[desc("a")], startAt={"values": [i(2)], "before": True})),
    ("orderBy a startAt [\"\"] endBefore [{}] (cross-type range)", Q(order=[asc("a")], startAt={"values": [s("")], "before": True}, endAt={"values": [mp()], "before": True})),
    ("orderBy a startAt [NaN] endAt [NaN]", Q(order=[asc("a")], startAt={"values": [d("NaN")], "before": True}, endAt={"values": [d("NaN")], "before": False})),
    ("orderBy a startAfter [null]", Q(order=[asc("a")], startAt={"values": [NULL], "before": False})),
    ("cursor on __name__ only", Q(startAt={"values": [ref("q/d30")], "before": False})),
    ("orderBy a offset 3 limit 4", Q(order=[asc("a")], offset=3, limit=4)),
    ("limit 0", Q(limit=0)),
    ("offset past end", Q(offset=100)),
    ("select a only (result ids)", Q(select={"fields": [{"fieldPath": "a"}]}, limit=2)),
    ("a > 1 orderBy s (inequality field appended after explicit order)", Q(ff("a", "GREATER_THAN", i(1)), [asc("s")])),
    ("a in [1, 2.5] orderBy a desc", Q(ff("a", "IN", arr(i(1), d(n("2.5")))), [desc("a")])),
    ("arr == [3] (array equality, 3 vs 3.0)", Q(ff("arr", "EQUAL", arr(i(3))))),
    ("arr array-contains-any [3.0]", Q(ff("arr", "ARRAY_CONTAINS_ANY", arr(d(n("3.0")))))),
    ("a == timestamp with sub-microsecond digits", Q(ff("a", "EQUAL", ts("2023-06-15T12:30:00.500000999Z")))),
    ("a > timestamp with sub-microsecond digits", Q(ff("a", "GREATER_THAN", ts("2023-06-15T12:30:00.500000999Z")))),
    ("a != 1 and s != \"x\" (two !=)", Q(AND(ff("a", "NOT_EQUAL", i(1)), ff("s", "NOT_EQUAL", s("x"))))),
    ("a IS_NOT_NULL and b != true", Q(AND(uf("a", "IS_NOT_NULL"), ff("b", "NOT_EQUAL", TRUE)))),
    ("OR of nothing", Q(OR())),
    ("collection group q, a == 3", {"from": [{"collectionId": "q", "allDescendants": True}], "where": ff("a", "EQUAL", i(3))}),
    ("collection group q under q/d02", {"from": [{"collectionId": "q", "allDescendants": True}]}, "q/d02"),
    ("collection q under q/d01", {"from": [{"collectionId": "q"}]}, "q/d01"),
    ("error: cursor longer than orderBy", Q(order=[asc("a")], startAt={"values": [i(1), ref("q/d01"), i(3)], "before": True})),
    ("error: in with empty array", Q(ff("a", "IN", arr()))),
    ("error: in with non-array", Q(ff("a", "IN", i(3)))),
    ("error: two not-in", Q(AND(ff("a", "NOT_IN", arr(i(1))), ff("s", "NOT_IN", arr(s("x")))))),
    ("error: not-in with !=", Q(AND(ff("a", "NOT_IN", arr(i(1))), ff("s", "NOT_EQUAL", s("x"))))),
    ("error: __name__ == string", Q(ff("__name__", "EQUAL", s("d01")))),
    ("error: negative limit", Q(limit=-1)),
    ("error: negative offset", Q(offset=-1)),
    ("error: not-in with 11 values", Q(ff("a", "NOT_IN", arr(*[i(k) for k in range(11)])))),
    ("not-in with 10 values", Q(ff("a", "NOT_IN", arr(*[i(k) for k in range(10)])))),
    ("in with 30 values", Q(ff("a", "IN", arr(*[i(k) for k in range(30)])))),
    ("error: in with 31 values", Q(ff("a", "IN", arr(*[i(k) for k in range(31)])))),
    ("error: array-contains-any with 31 values", Q(ff("arr", "ARRAY_CONTAINS_ANY", arr(*[i(k) for k in range(31)])))),
    ("error: not-in with empty array", Q(ff("a", "NOT_IN", arr()))),
    ("error: array-contains-any with non-array", Q(ff("arr", "ARRAY_CONTAINS_ANY", i(3)))),
    ("error: array-contains with array-contains-any", Q(AND(ff("arr", "ARRAY_CONTAINS", i(1)), ff("arr", "ARRAY_CONTAINS_ANY", arr(i(3)))))),
    ("error: two array-contains", Q(AND(ff("arr", "ARRAY_CONTAINS", i(1)), ff("arr", "ARRAY_CONTAINS", i(2))))),
    ("error: two array-contains-any", Q(AND(ff("arr", "ARRAY_CONTAINS_ANY", arr(i(1))), ff("a", "ARRAY_CONTAINS_ANY", arr(i(2)))))),
    ("array-contains OR array-contains-any (one per disjunction)", Q(OR(ff("arr", "ARRAY_CONTAINS", i(1)), ff("arr", "ARRAY_CONTAINS_ANY", arr(i(3)))))),
    ("error: array-contains AND (array-contains OR b == true)", Q(AND(ff("arr", "ARRAY_CONTAINS", i(1)), OR(ff("arr", "ARRAY_CONTAINS", i(2)), ff("b", "EQUAL", TRUE))))),
    ("array-contains with in", Q(AND(ff("arr", "ARRAY_CONTAINS", i(3)), ff("a", "IN", arr(i(2), i(3)))))),
    ("error: not-in with in", Q(AND(ff("a", "NOT_IN", arr(i(1))), ff("s", "IN", arr(s("apple")))))),
    ("error: not-in with array-contains-any", Q(AND(ff("a", "NOT_IN", arr(i(1))), ff("arr", "ARRAY_CONTAINS_ANY", arr(i(3)))))),
    ("error: not-in inside OR", Q(OR(ff("a", "NOT_IN", arr(i(1))), ff("b", "EQUAL", TRUE)))),
    ("error: not-in with an OR beside it", Q(AND(ff("a", "NOT_IN", arr(i(1))), OR(ff("b", "EQUAL", TRUE), ff("s", "EQUAL", s("x")))))),
    ("not-in with array-contains", Q(AND(ff("a", "NOT_IN", arr(i(1))), ff("arr", "ARRAY_CONTAINS", i(3))))),
    ("!= inside OR", Q(OR(ff("a", "NOT_EQUAL", i(1)), ff("b", "EQUAL", TRUE)))),
    ("!= with in", Q(AND(ff("a", "NOT_EQUAL", i(1)), ff("s", "IN", arr(s("apple"), s("banana")))))),
    ("error: != and not-in on one field", Q(AND(ff("a", "NOT_EQUAL", i(3)), ff("a", "NOT_IN", arr(i(1)))))),
    ("error: two != on one field", Q(AND(ff("a", "NOT_EQUAL", i(3)), ff("a", "NOT_EQUAL", i(4))))),
    ("error: IS_NOT_NULL with not-in", Q(AND(uf("a", "IS_NOT_NULL"), ff("s", "NOT_IN", arr(s("x")))))),
    ("!= with a range on another field", Q(AND(ff("a", "NOT_EQUAL", i(3)), ff("s", "GREATER_THAN", s("a"))))),
    ("error: two not-in and in (the negation check comes first)", Q(AND(ff("a", "NOT_IN", arr(i(1))), ff("s", "NOT_IN", arr(s("x"))), ff("b", "IN", arr(TRUE))))),
    ("error: not-in with 11 values beside in (the conflict comes first)", Q(AND(ff("a", "NOT_IN", arr(*[i(k) for k in range(11)])), ff("s", "IN", arr(s("x")))))),
    ("error: two array-contains and in with 31 values (values come first)", Q(AND(ff("arr", "ARRAY_CONTAINS", i(1)), ff("m", "ARRAY_CONTAINS", i(1)), ff("a", "IN", arr(*[i(k) for k in range(31)]))))),
    ("error: two array-contains and 36 disjunctions (array-contains comes first)", Q(AND(ff("arr", "ARRAY_CONTAINS", i(1)), ff("m", "ARRAY_CONTAINS", i(1)), ff("a", "IN", arr(*[i(k) for k in range(6)])), ff("b", "IN", arr(*[i(k) for k in range(6)]))))),
    ("in 5 values x in 6 values (30 disjunctions)", Q(AND(ff("a", "IN", arr(*[i(k) for k in range(5)])), ff("s", "IN", arr(*[s(str(k)) for k in range(6)]))))),
    ("error: in 6 values x in 6 values (36 disjunctions)", Q(AND(ff("a", "IN", arr(*[i(k) for k in range(6)])), ff("s", "IN", arr(*[s(str(k)) for k in range(6)]))))),
    ("in with repeated values x in 6 values (repeats count once)", Q(AND(ff("a", "IN", arr(*[i(k % 3) for k in range(6)])), ff("s", "IN", arr(*[s(str(k)) for k in range(6)]))))),
    ("error: OR of 31 equalities", Q(OR(*[ff("a", "EQUAL", i(k)) for k in range(31)]))),
    ("OR of 31 identical equalities (counted once)", Q(OR(*[ff("a", "EQUAL", i(1)) for k in range(31)]))),
    ("error: in 20 values OR in 11 values", Q(OR(ff("a", "IN", arr(*[i(k) for k in range(20)])), ff("s", "IN", arr(*[s(str(k)) for k in range(11)]))))),
    ("error: (6 ORs) AND (6 ORs)", Q(AND(OR(*[ff("a", "EQUAL", i(k)) for k in range(6)]), OR(*[ff("s", "EQUAL", s(str(k))) for k in range(6)])))),
]


def record_queries(emu):
    emu.clear()
    for doc_id, fields in DATASET.items():
        status, body = emu.patch(f"q/{doc_id}", fields)
        assert status == 200, (doc_id, body)
    cases = []
    for name, query, *parent in QUERIES:
        parent = parent[0] if parent else ""
        status, body = emu.run_query(query, parent)
        case = {"name": name, "query": query}
        if parent:
            case["parent"] = parent
        if status == 200:
            case["result"] = result_ids(body)
        else:
            case["error"] = error_of(body)
        cases.append(case)
    return {
        "description": "Dataset: documents q/{id} with the given fields, written with PATCH. Each query ran as "
                       "runQuery with parent = documents root unless `parent` names a document; `result` is the ids in the emulator's order, "
                       "`error` the status it answered.",
        "dataset": DATASET,
        "cases": cases,
    }


# --------------------------------------------------------------------------- aggregation_cases.json

def _grid():
    """25 documents a, b in 0…4 with stats.product = a*b (google-cloud-firestore's query_docs)."""
    out = {}
    k = 0
    for a in range(5):
        for b in range(5):
            # Names run against the product order, so a limit in name order would differ.
            out[f"grid/g{24 - k:02d}"] = {"a": i(a), "b": i(b), "stats": mpd({"product": i(a * b)})}
            k += 1
    return out


AGG_DATASET = {
    **_grid(),
    "mixed/n0": {"x": i(5), "y": i(1)},
    "mixed/n1": {"x": i(1), "y": i(7)},
    "mixed/n2": {"y": i(100)},
    "mixed/n3": {"x": s("str"), "y": i(3)},
    "mixed/n4": {"x": i(3)},
    "mixed/n5": {"x": i(2), "y": i(2)},
    "mixed/n6": {"x": NULL, "y": i(50)},
    "mixed/n7": {"x": i(4), "y": i(4)},
    "three/d0": {"b": i(3), "m": i(1), "z": i(2), "w": i(0)},
    "three/d1": {"b": i(1), "m": i(3), "z": i(1), "w": i(10)},
    "three/d2": {"b": i(2), "m": i(2), "z": i(3), "w": i(20)},
    "three/d3": {"b": i(1), "m": i(1), "z": i(3), "w": i(30)},
    "three/d4": {"b": i(3), "m": i(3), "z": i(3), "w": i(40)},
    "three/d5": {"b": i(2), "m": i(1), "z": i(1), "w": i(50)},
    "big/b0": {"v": i(9223372036854775807), "u": i(-9223372036854775808)},
    "big/b1": {"v": i(1), "u": i(-1)},
    "big/b2": {"v": i(-1), "u": i(1)},
    "big/b3": {"v": i(9223372036854775807), "u": i(-9223372036854775808)},
    "dbl/e0": {"v": d(n("1.5")), "w": d("NaN"), "z": d("Infinity"), "n": d(n("-0.0"))},
    "dbl/e1": {"v": i(2), "w": i(1), "z": d("-Infinity"), "n": d(n("-0.0"))},
    "dbl/e2": {"v": d(n("0.1")), "w": i(2), "z": i(1), "n": d(n("-0.0"))},
    "dbl/e3": {"v": d(n("0.2")), "w": s("x"), "z": i(1)},
}


def S(field, alias=None):
    a = {"sum": {"field": {"fieldPath": field}}}
    if alias is not None:
        a["alias"] = alias
    return a


def AVG(field, alias=None):
    a = {"avg": {"field": {"fieldPath": field}}}
    if alias is not None:
        a["alias"] = alias
    return a


def CNT(alias=None, up_to=None):
    a = {"count": {} if up_to is None else {"upTo": str(up_to)}}
    if alias is not None:
        a["alias"] = alias
    return a


def AQ(coll, aggregations, **extra):
    q = {"from": [{"collectionId": coll}], **extra}
    out = {"structuredQuery": q}
    if aggregations is not None:
        out["aggregations"] = aggregations
    return out


AGG_CASES = [
    ("count", AQ("grid", [CNT("c")])),
    ("sum, avg, count without aliases (field_1…)", AQ("grid", [CNT(), S("stats.product"), AVG("stats.product")])),
    ("empty aliases are unnamed", AQ("grid", [CNT(""), S("a", "")])),
    ("explicit field_2 beside an unnamed one", AQ("grid", [CNT("field_2"), CNT()])),
    ("sum over 25 (google test: 100)", AQ("grid", [S("stats.product", "total")])),
    ("limit 12 then sum (the 12 smallest: 5)", AQ("grid", [S("stats.product", "total")], limit=12)),
    ("limit 12 then avg (5/12)", AQ("grid", [AVG("stats.product", "total")], limit=12)),
    ("limit 2 then count", AQ("grid", [CNT("total")], limit=2)),
    ("limit 12: count beside sum", AQ("grid", [CNT("c"), S("stats.product", "s")], limit=12)),
    ("limit 12: sum b and sum stats.product (ordered by b, then stats.product)", AQ("grid", [S("b", "s"), S("stats.product", "t")], limit=12)),
    ("limit 3 sum a", AQ("grid", [S("a", "s")], limit=3)),
    ("orderBy a desc limit 3 sum a", AQ("grid", [S("a", "s")], limit=3, orderBy=[desc("a")])),
    ("orderBy a desc limit 3 sum b (b follows the last direction)", AQ("grid", [S("b", "s")], limit=3, orderBy=[desc("a")])),
    ("a == 1 sum stats.product", AQ("grid", [S("stats.product", "s")], where=ff("a", "EQUAL", i(1)))),
    ("count upTo 3 limit 5", AQ("grid", [CNT("c", 3)], limit=5)),
    ("count upTo 30", AQ("grid", [CNT("c", 30)])),
    ("offset 20 count", AQ("grid", [CNT("c")], offset=20)),
    ("missing field excluded from count beside sum", AQ("mixed", [CNT("cnt"), S("x", "s")])),
    ("missing field excluded from count beside avg", AQ("mixed", [CNT("cnt"), AVG("x", "a")])),
    ("count alone counts all", AQ("mixed", [CNT("cnt")])),
    ("limit 3: count and sum x (null sorts first)", AQ("mixed", [CNT("cnt"), S("x", "s")], limit=3)),
    ("orderBy y limit 2 sum x", AQ("mixed", [S("x", "s")], limit=2, orderBy=[asc("y")])),
    ("orderBy y desc limit 2 sum x (n2 lacks x)", AQ("mixed", [S("x", "s")], limit=2, orderBy=[desc("y")])),
    ("sum x and y: documents with both", AQ("mixed", [S("x", "s"), S("y", "t")], limit=10)),
    ("sum y, sum x limit 2 (lexicographic x, y)", AQ("mixed", [S("y", "t"), S("x", "s")], limit=2)),
    ("y > 2 limit 2 sum x (inequality field first)", AQ("mixed", [S("x", "s"), CNT("cnt")], limit=2, where=ff("y", "GREATER_THAN", i(2)))),
    ("sum x, avg x limit 3", AQ("mixed", [S("x", "s"), AVG("x", "a")], limit=3)),
    ("avg of strings and null only", AQ("mixed", [AVG("x", "a")], where=ff("x", "EQUAL", s("str")))),
    ("avg of a missing field", AQ("mixed", [AVG("zz", "a")])),
    ("sum of a missing field", AQ("mixed", [S("zz", "s")])),
    ("sum z, m, b limit 2", AQ("three", [S("z", "z"), S("m", "m"), S("b", "b")], limit=2)),
    ("sum z, m, w limit 2", AQ("three", [S("z", "z"), S("m", "m"), S("w", "w")], limit=2)),
    ("orderBy z desc limit 2 sum w", AQ("three", [S("w", "w")], limit=2, orderBy=[desc("z")])),
    ("orderBy z desc limit 2 sum w, m", AQ("three", [S("w", "w"), S("m", "m")], limit=2, orderBy=[desc("z")])),
    ("offset 2 sum w", AQ("three", [S("w", "w")], offset=2)),
    ("offset 2 limit 2 sum w", AQ("three", [S("w", "w")], offset=2, limit=2)),
    ("z == 3 limit 2 sum b, w", AQ("three", [S("b", "b"), S("w", "w")], limit=2, where=ff("z", "EQUAL", i(3)))),
    ("int overflow becomes a double", AQ("big", [S("v", "s")])),
    ("int underflow becomes a double", AQ("big", [S("u", "s")])),
    ("max + 1 - 1 (order of summation)", AQ("big", [S("v", "s")], where=ff("v", "LESS_THAN", i(9223372036854775807)))),
    ("avg of huge ints", AQ("big", [AVG("v", "a")])),
    ("limit 3 sum v (-1, 1, max)", AQ("big", [S("v", "s")], limit=3)),
    ("sum mixes int and double", AQ("dbl", [S("v", "s"), AVG("v", "a")])),
    ("sum with NaN", AQ("dbl", [S("w", "s"), AVG("w", "a")])),
    ("sum Infinity + -Infinity", AQ("dbl", [S("z", "s"), AVG("z", "a")])),
    ("sum of -0.0", AQ("dbl", [S("n", "s"), AVG("n", "a")])),
    ("5 aggregations", AQ("grid", [CNT(f"a{k}") for k in range(5)])),
    ("error: 6 aggregations", AQ("grid", [CNT(f"a{k}") for k in range(6)])),
    ("error: no aggregations", AQ("grid", [])),
    ("error: aggregations absent", AQ("grid", None)),
    ("error: duplicate alias", AQ("grid", [CNT("total"), CNT("total")])),
    ("error: duplicate alias across kinds", AQ("grid", [CNT("total"), S("a", "total"), CNT("x")])),
    ("error: explicit field_1 beside an unnamed one", AQ("grid", [CNT("field_1"), CNT()])),
    ("error: unnamed then explicit field_1", AQ("grid", [CNT(), CNT("field_1")])),
    ("error: upTo negative", AQ("grid", [CNT("c", -1)])),
    ("upTo 0", AQ("grid", [CNT("c", 0)])),
    ("error: sum of __name__", AQ("grid", [S("__name__", "s")])),
    ("error: aggregation without operator", AQ("grid", [{"alias": "x"}])),
    ("error: sum without field", AQ("grid", [{"alias": "x", "sum": {}}])),
    ("error: reserved alias __x__", AQ("grid", [CNT("__x__")])),
    ("error: reserved alias before a duplicate", AQ("grid", [CNT("t"), CNT("t"), CNT("__name__")])),
    ("aliases __, ___, ____, __x and \"a.b c\" are not reserved", AQ("grid", [CNT("__"), CNT("___"), CNT("____"), CNT("__x"), CNT("a.b c")])),
    ("alias of 1500 bytes", AQ("grid", [CNT("\u00e9" * 750)])),
    ("error: alias of 1502 bytes", AQ("grid", [CNT("\u00e9" * 751)])),
]


def record_aggregations(emu):
    emu.clear()
    for path, fields in AGG_DATASET.items():
        status, body = emu.patch(path, fields)
        assert status == 200, (path, body)
    cases = []
    for name, saq in AGG_CASES:
        status, body = emu.call("POST", f"/v1/{DOCS}:runAggregationQuery", {"structuredAggregationQuery": saq})
        case = {"name": name, "structuredAggregationQuery": saq}
        if status == 200:
            case["result"] = body[0]["result"]["aggregateFields"]
        else:
            case["error"] = error_of(body)
        cases.append(case)
    return {
        "description": "Dataset: documents at the given paths, written with PATCH. Each case ran as runAggregationQuery "
                       "with parent = documents root; `result` is the aggregateFields the emulator answered (number text "
                       "verbatim), `error` the status and message it answered.",
        "dataset": AGG_DATASET,
        "cases": cases,
    }


# --------------------------------------------------------------------------- transforms.json

def tr(field, kind, operand):
    return {"fieldPath": field, kind: operand}


TRANSFORM_CASES = [
    ("increment int+int", {"n": i(5)}, [tr("n", "increment", i(3))]),
    ("increment int+double", {"n": i(5)}, [tr("n", "increment", d(n("0.5")))]),
    ("increment double+int", {"n": d(n("1.5"))}, [tr("n", "increment", i(1))]),
    ("increment double+double", {"n": d(n("0.1"))}, [tr("n", "increment", d(n("0.2")))]),
    ("increment saturates at int64 max", {"n": i(9223372036854775807)}, [tr("n", "increment", i(1))]),
    ("increment saturates at int64 min", {"n": i(-9223372036854775808)}, [tr("n", "increment", i(-1))]),
    ("increment max + max", {"n": i(9223372036854775807)}, [tr("n", "increment", i(9223372036854775807))]),
    ("increment missing field", {}, [tr("n", "increment", i(7))]),
    ("increment missing field by double", {}, [tr("n", "increment", d(n("-0.0")))]),
    ("increment string field", {"n": s("x")}, [tr("n", "increment", i(2))]),
    ("increment null field", {"n": NULL}, [tr("n", "increment", d(n("2.5")))]),
    ("increment NaN field", {"n": d("NaN")}, [tr("n", "increment", i(1))]),
    ("increment Infinity by -Infinity", {"n": d("Infinity")}, [tr("n", "increment", d("-Infinity"))]),
    ("increment by 0 (unchanged)", {"n": i(4)}, [tr("n", "increment", i(0))]),
    ("increment int by -0.0", {"n": i(4)}, [tr("n", "increment", d(n("-0.0")))]),
    ("increment nested m.x", {"m": mpd({"x": i(1), "y": i(2)})}, [tr("m.x", "increment", i(1))]),
    ("increment through non-map", {"m": i(1)}, [tr("m.x", "increment", i(1))]),
    ("increment by string (invalid)", {"n": i(1)}, [tr("n", "increment", s("1"))]),
    ("increment 2^53 int by 1.0", {"n": i(9007199254740993)}, [tr("n", "increment", d(n("1.0")))]),
    ("maximum int vs larger double", {"n": i(3)}, [tr("n", "maximum", d(n("3.5")))]),
    ("maximum int 3 vs 3.0 (keeps stored)", {"n": i(3)}, [tr("n", "maximum", d(n("3.0")))]),
    ("maximum double 3.0 vs int 3", {"n": d(n("3.0"))}, [tr("n", "maximum", i(3))]),
    ("maximum 0.0 vs -0.0", {"n": d(n("0.0"))}, [tr("n", "maximum", d(n("-0.0")))]),
    ("maximum int 0 vs -0.0", {"n": i(0)}, [tr("n", "maximum", d(n("-0.0")))]),
    ("maximum NaN stored vs 1", {"n": d("NaN")}, [tr("n", "maximum", i(1))]),
    ("maximum 1 vs NaN operand", {"n": i(1)}, [tr("n", "maximum", d("NaN"))]),
    ("maximum missing field", {}, [tr("n", "maximum", i(2))]),
    ("maximum string field", {"n": s("z")}, [tr("n", "maximum", i(2))]),
    ("maximum smaller operand", {"n": i(10)}, [tr("n", "maximum", i(2))]),
    ("maximum non-numeric operand (invalid)", {"n": i(1)}, [tr("n", "maximum", s("a"))]),
    ("minimum int vs smaller double", {"n": i(3)}, [tr("n", "minimum", d(n("2.5")))]),
    ("minimum int 3 vs 3.0 (keeps stored)", {"n": i(3)}, [tr("n", "minimum", d(n("3.0")))]),
    ("minimum -0.0 stored vs 0", {"n": d(n("-0.0"))}, [tr("n", "minimum", i(0))]),
    ("minimum NaN stored vs 1", {"n": d("NaN")}, [tr("n", "minimum", i(1))]),
    ("minimum 1 vs NaN operand", {"n": i(1)}, [tr("n", "minimum", d("NaN"))]),
    ("minimum -Infinity", {"n": i(-9223372036854775808)}, [tr("n", "minimum", d("-Infinity"))]),
    ("minimum missing field", {}, [tr("n", "minimum", d(n("1.5")))]),
    ("appendMissingElements to missing", {}, [tr("a", "appendMissingElements", {"values": [i(1), i(2)]})]),
    ("appendMissingElements to non-array", {"a": s("x")}, [tr("a", "appendMissingElements", {"values": [i(1)]})]),
    ("appendMissingElements [1,2] + [2,3]", {"a": arr(i(1), i(2))}, [tr("a", "appendMissingElements", {"values": [i(2), i(3)]})]),
    ("appendMissingElements [3] + [3.0]", {"a": arr(i(3))}, [tr("a", "appendMissingElements", {"values": [d(n("3.0"))]})]),
    ("appendMissingElements [NaN] + [NaN]", {"a": arr(d("NaN"))}, [tr("a", "appendMissingElements", {"values": [d("NaN")]})]),
    ("appendMissingElements [null] + [null]", {"a": arr(NULL)}, [tr("a", "appendMissingElements", {"values": [NULL]})]),
    ("appendMissingElements duplicates in input", {"a": arr()}, [tr("a", "appendMissingElements", {"values": [i(4), i(4), d(n("4.0"))]})]),
    ("appendMissingElements [0] + [-0.0]", {"a": arr(i(0))}, [tr("a", "appendMissingElements", {"values": [d(n("-0.0"))]})]),
    ("appendMissingElements maps", {"a": arr(mpd({"k": i(1)}))}, [tr("a", "appendMissingElements", {"values": [mpd({"k": d(n("1.0"))}), mpd({"k": i(2)})]})]),
    ("appendMissingElements nothing (unchanged)", {"a": arr(i(1))}, [tr("a", "appendMissingElements", {})]),
    ("removeAllFromArray [1,2,1,3] - [1]", {"a": arr(i(1), i(2), i(1), i(3))}, [tr("a", "removeAllFromArray", {"values": [i(1)]})]),
    ("removeAllFromArray [3] - [3.0]", {"a": arr(i(3), s("3"))}, [tr("a", "removeAllFromArray", {"values": [d(n("3.0"))]})]),
    ("removeAllFromArray NaN", {"a": arr(d("NaN"), i(1))}, [tr("a", "removeAllFromArray", {"values": [d("NaN")]})]),
    ("removeAllFromArray null", {"a": arr(NULL, FALSE)}, [tr("a", "removeAllFromArray", {"values": [NULL]})]),
    ("removeAllFromArray from missing", {}, [tr("a", "removeAllFromArray", {"values": [i(1)]})]),
    ("removeAllFromArray from non-array", {"a": i(1)}, [tr("a", "removeAllFromArray", {"values": [i(1)]})]),
    ("removeAllFromArray absent element (unchanged)", {"a": arr(i(1))}, [tr("a", "removeAllFromArray", {"values": [i(2)]})]),
    ("serverTimestamp", {}, [tr("t", "setToServerValue", "REQUEST_TIME")]),
    ("serverTimestamp nested", {"m": mp()}, [tr("m.t", "setToServerValue", "REQUEST_TIME")]),
    ("two transforms, in order", {"n": i(1)}, [tr("n", "increment", i(1)), tr("k", "maximum", i(9))]),
    ("two transforms on one field", {"n": i(1)}, [tr("n", "increment", i(1)), tr("n", "increment", i(1))]),
    ("transform on parent and child", {"m": mpd({"x": i(1)})}, [tr("m", "setToServerValue", "REQUEST_TIME"), tr("m.x", "increment", i(1))]),
    ("transform on reserved field", {}, [tr("__x__", "increment", i(1))]),
]

WRITE_CASES = [
    # (note, existing fields or None, write without the name, extra transforms)
    ("set replaces", {"a": i(1), "b": i(2)}, {"update": {"fields": {"a": i(5)}}}),
    ("set identical (unchanged)", {"a": i(1)}, {"update": {"fields": {"a": i(1)}}}),
    ("set 1.0 over integer 1", {"a": i(1)}, {"update": {"fields": {"a": d(n("1.0"))}}}),
    ("set -0.0 over 0.0", {"a": d(n("0.0"))}, {"update": {"fields": {"a": d(n("-0.0"))}}}),
    ("mask merges, deletes absent masked", {"a": i(1), "b": i(2), "c": i(3)}, {"update": {"fields": {"a": i(9), "z": i(0)}}, "updateMask": {"fieldPaths": ["a", "b"]}}),
    ("mask nested path", {"m": mpd({"x": i(1), "y": i(2)})}, {"update": {"fields": {"m": mpd({"x": i(5)})}}, "updateMask": {"fieldPaths": ["m.x"]}}),
    ("mask path through non-map", {"m": i(1)}, {"update": {"fields": {"m": mpd({"x": i(5)})}}, "updateMask": {"fieldPaths": ["m.x"]}}),
    ("empty mask changes nothing", {"a": i(1)}, {"update": {"fields": {"a": i(2)}}, "updateMask": {}}),
    ("empty mask + transform", {"a": i(1)}, {"update": {"fields": {}}, "updateMask": {}, "updateTransforms": [tr("a", "increment", i(1))]}),
    ("empty mask on missing doc creates it", None, {"update": {"fields": {}}, "updateMask": {}}),
    ("mask + transform on masked field", {"a": i(1)}, {"update": {"fields": {"a": i(5)}}, "updateMask": {"fieldPaths": ["a"]}, "updateTransforms": [tr("a", "increment", i(1))]}),
    ("exists=true on missing", None, {"update": {"fields": {"a": i(1)}}, "currentDocument": {"exists": True}}),
    ("exists=false on existing", {"a": i(1)}, {"update": {"fields": {"a": i(1)}}, "currentDocument": {"exists": False}}),
    ("exists=false on missing", None, {"update": {"fields": {"a": i(1)}}, "currentDocument": {"exists": False}}),
    ("updateTime mismatch", {"a": i(1)}, {"update": {"fields": {"a": i(2)}}, "currentDocument": {"updateTime": "2000-01-01T00:00:00Z"}}),
    ("updateTime on missing", None, {"update": {"fields": {"a": i(2)}}, "currentDocument": {"updateTime": "2000-01-01T00:00:00Z"}}),
    ("delete existing", {"a": i(1)}, {"delete": True}),
    ("delete missing", None, {"delete": True}),
    ("delete exists=true on missing", None, {"delete": True, "currentDocument": {"exists": True}}),
    ("verify exists=true on existing", {"a": i(1)}, {"verify": True, "currentDocument": {"exists": True}}),
    ("legacy transform write", {"n": i(1)}, {"transform": {"fieldTransforms": [tr("n", "increment", i(2))]}}),
    ("legacy transform on missing doc", None, {"transform": {"fieldTransforms": [tr("n", "increment", i(2))]}}),
    ("set reserved field name", None, {"update": {"fields": {"__x__": i(1)}}}),
    ("update with a later updateTime", {"a": i(1)}, {"update": {"fields": {"a": i(2)}}, "currentDocument": {"updateTime": "2099-01-01T00:00:00Z"}}),
    ("delete with a later updateTime", {"a": i(1)}, {"delete": True, "currentDocument": {"updateTime": "2099-01-01T00:00:00Z"}}),
    ("verify with a later updateTime", {"a": i(1)}, {"verify": True, "currentDocument": {"updateTime": "2099-01-01T00:00:00Z"}}),
    ("delete with an earlier updateTime", {"a": i(1)}, {"delete": True, "currentDocument": {"updateTime": "2000-01-01T00:00:00Z"}}),
    ("verify with an earlier updateTime", {"a": i(1)}, {"verify": True, "currentDocument": {"updateTime": "2000-01-01T00:00:00Z"}}),
    ("later updateTime on a missing doc", None, {"delete": True, "currentDocument": {"updateTime": "2099-01-01T00:00:00Z"}}),
    ("updateTime with nanoseconds", {"a": i(1)}, {"delete": True, "currentDocument": {"updateTime": "2000-01-01T00:00:00.000000001Z"}}),
    ("update exists=true on missing", None, {"update": {"fields": {"a": i(2)}}, "currentDocument": {"exists": True}}),
    ("delete exists=false on existing", {"a": i(1)}, {"delete": True, "currentDocument": {"exists": False}}),
    ("verify exists=true on missing", None, {"verify": True, "currentDocument": {"exists": True}}),
    ("verify exists=false on existing", {"a": i(1)}, {"verify": True, "currentDocument": {"exists": False}}),
    ("verify exists=false on missing", None, {"verify": True, "currentDocument": {"exists": False}}),
]


def normalise_times(obj, known):
    """Replaces clock-dependent timestamps by placeholders (`<commitTime>`, `<requestTime>`, `<createTime>`, `<updateTime:before>`)."""
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if isinstance(v, str) and v in known:
                out[k] = known[v]
            else:
                out[k] = normalise_times(v, known)
        return out
    if isinstance(obj, list):
        return [normalise_times(v, known) for v in obj]
    return obj


def run_write_case(emu, cid, existing, write):
    path = f"transforms/{cid}"
    name = f"{DOCS}/{path}"
    before = None
    if existing is not None:
        status, before = emu.patch(path, existing)
        assert status == 200, before
    write = json.loads(dumps(write), parse_float=RawNumber, parse_int=RawNumber)
    if "update" in write:
        write["update"]["name"] = name
    for op in ("delete", "verify"):
        if write.get(op) is True:
            write[op] = name
    if "transform" in write:
        write["transform"] = {"document": name, **write["transform"]}
    status, body = emu.commit([write])
    result = {"status": status}
    if status != 200:
        result["error"] = error_of(body)
        return write, result
    wr = body["writeResults"][0]
    commit_time = body["commitTime"]
    _, after = emu.get(path)
    known = {commit_time: "<commitTime>"}
    if before is not None:
        known.setdefault(before["updateTime"], "<updateTime:before>")
    for t in wr.get("transformResults", []):
        if "timestampValue" in t and t["timestampValue"] not in known:
            known[t["timestampValue"]] = "<requestTime>"
    if "verify" in write and wr.get("updateTime") not in (None, *known):
        # A document verified missing: the emulator answers a clock reading of its own.
        known[wr["updateTime"]] = "<verifyTime>"
        result["verifyTimeVsCommitTime"] = {"verifyTime": wr["updateTime"], "commitTime": commit_time}
    result["writeResult"] = normalise_times(wr, known)
    if isinstance(after, dict) and "error" not in after:
        if before is None:
            known.setdefault(after["createTime"], "<createTime>")
        doc = normalise_times(after, known)
        doc.pop("name", None)
        result["document"] = doc
    else:
        result["document"] = None
    # The REQUEST_TIME value relative to the commit time (the emulator does not reuse it).
    if "<requestTime>" in known.values():
        req_time = next(k for k, v in known.items() if v == "<requestTime>")
        result["requestTimeVsCommitTime"] = {"requestTime": req_time, "commitTime": commit_time}
    return write, result


# Commits (and BatchWrites) of several writes: how a request may combine verifies with other
# writes of the same document. Document names: "e" (exists: written before the request), "m"
# (missing), "o" (another missing document), each under requests/{case id}/docs/.
def VF(doc, precondition=None):
    w = {"verify": doc}
    if precondition is not None:
        w["currentDocument"] = precondition
    return w


EXISTS = {"exists": True}
ABSENT = {"exists": False}
UP = lambda doc: {"update": {"name": doc, "fields": {"a": i(2)}}}
DEL = lambda doc: {"delete": doc}
TRF = lambda doc: {"transform": {"document": doc, "fieldTransforms": [tr("a", "increment", i(1))]}}

REQUEST_CASES = [
    # (note, rpc "commit" / "batchWrite" / "transaction" (Commit in a read-write transaction), writes)
    ("verify without a precondition", "commit", [VF("e")]),
    ("verify with an empty precondition", "commit", [VF("e", {})]),
    ("verify twice", "commit", [VF("e", EXISTS), VF("e", EXISTS)]),
    ("verify a missing document twice", "commit", [VF("m", ABSENT), VF("m", ABSENT)]),
    ("update then verify", "commit", [UP("e"), VF("e", EXISTS)]),
    ("verify then update", "commit", [VF("e", EXISTS), UP("e")]),
    ("delete then verify", "commit", [DEL("e"), VF("e", EXISTS)]),
    ("verify then delete", "commit", [VF("e", EXISTS), DEL("e")]),
    ("transform then verify", "commit", [TRF("e"), VF("e", EXISTS)]),
    ("verify then transform", "commit", [VF("e", EXISTS), TRF("e")]),
    ("update twice (allowed)", "commit", [UP("e"), UP("e")]),
    ("delete twice (allowed)", "commit", [DEL("o"), DEL("o")]),
    ("verify one document, update another", "commit", [VF("e", EXISTS), UP("o")]),
    ("verify twice, the first failing its precondition", "commit", [VF("m", EXISTS), VF("m", EXISTS)]),
    ("verify twice without preconditions", "commit", [VF("e"), VF("e")]),
    ("update, verify, verify", "commit", [UP("e"), VF("e", EXISTS), VF("e", EXISTS)]),
    ("verify, verify, update", "commit", [VF("e", EXISTS), VF("e", EXISTS), UP("e")]),
    ("update then verify without a precondition", "commit", [UP("e"), VF("e")]),
    ("verify without a precondition, then an invalid write", "commit",
     [VF("e"), {"update": {"name": "o", "fields": {"__x__": i(1)}}}]),
    ("an invalid write, then verify without a precondition", "commit",
     [{"update": {"name": "o", "fields": {"__x__": i(1)}}}, VF("e")]),
    ("verify a missing document (exists: false)", "commit", [VF("m", ABSENT)]),
    ("verify a missing and an existing document, update a third", "commit",
     [VF("m", ABSENT), UP("o"), VF("e", EXISTS)]),
    ("verify a missing document failing exists: true, then update another", "commit", [VF("m", EXISTS), UP("o")]),
    ("transaction: verify without a precondition", "transaction", [VF("e")]),
    ("transaction: verify twice", "transaction", [VF("e", EXISTS), VF("e", EXISTS)]),
    ("transaction: update then verify", "transaction", [UP("e"), VF("e", EXISTS)]),
    ("transaction: verify existing and missing documents", "transaction", [VF("e", EXISTS), VF("m", ABSENT)]),
    ("batchWrite: verify without a precondition", "batchWrite", [VF("e")]),
    ("batchWrite: verify with an empty precondition", "batchWrite", [VF("e", {})]),
    ("batchWrite: verify twice", "batchWrite", [VF("e", EXISTS), VF("e", EXISTS)]),
    ("batchWrite: update then verify", "batchWrite", [UP("e"), VF("e", EXISTS)]),
    ("batchWrite: verify then delete", "batchWrite", [VF("e", EXISTS), DEL("e")]),
    ("batchWrite: update twice", "batchWrite", [UP("o"), UP("o")]),
    ("batchWrite: verify without a precondition, then a repeated document", "batchWrite",
     [VF("e"), UP("o"), UP("o")]),
    ("batchWrite: verifies and an update", "batchWrite",
     [VF("m", ABSENT), VF("e", EXISTS), UP("o"), VF("n", EXISTS)]),
]


def request_doc_names(writes, base):
    """Short document names ("e", "m", "o") → full names under `base`."""
    out = json.loads(dumps(writes), parse_float=RawNumber, parse_int=RawNumber)
    for w in out:
        for key in ("verify", "delete"):
            if key in w:
                w[key] = f"{base}/{w[key]}"
        if "update" in w:
            w["update"]["name"] = f"{base}/{w['update']['name']}"
        if "transform" in w:
            w["transform"]["document"] = f"{base}/{w['transform']['document']}"
    return out


def run_request_case(emu, cid, rpc, writes):
    base = f"{DOCS}/requests/{cid}/docs"
    status, before = emu.patch(f"requests/{cid}/docs/e", {"a": i(1)})
    assert status == 200, before
    body = {"writes": request_doc_names(writes, base)}
    if rpc == "transaction":
        status, began = emu.call("POST", f"/v1/{DOCS}:beginTransaction", {})
        assert status == 200, began
        body["transaction"] = began["transaction"]
    verb = ":batchWrite" if rpc == "batchWrite" else ":commit"
    status, reply = emu.call("POST", f"/v1/{DOCS}{verb}", body)
    result = {"status": status}
    if status != 200:
        result["error"] = error_of(reply)
        if rpc == "transaction":
            # Whether the refused commit used up its transaction: commit it again, empty.
            again, retry = emu.call("POST", f"/v1/{DOCS}:commit", {"transaction": body["transaction"]})
            result["transactionAfterwards"] = {"status": again, **({} if again == 200 else {"error": error_of(retry)})}
        return result
    known = {before["updateTime"]: "<updateTime:before>"}
    if "commitTime" in reply:
        known[reply["commitTime"]] = "<commitTime>"
    results = []
    for k, wr in enumerate(reply["writeResults"]):
        t = wr.get("updateTime")
        if rpc != "batchWrite" and t is not None and t not in known:
            # Only a document verified missing has a time that is neither of the two.
            assert "verify" in writes[k], (cid, wr)
            known[t] = "<verifyTime>"
            result["verifyTimeVsCommitTime"] = {"verifyTime": t, "commitTime": reply["commitTime"]}
        if rpc == "batchWrite" and t is not None and t not in known:
            wr = {**wr, "updateTime": "<time>"}  # each write of a BatchWrite commits on its own
        results.append(normalise_times(wr, known))
    result["writeResults"] = results
    if rpc == "batchWrite":
        result["writeStatus"] = [st.get("code", 0) for st in reply["status"]]
    return result


def record_requests(emu):
    cases = []
    for k, (note, rpc, writes) in enumerate(REQUEST_CASES):
        cid = f"q{k:03d}"
        cases.append({"id": cid, "note": note, "rpc": rpc, "writes": writes, **run_request_case(emu, cid, rpc, writes)})
    return cases


def record_transforms(emu):
    emu.clear()
    cases = []
    k = 0
    for note, existing, transforms in TRANSFORM_CASES:
        cid = f"t{k:03d}"
        k += 1
        write = {"update": {"fields": {}}, "updateMask": {}, "updateTransforms": transforms}
        sent, result = run_write_case(emu, cid, existing, write)
        cases.append({"id": cid, "note": note, "existing": existing, "write": sent, **result})
    for note, existing, write in WRITE_CASES:
        cid = f"t{k:03d}"
        k += 1
        sent, result = run_write_case(emu, cid, existing, write)
        cases.append({"id": cid, "note": note, "existing": existing, "write": sent, **result})
    return {
        "description": "Each case: document transforms/{id} is first written with `existing` fields (PATCH; absent "
                       "when null), then one Commit with `write` runs. Recorded: the HTTP status, the write result "
                       "and the document read back (`document: null` when missing), or the error. Clock values are "
                       "placeholders: <commitTime> (the commit's commitTime), <updateTime:before> (the update time "
                       "before the commit), <createTime>, <requestTime> (a REQUEST_TIME transform result).",
        "cases": cases,
        "requestsDescription": "Each request case: document requests/{id}/docs/e is first written with {a: 1} "
                               "(PATCH), then one request with `writes` runs, the short names e, m, o (and n) "
                               "standing for requests/{id}/docs/e (existing) and missing documents beside it. `rpc` "
                               "is commit, transaction (Commit in a read-write transaction from BeginTransaction) or "
                               "batchWrite. Recorded: the HTTP status and the error, or the write results "
                               "(BatchWrite: and the per-write codes; a BatchWrite time is <time>). <verifyTime> is "
                               "the time the emulator reports for a document verified missing; "
                               "verifyTimeVsCommitTime keeps one real pair. After a refused transaction commit, "
                               "transactionAfterwards is an empty Commit in it.",
        "requests": record_requests(emu),
    }


# --------------------------------------------------------------------------- limits.json
#
# Long strings are written compactly and expanded before sending (the Swift runner does the
# same): a JSON string value may be {"$repeat": [text, count]}, an object key "$repeat:<c>:<n>"
# is <c> repeated n times, and a document "name" (or a step "path") may be a list of segments
# joined with "/".

def RP(text, count):
    return {"$repeat": [text, count]}


def expand(x):
    if isinstance(x, dict):
        if set(x) == {"$repeat"}:
            text, count = x["$repeat"]
            return text * count
        out = {}
        for k, v in x.items():
            if k.startswith("$repeat:"):
                _, c, n_ = k.split(":")
                k = c * int(n_)
            out[k] = expand(v)
        return out
    if isinstance(x, list):
        return [expand(v) for v in x]
    return x


def doc_name(segments):
    return {"$name": segments}


def expand_names(x):
    """{"$name": [segments]} -> the full document name."""
    if isinstance(x, dict):
        if set(x) == {"$name"}:
            return f"{DOCS}/" + "/".join(expand(s) for s in x["$name"])
        return {k: expand_names(v) for k, v in x.items()}
    if isinstance(x, list):
        return [expand_names(v) for v in x]
    return x


def nest(levels, alternating=False):
    v = i(1)
    for k in range(levels):
        v = arr(v) if alternating and k % 2 == 1 else mpd({"m": v})
    return v


def upd(segments, fields):
    return {"update": {"name": doc_name(segments), "fields": fields}}


def dotted(segments):
    """The field path a.a.…a of `segments` segments."""
    return ".".join(["a"] * segments)


def nest_path(levels):
    """{a: {a: … 1}} with `levels` maps, as an increment on dotted(levels + 1) builds it."""
    v = i(1)
    for _ in range(levels):
        v = mpd({"a": v})
    return v


def transform(segments, *field_transforms):
    return {"transform": {"document": doc_name(segments), "fieldTransforms": list(field_transforms)}}


def commit_step(*writes):
    return {"method": "POST", "path": ":commit", "body": {"writes": list(writes)}}


X1500 = RP("x", 1500)
# name size: 16 + 5 x "c" (2) + 4 x 1,501 + (tail + 1) = 6,144 for a 113-byte tail.
NAME_6144 = ["c", X1500, "c", X1500, "c", X1500, "c", X1500, "c", RP("y", 113)]
NAME_6145 = ["c", X1500, "c", X1500, "c", X1500, "c", X1500, "c", RP("y", 114)]
# document size: name lim/d (16 + 4 + 2 = 22) + fields a (2 + 600,001) + b (2 + n + 1) + 32.
FILL = 1048576 - 22 - 32 - 2 - 600001 - 3

LIMIT_CASES = [
    ("string value of 1,048,487 bytes", [commit_step(upd(["lim", "v1"], {"a": {"stringValue": RP("x", 1048487)}}))]),
    ("string value of 1,048,488 bytes", [commit_step(upd(["lim", "v2"], {"a": {"stringValue": RP("x", 1048488)}}))]),
    ("bytes value of 1,048,488 bytes", [commit_step(upd(["lim", "v3"], {"b": {"bytesValue": RP("eHh4", 349496)}}))]),
    ("over-long string in an array", [commit_step(upd(["lim", "v4"], {"a": arr({"stringValue": RP("x", 1048488)})}))]),
    ("over-long string in a map", [commit_step(upd(["lim", "v5"], {"m": mpd({"x": {"stringValue": RP("x", 1048488)}})}))]),
    ("field name of 1,500 bytes", [commit_step(upd(["lim", "f1"], {"$repeat:k:1500": NULL}))]),
    ("field name of 1,501 bytes", [commit_step(upd(["lim", "f2"], {"$repeat:k:1501": NULL}))]),
    ("map key of 1,501 bytes", [commit_step(upd(["lim", "f3"], {"m": mpd({"$repeat:k:1501": NULL})}))]),
    ("20 nested maps in one field", [commit_step(upd(["lim", "n1"], {"top": nest(20)}))]),
    ("21 nested maps in one field", [commit_step(upd(["lim", "n2"], {"top": nest(21)}))]),
    ("20 nested maps and arrays in one field", [commit_step(upd(["lim", "n3"], {"top": nest(20, True)}))]),
    ("21 nested maps and arrays in one field", [commit_step(upd(["lim", "n4"], {"top": nest(21, True)}))]),
    ("document of exactly 1,048,576 bytes",
     [commit_step(upd(["lim", "d"], {"a": {"stringValue": RP("x", 600000)}, "b": {"stringValue": RP("x", FILL)}}))]),
    ("document of 1,048,577 bytes",
     [commit_step(upd(["lim", "d"], {"a": {"stringValue": RP("x", 600000)}, "b": {"stringValue": RP("x", FILL + 1)}}))]),
    ("a transform that grows the document past 1 MiB",
     [commit_step(upd(["lim", "t"], {"a": arr({"stringValue": RP("x", 600000)})})),
      commit_step({"transform": {"document": doc_name(["lim", "t"]), "fieldTransforms": [
          {"fieldPath": "a", "appendMissingElements": {"values": [{"stringValue": RP("y", 600000)}]}}]}})]),
    ("UpdateDocument (PATCH) with an over-long string",
     [{"method": "PATCH", "path": "/lim/p1", "body": {"fields": {"a": {"stringValue": RP("x", 1048488)}}}}]),
    ("CreateDocument with 21 nested maps",
     [{"method": "POST", "path": "/lim?documentId=p2", "body": {"fields": {"top": nest(21)}}}]),
    ("BatchWrite with a document over 1 MiB",
     [{"method": "POST", "path": ":batchWrite", "body": {"writes": [
         upd(["lim", "b1"], {"a": {"stringValue": RP("x", 600000)}, "b": {"stringValue": RP("x", 600000)}})]}}]),
    ("document name of 6,144 bytes", [commit_step(upd(NAME_6144, {}))]),
    ("document name of 6,145 bytes", [commit_step(upd(NAME_6145, {}))]),
    ("commit of 5 MB (five 1,000,000-byte documents)",
     [commit_step(*[upd(["lim", f"r{k}"], {"s": {"stringValue": RP("x", 1000000)}}) for k in range(5)])]),
    ("commit of 11 MB (eleven 1,000,000-byte documents)",
     [commit_step(*[upd(["lim", f"q{k}"], {"s": {"stringValue": RP("x", 1000000)}}) for k in range(11)])]),
    *[(f"update mask path of {k} segments",
       [commit_step({**upd(["lim", f"m{k}"], {"a": i(1)}), "updateMask": {"fieldPaths": [dotted(k)]}})])
      for k in (20, 21, 22)],
    ("UpdateDocument (PATCH) with an update mask path of 21 segments",
     [{"method": "PATCH", "path": f"/lim/pm?updateMask.fieldPaths={dotted(21)}", "body": {"fields": {}}}]),
    # The emulator checks nesting on the fields a write sends, not on what its transforms build.
    *[(f"increment on a field path of {k} segments",
       [commit_step(transform(["lim", f"i{k}"], {"fieldPath": dotted(k), "increment": i(1)})),
        {"method": "GET", "path": f"/lim/i{k}", "body": None}])
      for k in (20, 21, 22, 25, 30, 100)],
    ("increment on a 22-segment path inside an update",
     [commit_step({**upd(["lim", "iu"], {"b": i(1)}),
                   "updateTransforms": [{"fieldPath": dotted(22), "increment": i(1)}]})]),
    ("a plain write of the 21-deep document an increment built",
     [commit_step(upd(["lim", "ir"], {"a": nest_path(21)}))]),
    *[(f"appendMissingElements of a {k}-deep map",
       [commit_step(transform(["lim", f"a{k}"], {"fieldPath": "x", "appendMissingElements": {"values": [nest(k)]}})),
        {"method": "GET", "path": f"/lim/a{k}", "body": None}])
      for k in (19, 20, 21, 22, 25)],
    ("appendMissingElements of a 21-deep map at a 10-segment path",
     [commit_step(transform(["lim", "ap"],
                            {"fieldPath": dotted(10), "appendMissingElements": {"values": [nest(21)]}}))]),
    # Read masks and query paths have the same 20-segment limit.
    *[(f"GetDocument with a read mask path of {k} segments",
       [{"method": "GET", "path": f"/lim/m20?mask.fieldPaths={dotted(k)}", "body": None}]) for k in (20, 21)],
    ("BatchGetDocuments with a read mask path of 21 segments",
     [{"method": "POST", "path": ":batchGet",
       "body": {"documents": [doc_name(["lim", "m20"])], "mask": {"fieldPaths": [dotted(21)]}}}]),
    ("ListDocuments with a read mask path of 21 segments",
     [{"method": "GET", "path": f"/lim?mask.fieldPaths={dotted(21)}", "body": None}]),
    ("CreateDocument with a response mask path of 21 segments",
     [{"method": "POST", "path": f"/lim?documentId=cm&mask.fieldPaths={dotted(21)}", "body": {"fields": {}}}]),
    ("UpdateDocument (PATCH) with a response mask path of 21 segments",
     [{"method": "PATCH", "path": f"/lim/um?mask.fieldPaths={dotted(21)}", "body": {"fields": {}}}]),
    ("RunAggregationQuery summing a path of 21 segments",
     [{"method": "POST", "path": ":runAggregationQuery", "body": {"structuredAggregationQuery": {
         "structuredQuery": {"from": [{"collectionId": "lim"}]},
         "aggregations": [{"alias": "s", "sum": {"field": {"fieldPath": dotted(21)}}}]}}}]),
    *[(f"RunQuery selecting a path of {k} segments",
       [{"method": "POST", "path": ":runQuery",
         "body": {"structuredQuery": {"from": [{"collectionId": "lim"}],
                                      "select": {"fields": [{"fieldPath": dotted(k)}]}, "limit": 1}}}])
      for k in (20, 21)],
    ("RunQuery filtering on a path of 21 segments",
     [{"method": "POST", "path": ":runQuery",
       "body": {"structuredQuery": {"from": [{"collectionId": "lim"}], "where": {"fieldFilter": {
           "field": {"fieldPath": dotted(21)}, "op": "EQUAL", "value": i(1)}}}}}]),
    ("RunQuery ordering by a path of 21 segments",
     [{"method": "POST", "path": ":runQuery",
       "body": {"structuredQuery": {"from": [{"collectionId": "lim"}],
                                    "orderBy": [{"field": {"fieldPath": dotted(21)}}]}}}]),
]


def record_limits(emu):
    emu.clear()
    cases = []
    for k, (note, steps) in enumerate(LIMIT_CASES):
        outcomes = []
        for step in steps:
            path = step["path"]
            status, body = emu.call(step["method"], f"/v1/{DOCS}{path}",
                                    None if step["body"] is None else expand(expand_names(step["body"])))
            outcome = {"status": status}
            if status != 200:
                outcome["error"] = error_of(body)
            elif step["method"] == "GET":
                outcome["fields"] = body.get("fields", {})
            elif step["path"] == ":batchWrite":
                outcome["writeStatus"] = [st.get("code", 0) for st in body["status"]]
                outcome["writeMessages"] = [st.get("message", "") for st in body["status"]]
            outcomes.append(outcome)
        cases.append({"id": f"l{k:03d}", "note": note, "steps": steps, "expect": outcomes})
    return {
        "description": "Writes at and just past each documented limit (https://firebase.google.com/docs/firestore/quotas, "
                       "https://firebase.google.com/docs/firestore/storage-size), sent in order over REST to a cleared "
                       "database. `expect` holds one outcome per step: the HTTP status and the error, or for BatchWrite the "
                       "per-write codes, or for a GET the document's fields. A string {\"$repeat\": [text, n]} is text repeated n times, an object key "
                       "\"$repeat:c:n\" is c repeated n times, and {\"$name\": [segments]} is the document name under "
                       "the database's documents root.",
        "cases": cases,
    }


# --------------------------------------------------------------------------- cors.json

ORIGIN = "http://localhost:5173"
SDK_HEADERS = ("google-cloud-resource-prefix, x-goog-request-params, x-goog-api-client, authorization, "
               "content-type, x-firebase-gmpid")
CORS_CASES = [
    ("GET of a missing document with Origin", "GET", "/v1/{docs}/c/missing", None, {"Origin": ORIGIN}),
    ("Commit with Origin", "POST", "/v1/{docs}:commit", {"writes": []}, {"Origin": ORIGIN}),
    ("RunQuery with Origin", "POST", "/v1/{docs}:runQuery", {"structuredQuery": {"from": [{"collectionId": "c"}]}},
     {"Origin": ORIGIN}),
    ("a 400 answer with Origin", "POST", "/v1/{docs}:commit", {"writes": [{}]}, {"Origin": ORIGIN}),
    ("readiness GET / with Origin", "GET", "/", None, {"Origin": ORIGIN}),
    ("clearing the database with Origin", "DELETE", "/emulator/v1/{docs}", None, {"Origin": "https://app.example"}),
    ("preflight of a Commit with the web SDK's headers", "OPTIONS", "/v1/{docs}:commit", None,
     {"Origin": ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": SDK_HEADERS}),
    ("preflight of a GET without requested headers", "OPTIONS", "/v1/{docs}/c/a", None,
     {"Origin": ORIGIN, "Access-Control-Request-Method": "GET"}),
    ("preflight with Origin only", "OPTIONS", "/v1/{docs}/c/a", None, {"Origin": ORIGIN}),
    ("GET without Origin", "GET", "/v1/{docs}/c/missing", None, {}),
]


def record_cors(emu):
    """Sends each case and keeps the status and every access-control-* and vary header."""
    emu.clear()
    cases = []
    for k, (note, method, path, body, headers) in enumerate(CORS_CASES):
        url = emu.base + path.format(docs=DOCS)
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, method=method, headers={
            "Authorization": "Bearer owner", "Content-Type": "application/json", **headers})
        try:
            with urllib.request.urlopen(req) as resp:
                status, got, text = resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as e:
            status, got, text = e.code, e.headers, e.read()
        cors = {name.lower(): value for name, value in got.items()
                if name.lower().startswith("access-control-") or name.lower() == "vary"}
        cases.append({"id": f"c{k:03d}", "note": note, "method": method, "path": path, "body": body,
                      "headers": headers, "expect": {"status": status, "headers": dict(sorted(cors.items())),
                                                      "emptyBody": len(text) == 0}})
    return {
        "description": "CORS answers of the Firestore port: each request (path with {docs} for the documents root "
                       "of the project) and the status, the access-control-* and vary headers (names lower-cased, "
                       "sorted) and whether the body was empty.",
        "cases": cases,
    }


# --------------------------------------------------------------------------- rest_paths.json

ID_CHARACTERS = ["a:b", "a%3Ac", "a%20b", "a@b", "a+b", "a=b", "h%C3%A9llo", "x:runQuery", "a:b:c", "a%25b",
                 "a:commit", "a:", "a,b;c", "a(b)~*$&!'"]

REST_PATH_STEPS = (
    [step for id_ in ID_CHARACTERS for step in (
        ("PATCH", f"/ids/{id_}", {"fields": {"x": i(1)}}), ("GET", f"/ids/{id_}", None))]
    + [("PATCH", "/ids/a%2Fb", {"fields": {}}), ("GET", "/ids/a%2Fb", None), ("DELETE", "/ids/a%2Fb", None),
       ("POST", "/ids/a:b/sub?documentId=s1", {"fields": {}}),
       ("GET", "/ids/a:b/sub", None),
       ("POST", "/ids/a:b:listCollectionIds", {}),
       ("POST", "/ids/a:b:runQuery", {"structuredQuery": {"from": [{"collectionId": "sub"}]}}),
       ("POST", "/ids/x:runQuery", {"structuredQuery": {"from": [{"collectionId": "sub"}]}}),
       ("POST", "/ids:b?documentId=z", {"fields": {}}),
       ("GET", "/ids:b", None),
       ("POST", "/ids/a%3Ab:listCollectionIds", {}),
       ("DELETE", "/ids/a:b", None), ("GET", "/ids/a:b", None),
       ("DELETE", "/ids/x:runQuery", None), ("GET", "/ids/x:runQuery", None),
       ("POST", ":listCollectionIds", {}),
       ("POST", ":runQuery", {"structuredQuery": {"from": [{"collectionId": "sub"}], "orderBy": [{"field": {"fieldPath": "__name__"}}]}}),
       ("POST", ":commit", {}),
       ("POST", "/ids/a:unknownVerb", {})]
)


def record_rest_paths(emu):
    emu.clear()
    cases = []
    for k, (method, path, body) in enumerate(REST_PATH_STEPS):
        status, reply = emu.call(method, f"/v1/{DOCS}{path}", body)
        outcome = {"status": status}
        if status != 200:
            outcome["errorStatus"] = error_of(reply)["status"]
        elif isinstance(reply, list):
            outcome["names"] = [e["document"]["name"] for e in reply if "document" in e]
        elif isinstance(reply, dict) and "documents" in reply:
            outcome["names"] = [d["name"] for d in reply["documents"]]
        elif isinstance(reply, dict) and "collectionIds" in reply:
            outcome["collectionIds"] = reply["collectionIds"]
        elif isinstance(reply, dict) and "name" in reply:
            outcome["name"] = reply["name"]
        cases.append({"id": f"p{k:03d}", "method": method, "path": path, "body": body, "expect": outcome})
    return {
        "description": "REST calls sent in order to a cleared database; `path` follows /v1/{database}/documents, "
                       "percent-encoding as sent. `expect`: the HTTP status and, on success, the document `name`, "
                       "the listed or queried `names`, or the `collectionIds`; on failure the error status.",
        "cases": cases,
    }


# --------------------------------------------------------------------------- main

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1:8089")
    parser.add_argument("--out", default=os.path.join(here, "..", "Tests", "Conformance"))
    parser.add_argument("--emulator-version", default="", help="recorded in each file's `recordedWith`")
    parser.add_argument("--only", nargs="*", default=None, help="file names to re-record (default: all)")
    args = parser.parse_args()
    emu = Emulator(args.host)
    os.makedirs(args.out, exist_ok=True)
    recorded_with = "Cloud Firestore emulator" + (f" {args.emulator_version}" if args.emulator_version else "")
    for filename, recorder, inline_depth in [
        ("value_ordering.json", record_ordering, 3),
        ("json_roundtrip.json", record_roundtrip, 3),
        ("query_cases.json", record_queries, 3),
        ("aggregation_cases.json", record_aggregations, 3),
        ("transforms.json", record_transforms, 3),
        ("limits.json", record_limits, 4),
        ("rest_paths.json", record_rest_paths, 3),
        ("cors.json", record_cors, 3),
    ]:
        if args.only is not None and filename not in args.only:
            continue
        data = {"recordedWith": recorded_with, **recorder(emu)}
        with open(os.path.join(args.out, filename), "w", encoding="utf-8") as f:
            f.write(dumps(data, inline_depth=inline_depth) + "\n")
        print(f"wrote {filename}", file=sys.stderr)
    emu.clear()


if __name__ == "__main__":
    main()
