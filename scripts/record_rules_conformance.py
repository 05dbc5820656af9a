#!/usr/bin/env python3
"""Record a Security Rules conformance corpus from Google's Cloud Firestore emulator (the oracle).

Usage:
    gcloud emulators firestore start --host-port=127.0.0.1:8089 &
    python3 scripts/record_rules_conformance.py [--host 127.0.0.1:8089] [--out Tests/Conformance/rules]
                                                [--emulator-version 1.19.9] [--only GROUP]

Stdlib only. Everything goes through the emulator's public interface, exactly as the Swift
replay (`Tests/FirestoreAPITests/RulesConformanceTests.swift`) drives Hearth:

  * each group's rules are loaded with `PUT /emulator/v1/projects/{p}:securityRules`;
  * before a case (when the previous case may have written, or the case brings its own
    documents) the database is cleared with `DELETE /emulator/v1/projects/{p}/databases/(default)/documents`
    and the group's seed documents (plus the case's own) are written with `Bearer owner`;
  * the case's steps are sent over REST v1 with no Authorization header or with an unsigned
    (`alg: none`) token whose payload is in the file's `tokens` table; the string `$TXN` in a
    step is replaced by the transaction id returned by an earlier `:beginTransaction` step.

Writes `cases.json` (beside this corpus's `skips.json`) and one `<group>.rules` file per group:

  {"recordedWith", "project", "tokens": {name: JWT payload},
   "groups": [{"name", "area", "rules": "<group>.rules", "seed": {path: fields},
               "cases": [{"id", "area", "title", "auth", "resetBefore", "seed"?,
                          "steps": [{"method", "path", "body"?}],
                          "expect": [{"status", "errorStatus"?, "message"?, "resultCount"?}]}]}],
   "compile": [{"id", "title", "rules", "compare"?: "position" | "message",
                "expect": {"status", "errorStatus"?, "message"?, "issues"?}}]}

`path` is relative to `/v1/projects/{p}/databases/(default)/documents` (so `/x/a`, `:commit`,
`/users/alice:runQuery`, `/x/a?updateMask.fieldPaths=f`). Messages are kept verbatim except
that RFC 3339 times and transaction ids are replaced by `<time>` / `<txn>`; the emulator's
`for '<method>' @ L<n>` fragments are what the replay compares. Nothing volatile remains, so
re-recording against the same emulator version reproduces the file byte for byte.
"""

import argparse
import base64
import json
import os
import re
import sys
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from record_conformance import dumps  # noqa: E402  (deterministic JSON writer shared with the other corpora)

PROJECT = "demo-rules"
DOCS = f"projects/{PROJECT}/databases/(default)/documents"
V2 = "rules_version = '2';\n"


# --------------------------------------------------------------------------- tokens

def _payload(sub, **claims):
    """A mock-token payload as @firebase/rules-unit-testing builds it (docs/reference/firestore-wire.md §2.7)."""
    p = {"iss": f"https://securetoken.google.com/{PROJECT}", "aud": PROJECT, "iat": 0, "exp": 3600,
         "auth_time": 0, "sub": sub, "user_id": sub,
         "firebase": {"sign_in_provider": "custom", "identities": {}}}
    p.update(claims)
    return p


TOKENS = {
    "alice": _payload("alice", email="alice@acme.com", email_verified=True, name="Alice",
                      firebase={"sign_in_provider": "password", "identities": {"email": ["alice@acme.com"]}}),
    "bob": _payload("bob"),
    "carol": _payload("carol", email="carol@acme.com", email_verified=False),
    "admin": _payload("root", admin=True, roles=["editor", "viewer"], level=3,
                      firebase={"sign_in_provider": "google.com", "identities": {"google.com": ["123"]}}),
    "anon": _payload("anon1", firebase={"sign_in_provider": "anonymous", "identities": {}}),
}


def encode_token(payload):
    def b64(obj):
        raw = json.dumps(obj, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")
    return b64({"alg": "none", "type": "JWT"}) + "." + b64(payload) + "."


# --------------------------------------------------------------------------- values

def i(v): return {"integerValue": str(v)}
def f(v): return {"doubleValue": v}
def s(v): return {"stringValue": v}
def ts(v): return {"timestampValue": v}
def geo(lat, lng): return {"geoPointValue": {"latitude": lat, "longitude": lng}}
def by(v): return {"bytesValue": v}
def ref(path): return {"referenceValue": f"{DOCS}/{path}"}
def arr(*vs): return {"arrayValue": {"values": list(vs)}} if vs else {"arrayValue": {}}
def mp(**fs): return {"mapValue": {"fields": fs}} if fs else {"mapValue": {}}


NULL = {"nullValue": None}
TRUE = {"booleanValue": True}
FALSE = {"booleanValue": False}


def fields(**kw):
    """A field map from Python values (int → integer, float → double, str → string, …)."""
    def v(x):
        if isinstance(x, dict):
            return x
        if x is None:
            return NULL
        if x is True or x is False:
            return {"booleanValue": x}
        if isinstance(x, int):
            return i(x)
        if isinstance(x, float):
            return f(x)
        if isinstance(x, str):
            return s(x)
        if isinstance(x, list):
            return arr(*[v(e) for e in x])
        raise TypeError(x)
    return {k: v(x) for k, x in kw.items()}


# --------------------------------------------------------------------------- requests (steps)

def GET(path):
    return {"method": "GET", "path": path}


def DELETE(path):
    return {"method": "DELETE", "path": path}


def PATCH(path, flds, mask=None, exists=None):
    q = [f"updateMask.fieldPaths={m}" for m in (mask or [])]
    if exists is not None:
        q.append(f"currentDocument.exists={'true' if exists else 'false'}")
    return {"method": "PATCH", "path": path + ("?" + "&".join(q) if q else ""), "body": {"fields": flds}}


def CREATE(collection, doc_id, flds):
    return {"method": "POST", "path": f"{collection}?documentId={doc_id}", "body": {"fields": flds}}


def COMMIT(*writes, txn=False):
    body = {"writes": list(writes)}
    if txn:
        body["transaction"] = "$TXN"
    return {"method": "POST", "path": ":commit", "body": body}


def BEGIN():
    return {"method": "POST", "path": ":beginTransaction", "body": {}}


def ROLLBACK():
    return {"method": "POST", "path": ":rollback", "body": {"transaction": "$TXN"}}


def TXGET(path):
    """A read inside the transaction (batchGet: the emulator never answers `GET …?transaction=`)."""
    return {"method": "POST", "path": ":batchGet", "body": {"documents": [f"{DOCS}{path}"], "transaction": "$TXN"}}


def QUERY(q, parent=""):
    return {"method": "POST", "path": f"{parent}:runQuery", "body": {"structuredQuery": q}}


def COUNT(q, parent=""):
    return {"method": "POST", "path": f"{parent}:runAggregationQuery", "body": {"structuredAggregationQuery": {
        "structuredQuery": q, "aggregations": [{"alias": "n", "count": {}}]}}}


def upd(path, flds, mask=None, transforms=None, exists=None):
    """A `Write` with `update` (set; with `mask` a merge), optional transforms and precondition."""
    w = {"update": {"name": f"{DOCS}{path}", "fields": flds}}
    if mask is not None:
        w["updateMask"] = {"fieldPaths": mask}
    if transforms:
        w["updateTransforms"] = transforms
    if exists is not None:
        w["currentDocument"] = {"exists": exists}
    return w


def dele(path):
    return {"delete": f"{DOCS}{path}"}


def server_time(field): return {"fieldPath": field, "setToServerValue": "REQUEST_TIME"}
def increment(field, v): return {"fieldPath": field, "increment": v}
def maximum(field, v): return {"fieldPath": field, "maximum": v}
def minimum(field, v): return {"fieldPath": field, "minimum": v}
def append(field, *vs): return {"fieldPath": field, "appendMissingElements": {"values": list(vs)}}
def remove(field, *vs): return {"fieldPath": field, "removeAllFromArray": {"values": list(vs)}}


def ff(field, op, value): return {"fieldFilter": {"field": {"fieldPath": field}, "op": op, "value": value}}
def uf(field, op): return {"unaryFilter": {"field": {"fieldPath": field}, "op": op}}
def AND(*fs): return {"compositeFilter": {"op": "AND", "filters": list(fs)}}
def OR(*fs): return {"compositeFilter": {"op": "OR", "filters": list(fs)}}
def asc(field): return {"field": {"fieldPath": field}, "direction": "ASCENDING"}


def Q(coll, where=None, order=None, limit=None, all_descendants=False, **extra):
    frm = {"collectionId": coll}
    if all_descendants:
        frm["allDescendants"] = True
    q = {"from": [frm]}
    if where is not None:
        q["where"] = where
    if order is not None:
        q["orderBy"] = order
    if limit is not None:
        q["limit"] = limit
    q.update(extra)
    return q


# --------------------------------------------------------------------------- corpus building

GROUPS = []      # filled by the group definitions below
COMPILE = []     # (id, title, rules, compare)


class Group:
    """One rules text, its seed documents and its cases."""

    def __init__(self, name, area, rules, seed=None):
        self.name, self.area, self.rules = name, area, rules
        self.seed = dict(seed or {})
        self.cases = []
        GROUPS.append(self)

    def case(self, cid, title, steps, auth=None, area=None, seed=None):
        c = {"id": cid, "area": area or self.area, "title": title, "auth": auth}
        if seed:
            c["seed"] = seed
        c["steps"] = steps if isinstance(steps, list) else [steps]
        self.cases.append(c)
        return c


def wrap_v2(body, header=""):
    """`body` (match blocks / functions, already indented 4) inside the v2 boilerplate."""
    return (V2 + header + "service cloud.firestore {\n  match /databases/{database}/documents {\n"
            + body + "  }\n}\n")


def expression_group(name, area, exprs, collection="x", auth="alice", seed_fields=None, header=""):
    """One `match /<collection>/<id> { allow get: if <expr>; }` block per expression.

    `exprs`: (id, expr, title[, auths][, seeded]) — a GET of `/<collection>/<id>` per auth
    (default `auth`); `seeded` writes `seed_fields` at that id first, so `resource` is a document.
    """
    blocks, seed = [], {}
    for e in exprs:
        cid, expr, title = e[0], e[1], e[2]
        blocks.append(f"    match /{collection}/{cid} {{\n      allow get: if {expr};\n    }}\n")
        if len(e) > 4 and e[4]:
            seed[f"/{collection}/{cid}"] = seed_fields
    g = Group(name, area, wrap_v2("".join(blocks), header), seed)
    for e in exprs:
        cid, expr, title = e[0], e[1], e[2]
        auths = e[3] if len(e) > 3 and e[3] else [auth]
        for a in auths:
            suffix = "" if len(auths) == 1 else f"/{a or 'none'}"
            g.case(f"{name}.{cid}{suffix}", f"{expr}  [{title}]", GET(f"/{collection}/{cid}"), auth=a)
    return g


# --------------------------------------------------------------------------- groups: expressions

expression_group("ops", "operators and precedence", [
    ("p01", "1 + 2 * 3 == 7", "* before +"),
    ("p02", "(1 + 2) * 3 == 9", "parentheses"),
    ("p03", "10 - 2 - 3 == 5", "- is left-associative"),
    ("p04", "2 * 3 % 4 == 2", "* and % same level, left to right"),
    ("p05", "-2 * -3 == 6", "unary minus"),
    ("p06", "!false == true", "! before =="),
    ("p07", "1 < 2 == true", "relational before =="),
    ("p08", "'a' in ['a'] == true", "in before =="),
    ("p09", "1 is int == true", "is before =="),
    ("p10", "true || false && false", "&& before ||"),
    ("p11", "false && false || true", "&& before || (left)"),
    ("p12", "true ? false : true", "ternary picks the first branch"),
    ("p13", "false ? false : true ? true : false", "nested ternary in the else branch"),
    ("p14", "1 + 2 == 3 && 'b' > 'a'", "mixed"),
    ("p15", "!(1 > 2) && !!true", "double negation"),
    ("p16", "2 - -2 == 4", "binary minus then unary"),
    ("p17", "1 != 2 && 'a' != 'b' && null == null", "!= and null equality"),
    ("p18", "5 == '5'", "cross-type == is false, not an error"),
    ("p19", "5 != '5'", "cross-type != is true"),
    ("p20", "'abc' < 'abd' && 'B' < 'a' && 'a' <= 'a'", "string ordering"),
    ("p21", "true < false", "bool ordering is an error"),
    ("p22", "null < 1", "null ordering is an error"),
    ("p23", "1 < 1.5 && 2.0 >= 2", "mixed int/float comparison"),
    ("p24", "[1, 2] == [1, 2] && [1, 2] != [2, 1]", "list equality is ordered"),
    ("p25", "{'a': 1, 'b': 2} == {'b': 2, 'a': 1}", "map equality ignores order"),
    ("p26", "['a'] == ['a'] in [true]", "in binds looser than == (true) or tighter (false)"),
    ("p27", "1 + 1 in [2]", "+ binds tighter than in"),
    ("p28", "1 < 2 in [true]", "relational binds tighter than in"),
    ("p29", "'a' in ['a'] is bool", "in vs is"),
    ("p30", "1 == 1 is bool", "== vs is"),
    ("p31", "!true in [false]", "! binds tighter than in"),
    ("p32", "true && 'a' in ['a']", "in binds tighter than &&"),
])

expression_group("num", "numbers", [
    ("n01", "7 / 2 == 3", "int division truncates"),
    ("n02", "-7 / 2 == -3", "toward zero"),
    ("n03", "-7 % 2 == -1", "% sign of dividend"),
    ("n04", "7 % -2 == 1", "% sign of dividend (2)"),
    ("n05", "10 / 4.0 == 2.5", "mixed division is float"),
    ("n06", "1 == 1.0", "int == float by value"),
    ("n07", "[1] == [1.0]", "int/float inside a list"),
    ("n08", "{'a': 1} == {'a': 1.0}", "int/float inside a map"),
    ("n09", "1 in [1.0]", "in with int vs float"),
    ("n10", "1 / 0 == 0", "int division by zero"),
    ("n11", "1 % 0 == 0", "int modulo by zero"),
    ("n12", "1.0 / 0.0 > 1000000.0", "float division by zero"),
    ("n13", "1.0 / 0 > 1000000.0", "float / int zero"),
    ("n14", "9223372036854775807 + 1 < 0", "int overflow on +"),
    ("n15", "9223372036854775807 * 2 < 0", "int overflow on *"),
    ("n16", "-9223372036854775807 - 2 > 0", "int underflow on -"),
    ("n17", "9223372036854775807 > 0", "max int literal"),
    ("n18", "5.5 % 2 == 1.5", "float modulo"),
    ("n19", "0.1 + 0.2 == 0.3", "IEEE rounding"),
    ("n20", "1.5 is float && 1 is int && 1 is number && 1.5 is number", "is on numbers"),
    ("n21", "1.0 is int", "1.0 is not int"),
    ("n22", "int('2') == 2 && int(2.7) == 2", "int() from string / float"),
    ("n23", "int(-2.7) == -2", "int() truncates toward zero"),
    ("n24", "int('x') == 0", "int() of bad string"),
    ("n25", "float('2.5') == 2.5 && float(2) == 2.0", "float()"),
    ("n26", "string(1) == '1' && string(true) == 'true' && string(null) == 'null'", "string()"),
    ("n27", "string(2.0) == '2.0'", "string(float)"),
    ("n28", "-(3) == -3 && -(1.5) < 0", "unary minus on expressions"),
    ("n29", "'a' + 'b' == 'ab'", "string concatenation"),
    ("n30", "'a' + 1 == 'a1'", "string + int"),
    ("n31", "[1] + [2] == [1, 2]", "list + list"),
    ("n32", "int('9223372036854775808') > 0", "int() overflow"),
    ("n33", "[1.0].hasAny([1])", "hasAny int vs float"),
    ("n34", "[1].hasAll([1.0])", "hasAll int vs float"),
    ("n35", "[1, 2].removeAll([1.0]) == [1, 2]", "removeAll int vs float"),
    ("n36", "1 in [1.0].toSet()", "in on a set, int vs float"),
    ("n37", "[1.0].hasOnly([1])", "hasOnly int vs float"),
    ("n38", "{'a': 1}.values() == [1.0]", "values() vs float list"),
    ("n39", "[1, 2].toSet() == [1.0, 2.0].toSet()", "set equality int vs float"),
    ("n40", "2.0 in [1, 2]", "float in int list"),
])

expression_group("err", "error absorption", [
    ("e01", "(1 / 0 == 1) || true", "ERR || true"),
    ("e02", "(1 / 0 == 1) && false", "ERR && false (false, still denies)"),
    ("e03", "!(1 / 0 == 1)", "!ERR"),
    ("e04", "(1 / 0 == 1) ? true : true", "ERR ? a : b"),
    ("e05", "false && (1 / 0 == 1)", "short-circuit &&"),
    ("e06", "true || (1 / 0 == 1)", "short-circuit ||"),
    ("e07", "(1 / 0 == 1) || false", "ERR || false"),
    ("e08", "true && (1 / 0 == 1)", "true && ERR"),
    ("e09", "1 && true", "non-bool && operand"),
    ("e10", "false || 1", "non-bool result of ||"),
    ("e11", "true || 1", "|| short-circuits before the non-bool"),
    ("e12", "1 ? true : false", "non-bool ternary condition"),
    ("e13", "true ? true : 1 / 0 == 1", "unchosen ternary branch not evaluated"),
    ("e14", "request.auth.token.missing == 1", "missing key error text"),
    ("e15", "request.auth.token.missing == 1 || request.auth.uid == 'alice'", "missing key absorbed by ||"),
    ("e16", "(request.auth.token.missing is int) == false", "ERR is T"),
    ("e17", "[request.auth.token.missing, true][1]", "error inside a list literal"),
    ("e18", "request.auth.uid.size() > 0", "request.auth null → error", [None]),
    ("e19", "request.auth == null", "no token → request.auth == null", [None, "alice"]),
    ("e20", "'1'", "non-bool condition"),
    ("e21", "undefinedVar == 1", "unbound identifier"),
    ("e22", "(1 / 0 == 1) || (2 / 0 == 1)", "ERR || ERR: which error is reported"),
    ("e23", "undefinedFunction(1)", "unknown function"),
    ("e24", "'abc'.nosuch()", "unknown method"),
])

RICH = fields(i=3, fl=2.5, s="hello", b=True, n=None, ts=ts("2021-03-04T05:06:07.5Z"), g=geo(48.5, 2.25),
              arr=[1, "a"], m=mp(k=i(1), nested=mp(z=s("deep"))), ref=ref("x/other"), by=by("AQI="),
              tags=["a", "b"], nan=f("NaN"))

expression_group("res", "resource values and is checks", [
    ("r01", "resource.data.i == 3 && resource.data.i is int", "stored int", None, True),
    ("r02", "resource.data.fl == 2.5 && resource.data.fl is float", "stored double", None, True),
    ("r03", "resource.data.s is string && resource.data.b is bool", "string/bool", None, True),
    ("r04", "resource.data.n == null", "stored null", None, True),
    ("r05", "resource.data.ts is timestamp && resource.data.ts.year() == 2021", "stored timestamp", None, True),
    ("r06", "resource.data.g is latlng && resource.data.g.latitude() == 48.5", "stored geopoint", None, True),
    ("r07", "resource.data.arr is list && resource.data.m is map", "list/map", None, True),
    ("r08", "resource.data.ref is path", "reference → path", None, True),
    ("r09", "resource.data.ref == /databases/$(database)/documents/x/other", "reference value", None, True),
    ("r10", "resource.data.by is bytes && resource.data.by.size() == 2", "bytes", None, True),
    ("r11", "resource.data.by == b'\\x01\\x02'", "bytes literal equality", None, True),
    ("r12", "resource.data.missing == null", "missing field is an error, not null", None, True),
    ("r13", "resource.data.n is map", "null is not a map", None, True),
    ("r14", "resource.id == 'r14' && resource.__name__ == /databases/$(database)/documents/x/r14", "id and __name__", None, True),
    ("r15", "resource == null", "missing document → resource == null"),
    ("r16", "resource.data.i == 3", "missing document → Null value error"),
    ("r17", "resource.data.nan != resource.data.nan", "NaN != NaN", None, True),
    ("r18", "resource.data.m.nested.z == 'deep' && resource.data.m['k'] == 1", "nested access", None, True),
    ("r19", "resource.data.m.nested.nope == 1", "missing nested key", None, True),
    ("r20", "resource.data.keys().hasAll(['i', 'fl', 's', 'b', 'n'])", "keys() of stored doc", None, True),
    ("r21", "resource.data.n.x == 1", "member of null", None, True),
    ("r22", "resource.data.s is number", "string is not number", None, True),
    ("r23", "[1].toSet() is set && {'a': 1}.diff({}) is map_diff", "set / map_diff types"),
    ("r24", "duration.value(1, 's') is duration && /a/b is path && latlng.value(1, 2) is latlng", "other types"),
    ("r25", "request is map && request.auth is map && request.auth.token is map", "request shapes"),
    ("r26", "request.method == 'get' && request.path == /databases/$(database)/documents/x/r26", "request.method/path on get"),
    ("r27", "request.resource == null", "request.resource on get"),
    ("r28", "request.query == null", "request.query on get"),
    ("r29", "request.time is timestamp && request.time > timestamp.date(2020, 1, 1)", "request.time"),
    ("r30", "database == '(default)'", "database capture"),
    ("r31", "[1].toSet() is set", "is set"),
    ("r32", "{'a': 1}.diff({}) is map_diff", "is map_diff"),
    ("r33", "{'a': 1}.diff({}) is map", "a map_diff is not a map"),
    ("r34", "resource.data.g is latlng && resource.data.ts is timestamp && resource.data.by is bytes", "stored types", None, True),
], seed_fields=RICH)

expression_group("str", "strings", [
    ("s01", "'é'.size() == 1 && '😀'.size() == 2", "size in UTF-16 units"),
    ("s02", "'hello world'.matches('world')", "matches is anchored"),
    ("s03", "'hello world'.matches('.*world')", "matches with .*"),
    ("s04", "'abc123'.matches('[a-z]+[0-9]+')", "character classes"),
    ("s05", "'abc123!'.matches('[a-z]+[0-9]+')", "anchored at the end"),
    ("s06", "'a.b'.matches('a\\\\.b') && !'axb'.matches('a\\\\.b')", "escaped dot"),
    ("s07", "'x'.matches(request.auth.uid + '(')", "invalid regex at run time"),
    ("s08", "'ABC'.matches('(?i)abc')", "RE2 case-insensitive flag"),
    ("s09", "'abc'.matches('\\\\w+') && '12'.matches('\\\\d{2}')", "RE2 \\w \\d"),
    ("s10", "'aaa'.matches('a{2,3}') && !'aaaa'.matches('a{2,3}')", "repetition bounds"),
    ("s11", "'a/b/c'.split('/') == ['a', 'b', 'c']", "split"),
    ("s12", "'a,b,'.split(',').size() == 3", "split keeps a trailing empty?"),
    ("s13", "'a1b22c'.split('[0-9]+') == ['a', 'b', 'c']", "split by regex"),
    ("s14", "'foo.bar'.replace('.', '-') == '-------'", "replace takes a regex"),
    ("s15", "'aXbX'.replace('X', 'y') == 'ayby'", "replace all"),
    ("s16", "'ab'.replace('(a)', '$1$1') == 'aab'", "replace group reference"),
    ("s17", "'AbC'.lower() == 'abc' && 'abc'.upper() == 'ABC'", "lower/upper"),
    ("s18", "'ÉCOLE'.lower() == 'école'", "lower of non-ASCII"),
    ("s19", "'  a b  '.trim() == 'a b'", "trim spaces"),
    ("s20", "'\\ta\\n'.trim() == 'a'", "trim tab/newline"),
    ("s21", "'abc'[1] == 'b' && 'abc'[1:3] == 'bc' && 'abc'[0:0] == ''", "index and slice"),
    ("s22", "'abc'[5] == 'x'", "index out of range"),
    ("s23", "'abc'[1:9] == 'bc'", "slice past end"),
    ("s24", "'abc'[-1] == 'c'", "negative index"),
    ("s25", "'é'.toUtf8().size() == 2", "toUtf8"),
    ("s26", "'hi'.toUtf8().toBase64() == 'aGk=' && '~~~'.toUtf8().toBase64() == 'fn5-'", "toBase64 alphabet"),
    ("s27", "'x' in request.auth.uid", "in on a string (run time)"),
    ("s28", "\"dq\" == 'dq' && 'it\\'s' == \"it's\"", "quotes and escapes"),
    ("s29", "'b' > 'a' && 'é' > 'z' && 'Z' < 'a'", "code-unit ordering"),
    ("s30", "'abc'.size() == 3 && ''.size() == 0", "size"),
    ("s31", "request.auth.token.email.matches('.*@acme[.]com$')", "regex on a claim"),
    ("s32", "'a-b'.split('-')[1] == 'b'", "index into split result"),
    ("s33", "'x'.matches('x|')", "alternation with empty"),
    ("s34", "'abc'.toUtf8().toHexString() == '616263'", "hex of bytes"),
    ("s35", "'abc'[1:1] == ''", "empty string slice in the middle"),
    ("s36", "'abc'[0:0] == ''", "empty string slice at 0"),
    ("s37", "'abc'[1:3] == 'bc'", "string slice to the end"),
    ("s38", "'abc'[3:3] == ''", "empty string slice at the end"),
    ("s39", "'abc'[0:3] == 'abc'", "whole string slice"),
    ("s40", "'abc'[2:1] == ''", "reversed string slice"),
    ("s41", "'\\u00e9' == 'é'", "\\u escape"),
    ("s42", "'\\x41' == 'A'", "\\x escape"),
])

expression_group("lst", "lists", [
    ("l01", "'a' in ['a', 'b'] && !('c' in ['a', 'b'])", "in"),
    ("l02", "['a', 'b'].hasAll(['a']) && !['a'].hasAll(['a', 'b'])", "hasAll"),
    ("l03", "['a', 'b'].hasAny(['b', 'c']) && !['a'].hasAny([])", "hasAny"),
    ("l04", "[].hasAny([])", "empty hasAny"),
    ("l05", "['a', 'a', 'b'].hasOnly(['a', 'b']) && [].hasOnly(['a'])", "hasOnly ignores duplicates"),
    ("l06", "['a', 'b'].join('-') == 'a-b' && [].join(',') == ''", "join"),
    ("l07", "[1, 2].join(',') == '1,2'", "join of ints"),
    ("l08", "[1].concat([2, 1]) == [1, 2, 1]", "concat keeps duplicates"),
    ("l09", "[1, 2, 1, 3].removeAll([1, 3]) == [2]", "removeAll removes every occurrence"),
    ("l10", "[1, 2, 2].toSet().size() == 2", "toSet"),
    ("l11", "[1, 2][5] == 1", "index out of range"),
    ("l12", "[1, 2, 3][0:2] == [1, 2] && [1, 2, 3][1:1] == []", "slice"),
    ("l13", "[1, 2, 3][1:9] == [2, 3]", "slice past end"),
    ("l14", "[1, 2].size() == 2 && [].size() == 0", "size"),
    ("l15", "['a', 'b'].hasAll(['a'].toSet())", "hasAll with a set argument"),
    ("l16", "[1, [2, 3], {'k': 4}][1][0] == 2 && [1, [2, 3], {'k': 4}][2].k == 4", "nested literals"),
    ("l17", "[1, 2].difference([1])", "lists have no difference"),
    ("l18", "['a'].hasAll('a')", "hasAll with a non-list"),
    ("l19", "[1, 2.0] == [1.0, 2]", "mixed numbers in lists"),
    ("l20", "[1, 2][1.0] == 2", "float index"),
    ("l21", "[null] == [null] && null in [null]", "null elements"),
    ("l22", "['a', 'b'].hasAny(['a'].toSet())", "hasAny with a set argument"),
    ("l23", "['a'].hasOnly(['a', 'b'].toSet())", "hasOnly with a set argument"),
    ("l24", "[1.5, true].join('-') == '1.5-true'", "join of float and bool"),
    ("l25", "[0, 1][0:0] == [] && [0, 1][2:2] == []", "empty list slices at the ends"),
    ("l26", "[1, 2, 3][2:1] == []", "reversed list slice"),
    ("l27", "['a'].join(1) == 'a'", "join with a non-string separator"),
])

expression_group("map", "maps, map_diff and sets", [
    ("m01", "{'a': 1}.keys() == ['a'] && {'a': 1, 'b': 2}.values().size() == 2", "keys/values"),
    ("m02", "{'a': 1}.get('b', 5) == 5 && {'a': 1}.get('a', 5) == 1", "get with default"),
    ("m03", "{'a': {'b': 1}}.get(['a', 'b'], 0) == 1", "get with a path list"),
    ("m04", "{'a': 1}.get(['a', 'b'], 7) == 7", "get through a non-map"),
    ("m05", "{'a': {'b': 1}}.get(['a', 'c'], 7) == 7 && {}.get(['x', 'y'], 8) == 8", "get missing intermediate"),
    ("m06", "'a' in {'a': 1} && !('b' in {'a': 1})", "in on map keys"),
    ("m07", "{'a': 1}.b == 1", "missing key error"),
    ("m08", "{'a': 1}['a'] == 1 && {'a-b': 2}['a-b'] == 2", "index by key"),
    ("m09", "{'a': 1, 'b': 2}.diff({'a': 2, 'c': 3}).changedKeys() == ['a'].toSet()", "changedKeys"),
    ("m10", "{'a': 1, 'b': 2}.diff({'a': 2, 'c': 3}).addedKeys() == ['b'].toSet()", "addedKeys"),
    ("m11", "{'a': 1, 'b': 2}.diff({'a': 2, 'c': 3}).removedKeys() == ['c'].toSet()", "removedKeys"),
    ("m12", "{'a': 1, 'b': 2}.diff({'a': 1}).unchangedKeys() == ['a'].toSet()", "unchangedKeys"),
    ("m13", "{'a': 1, 'b': 2}.diff({'a': 2, 'c': 3}).affectedKeys() == ['a', 'b', 'c'].toSet()", "affectedKeys"),
    ("m14", "{'a': 1}.diff({'a': 1.0}).changedKeys().size() == 0", "diff compares numbers by value"),
    ("m15", "{'a': {'x': [1]}}.diff({'a': {'x': [1.0]}}).changedKeys().size() == 0", "diff deep numbers"),
    ("m16", "{'a': 1}.hasAll(['a'])", "maps have no hasAll"),
    ("m17", "{'a': 1, 'b': 2}.size() == 2 && {}.size() == 0", "size"),
    ("m18", "['a', 'b'].toSet().difference(['a', 'c'].toSet()) == ['b'].toSet()", "set difference direction"),
    ("m19", "['a'].toSet().union(['b'].toSet()) == ['a', 'b'].toSet()", "union"),
    ("m20", "['a', 'b'].toSet().intersection(['b', 'c'].toSet()) == ['b'].toSet()", "intersection"),
    ("m21", "['a', 'b'].toSet().difference(['a'])", "set.difference(list)"),
    ("m22", "['a', 'b'].toSet() == ['b', 'a'].toSet()", "set equality ignores order"),
    ("m23", "'a' in ['a'].toSet() && [1].toSet().hasOnly([1, 2]) && [1, 2].toSet().hasAll([1])", "set membership and has*"),
    ("m24", "[1, 1.0].toSet().size() == 1", "set of 1 and 1.0"),
    ("m25", "{'a': 1}.diff({'a': 1}).affectedKeys().size() == 0", "no changes"),
    ("m26", "['a'].toSet() == ['a']", "set == list"),
    ("m27", "{'a': 1}.values()[0] == 1", "values indexing"),
    ("m28", "{'a': 1}.diff(1)", "diff with a non-map"),
    ("m29", "['a', 'b'].toSet().hasAny(['b'].toSet())", "set.hasAny(set)"),
])

expression_group("time", "timestamps and durations", [
    ("t01", "request.time > timestamp.date(2020, 1, 1)", "request.time compares"),
    ("t02", "timestamp.date(2020, 2, 29).dayOfYear() == 60", "dayOfYear"),
    ("t03", "timestamp.date(2024, 1, 1).dayOfWeek() == 1", "dayOfWeek of a Monday"),
    ("t04", "timestamp.date(2024, 1, 7).dayOfWeek() == 7", "dayOfWeek of a Sunday"),
    ("t05", "timestamp.value(1500).toMillis() == 1500 && timestamp.value(1500).nanos() == 500000000", "timestamp.value"),
    ("t06", "timestamp.date(2020, 1, 2) - timestamp.date(2020, 1, 1) == duration.value(1, 'd')", "ts - ts"),
    ("t07", "timestamp.date(2020, 1, 1) + duration.value(1, 'h') > timestamp.date(2020, 1, 1)", "ts + dur"),
    ("t08", "duration.value(1500, 'ms').seconds() == 1 && duration.value(1500, 'ms').nanos() == 500000000", "duration parts"),
    ("t09", "duration.value(1, 'w') == duration.value(7, 'd') && duration.value(60, 'm') == duration.value(1, 'h')", "units"),
    ("t10", "duration.value(1, 'x') == duration.value(1, 's')", "unknown unit"),
    ("t11", "duration.time(1, 2, 3, 4).seconds() == 3723 && duration.time(1, 2, 3, 4).nanos() == 4", "duration.time"),
    ("t12", "duration.abs(duration.value(-5, 's')) == duration.value(5, 's')", "duration.abs"),
    ("t13", "timestamp.value(90061000).date() == timestamp.date(1970, 1, 2)", "date() truncates"),
    ("t14", "timestamp.value(90061000).time() == duration.time(1, 1, 1, 0)", "time()"),
    ("t15", "timestamp.date(2021, 3, 4).year() == 2021 && timestamp.date(2021, 3, 4).month() == 3 && timestamp.date(2021, 3, 4).day() == 4", "parts"),
    ("t16", "timestamp.value(3723000).hours() == 1 && timestamp.value(3723000).minutes() == 2 && timestamp.value(3723000).seconds() == 3", "h/m/s"),
    ("t17", "request.time.date() <= request.time", "date() of request.time"),
    ("t18", "timestamp.date(2020, 1, 1) - duration.value(1, 'ns') < timestamp.date(2020, 1, 1)", "ts - dur"),
    ("t19", "duration.value(1, 's') + duration.value(2, 's') == duration.value(3000, 'ms')", "dur + dur"),
    ("t20", "duration.value(1, 's') < duration.value(2, 's')", "duration ordering"),
    ("t21", "timestamp.date(2020, 13, 1) > timestamp.date(2020, 1, 1)", "invalid month"),
    ("t22", "duration.value(-1500, 'ms').seconds() == -1 && duration.value(-1500, 'ms').nanos() == -500000000", "negative duration parts"),
    ("t23", "request.time == request.time && request.time - request.time == duration.value(0, 's')", "request.time stable"),
    ("t24", "timestamp.date(2020, 1, 1) == timestamp.value(1577836800000)", "date == value"),
    ("t25", "timestamp.date(2020, 1, 1) + 1 > timestamp.date(2020, 1, 1)", "ts + int"),
])

expression_group("misc", "latlng, paths, math, hashing", [
    ("g01", "latlng.value(0, 0).distance(latlng.value(0, 1)) > 111000 && latlng.value(0, 0).distance(latlng.value(0, 1)) < 112000", "distance of 1° at the equator"),
    ("g02", "latlng.value(91, 0).latitude() == 91.0", "invalid latitude"),
    ("g03", "latlng.value(1, 2).longitude() == 2.0 && latlng.value(1, 2).latitude() == 1.0", "accessors"),
    ("g04", "latlng.value(48.8566, 2.3522).distance(latlng.value(51.5074, -0.1278)) > 340000 && latlng.value(48.8566, 2.3522).distance(latlng.value(51.5074, -0.1278)) < 346000", "Paris–London"),
    ("g05", "latlng.value(1, 2) == latlng.value(1.0, 2.0)", "latlng equality"),
    ("h01", "/a/b is path && path('a/b') == /a/b", "path literal and path()"),
    ("h02", "path('users/alice')[1] == 'alice'", "path indexing"),
    ("h03", "path('users/{uid}').bind({'uid': 'alice'}) == path('users/alice')", "bind"),
    ("h04", "request.path == /databases/$(database)/documents/y/h04", "request.path"),
    ("h05", "/databases/(default)/documents/y/$(request.auth.uid) == path('databases/(default)/documents/y/alice')", "$() with a string"),
    ("h06", "path(path('a'))", "path(path)"),
    ("h07", "path('a/b') is string", "a path is not a string"),
    ("h08", "path('a/b') == 'a/b'", "path == string"),
    ("h09", "/a/$(['b', 'c'].join('/')) == /a/b/c", "$() of a string containing /"),
    ("h10", "request.path[4] == 'h10'", "request.path segment index"),
    ("h11", "/a/$(1) == /a/b", "$() of an int"),
    ("c01", "math.abs(-3) == 3 && math.abs(-2.5) == 2.5", "abs"),
    ("c02", "math.ceil(1.2) == 2 && math.floor(-1.2) == -2", "ceil/floor"),
    ("c03", "math.round(2.5) == 3 && math.round(2.4) == 2", "round"),
    ("c04", "math.round(-2.5) == -3", "round negative half"),
    ("c05", "math.sqrt(4) == 2.0 && math.pow(2, 10) == 1024.0", "sqrt/pow"),
    ("c06", "math.isNaN(0.0 / 0.0)", "isNaN"),
    ("c07", "math.isInfinite(1.0 / 0.0)", "isInfinite"),
    ("c08", "math.ceil(1.2) is int", "ceil returns int"),
    ("c09", "math.sqrt(-1) == 0", "sqrt of negative"),
    ("c10", "math.abs('x') == 1", "abs of a string"),
    ("c11", "math.floor(1.5) is float", "floor returns float?"),
    ("c12", "math.round(1.5) is float", "round returns float?"),
    ("c13", "math.abs(-3) is int", "abs keeps int"),
    ("c14", "math.round(-1.5) == -1", "round(-1.5)"),
    ("c15", "math.floor(-1.5) == -2 && math.ceil(-1.5) == -1", "floor/ceil negative"),
    ("c16", "math.ceil(2) == 2 && math.ceil(2) is float", "ceil of an int"),
    ("c17", "math.pow(2, 0.5) > 1.41 && math.pow(2, 0.5) < 1.42", "pow with float exponent"),
    ("d01", "debug(1) == 1 && debug(debug('a')) == 'a'", "debug returns its argument"),
    ("k01", "hashing.md5('abc').toHexString() == '900150983CD24FB0D6963F7D28E17F72'", "md5"),
    ("k02", "hashing.sha256('abc').toHexString() == 'BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD'", "sha256"),
    ("k03", "hashing.crc32('123456789').toHexString() == '2639F4CB'", "crc32 little-endian"),
    ("k04", "hashing.crc32c('123456789').toHexString() == '839206E3'", "crc32c little-endian"),
    ("k05", "hashing.sha256('abc'.toUtf8()) == hashing.sha256('abc')", "hash of bytes"),
    ("k06", "hashing.md5(1) == hashing.md5('1')", "hash of an int"),
], collection="y")

expression_group("auth", "request.auth and tokens", [
    ("a01", "request.auth != null", "signed in", [None, "alice", "anon"]),
    ("a02", "request.auth.uid == 'alice'", "uid from sub", ["alice", "bob", None]),
    ("a03", "request.auth.token.email == 'alice@acme.com' && request.auth.token.email_verified", "email claims", ["alice", "carol"]),
    ("a04", "request.auth.token.firebase.sign_in_provider == 'password'", "sign_in_provider", ["alice", "bob"]),
    ("a05", "request.auth.token.admin == true", "custom claim", ["admin", "bob"]),
    ("a06", "request.auth.token.get('admin', false) == true", "custom claim with get", ["admin", "bob"]),
    ("a07", "'editor' in request.auth.token.roles", "list claim", ["admin", "alice"]),
    ("a08", "request.auth.token.firebase.identities['google.com'][0] == '123'", "identities", ["admin"]),
    ("a09", "request.auth.token.firebase.sign_in_provider != 'anonymous'", "anonymous excluded", ["anon", "bob"]),
    ("a10", "request.auth.token.sub == request.auth.uid && request.auth.token.aud == 'demo-rules'", "standard claims", ["alice"]),
    ("a11", "request.auth.token.level > 2 && request.auth.token.level is int", "numeric claim", ["admin"]),
    ("a12", "request.auth.token.email_verified == true", "email_verified false", ["carol"]),
    ("a13", "request.auth.token.iat == 0 && request.auth.token.exp == 3600", "expired mock tokens are accepted", ["bob"]),
    ("a14", "request.auth.token.name == 'Alice'", "name claim", ["alice", "bob"]),
    ("a15", "request.auth.keys().hasOnly(['uid', 'token'])", "request.auth shape", ["alice"]),
], collection="au")

COMPILE_HEADER = ""

Group("fn", "functions and let", wrap_v2("""\
    function isAlice() { return request.auth.uid == 'alice'; }
    function withLet(x) { let y = x * 2; let z = y + 1; return z == 7; }
    function usesDb() { return database == '(default)'; }
    function errLet() { let bad = 1 / 0; return true; }
    function errLetUsed() { let bad = 1 / 0; return bad == 0; }
    function outer(a) { return inner(a) + 1 == 3; }
    function inner(a) { return a * 2; }
    function sees(p) { return p == request.path; }
    match /fn/f1 { allow get: if isAlice(); }
    match /fn/f2 { allow get: if withLet(3); }
    match /fn/f3 { allow get: if usesDb(); }
    match /fn/f4 {
      function globalF() { return 'inner'; }
      allow get: if globalF() == 'inner';
    }
    match /fn/f5 { allow get: if globalF() == 'global'; }
    match /fn/f6 { allow get: if errLet(); }
    match /fn/f7 { allow get: if errLetUsed(); }
    match /fn/{id} {
      function idIs(x) { return id == x; }
      allow get: if idIs('f8');
    }
    match /fn/f9 { allow get: if svcF() == 1; }
    match /fn/f10 { allow get: if outer(1); }
    match /fn/f11 { allow get: if sees(/databases/$(database)/documents/fn/f11); }
    match /fn/f12 { allow get: if withLet(2); }
""", header="function globalF() { return 'global'; }\n").replace(
    "service cloud.firestore {\n", "service cloud.firestore {\n  function svcF() { return 1; }\n", 1))
for k, t in [(1, "function reads request.auth"), (2, "let bindings"), (3, "function sees the database capture"),
             (4, "match-scope function shadows the global one"), (5, "global function"),
             (6, "unused erroring let"), (7, "used erroring let"), (8, "function sees the enclosing wildcard"),
             (9, "service-scope function"), (10, "function calls a later-declared function"),
             (11, "path argument"), (12, "let-based function returning false")]:
    GROUPS[-1].case(f"fn.f{k}", t, GET(f"/fn/f{k}"), auth="alice")


# --------------------------------------------------------------------------- groups: matching

g = Group("wild", "wildcards (v2)", wrap_v2("""\
    match /wa/{a}/{rest=**} {
      allow get: if rest[0] == 'sub';
    }
    match /wb/{doc=**} {
      allow get: if doc is path;
    }
    match /wc/{a} {
      allow get: if a is string && a == 'k1';
    }
    match /wd/{x} {
      match /sub/{y} {
        allow get: if x == y;
      }
    }
    match /we/{a}/{rest=**} {
      allow get: if rest == /s/t;
    }
    match /wf/{rest=**} {
      allow get: if request.path == /databases/$(database)/documents/$(rest);
    }
    match /{coll}/{id} {
      allow get: if coll == 'wg' && id == 'g1';
    }
    match /wh/{doc=**} {
      allow get: if doc == 'k1/s/t';
    }
    match /wi/{doc=**} {
      allow get: if doc == /k1/s/t;
    }
    match /wj/{doc=**} {
      allow get: if doc is string;
    }
""", ""))
g.case("wild.a1", "{rest=**} binds sub/s1", GET("/wa/k/sub/s1"), auth="alice")
g.case("wild.a2", "{rest=**} binds other/s1", GET("/wa/k/other/s1"), auth="alice")
g.case("wild.a3", "{rest=**} matches zero segments (v2): rest[0] errors", GET("/wa/k"), auth="alice")
g.case("wild.b1", "recursive capture is a path (1 segment)", GET("/wb/x"), auth="alice")
g.case("wild.b2", "recursive capture is a path (3 segments)", GET("/wb/x/y/z"), auth="alice")
g.case("wild.c1", "single capture is a string", GET("/wc/k1"), auth="alice")
g.case("wild.c2", "single capture, other value", GET("/wc/k2"), auth="alice")
g.case("wild.d1", "nested match sees the parent capture (equal)", GET("/wd/q/sub/q"), auth="alice")
g.case("wild.d2", "nested match sees the parent capture (different)", GET("/wd/q/sub/r"), auth="alice")
g.case("wild.d3", "parent-only path does not match the nested block", GET("/wd/q"), auth="alice")
g.case("wild.e1", "recursive capture equals a path literal", GET("/we/k/s/t"), auth="alice")
g.case("wild.f1", "recursive capture spliced with $()", GET("/wf/a/b/c"), auth="alice")
g.case("wild.g1", "{coll}/{id} generic match", GET("/wg/g1"), auth="alice")
g.case("wild.g2", "{coll}/{id} generic match, other id", GET("/wg/g2"), auth="alice")
g.case("wild.n1", "no match for a sub-collection document", GET("/wg/g1/deeper/d"), auth="alice")
g.case("wild.h1", "v2 recursive capture == string", GET("/wh/k1/s/t"), auth="alice")
g.case("wild.i1", "v2 recursive capture == path literal", GET("/wi/k1/s/t"), auth="alice")
g.case("wild.j1", "v2 recursive capture is string", GET("/wj/k1/s/t"), auth="alice")

g = Group("v1", "wildcards (v1)", """\
service cloud.firestore {
  match /databases/{database}/documents {
    match /cities/{city}/{document=**} {
      allow get: if true;
    }
    match /towns/{document=**} {
      allow get: if document is path;
    }
    match /v1s/{rest=**} {
      allow get: if rest is string;
    }
    match /v1p/{rest=**} {
      allow get: if rest == 'a/b/c';
    }
  }
}
""")
g.case("v1.c1", "v1 {document=**} needs one or more segments: /cities/SF not matched", GET("/cities/SF"), auth="alice")
g.case("v1.c2", "v1 {document=**} matches a sub-collection document", GET("/cities/SF/l/x"), auth="alice")
g.case("v1.t1", "v1 /towns/{document=**} matches the collection's documents", GET("/towns/t1"), auth="alice")
g.case("v1.t2", "v1 /towns/{document=**} matches deeper documents", GET("/towns/t1/a/b"), auth="alice")
g.case("v1.s1", "v1 recursive capture is a string?", GET("/v1s/a/b/c"), auth="alice")
g.case("v1.p2", "v1 recursive capture == 'a/b/c'", GET("/v1p/a/b/c"), auth="alice")
g.case("v1.q1", "v1: collection-group query cannot be allowed",
       QUERY(Q("l", all_descendants=True)), auth="alice")

g = Group("overlap", "overlapping matches and methods", wrap_v2("""\
    match /ov/{id} {
      allow get: if false;
    }
    match /{document=**} {
      allow get: if request.auth != null;
    }
    match /ov2/{id} {
      allow read: if false;
      allow get: if request.auth.uid == 'alice';
    }
    match /ov3/{id} {
      allow write: if request.auth.uid == 'alice';
      allow update: if false;
    }
    match /ov4/{id} {
      allow create: if true;
    }
    match /ov5/{id} {
      allow read;
    }
    match /ov6/{id} {
      allow list: if true;
    }
    match /ov7/{id} {
      allow create: if request.resource.data.v == 1;
      allow update: if request.resource.data.v == 2;
    }
    match /ov8/{id} {
      allow get: if false;
      allow read: if false;
      allow get, list: if false;
    }
"""), seed={"/ov4/e": fields(v=0), "/ov3/e": fields(v=0), "/ov7/e": fields(v=0)})
g.case("overlap.a1", "any matching block grants (catch-all)", GET("/ov/1"), auth="alice")
g.case("overlap.a2", "both blocks deny: message lists both", GET("/ov/1"), auth=None)
g.case("overlap.b1", "allow get beside allow read: false", GET("/ov2/1"), auth="alice")
g.case("overlap.b2", "list covered only by read: false", QUERY(Q("ov2")), auth="alice")
g.case("overlap.c1", "allow write grants create", PATCH("/ov3/n", fields(v=1)), auth="alice")
g.case("overlap.c2", "allow write grants update despite allow update: false", PATCH("/ov3/e", fields(v=1)), auth="alice")
g.case("overlap.c3", "allow write grants delete", DELETE("/ov3/e"), auth="alice")
g.case("overlap.c4", "allow write denies another user", PATCH("/ov3/e", fields(v=1)), auth="bob")
g.case("overlap.d1", "create only: update has no statement", PATCH("/ov4/e", fields(v=1)), auth="alice")
g.case("overlap.d2", "create only: create allowed", PATCH("/ov4/n", fields(v=1)), auth="alice")
g.case("overlap.d3", "create only: delete has no statement", DELETE("/ov4/e"), auth="alice")
g.case("overlap.e1", "allow read without condition (get)", GET("/ov5/1"), auth=None)
g.case("overlap.e2", "allow read without condition (list)", QUERY(Q("ov5")), auth=None)
g.case("overlap.f1", "allow list does not grant get (catch-all grants get when signed in)", GET("/ov6/1"), auth=None)
g.case("overlap.f2", "allow list grants a query", QUERY(Q("ov6")), auth=None)
g.case("overlap.g1", "no statement for list anywhere", QUERY(Q("nomatch")), auth="alice")
g.case("overlap.g2", "no statement for delete anywhere", DELETE("/nomatch/x"), auth="alice")
g.case("overlap.h1", "upsert on a missing doc is a create", PATCH("/ov7/n", fields(v=2)), auth="alice")
g.case("overlap.h2", "upsert on an existing doc is an update", PATCH("/ov7/e", fields(v=1)), auth="alice")
g.case("overlap.h3", "upsert on an existing doc, allowed update", PATCH("/ov7/e", fields(v=2)), auth="alice")
g.case("overlap.i1", "three denying statements in one block", GET("/ov8/1"), auth=None)


# --------------------------------------------------------------------------- groups: writes

g = Group("write", "request.resource and writes", wrap_v2("""\
    match /w1/{id} {
      allow create: if resource == null && request.resource.id == id
        && request.resource.__name__ == /databases/$(database)/documents/w1/$(id);
    }
    match /w2/{id} {
      allow create, update: if request.resource.data.t == request.time;
    }
    match /w3/{id} {
      allow update: if request.resource.data.n == resource.data.n + 1;
    }
    match /w4/{id} {
      allow update: if request.resource.data.diff(resource.data).affectedKeys().hasOnly(['a']);
    }
    match /w5/{id} {
      allow create, update: if request.resource.data.tags == ['a', 'b'];
    }
    match /w6/{id} {
      allow update: if !('x' in request.resource.data) && request.resource.data.keep == 1;
    }
    match /w7/{id} {
      allow delete: if request.resource == null && resource.data.owner == request.auth.uid;
    }
    match /w8/{id} {
      allow create: if request.method == 'create';
      allow update: if request.method == 'update';
      allow delete: if request.method == 'delete' && resource == null;
    }
    match /w9/{id} {
      allow create: if request.resource.data.size() == 2 && request.resource.data.hi == 5
        && request.resource.data.lo == -1;
    }
    match /w10/{id} {
      allow create: if request.resource.data.keys().hasOnly(['a', 'b']) && request.resource.data.a is string;
    }
    match /w11/{id} {
      allow update: if resource.data.locked == false;
    }
    match /w12/{id} {
      allow create: if resource.data.x == 1;
    }
    match /w13/{id} {
      allow update: if request.resource.data.m.x == 2 && request.resource.data.m.y == 1;
    }
    match /w14/{id} {
      allow update: if request.resource.data.tags == ['b'];
    }
    match /w15/{id} {
      allow write: if request.resource.data.n is float;
    }
    match /w16/{id} {
      allow create: if request.resource.data.m.t == request.time && request.resource.data.m.k == 1;
    }
"""), seed={
    "/w3/e": fields(n=1), "/w4/e": fields(a=1, b=1), "/w5/e": fields(tags=["a"]),
    "/w6/e": fields(x=1, keep=1), "/w7/e": fields(owner="alice"), "/w8/e": fields(v=1),
    "/w11/e": fields(locked=False), "/w11/l": fields(locked=True), "/w13/e": fields(m=mp(x=i(1), y=i(1))),
    "/w14/e": fields(tags=["a", "b", "a"]), "/w15/e": fields(n=1),
})
A = "alice"
g.case("write.w1a", "resource == null, request.resource.id and __name__ on create", PATCH("/w1/n", fields(v=1)), auth=A)
g.case("write.w1b", "create through POST with documentId", CREATE("/w1", "p", fields(v=1)), auth=A)
g.case("write.w2a", "serverTimestamp == request.time (create)",
       COMMIT(upd("/w2/n", {}, transforms=[server_time("t")])), auth=A)
g.case("write.w2b", "client timestamp != request.time", PATCH("/w2/n", fields(t=ts("2020-01-01T00:00:00Z"))), auth=A)
g.case("write.w2c", "serverTimestamp in a merge (update of a missing doc is a create)",
       COMMIT(upd("/w2/n", fields(v=1), mask=["v"], transforms=[server_time("t")])), auth=A)
g.case("write.w3a", "increment by 1 seen in request.resource",
       COMMIT(upd("/w3/e", {}, mask=[], transforms=[increment("n", i(1))])), auth=A)
g.case("write.w3b", "increment by 2", COMMIT(upd("/w3/e", {}, mask=[], transforms=[increment("n", i(2))])), auth=A)
g.case("write.w3c", "float increment makes 2.0 (== 2)", COMMIT(upd("/w3/e", {}, mask=[], transforms=[increment("n", f(1.0))])), auth=A)
g.case("write.w4a", "merge touching only a", PATCH("/w4/e", fields(a=2), mask=["a"]), auth=A)
g.case("write.w4b", "merge touching b", PATCH("/w4/e", fields(b=2), mask=["b"]), auth=A)
g.case("write.w4c", "set without mask keeping b", PATCH("/w4/e", fields(a=5, b=1)), auth=A)
g.case("write.w4d", "set without mask dropping b (removed key)", PATCH("/w4/e", fields(a=5)), auth=A)
g.case("write.w4e", "merge writing the same value (no affected key)", PATCH("/w4/e", fields(b=1), mask=["b"]), auth=A)
g.case("write.w4f", "merge of b with int → float equal value", PATCH("/w4/e", fields(b=1.0), mask=["b"]), auth=A)
g.case("write.w5a", "appendMissingElements result", COMMIT(upd("/w5/e", {}, mask=[], transforms=[append("tags", s("b"), s("a"))])), auth=A)
g.case("write.w5b", "appendMissingElements on create", COMMIT(upd("/w5/n", {}, transforms=[append("tags", s("a"), s("b"))])), auth=A)
g.case("write.w5c", "appendMissingElements in wrong order", COMMIT(upd("/w5/n", {}, transforms=[append("tags", s("b"), s("a"))])), auth=A)
g.case("write.w6a", "field deleted with a mask", PATCH("/w6/e", {}, mask=["x"]), auth=A)
g.case("write.w6b", "mask keeps x", PATCH("/w6/e", fields(x=2), mask=["x"]), auth=A)
g.case("write.w7a", "delete: request.resource == null, resource.data owner", DELETE("/w7/e"), auth=A)
g.case("write.w7b", "delete by another user", DELETE("/w7/e"), auth="bob")
g.case("write.w7c", "delete of a missing doc (resource null → error)", DELETE("/w7/none"), auth=A)
g.case("write.w8a", "request.method on create", PATCH("/w8/n", fields(v=1)), auth=A)
g.case("write.w8b", "request.method on update", PATCH("/w8/e", fields(v=2)), auth=A)
g.case("write.w8c", "delete of an existing doc with resource == null required", DELETE("/w8/e"), auth=A)
g.case("write.w8d", "delete of a missing doc: resource == null", DELETE("/w8/none"), auth=A)
g.case("write.w8e", "commit delete of a missing doc", COMMIT(dele("/w8/none")), auth=A)
g.case("write.w9a", "maximum / minimum on absent fields",
       COMMIT(upd("/w9/n", {}, transforms=[maximum("hi", i(5)), minimum("lo", i(-1))])), auth=A)
g.case("write.w10a", "hasOnly on keys (ok)", PATCH("/w10/n", fields(a="x", b=1)), auth=A)
g.case("write.w10b", "unexpected field", PATCH("/w10/n", fields(a="x", c=1)), auth=A)
g.case("write.w10c", "wrong type", PATCH("/w10/n", fields(a=1)), auth=A)
g.case("write.w11a", "resource.data on update (unlocked)", PATCH("/w11/e", fields(locked=False, v=1)), auth=A)
g.case("write.w11b", "resource.data on update (locked)", PATCH("/w11/l", fields(locked=True, v=1)), auth=A)
g.case("write.w12a", "resource.data on create: Null value error", PATCH("/w12/n", fields(x=1)), auth=A)
g.case("write.w13a", "nested mask merges the map", PATCH("/w13/e", fields(m=mp(x=i(2))), mask=["m.x"]), auth=A)
g.case("write.w13b", "map replaced without nested mask", PATCH("/w13/e", fields(m=mp(x=i(2))), mask=["m"]), auth=A)
g.case("write.w14a", "removeAllFromArray result", COMMIT(upd("/w14/e", {}, mask=[], transforms=[remove("tags", s("a"))])), auth=A)
g.case("write.w15a", "int increment on a float-typed expectation", COMMIT(upd("/w15/e", {}, mask=[], transforms=[increment("n", f(0.5))])), auth=A)
g.case("write.w15b", "int stays int", COMMIT(upd("/w15/e", {}, mask=[], transforms=[increment("n", i(1))])), auth=A)
g.case("write.w16a", "serverTimestamp on a nested field", COMMIT(upd("/w16/n", {"m": mp(k=i(1))}, transforms=[server_time("m.t")])), auth=A)
g.case("write.w16b", "client time on a nested field", PATCH("/w16/n", {"m": mp(k=i(1), t=ts("2020-01-01T00:00:00Z"))}), auth=A)
g.case("write.p1", "update-only rules, currentDocument.exists=true on a missing doc",
       PATCH("/w11/none", fields(locked=False), exists=True), auth=A)
g.case("write.p2", "create rules, currentDocument.exists=false on an existing doc",
       PATCH("/w1/e2", fields(v=1), exists=False), auth=A, seed={"/w1/e2": fields(v=0)})
g.case("write.p3", "denied create with exists=false on an existing doc (which error wins)",
       PATCH("/w12/e", fields(x=2), exists=False), auth=A, seed={"/w12/e": fields(x=1)})
g.case("write.p4", "POST create of an existing id with create allowed",
       CREATE("/w1", "e3", fields(v=1)), auth=A, seed={"/w1/e3": fields(v=0)})
g.case("write.p5", "no token: create denied", PATCH("/w10/n", fields(a="x")), auth=None)

g = Group("access", "get / exists", wrap_v2("""\
    function userDoc(u) { return /databases/$(database)/documents/users/$(u); }
    match /users/{uid} {
      allow get: if true;
    }
    match /ga/a1 { allow get: if exists(/databases/$(database)/documents/users/$(request.auth.uid)); }
    match /ga/a2 { allow get: if get(userDoc(request.auth.uid)).data.role == 'admin'; }
    match /ga/a3 { allow get: if get(userDoc('nobody')).data.role == 'admin'; }
    match /ga/a4 { allow get: if get(userDoc('nobody')) == null; }
    match /ga/a5 { allow get: if !exists(userDoc('nobody')); }
    match /ga/a6 { allow get: if exists(userDoc('nobody')) && get(userDoc('nobody')).data.x == 1; }
    match /ga/a7 { allow get: if get(userDoc('nobody')).data.x == 1 || true; }
    match /ga/a8 { allow get: if get(path('databases/' + database + '/documents/users/alice')).data.role == 'admin'; }
    match /ga/a9 { allow get: if get(userDoc('alice')).id == 'alice' && get(userDoc('alice')).__name__ == userDoc('alice'); }
    match /ga/b10 {
      allow get: if !exists(userDoc('u0')) && !exists(userDoc('u1')) && !exists(userDoc('u2'))
        && !exists(userDoc('u3')) && !exists(userDoc('u4')) && !exists(userDoc('u5'))
        && !exists(userDoc('u6')) && !exists(userDoc('u7')) && !exists(userDoc('u8'))
        && !exists(userDoc('u9'));
    }
    match /ga/b11 {
      allow get: if !exists(userDoc('u0')) && !exists(userDoc('u1')) && !exists(userDoc('u2'))
        && !exists(userDoc('u3')) && !exists(userDoc('u4')) && !exists(userDoc('u5'))
        && !exists(userDoc('u6')) && !exists(userDoc('u7')) && !exists(userDoc('u8'))
        && !exists(userDoc('u9')) && !exists(userDoc('u10'));
    }
    match /ga/b12 {
      allow get: if exists(userDoc('alice')) && exists(userDoc('alice')) && exists(userDoc('alice'))
        && exists(userDoc('alice')) && exists(userDoc('alice')) && exists(userDoc('alice'))
        && exists(userDoc('alice')) && exists(userDoc('alice')) && exists(userDoc('alice'))
        && exists(userDoc('alice')) && exists(userDoc('alice')) && exists(userDoc('alice'));
    }
    match /ga/c1 { allow get: if exists(/databases/$(database)/documents/users); }
    match /ga/c2 { allow get: if exists('users/alice'); }
    match /ga/c3 { allow get: if getAfter(userDoc('alice')).data.role == 'admin'; }
    match /ga/c4 { allow get: if get(userDoc('alice')).data.role == 'admin'; }
    match /ga/c5 { allow get: if exists(/databases/other/documents/users/alice); }
"""), seed={"/users/alice": fields(role="admin"), "/users/bob": fields(role="user")})
for cid, title, auths in [
    ("a1", "exists of the caller's user doc", ["alice", "carol"]),
    ("a2", "get().data of the caller's user doc", ["alice", "bob"]),
    ("a3", "get of a missing doc errors", ["alice"]),
    ("a4", "get(missing) == null", ["alice"]),
    ("a5", "!exists(missing)", ["alice"]),
    ("a6", "guarded get of a missing doc", ["alice"]),
    ("a7", "get error absorbed by || true", ["alice"]),
    ("a8", "path() built from a string", ["alice"]),
    ("a9", "get().id and __name__", ["alice"]),
    ("b10", "10 distinct exists calls", ["alice"]),
    ("b11", "11 distinct exists calls", ["alice"]),
    ("b12", "12 repeated exists of one doc", ["alice"]),
    ("c1", "exists of a collection path", ["alice"]),
    ("c2", "exists of a string", ["alice"]),
    ("c3", "getAfter in a read", ["alice"]),
    ("c4", "get when the doc was read before in the same request", ["alice"]),
    ("c5", "exists in another database", ["alice"]),
]:
    for a in auths:
        g.case(f"access.{cid}" + ("" if len(auths) == 1 else f"/{a}"), title, GET(f"/ga/{cid}"), auth=a)

g = Group("batch", "batches, transactions, getAfter", wrap_v2("""\
    function doc(c, id) { return /databases/$(database)/documents/$(c)/$(id); }
    match /pair/{id} {
      allow create: if getAfter(doc('pairlog', id)).data.by == request.auth.uid;
    }
    match /pairlog/{id} {
      allow create: if existsAfter(doc('pair', id));
    }
    match /acct/{id} {
      allow get: if resource.data.owner == request.auth.uid;
      allow update: if getAfter(doc('acct', id)).data.balance >= 0
        && getAfter(doc('acct', id)).data == request.resource.data
        && getAfter(doc('acct', 'b1')).data.balance + getAfter(doc('acct', 'b2')).data.balance == 10;
    }
    match /del/{id} {
      allow delete: if !existsAfter(doc('del', id)) && exists(doc('del', id));
      allow create: if true;
    }
    match /tx/{id} {
      allow read: if resource.data.owner == request.auth.uid;
      allow create: if request.resource.data.owner == request.auth.uid;
    }
    match /sib/{id} {
      allow update: if getAfter(doc('sib', id)).data.keep == 'yes' && getAfter(doc('sib', id)).data.v == 2;
    }
    match /gm/{id} {
      allow create: if getAfter(doc('nothere', id)).data.v == 1;
    }
    match /bud/{id} {
      allow create: if !exists(doc('users', id + '0')) && !exists(doc('users', id + '1'))
        && !exists(doc('users', id + '2')) && !exists(doc('users', id + '3'))
        && !exists(doc('users', id + '4')) && !exists(doc('users', id + '5'))
        && !exists(doc('users', id + '6'));
    }
"""), seed={
    "/acct/b1": fields(owner="alice", balance=5), "/acct/b2": fields(owner="alice", balance=5),
    "/del/d1": fields(v=1), "/tx/t1": fields(owner="alice"), "/tx/t2": fields(owner="bob"),
    "/sib/s1": fields(keep="yes", v=1),
})
g.case("batch.p1", "create pair and its log together", COMMIT(upd("/pair/p1", fields(v=1)), upd("/pairlog/p1", fields(by="alice"))), auth=A)
g.case("batch.p2", "create pair alone (getAfter of a missing doc)", COMMIT(upd("/pair/p1", fields(v=1))), auth=A)
g.case("batch.p3", "create log alone (existsAfter false)", COMMIT(upd("/pairlog/p1", fields(by="alice"))), auth=A)
g.case("batch.p4", "pair with a log naming someone else", COMMIT(upd("/pair/p1", fields(v=1)), upd("/pairlog/p1", fields(by="bob"))), auth=A)
g.case("batch.p5", "log first, then pair (order in the batch)", COMMIT(upd("/pairlog/p1", fields(by="alice")), upd("/pair/p1", fields(v=1))), auth=A)
g.case("batch.a1", "transfer keeping the sum", COMMIT(upd("/acct/b1", fields(balance=3), mask=["balance"]), upd("/acct/b2", fields(balance=7), mask=["balance"])), auth=A)
g.case("batch.a2", "transfer breaking the sum", COMMIT(upd("/acct/b1", fields(balance=3), mask=["balance"]), upd("/acct/b2", fields(balance=8), mask=["balance"])), auth=A)
g.case("batch.a3", "one side only", COMMIT(upd("/acct/b1", fields(balance=3), mask=["balance"])), auth=A)
g.case("batch.a4", "transfer with increments", COMMIT(upd("/acct/b1", {}, mask=[], transforms=[increment("balance", i(-2))]),
                                                       upd("/acct/b2", {}, mask=[], transforms=[increment("balance", i(2))])), auth=A)
g.case("batch.d1", "delete: !existsAfter && exists", COMMIT(dele("/del/d1")), auth=A)
g.case("batch.d2", "delete then re-create in one batch", COMMIT(dele("/del/d1"), upd("/del/d1", fields(v=2))), auth=A)
g.case("batch.s1", "getAfter merges untouched siblings", PATCH("/sib/s1", fields(v=2), mask=["v"]), auth=A)
g.case("batch.s2", "set without keep drops it", PATCH("/sib/s1", fields(v=2)), auth=A)
g.case("batch.m1", "getAfter of a doc missing after the batch", PATCH("/gm/g1", fields(v=1)), auth=A)
g.case("batch.u2", "2 writes x 7 distinct exists (14 per request)", COMMIT(upd("/bud/a", {}), upd("/bud/b", {})), auth=A)
g.case("batch.u3", "3 writes x 7 distinct exists (21 per request)", COMMIT(upd("/bud/a", {}), upd("/bud/b", {}), upd("/bud/c", {})), auth=A)
g.case("batch.t1", "transaction: read own doc, write, commit",
       [BEGIN(), TXGET("/tx/t1"), COMMIT(upd("/tx/t3", fields(owner="alice")), txn=True)], auth=A)
g.case("batch.t2", "transaction: read someone else's doc", [BEGIN(), TXGET("/tx/t2"), ROLLBACK()], auth=A)
g.case("batch.t3", "transaction: denied write fails the commit",
       [BEGIN(), TXGET("/tx/t1"), COMMIT(upd("/tx/t3", fields(owner="alice")), upd("/tx/t4", fields(owner="bob")), txn=True)], auth=A)
g.case("batch.t4", "transaction: query inside",
       [BEGIN(), {"method": "POST", "path": ":runQuery", "body": {
           "structuredQuery": Q("tx", ff("owner", "EQUAL", s("alice"))), "transaction": "$TXN"}}, ROLLBACK()], auth=A)
g.case("batch.b1", "batch: one denied write fails all", COMMIT(upd("/tx/t5", fields(owner="alice")), upd("/tx/t6", fields(owner="bob"))), auth=A)
g.case("batch.g1", "batchGet: readable doc", {"method": "POST", "path": ":batchGet", "body": {"documents": [f"{DOCS}/tx/t1"]}}, auth=A)
g.case("batch.g2", "batchGet: one unreadable doc", {"method": "POST", "path": ":batchGet", "body": {"documents": [f"{DOCS}/tx/t1", f"{DOCS}/tx/t2"]}}, auth=A)
g.case("batch.g3", "batchGet: missing doc (resource null)", {"method": "POST", "path": ":batchGet", "body": {"documents": [f"{DOCS}/tx/none"]}}, auth=A)


# --------------------------------------------------------------------------- groups: queries

g = Group("query", "list queries (rules are not filters)", wrap_v2("""\
    match /q/{id} {
      allow list: if resource.data.owner == request.auth.uid;
    }
    match /qr/{id} {
      allow list: if resource.data.x > 5;
    }
    match /ql/{id} {
      allow list: if request.query.limit <= 10;
    }
    match /qp/{id} {
      allow list: if resource.data.published == true || request.auth.uid == resource.data.author;
    }
    match /qa/{id} {
      allow list: if 'a' in resource.data.tags;
    }
    match /qn/{id} {
      allow list: if resource.data.x != null;
    }
    match /qd/{id} {
      allow list: if request.auth != null;
    }
    match /qk/{id} {
      allow list: if !resource.data.keys().hasAll(['userId']);
    }
    match /qi/{id} {
      allow list: if id == 'x';
    }
    match /users/{uid}/items/{id} {
      allow list: if uid == request.auth.uid;
    }
    match /qg/{id} {
      allow get: if true;
    }
    match /qe/{id} {
      allow list: if resource.data.x == 1 && resource.data.y == 2;
    }
    match /qm/{id} {
      allow list: if resource.data.x >= 1 && resource.data.x <= 3;
    }
    match /qo/{id} {
      allow list: if request.query.orderBy == null || request.query.offset == 0;
    }
    match /qs/{id} {
      allow list: if resource.data.s is string;
    }
    match /qv/{id} {
      allow list: if resource.data.v == 1.0;
    }
    match /qc/{id} {
      allow list: if resource.data.x < 10 && resource.data.tags.hasAny(['a']) && resource.data.s.size() > 0;
    }
    match /qt/{id} {
      allow list: if resource.data.t > timestamp.date(2020, 1, 1);
    }
"""), seed={"/q/d1": fields(owner="alice", x=2), "/q/d2": fields(owner="bob", x=3),
            "/qr/d1": fields(x=7), "/qd/d1": fields(x=1), "/users/alice/items/i1": fields(x=1)})
ALICE_EQ = ff("owner", "EQUAL", s("alice"))
for cid, title, step in [
    ("q01", "equality filter proving the rule", QUERY(Q("q", ALICE_EQ))),
    ("q02", "equality filter for someone else", QUERY(Q("q", ff("owner", "EQUAL", s("bob"))))),
    ("q03", "no filter", QUERY(Q("q"))),
    ("q04", "filter on another field", QUERY(Q("q", ff("x", "EQUAL", i(2))))),
    ("q05", "in [alice]", QUERY(Q("q", ff("owner", "IN", arr(s("alice")))))),
    ("q06", "in [alice, bob]: every way must pass", QUERY(Q("q", ff("owner", "IN", arr(s("alice"), s("bob")))))),
    ("q07", "OR of alice and bob", QUERY(Q("q", OR(ALICE_EQ, ff("owner", "EQUAL", s("bob")))))),
    ("q08", "OR whose branches all fix alice", QUERY(Q("q", OR(ALICE_EQ, AND(ALICE_EQ, ff("x", "GREATER_THAN", i(1))))))),
    ("q09", "orderBy owner only", QUERY(Q("q", order=[asc("owner")]))),
    ("q10", "equality + limit + orderBy", QUERY(Q("q", ALICE_EQ, order=[asc("x")], limit=3))),
    ("q11", "equality AND another filter", QUERY(Q("q", AND(ALICE_EQ, ff("x", "GREATER_THAN", i(0)))))),
    ("q12", "aggregation count with the proving filter", COUNT(Q("q", ALICE_EQ))),
    ("q13", "aggregation count without filter", COUNT(Q("q"))),
    ("q14", "list collection with GET", GET("/q")),
    ("q15", "__name__ == a doc of alice", QUERY(Q("q", ff("__name__", "EQUAL", ref("q/d1"))))),
    ("q16", "__name__ == a doc of bob", QUERY(Q("q", ff("__name__", "EQUAL", ref("q/d2"))))),
    ("q17", "not-equal filter", QUERY(Q("q", ff("owner", "NOT_EQUAL", s("bob"))))),
    ("r01", "x > 6 implies x > 5", QUERY(Q("qr", ff("x", "GREATER_THAN", i(6))))),
    ("r02", "x > 4 does not", QUERY(Q("qr", ff("x", "GREATER_THAN", i(4))))),
    ("r03", "x >= 6", QUERY(Q("qr", ff("x", "GREATER_THAN_OR_EQUAL", i(6))))),
    ("r04", "x == 7", QUERY(Q("qr", ff("x", "EQUAL", i(7))))),
    ("r05", "x in [6, 42]", QUERY(Q("qr", ff("x", "IN", arr(i(6), i(42)))))),
    ("r06", "x in [1, 6]", QUERY(Q("qr", ff("x", "IN", arr(i(1), i(6)))))),
    ("r07", "x > 5.5 (float filter, int rule)", QUERY(Q("qr", ff("x", "GREATER_THAN", f(5.5))))),
    ("r08", "x > 5", QUERY(Q("qr", ff("x", "GREATER_THAN", i(5))))),
    ("r09", "x != 7", QUERY(Q("qr", ff("x", "NOT_EQUAL", i(7))))),
    ("r10", "no filter", QUERY(Q("qr"))),
    ("r11", "x >= 5", QUERY(Q("qr", ff("x", "GREATER_THAN_OR_EQUAL", i(5))))),
    ("r12", "x > 6 and x < 100", QUERY(Q("qr", AND(ff("x", "GREATER_THAN", i(6)), ff("x", "LESS_THAN", i(100)))))),
    ("r13", "x == '7' (string)", QUERY(Q("qr", ff("x", "EQUAL", s("7"))))),
    ("r14", "x == 6.5", QUERY(Q("qr", ff("x", "EQUAL", f(6.5))))),
    ("r15", "x not-in [1, 2]", QUERY(Q("qr", ff("x", "NOT_IN", arr(i(1), i(2)))))),
    ("l01", "limit 5", QUERY(Q("ql", limit=5))),
    ("l02", "limit 20", QUERY(Q("ql", limit=20))),
    ("l03", "no limit", QUERY(Q("ql"))),
    ("l04", "limit 10 (boundary)", QUERY(Q("ql", limit=10))),
    ("l05", "count with limit 5", COUNT(Q("ql", limit=5))),
    ("p01", "published == true", QUERY(Q("qp", ff("published", "EQUAL", TRUE)))),
    ("p02", "author == alice", QUERY(Q("qp", ff("author", "EQUAL", s("alice"))))),
    ("p03", "no filter", QUERY(Q("qp"))),
    ("p04", "published == false", QUERY(Q("qp", ff("published", "EQUAL", FALSE)))),
    ("a01", "array-contains 'a'", QUERY(Q("qa", ff("tags", "ARRAY_CONTAINS", s("a"))))),
    ("a02", "array-contains 'b'", QUERY(Q("qa", ff("tags", "ARRAY_CONTAINS", s("b"))))),
    ("a03", "array-contains-any ['a']", QUERY(Q("qa", ff("tags", "ARRAY_CONTAINS_ANY", arr(s("a")))))),
    ("a04", "tags == ['a']", QUERY(Q("qa", ff("tags", "EQUAL", arr(s("a")))))),
    ("n01", "x is not null", QUERY(Q("qn", uf("x", "IS_NOT_NULL")))),
    ("n02", "x == 1", QUERY(Q("qn", ff("x", "EQUAL", i(1))))),
    ("n03", "x is null", QUERY(Q("qn", uf("x", "IS_NULL")))),
    ("n04", "x > 0", QUERY(Q("qn", ff("x", "GREATER_THAN", i(0))))),
    ("n05", "no filter", QUERY(Q("qn"))),
    ("d01", "doc-independent rule, no filter", QUERY(Q("qd"))),
    ("k01", "keys() shows only filtered fields (#4420)", QUERY(Q("qk", ff("other", "EQUAL", i(1))))),
    ("k02", "keys() with a userId filter", QUERY(Q("qk", ff("userId", "EQUAL", s("alice"))))),
    ("i01", "document-id wildcard is unbound during list", QUERY(Q("qi"))),
    ("u01", "parent wildcard bound from the collection path", QUERY(Q("items"), parent="/users/alice")),
    ("u02", "parent wildcard for someone else", QUERY(Q("items"), parent="/users/bob")),
    ("g01", "get-only rules refuse a query", QUERY(Q("qg"))),
    ("e01", "two equalities proving both", QUERY(Q("qe", AND(ff("x", "EQUAL", i(1)), ff("y", "EQUAL", i(2)))))),
    ("e02", "one equality only", QUERY(Q("qe", ff("x", "EQUAL", i(1))))),
    ("m01", "range inside the bounds", QUERY(Q("qm", AND(ff("x", "GREATER_THAN_OR_EQUAL", i(1)), ff("x", "LESS_THAN_OR_EQUAL", i(3)))))),
    ("m02", "range wider than the bounds", QUERY(Q("qm", AND(ff("x", "GREATER_THAN_OR_EQUAL", i(0)), ff("x", "LESS_THAN_OR_EQUAL", i(3)))))),
    ("m03", "x == 2", QUERY(Q("qm", ff("x", "EQUAL", i(2))))),
    ("o01", "request.query.orderBy / offset without orderBy", QUERY(Q("qo"))),
    ("o02", "request.query.offset with an offset", QUERY(Q("qo", order=[asc("a")], offset=0))),
    ("s01", "is string on a constrained field", QUERY(Q("qs", ff("s", "EQUAL", s("a"))))),
    ("s02", "is string on a range-constrained field", QUERY(Q("qs", ff("s", "GREATER_THAN", s("a"))))),
    ("v01", "int filter vs float rule value (EQ 1 implies == 1.0)", QUERY(Q("qv", ff("v", "EQUAL", i(1))))),
    ("c01", "in [1, 20] against x < 10", QUERY(Q("qc", AND(ff("x", "IN", arr(i(1), i(20))), ff("tags", "ARRAY_CONTAINS", s("a")), ff("s", "EQUAL", s("z")))))),
    ("c02", "constraint hasAny via array-contains", QUERY(Q("qc", AND(ff("x", "EQUAL", i(1)), ff("tags", "ARRAY_CONTAINS", s("a")), ff("s", "EQUAL", s("z")))))),
    ("c03", "size() of a range-constrained field", QUERY(Q("qc", AND(ff("x", "EQUAL", i(1)), ff("tags", "ARRAY_CONTAINS", s("a")), ff("s", "GREATER_THAN", s("a")))))),
    ("c04", "array-contains-any ['a', 'b'] ways", QUERY(Q("qc", AND(ff("x", "EQUAL", i(1)), ff("tags", "ARRAY_CONTAINS_ANY", arr(s("a"), s("b"))), ff("s", "EQUAL", s("z")))))),
    ("t01", "timestamp range filter proving the rule", QUERY(Q("qt", ff("t", "GREATER_THAN", ts("2021-01-01T00:00:00Z"))))),
    ("t02", "timestamp range filter not proving it", QUERY(Q("qt", ff("t", "GREATER_THAN", ts("2019-01-01T00:00:00Z"))))),
    ("t03", "timestamp equality", QUERY(Q("qt", ff("t", "EQUAL", ts("2021-01-01T00:00:00Z"))))),
    ("o03", "OR across fields", QUERY(Q("qp", OR(ff("published", "EQUAL", TRUE), ff("author", "EQUAL", s("alice")))))),
    ("o04", "OR across fields, one branch not proving", QUERY(Q("qp", OR(ff("published", "EQUAL", TRUE), ff("author", "EQUAL", s("bob")))))),
]:
    g.case(f"query.{cid}", title, step, auth=A)
g.case("query.d02", "doc-independent rule, no token", QUERY(Q("qd")), auth=None)
g.case("query.u03", "parent wildcard, no token", QUERY(Q("items"), parent="/users/alice"), auth=None)

g = Group("cg", "collection-group queries", wrap_v2("""\
    match /{path=**}/posts/{id} {
      allow list: if resource.data.public == true;
      allow get: if path is path;
    }
    match /feeds/{f}/posts/{id} {
      allow list: if true;
    }
    match /feeds/{f}/notes/{id} {
      allow list: if true;
    }
"""), seed={"/feeds/f1/posts/p1": fields(public=True), "/blogs/b1/posts/p2": fields(public=False)})
g.case("cg.1", "collection group with the proving filter", QUERY(Q("posts", ff("public", "EQUAL", TRUE), all_descendants=True)), auth=A)
g.case("cg.2", "collection group without filter", QUERY(Q("posts", all_descendants=True)), auth=A)
g.case("cg.3", "plain query under feeds/f1 (second match)", QUERY(Q("posts"), parent="/feeds/f1"), auth=A)
g.case("cg.4", "plain query under blogs/b1 (only the =** match)", QUERY(Q("posts"), parent="/blogs/b1"), auth=A)
g.case("cg.5", "collection group over notes (no =** match)", QUERY(Q("notes", all_descendants=True)), auth=A)
g.case("cg.6", "get through the =** match", GET("/blogs/b1/posts/p2"), auth=A)
g.case("cg.7", "top-level posts collection (zero-segment =**)", QUERY(Q("posts", ff("public", "EQUAL", TRUE))), auth=A)
g.case("cg.8", "collection group under a parent", QUERY(Q("posts", ff("public", "EQUAL", TRUE), all_descendants=True), parent="/feeds/f1"), auth=A)
g.case("cg.9", "collection group count without filter", COUNT(Q("posts", all_descendants=True)), auth=A)


# --------------------------------------------------------------------------- group: the app's rules

SHOUTS_RULES = """\
rules_version = '2';

service cloud.firestore {
  match /databases/{database}/documents {

    function isUser(userId) {
      return request.auth != null && request.auth.uid == userId;
    }

    match /presence/{uid} {
      function clientKeys() {
        return ['lat', 'lng', 'geohash', 'updatedAt', 'fcmToken'];
      }
      function positionKeys() {
        return ['lat', 'lng', 'geohash', 'updatedAt'];
      }
      function wellFormed(d) {
        return (!('lat' in d) || (d.lat is number && d.lat >= -90 && d.lat <= 90))
          && (!('lng' in d) || (d.lng is number && d.lng >= -180 && d.lng <= 180))
          && (!('geohash' in d) || (d.geohash is string && d.geohash.size() <= 12))
          && (!('updatedAt' in d) || d.updatedAt is timestamp)
          && (!('fcmToken' in d) || d.fcmToken == null
                || (d.fcmToken is string && d.fcmToken.size() <= 4096));
      }
      function stampedWhenMoved(touched) {
        return !touched.hasAny(positionKeys())
          || request.resource.data.updatedAt == request.time;
      }

      allow get, list: if false;

      allow create: if isUser(uid)
        && request.resource.data.keys().hasOnly(clientKeys())
        && wellFormed(request.resource.data)
        && stampedWhenMoved(request.resource.data.keys());

      allow update: if isUser(uid)
        && request.resource.data.keys().hasOnly(clientKeys().concat(['lastSentAt']))
        && !request.resource.data.diff(resource.data).affectedKeys().hasAny(['lastSentAt'])
        && wellFormed(request.resource.data)
        && stampedWhenMoved(request.resource.data.diff(resource.data).affectedKeys());

      allow delete: if isUser(uid);
    }

    match /messages/{id} {
      allow read, write: if false;
    }

    match /users/{uid}/feed/{id} {
      allow get, list, delete: if isUser(uid);
      allow create, update: if false;
    }
  }
}
"""

T0 = ts("2024-01-01T00:00:00Z")
T1 = ts("2024-01-01T00:01:00Z")
POS = {"lat": f(48.85), "lng": f(2.35), "geohash": s("u09tvw")}
STORED = {"/presence/alice": {"lat": i(1), "lng": i(2), "geohash": s("s0"), "updatedAt": T0, "fcmToken": s("a")}}
STORED_SENT = {"/presence/alice": {**STORED["/presence/alice"], "lastSentAt": T1}}
P = "/presence/alice"


def heartbeat(extra=None, stamp=True, merge=True, path=P):
    """The client's position heartbeat: merge of lat/lng/geohash (+ extra) with updatedAt = serverTimestamp."""
    flds = {**POS, **(extra or {})}
    return COMMIT(upd(path, flds, mask=list(flds) if merge else None,
                      transforms=[server_time("updatedAt")] if stamp else None))


def token_save(value):
    return COMMIT(upd(P, {"fcmToken": value}, mask=["fcmToken"]))


g = Group("shouts", "Shouts & Whispers rules (docs/reference/security-rules.md §13, docs/app/shouts-and-whispers.md §5)", SHOUTS_RULES,
          seed={"/messages/m1": fields(text="hi"), "/users/alice/feed/f1": fields(text="hi", isOwn=True)})
for cid, title, step, auth, seed in [
    ("sw01", "heartbeat create with serverTimestamp", heartbeat(merge=False), A, None),
    ("sw01m", "heartbeat as a merge create", heartbeat(), A, None),
    ("sw02", "client time instead of server time", COMMIT(upd(P, {**POS, "updatedAt": T0})), A, None),
    ("sw03", "position without updatedAt", COMMIT(upd(P, dict(POS))), A, None),
    ("sw04", "token-only save creates the doc", token_save(s("tok")), A, None),
    ("sw05", "null token", token_save(NULL), A, None),
    ("sw06", "lastSentAt on create", COMMIT(upd(P, {"fcmToken": s("tok"), "lastSentAt": T0})), A, None),
    ("sw07", "unexpected field", heartbeat({"foo": i(1)}), A, None),
    ("sw08", "another user", heartbeat(), "bob", None),
    ("sw09", "no token", heartbeat(), None, None),
    ("sw10", "inclusive bounds", heartbeat({"lat": i(90), "lng": i(-180), "geohash": s("u09tvwz8h2k3")}), A, None),
    ("sw11", "lat out of range", heartbeat({"lat": f(90.0001)}), A, None),
    ("sw12", "lng out of range", heartbeat({"lng": f(180.5)}), A, None),
    ("sw13", "lat as a string", heartbeat({"lat": s("48.8")}), A, None),
    ("sw14", "geohash of 13 chars", heartbeat({"geohash": s("u09tvwz8h2k3p")}), A, None),
    ("sw15", "geohash not a string", heartbeat({"geohash": i(12345)}), A, None),
    ("sw16", "fcmToken of 4096 chars", token_save(s("t" * 4096)), A, None),
    ("sw17", "fcmToken of 4097 chars", token_save(s("t" * 4097)), A, None),
    ("sw18", "fcmToken not a string", token_save(i(42)), A, None),
    ("sw19", "token-only merge on an existing doc", token_save(s("b")), A, STORED),
    ("sw20", "token-only merge with lastSentAt present", token_save(s("b")), A, STORED_SENT),
    ("sw21", "client changes lastSentAt", COMMIT(upd(P, {"lastSentAt": T0}, mask=["lastSentAt"])), A, STORED_SENT),
    ("sw22", "move with stamp", heartbeat({"lat": i(3), "lng": i(4), "geohash": s("s1")}), A, STORED),
    ("sw23", "move without stamp", COMMIT(upd(P, {"lat": i(3)}, mask=["lat"])), A, STORED),
    ("sw24", "stamp only", COMMIT(upd(P, {}, mask=[], transforms=[server_time("updatedAt")])), A, STORED),
    ("sw25", "NaN latitude", heartbeat({"lat": f("NaN")}), A, STORED),
    ("sw25i", "Infinity longitude", heartbeat({"lng": f("Infinity")}), A, STORED),
    ("sw26", "owner get", GET(P), A, STORED),
    ("sw27", "list presence with a filter", QUERY(Q("presence", ff("geohash", "GREATER_THAN_OR_EQUAL", s("s")))), A, STORED),
    ("sw28", "owner delete", DELETE(P), A, STORED),
    ("sw29", "other user delete", DELETE(P), "bob", STORED),
    ("sw30", "get message", GET("/messages/m1"), A, None),
    ("sw31", "create message", PATCH("/messages/m2", fields(text="hi")), A, None),
    ("sw32", "owner get feed entry", GET("/users/alice/feed/f1"), A, None),
    ("sw33", "other user get feed entry", GET("/users/alice/feed/f1"), "bob", None),
    ("sw34", "owner list feed, limit 50, ordered", QUERY(Q("feed", order=[asc("sentAt")], limit=50), parent="/users/alice"), A, None),
    ("sw35", "collection group over feed", QUERY(Q("feed", all_descendants=True)), A, None),
    ("sw36", "owner delete feed entry", DELETE("/users/alice/feed/f1"), A, None),
    ("sw37", "owner create feed entry", PATCH("/users/alice/feed/f2", fields(x=1)), A, None),
    ("sw38", "owner update feed entry", PATCH("/users/alice/feed/f1", fields(read=True), mask=["read"]), A, None),
    ("sw39", "set without merge drops lastSentAt", heartbeat({"lat": i(1), "lng": i(2), "geohash": s("s0")}, merge=False), A, STORED_SENT),
    ("sw40", "legacy invalid doc refuses a token save", token_save(s("b")), A,
     {P: {"lat": i(100), "fcmToken": s("a")}}),
    ("sw41", "field delete of fcmToken", COMMIT(upd(P, {}, mask=["fcmToken"])), A, STORED),
    ("sw42", "field delete of lat without stamp", COMMIT(upd(P, {}, mask=["lat"])), A, STORED),
    ("sw43", "other user list of alice's feed", QUERY(Q("feed"), parent="/users/alice"), "bob", None),
    ("sw44", "count of own feed", COUNT(Q("feed"), parent="/users/alice"), A, None),
]:
    g.case(f"shouts.{cid}", title, step, auth=auth, seed=seed)


# --------------------------------------------------------------------------- quirks pinned down while fixing Hearth

expression_group("quirk", "emulator quirks: slices, sets, join, math, membership, literals", [
    ("k01", "'abc'[:2] == 'ab' && 'abc'[1:] == 'bc' && ''[:] == ''", "omitted slice bounds are not checked"),
    ("k02", "'abc'[3:] == ''", "a given lower bound must be an index"),
    ("k03", "'abc'[:0] == ''", "a given upper bound j needs j - 1 to be an index"),
    ("k04", "'abc'[1:0] == ''", "j - 1 out of range before the illegal range"),
    ("k05", "(0.0 / 0.0) in [0.0 / 0.0].toSet()", "NaN is in a set holding NaN"),
    ("k06", "(0.0 / 0.0) in [0.0 / 0.0]", "NaN is never in a list"),
    ("k07", "[0.0 / 0.0, 0.0 / 0.0].toSet().size() == 1", "sets deduplicate NaN"),
    ("k08", "0.0 in [-0.0]", "-0.0 equals 0.0 in a list"),
    ("k09", "[1] in [[1.0]].toSet()", "set members compare nested numbers by value"),
    ("k10", "[[1]].hasAny([[1.0]])", "lists compare nested numbers strictly"),
    ("k11", "[12345678.0, 0.000001, -0.0].join(',') == '1.2345678E7,1.0E-6,-0.0'", "join formats floats as Java does"),
    ("k12", "[null].join(',') == 'null'", "join of null"),
    ("k13", "[[1]].join(',') == '[1]'", "join of a list element"),
    ("k14", "math.round(0.49999999999999994) == 0 && math.round(-0.5) == 0", "Math.round edges"),
    ("k15", "math.round(0.0 / 0.0) == 0 && math.round(1.0 / 0.0) == 9223372036854775807", "round of NaN and infinity"),
    ("k16", "math.floor(2) is float && math.round(2) is int", "int input to floor and round"),
    ("k17", "math.ceil('x') == 1", "ceil of a string"),
    ("k18", "'a' in 1", "in on an int"),
    ("k19", "1 in {'a': 1}", "an int key in a map"),
    ("k20", "1. == 1.0 && .5 == 0.5", "float literal forms"),
    ("k21", "[1].toSet() is list", "a set is not a list"),
    ("k22", "{'a': 1}.diff({}).changedKeys() is set", "changedKeys() is set"),
    ("k23", "'x'.replace('(', 'a') == 'x'", "replace() patterns are checked when run"),
    ("k24", "1 is int in [true]", "is, then in"),
    ("k25", "4/ 2 == 2", "a space after the slash divides"),
])

g = Group("qkeys", "keys() and the synthetic list resource", wrap_v2("""\
    match /qk1/{id} {
      allow list: if resource.data.keys() == ['a', 'b'];
    }
    match /qk2/{id} {
      allow list: if resource.keys() == ['data'];
    }
    match /qk3/{id} {
      allow list: if resource.data.keys().size() == 1;
    }
"""))
for cid, title, step in [
    ("k01", "keys() is sorted, whatever the filter order", QUERY(Q("qk1", AND(ff("b", "GREATER_THAN", i(2)), ff("a", "EQUAL", i(1)))))),
    ("k02", "keys() misses an unfiltered field", QUERY(Q("qk1", ff("a", "EQUAL", i(1))))),
    ("k03", "resource holds only data", QUERY(Q("qk2", ff("a", "EQUAL", i(1))))),
    ("k04", "a nested filter adds its top-level field", QUERY(Q("qk3", ff("m.x", "EQUAL", i(1))))),
    ("k05", "each OR branch has its own keys", QUERY(Q("qk3", OR(ff("a", "EQUAL", i(1)), ff("b", "EQUAL", i(1)))))),
]:
    g.case(f"qkeys.{cid}", title, step, auth=A)

g = Group("pre", "rules before preconditions", wrap_v2("""\
    match /pu/{id} {
      allow update: if resource.data.v == 1;
    }
    match /pd/{id} {
      allow delete: if resource.data.v == 1;
    }
    match /pa/{id} {
      allow create, update, delete: if true;
    }
"""), seed={"/pu/e": {"v": i(1)}, "/pd/e": {"v": i(1)}, "/pa/e": {"v": i(1)}})
for cid, title, step in [
    ("u1", "updateTime precondition on a missing doc, update rules need resource",
     COMMIT({**upd("/pu/none", {"v": i(2)}), "currentDocument": {"updateTime": "2020-01-01T00:00:00Z"}})),
    ("u2", "updateTime mismatch on a stored doc the rules allow",
     COMMIT({**upd("/pu/e", {"v": i(2)}), "currentDocument": {"updateTime": "2020-01-01T00:00:00Z"}})),
    ("d1", "delete with exists=true of a missing doc, delete rules need resource",
     COMMIT({**dele("/pd/none"), "currentDocument": {"exists": True}})),
    ("a1", "allowed update with exists=true of a missing doc", PATCH("/pa/none", {"v": i(2)}, exists=True)),
    ("a2", "allowed create with exists=false of a stored doc", PATCH("/pa/e", {"v": i(2)}, exists=False)),
    ("a3", "allowed delete with exists=true of a missing doc", COMMIT({**dele("/pa/none"), "currentDocument": {"exists": True}})),
]:
    g.case(f"pre.{cid}", title, step, auth=A)


# --------------------------------------------------------------------------- compile-time cases

def compile_case(cid, title, body, raw=False, compare=None):
    """One ruleset for PUT …:securityRules. `compare` says what the replay holds Hearth to when
    both refuse the rules: None the verdict only, "position" also the line and column of the
    first error, "message" also its text."""
    COMPILE.append((cid, title, body if raw else wrap_v2(body), compare))


compile_case("c01", "condition without if", "    match /a/{b} {\n      allow read: true;\n    }\n")
compile_case("c02", "unknown string escape", "    match /a/{b} {\n      allow read: if 'a\\d' == 'a';\n    }\n")
compile_case("c03", "1/0 without spaces reads as a path", "    match /a/{b} {\n      allow read: if 1/0 == 1;\n    }\n")
compile_case("c04", "unknown method", "    match /a/{b} {\n      allow fetch: if true;\n    }\n")
compile_case("c05", "missing semicolon", "    match /a/{b} {\n      allow read: if true\n    }\n")
compile_case("c06", "recursive function", "    function f(x) { return f(x); }\n    match /a/{b} {\n      allow read: if f(1);\n    }\n")
compile_case("c07", "arity mismatch", "    function f(x) { return x; }\n    match /a/{b} {\n      allow read: if f(1, 2);\n    }\n")
compile_case("c08", "undefined function", "    match /a/{b} {\n      allow read: if nosuch(1);\n    }\n")
compile_case("c09", "let in rules_version 1", "service cloud.firestore {\n  match /databases/{database}/documents {\n"
             "    function f() { let x = 1; return x == 1; }\n    match /a/{b} {\n      allow read: if f();\n    }\n  }\n}\n", raw=True)
compile_case("c10", "two recursive wildcards in one match", "    match /{a=**}/x/{b=**} {\n      allow read: if true;\n    }\n",
             compare="position")
compile_case("c11", "valid rules (control)", "    match /a/{b} {\n      allow read: if true;\n    }\n")
compile_case("c12", "allow without condition (valid)", "    match /a/{b} {\n      allow read;\n    }\n")
compile_case("c13", "trailing comma in a list", "    match /a/{b} {\n      allow read: if [1, 2,].size() == 2;\n    }\n")
compile_case("c14", "block comment", "    /* comment */\n    match /a/{b} {\n      allow read: if true;\n    }\n")
compile_case("c15", "undefined variable", "    match /a/{b} {\n      allow read: if nosuchvar == 1;\n    }\n")
compile_case("c16", "duplicate wildcard names", "    match /a/{b} {\n      match /c/{b} {\n        allow read: if true;\n      }\n    }\n")
compile_case("c17", "function without return", "    function f() { let x = 1; }\n    match /a/{b} {\n      allow read: if f();\n    }\n")
compile_case("c19", "invalid regex literal", "    match /a/{b} {\n      allow read: if 'x'.matches('(');\n    }\n")
compile_case("c20", "in on a string literal", "    match /a/{b} {\n      allow read: if 'x' in 'xyz';\n    }\n")
compile_case("c21", "unknown method beside a known one", "    match /a/{b} {\n      allow fetch, get: if true;\n    }\n")
compile_case("c22", "float literal with exponent", "    match /a/{b} {\n      allow read: if 1e3 == 1000.0;\n    }\n")
compile_case("c23", "hex integer literal", "    match /a/{b} {\n      allow read: if 0x10 == 16;\n    }\n")
compile_case("c24", "statement outside a match", "    allow read: if true;\n")
compile_case("c25", "unknown type name in is", "    match /a/{b} {\n      allow read: if 1 is integer;\n    }\n")
compile_case("c26", "\\u escape in a string", "    match /a/{b} {\n      allow read: if '\\u00e9' == 'é';\n    }\n")
compile_case("c27", "\\x escape in a string", "    match /a/{b} {\n      allow read: if '\\x41' == 'A';\n    }\n")
compile_case("c28", "map literal with an int key", "    match /a/{b} {\n      allow read: if {1: 'a'}.size() == 1;\n    }\n")
compile_case("c29", "allow with an empty condition", "    match /a/{b} {\n      allow read: if ;\n    }\n")
compile_case("c30", "rules_version '1' with a recursive wildcard in the middle",
             "rules_version = '1';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n"
             "    match /{p=**}/posts/{id} {\n      allow read: if true;\n    }\n  }\n}\n", raw=True, compare="position")
compile_case("c31", "leading zeros", "    match /a/{b} {\n      allow read: if 007 == 7;\n    }\n")
compile_case("c32", "a slash glued to its right operand", "    match /a/{b} {\n      allow read: if 4 /2 == 2;\n    }\n")
compile_case("c33", "a slash with a space after it", "    match /a/{b} {\n      allow read: if 4/ 2 == 2;\n    }\n")
compile_case("c34", "invalid regex literal in split()", "    match /a/{b} {\n      allow read: if 'x'.split('(').size() == 1;\n    }\n")
compile_case("c35", "lookahead in a regex literal", "    match /a/{b} {\n      allow read: if 'x'.matches('(?=a)');\n    }\n")
compile_case("c36", "a float literal followed by a name", "    match /a/{b} {\n      allow read: if 1.size() == 1;\n    }\n")
compile_case("c37", "float literal forms 1. and .5", "    match /a/{b} {\n      allow read: if 1. == 1.0 && .5 == 0.5;\n    }\n")
compile_case("c18", "double-quoted rules_version", "rules_version = \"2\";\nservice cloud.firestore {\n  match /databases/{database}/documents {\n"
             "    match /a/{b} {\n      allow read: if true;\n    }\n  }\n}\n", raw=True)


# --------------------------------------------------------------------------- grammar cases
# One construct per case, accepted and refused forms of the file grammar: optional and
# required semicolons, trailing commas, the type names after `is`, empty bodies.

def _m(body):
    """`body` (indented 6) as the only content of `match /a/{b}`."""
    return "    match /a/{b} {\n" + body + "    }\n"


def _v2(body):
    """A whole v2 file around `body` without the boilerplate's `;` choices made for it."""
    return "service cloud.firestore {\n  match /databases/{database}/documents {\n" + body + "  }\n}\n"


_ALLOW = _m("      allow read: if true;\n")
_F = "    function f(a, b) { return a == b; }\n"

for cid, title, body, compare in [
    # `;` after statements
    ("g01", "allow without ';' before the next allow", _m("      allow read: if true\n      allow write: if false;\n"), None),
    ("g02", "allow without ';' before a match", _m("      allow read: if true\n      match /c/{d} { allow read; }\n"), None),
    ("g03", "allow without ';' before a function", _m("      allow read: if f()\n      function f() { return true; }\n"), None),
    ("g04", "allow without condition or ';' before the next allow", _m("      allow read\n      allow write: if false;\n"), None),
    ("g05", "two allow statements on one line without ';'", _m("      allow read: if true allow write: if false;\n"), None),
    ("g06", "allow without ';' right before '}' on its line", "    match /a/{b} { allow read: if true }\n", None),
    ("g07", "doubled ';' after allow", _m("      allow read: if true;;\n"), "position"),
    ("g08", "let without ';' before return on the next line",
     "    function f() { let x = 1\n      return x == 1; }\n" + _m("      allow read: if f();\n"), "message"),
    ("g09", "let without ';' before return on its line",
     "    function f() { let x = 1 return x == 1; }\n" + _m("      allow read: if f();\n"), "message"),
    ("g10", "let without ';' before '}'", "    function f() { let x = 1 }\n" + _m("      allow read: if f();\n"), "position"),
    ("g11", "return without ';'", "    function f() { return true }\n" + _m("      allow read: if f();\n"), None),
    ("g12", "functions and allows without any ';'",
     "    function f() { return true }\n    function g() { return f() }\n" + _m("      allow read: if g()\n      allow write: if g()\n"), None),
    ("g13", "doubled ';' after return", "    function f() { return true;; }\n" + _m("      allow read: if f();\n"), "position"),
    ("g14", "doubled ';' after let", "    function f() { let x = 1;; return x == 1; }\n" + _m("      allow read: if f();\n"), "position"),
    ("g15", "two let bindings", "    function f() { let x = 1; let y = x + 1; return y == 2; }\n" + _m("      allow read: if f();\n"), None),
    ("g16", "a statement after return", "    function f() { return true; let x = 1; }\n" + _m("      allow read: if f();\n"), "position"),
    ("g17", "';' after a match block", _m("      allow read: if true;\n")[:-1] + ";\n", "position"),
    ("g18", "';' after a function", "    function f() { return true; };\n" + _m("      allow read: if f();\n"), "position"),
    ("g19", "';' after the documents match", None, "position"),
    # rules_version
    ("g20", "rules_version without ';'", "rules_version = '2'\n" + _v2(_ALLOW), None),
    ("g21", "rules_version without ';' before service on its line", "rules_version = '2' " + _v2(_ALLOW), None),
    ("g22", "doubled ';' after rules_version", "rules_version = '2';;\n" + _v2(_ALLOW), "position"),
    ("g23", "rules_version and nothing else", "rules_version = '2';\n", "position"),
    # trailing commas
    ("g24", "trailing comma in call arguments, ')' on the next line", _F + _m("      allow read: if f(1, 1,\n      );\n"), None),
    ("g25", "trailing comma in method arguments", _m("      allow read: if 'a'.matches('a',);\n"), None),
    ("g26", "trailing comma in a built-in call", _m("      allow read: if exists(/databases/$(database)/documents/a/b,);\n"), None),
    ("g27", "trailing commas in nested list literals", _m("      allow read: if [[1,],].size() == 1;\n"), None),
    ("g28", "trailing comma in a map literal", _m("      allow read: if {'a': 1,}.size() == 1;\n"), None),
    ("g29", "trailing comma in a parameter list", "    function f(a, b,) { return a == b; }\n" + _m("      allow read: if f(1, 1);\n"), "position"),
    ("g30", "a lone comma as the parameter list", "    function f(,) { return true; }\n" + _m("      allow read: if f();\n"), "position"),
    ("g31", "a lone comma as the arguments", "    function f() { return true; }\n" + _m("      allow read: if f(,);\n"), "position"),
    ("g32", "a doubled trailing comma in the arguments", "    function f(a) { return true; }\n" + _m("      allow read: if f(1,,);\n"), "position"),
    ("g33", "a lone comma as a list literal", _m("      allow read: if [,].size() == 0;\n"), "position"),
    ("g34", "a lone comma as a map literal", _m("      allow read: if {,}.size() == 0;\n"), "position"),
    ("g35", "trailing comma in an index", _m("      allow read: if [1][0,] == 1;\n"), "position"),
    ("g36", "trailing comma in the method list before ':'", _m("      allow read, write,: if true;\n"), "message"),
    ("g37", "trailing comma in the method list before ';'", _m("      allow read,;\n"), "message"),
    ("g38", "methods without a comma", _m("      allow read write: if true;\n"), "position"),
    ("g39", "':' without a condition", _m("      allow read:;\n"), "position"),
    # empty bodies
    ("g60", "empty match body", _m(""), "message"),
    ("g61", "empty match body on one line", "    match /a/{b} {}\n", "message"),
    ("g62", "empty nested match body", _m("      match /c/{d} {\n      }\n"), "message"),
    ("g63", "empty documents match", None, "message"),
    ("g64", "match body holding only a comment", _m("      // nothing\n"), "message"),
    ("g65", "empty service body", None, "message"),
    ("g66", "match body holding only a function", _m("      function f() { return true; }\n"), None),
    ("g67", "match body holding only a match", _m("      match /c/{d} { allow read; }\n"), None),
    ("g68", "service body holding only a function", None, None),
    ("g69", "empty function body", "    function f() { }\n" + _ALLOW, "message"),
    ("g70", "an extra '}' after an allow without ';'", _m("      allow read: if true}\n"), "position"),
]:
    if body is None:
        body = {
            "g19": V2 + "service cloud.firestore {\n  match /databases/{database}/documents {\n" + _ALLOW + "  };\n}\n",
            "g63": V2 + "service cloud.firestore {\n  match /databases/{database}/documents {\n  }\n}\n",
            "g65": V2 + "service cloud.firestore {\n}\n",
            "g68": V2 + "service cloud.firestore {\n  function f() { return true; }\n}\n",
        }[cid]
        compile_case(cid, title, body, raw=True, compare=compare)
    elif body.startswith("rules_version"):
        compile_case(cid, title, body, raw=True, compare=compare)
    else:
        compile_case(cid, title, body, compare=compare)

# the type names after `is`: every name the emulator lists, then refused forms
for n, t in enumerate("bool bytes constraint duration float int latlng list vector set number map string timestamp path map_diff".split()):
    compile_case(f"g{40 + n}", f"is {t}", _m(f"      allow read: if request is {t};\n"))
for cid, title, rhs in [
    ("g56", "is integer (an unknown name)", "integer;"),
    ("g57", "is an unknown name followed by a space", "object ;"),
    ("g58", "is an unknown name followed by &&", "any && true;"),
    ("g59", "is null", "null;"),
    ("g71", "is true", "true;"),
    ("g72", "is a string literal", "'int';"),
    ("g73", "is a dotted name", "rules.int;"),
]:
    compile_case(cid, title, _m(f"      allow read: if request is {rhs}\n"), compare="message")


# --------------------------------------------------------------------------- paths, names, services
# Constructs found in real-world firestore.rules files that Hearth once judged otherwise
# (issue 23): wildcards in path literals, the characters of a path segment, where a broken
# path is reported, reserved words and package names as names, several services.

_STORAGE = "service firebase.storage {\n  match /b/{bucket}/o {\n    match /{p=**} { allow read; }\n  }\n}\n"

for cid, title, body, compare in [
    # wildcards in path literals
    ("g74", "a recursive wildcard in a path literal", _m("      allow read: if exists(/databases/$(database)/documents/a/{x=**}/b);\n"), None),
    ("g75", "'{name=*}' and spaces inside the braces of a path literal", _m("      allow read: if exists(/a/{x=*}/{ y }/c);\n"), None),
    ("g76", "a keyword as a wildcard in a path literal", _m("      allow read: if exists(/a/{else});\n"), "position"),
    # match paths
    ("g77", "text after a wildcard in a match path", "    match /a/{b}c {\n      allow read;\n    }\n", "position"),
    ("g78", "'{name=*}' and spaces inside the braces of a match path", "    match /a/{b=*}/c/{ d } {\n      allow read;\n    }\n", None),
    ("g79", "a trailing '/' in a match path", "    match /a/{b}/ {\n      allow read;\n    }\n", "position"),
    ("g80", "'$(' in a match path", "    match /a/$(b) {\n      allow read;\n    }\n", "position"),
    ("g81", "the punctuation a path segment may hold", "    match /a/b:c@d+e&f~g.h-i'j*k {\n      allow read;\n    }\n", None),
    ("g85", "'%' in a match path segment", "    match /a/b%c {\n      allow read;\n    }\n", "position"),
    # where a broken path literal is reported
    ("g86", "a path literal segment running into '$('", _m("      allow read: if exists(/a/b-$(c));\n"), "position"),
    ("g87", "a trailing '/' in a path literal", _m("      allow read: if exists(/a/);\n"), "position"),
    ("g88", "a syntax error inside the brackets that hold a path literal", _m("      allow read: if exists(/a/b c);\n"), "position"),
    ("g96", "a syntax error in an index after a call holding a path literal", _m("      allow read: if get(/a/b)[c d];\n"), "position"),
    ("g97", "a syntax error in other brackets than the path literal's", _m("      allow read: if exists(/a/b) && f(c d);\n"), "position"),
    ("g98", "'$' and '(' apart in a path literal", _m("      allow read: if exists(/a/$ (b));\n"), None),
    # what comes before a match body's first declaration
    ("g89", "an unknown word before a match body's first declaration", _m("      allo\n      allow read;\n"), "position"),
    ("g90", "an unknown word after a match body's first declaration", _m("      allow read;\n      allo\n"), "position"),
    # reserved words and package names
    ("g91", "a package name as a wildcard", "    match /logs/{timestamp} {\n      allow read;\n    }\n", "message"),
    ("g92", "a package name as a parameter", "    function f(math) { return true; }\n" + _m("      allow read: if f(1);\n"), "message"),
    ("g93", "a package name as a variable", _m("      allow read: if duration == 1;\n"), "message"),
    ("g94", "a package name as a function name", "    function math() { return true; }\n" + _m("      allow read: if math();\n"), None),
    ("g95", "a package name as a variable beside a recursive function",
     "    function f(x) { return f(x); }\n" + _m("      allow read: if f(1) && hashing;\n"), "message"),
    ("g99", "a statement keyword as a wildcard", "    match /a/{function} {\n      allow read;\n    }\n", "position"),
    ("g100", "another reserved word as a wildcard", "    match /a/{b} {\n      match /c/{default} {\n        allow read;\n      }\n    }\n", "position"),
    ("g101", "a reserved word as a parameter", "    function f(else) { return true; }\n" + _m("      allow read: if f(1);\n"), "position"),
    ("g102", "a reserved word as a let name", "    function f() { let case = 1; return true; }\n" + _m("      allow read: if f();\n"), "message"),
    ("g103", "a reserved word as a variable", _m("      allow read: if not == 1;\n"), "position"),
    ("g104", "a reserved word as a member name", _m("      allow read: if request.resource.data.default == 1;\n"), None),
    ("g106", "a reserved word as a method name", _m("      allow read: if request.resource.data.keys().not();\n"), "position"),
    ("g107", "a character the lexer drops inside the brackets holding a path literal", _m("      allow read: if exists(/a/b #);\n"), "position"),
    # services and versions
    ("g82", "a storage service beside the Firestore one", None, None),
    ("g83", "the same service twice", None, "message"),
    ("g84", "only a storage service", None, None),
    ("g105", "an unsupported rules_version", None, "position"),
]:
    if body is None:
        body = {
            "g82": wrap_v2(_ALLOW) + _STORAGE,
            "g83": wrap_v2(_ALLOW) + wrap_v2(_ALLOW)[len(V2):],
            "g84": V2 + _STORAGE,
            "g105": wrap_v2(_ALLOW).replace("'2'", "'3'"),
        }[cid]
        compile_case(cid, title, body, raw=True, compare=compare)
    else:
        compile_case(cid, title, body, compare=compare)


# --------------------------------------------------------------------------- recording

TIME_RE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


class Emulator:
    def __init__(self, host):
        self.base = f"http://{host}"

    def call(self, method, path, body=None, token=None):
        data = json.dumps(body, ensure_ascii=False).encode() if body is not None else None
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return resp.status, resp.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def put_rules(self, text):
        return self.call("PUT", f"/emulator/v1/projects/{PROJECT}:securityRules",
                         {"rules": {"files": [{"content": text}]}})

    def reset(self, seed):
        status, text = self.call("DELETE", f"/emulator/v1/{DOCS}")
        assert status == 200, (status, text)
        for path, flds in seed.items():
            status, text = self.call("PATCH", f"/v1/{DOCS}{path}", {"fields": flds}, token="owner")
            assert status == 200, (path, status, text)


def outcome(status, text, txn=None):
    """Status, error status/message (normalised) and, for queries, the result count."""
    out = {"status": status}
    try:
        body = json.loads(text) if text.strip() else None
    except ValueError:
        body = None
    err = None
    if isinstance(body, dict) and "error" in body:
        err = body["error"]
    elif isinstance(body, list) and body and isinstance(body[0], dict) and "error" in body[0]:
        err = body[0]["error"]
    if isinstance(body, dict) and body.get("issues"):
        out["issues"] = [f"L{i['sourcePosition'].get('line')}:{i['sourcePosition'].get('column')} {i.get('severity')} "
                         f"{i.get('description')}" for i in body["issues"]]
    if err is not None:
        out["errorStatus"] = err.get("status")
        msg = TIME_RE.sub("<time>", err.get("message", ""))
        if txn:
            msg = msg.replace(txn, "<txn>")
        if status != 404:  # "Document (…) not found." adds nothing to a rules verdict
            out["message"] = msg
    elif isinstance(body, list):
        out["resultCount"] = sum(1 for e in body if isinstance(e, dict) and ("document" in e or "found" in e))
    return out, body


def substitute(obj, txn):
    if isinstance(obj, str):
        return obj.replace("$TXN", txn) if txn else obj
    if isinstance(obj, list):
        return [substitute(v, txn) for v in obj]
    if isinstance(obj, dict):
        return {k: substitute(v, txn) for k, v in obj.items()}
    return obj


def mutates(case):
    for st in case["steps"]:
        if st["method"] in ("PATCH", "DELETE"):
            return True
        if st["method"] == "POST" and not st["path"].split("?")[0].endswith(
                (":runQuery", ":runAggregationQuery", ":batchGet", ":beginTransaction")):
            return True
    return False


def record_group(emu, g):
    status, text = emu.put_rules(g.rules)
    if status != 200:
        raise SystemExit(f"group {g.name}: rules rejected: {text}")
    dirty = True
    for c in g.cases:
        c["resetBefore"] = bool(dirty or c.get("seed"))
        if c["resetBefore"]:
            emu.reset({**g.seed, **(c.get("seed") or {})})
        token = encode_token(TOKENS[c["auth"]]) if c["auth"] else None
        txn, results = None, []
        for st in c["steps"]:
            path = f"/v1/{DOCS}" + substitute(st["path"], txn)
            res, body = outcome(*emu.call(st["method"], path, substitute(st.get("body"), txn), token), txn)
            if st["path"] == ":beginTransaction" and isinstance(body, dict):
                txn = body.get("transaction")
                res = {"status": res["status"]}
            results.append(res)
        c["expect"] = results
        dirty = mutates(c) or bool(c.get("seed"))
    return {"name": g.name, "area": g.area, "rules": f"{g.name}.rules", "seed": g.seed, "cases": g.cases}


def record_compile(emu):
    out = []
    for cid, title, rules, compare in COMPILE:
        status, text = emu.put_rules(rules)
        res, _ = outcome(status, text)
        case = {"id": f"compile.{cid}", "title": title, "rules": rules, "expect": res}
        if compare:
            case["compare"] = compare
        out.append(case)
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1:8089")
    parser.add_argument("--out", default=os.path.join(here, "..", "Tests", "Conformance", "rules"))
    parser.add_argument("--emulator-version", default="", help="recorded in `recordedWith`")
    parser.add_argument("--only", help="record one group and print it instead of writing the file")
    args = parser.parse_args()
    emu = Emulator(args.host)
    ids = [c["id"] for g in GROUPS for c in g.cases] + [f"compile.{c[0]}" for c in COMPILE]
    dup = {x for x in ids if ids.count(x) > 1}
    assert not dup, dup
    if args.only:
        g = next(g for g in GROUPS if g.name == args.only)
        rec = record_group(emu, g)
        for c in rec["cases"]:
            print(c["id"], c["resetBefore"], json.dumps(c["expect"], ensure_ascii=False)[:300])
        return
    data = {
        "recordedWith": "Cloud Firestore emulator" + (f" {args.emulator_version}" if args.emulator_version else ""),
        "about": "Security Rules cases recorded by scripts/record_rules_conformance.py; replayed against Hearth "
                 "by Tests/FirestoreAPITests/RulesConformanceTests.swift. `expect` holds one outcome per step.",
        "project": PROJECT,
        "tokens": TOKENS,
        "groups": [record_group(emu, g) for g in GROUPS],
        "compile": record_compile(emu),
    }
    emu.call("DELETE", f"/emulator/v1/{DOCS}")
    emu.put_rules(wrap_v2("    match /{document=**} {\n      allow read, write: if true;\n    }\n"))
    os.makedirs(args.out, exist_ok=True)
    for g in GROUPS:
        with open(os.path.join(args.out, f"{g.name}.rules"), "w", encoding="utf-8") as fh:
            fh.write(g.rules)
    with open(os.path.join(args.out, "cases.json"), "w", encoding="utf-8") as fh:
        fh.write(dumps(data, inline_depth=4) + "\n")
    n = sum(len(g["cases"]) for g in data["groups"])
    print(f"wrote cases.json: {n} request cases in {len(data['groups'])} groups, "
          f"{len(data['compile'])} compile cases", file=sys.stderr)


if __name__ == "__main__":
    main()
