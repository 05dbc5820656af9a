#!/usr/bin/env python3
"""Live differential run: the same REST sequence against Google's Firestore emulator and Hearth.

Usage:
    # 1. the oracle (or pass --start-emulator to have this script start and stop it on port 8090)
    gcloud emulators firestore start --host-port=127.0.0.1:8089 &
    # 2. Hearth, in memory, on any port
    hearth start --in-memory ...            (note the Firestore port it prints)
    # 3. the run
    python3 scripts/differential_rest.py --hearth 127.0.0.1:8080 [--emulator 127.0.0.1:8089]
                                         [--start-emulator] [--messages] [--only SECTION] [-v]

Not part of CI. Stdlib only. When `gcloud` is missing or the emulator does not answer (and
--start-emulator is not given) it prints `SKIP: …` and exits 0. Exit status 1 when any step
differs, 2 when Hearth does not answer.

Both targets get the same steps (project `demo-diff`, database cleared first, open rules):
writes with every field transform, preconditions (exists / updateTime), masks, deletes,
batchGet, listDocuments, structured and aggregation queries with cursors, transactions,
malformed requests, then a rules section with unsigned tokens. Responses are normalised
before comparison: server clock readings (create/update/read/commit times and any timestamp
within a day of now) become `<time>`, transaction ids `<txn>`, page tokens `<page-token>`,
generated document ids `<auto-id>`; values captured from one target's answer (`$UT` = an updateTime, `$TXN`) are
substituted into that target's later steps. By default an error answer is compared on HTTP
status and `error.status` only; --messages also compares the message text.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from record_rules_conformance import (  # noqa: E402  (shared value builders and mock tokens)
    _payload, encode_token, i, f, s, ts, arr, mp, NULL, TRUE, ff, uf, AND, OR, asc, fields, server_time,
    increment, maximum, minimum, append, remove, wrap_v2)

PROJECT = "demo-diff"
DOCS = f"projects/{PROJECT}/databases/(default)/documents"
ROOT = f"/v1/{DOCS}"
OPEN_RULES = wrap_v2("    match /{document=**} {\n      allow read, write: if true;\n    }\n")


# --------------------------------------------------------------------------- the sequence

def step(method, path, body=None, token="owner", raw=None, capture=None, note=""):
    """One request. `path` is relative to ROOT unless it starts with `/emulator` or `!`."""
    return {"method": method, "path": path, "body": body, "token": token, "raw": raw, "capture": capture, "note": note}


def w_update(path, flds, mask=None, transforms=None, exists=None, update_time=None):
    w = {"update": {"name": f"{DOCS}/{path}", "fields": flds}}
    if mask is not None:
        w["updateMask"] = {"fieldPaths": mask}
    if transforms:
        w["updateTransforms"] = transforms
    if exists is not None:
        w["currentDocument"] = {"exists": exists}
    if update_time is not None:
        w["currentDocument"] = {"updateTime": update_time}
    return w


def w_transform(path, *transforms):
    return {"transform": {"document": f"{DOCS}/{path}", "fieldTransforms": list(transforms)}}


def commit(*writes, txn=None):
    body = {"writes": list(writes)}
    if txn:
        body["transaction"] = txn
    return body


def query(q, parent=""):
    return step("POST", f"{parent}:runQuery", {"structuredQuery": q})


def Q(coll, where=None, order=None, **extra):
    q = {"from": [{"collectionId": coll}]}
    if where is not None:
        q["where"] = where
    if order is not None:
        q["orderBy"] = order
    q.update(extra)
    return q


SECTIONS = {}


def section(name):
    def register(fn):
        SECTIONS[name] = fn
        return fn
    return register


@section("writes")
def writes():
    return [
        step("PATCH", "/d/a", {"fields": fields(n=1, s="x", m=mp(k=i(1)), l=[1, 2])}, note="create by PATCH"),
        step("PATCH", "/d/a?updateMask.fieldPaths=n&updateMask.fieldPaths=m.k2", {"fields": {"n": i(2), "m": mp(k2=s("y"))}},
             capture=("UT", "updateTime"), note="merge with a nested mask"),
        step("PATCH", "/d/a?updateMask.fieldPaths=s", {"fields": {}}, note="mask deletes a field"),
        step("PATCH", "/d/a?currentDocument.exists=false", {"fields": {}}, note="exists=false on an existing doc"),
        step("PATCH", "/d/none?currentDocument.exists=true", {"fields": {}}, note="exists=true on a missing doc"),
        step("PATCH", "/d/a?currentDocument.updateTime=$UT", {"fields": fields(n=3)}, note="updateTime precondition (matching)"),
        step("PATCH", "/d/a?currentDocument.updateTime=2001-01-01T00:00:00Z", {"fields": fields(n=4)}, note="updateTime precondition (stale)"),
        step("GET", "/d/a?mask.fieldPaths=n", note="read mask"),
        step("POST", "/d?documentId=b", {"fields": fields(v=1)}, note="createDocument with id"),
        step("POST", "/d?documentId=b", {"fields": fields(v=1)}, note="createDocument existing id"),
        step("POST", "/auto", {"fields": fields(v=1)}, note="createDocument with a generated id"),
        step("POST", ":commit", commit(w_update("t/1", fields(n=1, f=1.5, arr=[1, 2]), transforms=[
            server_time("st"), increment("n", i(2)), increment("f", f(0.25)), maximum("mx", i(5)), minimum("mn", f(-1.0)),
            append("arr", i(2), i(3)), remove("arr", i(1))])), note="update with every transform"),
        step("POST", ":commit", commit(w_transform("t/1", increment("n", f(0.5)), increment("big", i(9223372036854775807)))),
             note="transform-only write: int + float, absent field"),
        step("POST", ":commit", commit(w_transform("t/1", increment("big", i(1)))), note="int64 overflow saturates"),
        step("POST", ":commit", commit(w_transform("t/1", maximum("n", s("x")))), note="maximum with a non-number"),
        step("POST", ":commit", commit(w_transform("t/1", server_time("m.deep.st"), append("m.list", NULL))),
             note="transforms on nested paths"),
        step("POST", ":commit", commit(w_update("t/2", {}, transforms=[server_time("a"), server_time("a")])),
             note="the same field transformed twice"),
        step("POST", ":commit", commit({"delete": f"{DOCS}/t/none", "currentDocument": {"exists": True}}),
             note="delete with exists=true on a missing doc"),
        step("POST", ":commit", commit({"delete": f"{DOCS}/t/none"}), note="delete of a missing doc"),
        step("DELETE", "/d/b?currentDocument.exists=true", note="DELETE with precondition"),
        step("GET", "/t/1", note="the transformed document"),
        step("POST", ":batchGet", {"documents": [f"{DOCS}/t/1", f"{DOCS}/t/none", f"{DOCS}/d/a"]}, note="batchGet with a missing doc"),
    ]


@section("queries")
def queries():
    seed = [step("PATCH", f"/q/{k}", {"fields": v}, note=f"seed q/{k}") for k, v in [
        ("a", fields(n=1, s="a", tags=["x"], g="one")), ("b", fields(n=2, s="b", tags=["x", "y"], g="one")),
        ("c", fields(n=3.5, s="c", tags=[], g="two")), ("d", fields(s="d", g="two")), ("e", fields(n=None, g="two")),
        ("a/sub/q1", fields(n=10)),
    ]]
    return seed + [
        query(Q("q")),
        query(Q("q", order=[asc("n")], limit=2)),
        query(Q("q", ff("n", "GREATER_THAN", i(1)))),
        query(Q("q", ff("n", "NOT_EQUAL", i(2)))),
        query(Q("q", ff("n", "IN", arr(i(1), f(3.5))))),
        query(Q("q", ff("tags", "ARRAY_CONTAINS_ANY", arr(s("y"), s("z"))))),
        query(Q("q", uf("n", "IS_NULL"))),
        query(Q("q", OR(ff("g", "EQUAL", s("one")), ff("n", "EQUAL", f(3.5))))),
        query(Q("q", order=[asc("n")], startAt={"values": [i(2)], "before": True}, endAt={"values": [f(3.5)]})),
        query(Q("q", order=[asc("s")], offset=1, limit=2, select={"fields": [{"fieldPath": "s"}]})),
        query({"from": [{"collectionId": "q", "allDescendants": True}], "where": ff("n", "GREATER_THAN", i(5))}),
        step("POST", ":runAggregationQuery", {"structuredAggregationQuery": {"structuredQuery": Q("q"), "aggregations": [
            {"alias": "c", "count": {}}, {"alias": "s", "sum": {"field": {"fieldPath": "n"}}},
            {"alias": "a", "avg": {"field": {"fieldPath": "n"}}}]}}, note="count / sum / avg"),
        step("GET", "/q?pageSize=2&orderBy=s", note="listDocuments page"),
        step("POST", "/q/a:listCollectionIds", {}, note="listCollectionIds"),
    ]


@section("transactions")
def transactions():
    return [
        step("PATCH", "/x/1", {"fields": fields(v=1)}),
        step("POST", ":beginTransaction", {}, capture=("TXN", "transaction")),
        step("POST", ":batchGet", {"documents": [f"{DOCS}/x/1"], "transaction": "$TXN"}, note="read in the transaction"),
        step("POST", ":commit", commit(w_update("x/1", fields(v=2)), txn="$TXN"), note="commit the transaction"),
        step("POST", ":commit", commit(w_update("x/1", fields(v=3)), txn="$TXN"), note="commit it again"),
        step("POST", ":beginTransaction", {"options": {"readOnly": {}}}, capture=("TXN", "transaction")),
        step("POST", ":commit", commit(w_update("x/1", fields(v=4)), txn="$TXN"), note="write in a read-only transaction"),
        step("POST", ":beginTransaction", {}, capture=("TXN", "transaction")),
        step("POST", ":rollback", {"transaction": "$TXN"}, note="rollback"),
        step("POST", ":rollback", {"transaction": "AAAA"}, note="rollback of an unknown transaction"),
    ]


@section("errors")
def errors():
    return [
        step("PATCH", "/e/1", raw="{not json", note="malformed JSON"),
        step("PATCH", "/e/1", {"fields": {"a": {"integerValue": "1x"}}}, note="bad integer text"),
        step("PATCH", "/e/1", {"fields": {"a": {"noSuchValue": 1}}}, note="unknown value kind"),
        step("PATCH", "/e/1", {"fields": {"a": {"integerValue": "1", "stringValue": "x"}}}, note="two value kinds"),
        step("PATCH", "/e", {"fields": {}}, note="PATCH on a collection path"),
        step("GET", "/e/1/sub", note="GET on a sub-collection path (list)"),
        step("PATCH", "/e/1", {"fields": {"": i(1)}}, note="empty field name"),
        step("PATCH", "/e/1", {"fields": {"__x__": i(1)}}, note="reserved field name"),
        step("PATCH", "/e/1", {"fields": {"t": ts("2024-13-01T00:00:00Z")}}, note="invalid timestamp"),
        query(Q("q", ff("n", "NOPE", i(1)))),
        query(Q("q", ff("a", "GREATER_THAN", i(1)), order=[asc("b")])),
        query(Q("q", limit=-1)),
        query({"from": [{"collectionId": "q"}, {"collectionId": "r"}]}),
        step("GET", "/e/1", token="ya29.not-a-jwt", note="non-JWT bearer token"),
        step("POST", ":batchWrite", {"writes": [w_update("e/2", fields(v=1))]}, token=None, note="batchWrite without owner"),
        step("POST", ":nosuchverb", {}, note="unknown verb"),
    ]


@section("rules")
def rules():
    text = wrap_v2("""\
    match /r/{uid} {
      allow read: if request.auth.uid == uid;
      allow create: if request.auth.uid == uid && request.resource.data.keys().hasOnly(['v', 't'])
        && request.resource.data.t == request.time;
      allow update: if request.resource.data.diff(resource.data).affectedKeys().hasOnly(['v']);
      allow delete: if false;
    }
""")
    alice, bob = encode_token(_payload("alice")), encode_token(_payload("bob"))
    return [
        step("PUT", f"/emulator/v1/projects/{PROJECT}:securityRules", {"rules": {"files": [{"content": text}]}}, token=None),
        step("POST", ":commit", commit(w_update("r/alice", fields(v=1), transforms=[server_time("t")])), token=alice),
        step("POST", ":commit", commit(w_update("r/bob", fields(v=1), transforms=[server_time("t")])), token=alice),
        step("PATCH", "/r/alice?updateMask.fieldPaths=v", {"fields": fields(v=2)}, token=alice),
        step("PATCH", "/r/alice?updateMask.fieldPaths=t", {"fields": {"t": ts("2020-01-01T00:00:00Z")}}, token=alice),
        step("GET", "/r/alice", token=alice),
        step("GET", "/r/alice", token=bob),
        step("GET", "/r/alice", token=None),
        query(Q("r")),
        step("DELETE", "/r/alice", token=alice),
        step("PUT", f"/emulator/v1/projects/{PROJECT}:securityRules", {"rules": {"files": [{"content": "service x {"}]}}, token=None,
             note="invalid rules"),
        step("PUT", f"/emulator/v1/projects/{PROJECT}:securityRules", {"rules": {"files": [{"content": OPEN_RULES}]}}, token=None),
    ]


# --------------------------------------------------------------------------- HTTP and normalisation

class Target:
    def __init__(self, name, host):
        self.name, self.base, self.vars = name, f"http://{host}", {}

    def send(self, st):
        path = st["path"]
        for k, v in self.vars.items():
            path = path.replace(f"${k}", v)
        url = self.base + (path if path.startswith("/emulator") else ROOT + path)
        body = st["raw"].encode() if st["raw"] is not None else (
            json.dumps(substitute(st["body"], self.vars)).encode() if st["body"] is not None else None)
        headers = {"Content-Type": "application/json"}
        if st["token"]:
            headers["Authorization"] = f"Bearer {st['token']}"
        req = urllib.request.Request(url, data=body, method=st["method"], headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                status, text = resp.status, resp.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode()
        try:
            parsed = json.loads(text) if text.strip() else None
        except ValueError:
            parsed = {"<non-JSON body>": text[:200]}
        if st["capture"] and isinstance(parsed, dict):
            name, key = st["capture"]
            if key in parsed:
                self.vars[name] = parsed[key]
        return status, parsed

    def alive(self):
        try:
            with urllib.request.urlopen(self.base + "/", timeout=3):
                return True
        except urllib.error.HTTPError:
            return True
        except (OSError, ValueError):
            return False


def substitute(obj, variables):
    if isinstance(obj, str):
        for k, v in variables.items():
            obj = obj.replace(f"${k}", v)
        return obj
    if isinstance(obj, list):
        return [substitute(v, variables) for v in obj]
    if isinstance(obj, dict):
        return {k: substitute(v, variables) for k, v in obj.items()}
    return obj


TIME_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
CLOCK_KEYS = {"createTime", "updateTime", "readTime", "commitTime"}
AUTO_ID_RE = re.compile(r"(/auto/)[A-Za-z0-9]{20}\b")


def near_now(text):
    try:
        t = datetime.datetime.strptime(text[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)
    except ValueError:
        return False
    return abs((t - datetime.datetime.now(datetime.timezone.utc)).total_seconds()) < 86400


def normalise(obj, key=None, messages=False):
    if isinstance(obj, dict):
        if "error" in obj and isinstance(obj["error"], dict) and not messages:
            e = obj["error"]
            return {"error": {"code": e.get("code"), "status": e.get("status")}}
        return {k: normalise(v, k, messages) for k, v in obj.items()}
    if isinstance(obj, list):
        return [normalise(v, key, messages) for v in obj]
    if isinstance(obj, str):
        if key == "transaction":
            return "<txn>"
        if key == "nextPageToken":
            return "<page-token>"
        if TIME_RE.match(obj) and (key in CLOCK_KEYS or near_now(obj)):
            return "<time>"
        return AUTO_ID_RE.sub(r"\1<auto-id>", obj)
    return obj


def first_difference(a, b, path="$"):
    """The JSON path of the first place where `a` and `b` differ, with both values, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}", a.get(k, "<absent>"), b.get(k, "<absent>")
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        for n, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{n}]")
            if d:
                return d
        return None if len(a) == len(b) else (f"{path}.length", len(a), len(b))
    return None if a == b else (path, a, b)


# --------------------------------------------------------------------------- main

def start_emulator(port):
    log = open(os.devnull, "w")
    proc = subprocess.Popen(["gcloud", "emulators", "firestore", "start", f"--host-port=127.0.0.1:{port}"],
                            stdout=log, stderr=log, start_new_session=True)
    target = Target("emulator", f"127.0.0.1:{port}")
    for _ in range(60):
        if target.alive():
            return proc, target
        time.sleep(1)
    os.killpg(proc.pid, signal.SIGTERM)
    return None, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hearth", required=True, help="Hearth's Firestore host:port")
    parser.add_argument("--emulator", default="127.0.0.1:8089", help="the Cloud Firestore emulator's host:port")
    parser.add_argument("--start-emulator", action="store_true", help="start the emulator on 127.0.0.1:8090 when none answers")
    parser.add_argument("--messages", action="store_true", help="also compare error message texts")
    parser.add_argument("--only", choices=sorted(SECTIONS), help="run one section")
    parser.add_argument("-v", "--verbose", action="store_true", help="print matching steps too")
    args = parser.parse_args()

    emulator, proc = Target("emulator", args.emulator), None
    if not emulator.alive():
        if shutil.which("gcloud") is None:
            print(f"SKIP: no emulator answers at {args.emulator} and gcloud is not installed.")
            return 0
        if not args.start_emulator:
            print(f"SKIP: no emulator answers at {args.emulator}; start one "
                  "(gcloud emulators firestore start --host-port=127.0.0.1:8089) or pass --start-emulator.")
            return 0
        proc, emulator = start_emulator(8090)
        if emulator is None:
            print("SKIP: the emulator did not start within 60 s.")
            return 0
    hearth = Target("hearth", args.hearth)
    if not hearth.alive():
        print(f"ERROR: Hearth does not answer at {args.hearth}.")
        return 2

    differences = total = 0
    try:
        for t in (emulator, hearth):
            t.send(step("PUT", f"/emulator/v1/projects/{PROJECT}:securityRules", {"rules": {"files": [{"content": OPEN_RULES}]}}, token=None))
            t.send(step("DELETE", f"/emulator/v1/{DOCS}", token=None))
        for name in ([args.only] if args.only else list(SECTIONS)):
            print(f"== {name}")
            for n, st in enumerate(SECTIONS[name](), 1):
                total += 1
                answers = [(t.name, *t.send(st)) for t in (emulator, hearth)]
                (_, es, eb), (_, hs, hb) = answers
                left, right = normalise(eb, messages=args.messages), normalise(hb, messages=args.messages)
                label = f"{name}#{n} {st['method']} {st['path'][:70]}" + (f"  ({st['note']})" if st["note"] else "")
                if es == hs and left == right:
                    if args.verbose:
                        print(f"  ok    {label}: {es}")
                    continue
                differences += 1
                print(f"  DIFF  {label}")
                where = first_difference(left, right)
                if where and es == hs:
                    print(f"        first difference at {where[0]}: emulator {json.dumps(where[1])[:200]}, hearth {json.dumps(where[2])[:200]}")
                print(f"        emulator {es}: {json.dumps(left, sort_keys=True)[:600]}")
                print(f"        hearth   {hs}: {json.dumps(right, sort_keys=True)[:600]}")
    finally:
        if proc is not None:
            os.killpg(proc.pid, signal.SIGTERM)
    print(f"{total} steps, {differences} differences")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
