#!/usr/bin/env python3
"""Record the Firebase CLI export format from Google's Cloud Firestore emulator (the oracle).

Usage:
    python3 scripts/record_cli_export.py [--hearth .build/debug/hearth] [--out Tests/Conformance/cli_export]

Writes, under --out:

  dataset.json           the data set (ours): documents as Firestore REST v1 fields, every value
                         type and edge, nested collections, a document that only holds a
                         subcollection, numeric (`__id7__`) and Unicode ids (é and e + U+0301
                         apart), and Auth accounts in the Auth emulator's export shape
  emulator_export/       what `firebase emulators:export` leaves for that data: the emulator's own
                         `POST /emulator/v1/projects/{p}:export` output (`firestore_export/`, byte
                         for byte), `auth_export/` (accounts.json, config.json) and
                         `firebase-export-metadata.json`, composed as firebase-tools composes them
  emulator_readback.json the documents the emulator serves for the data set (fields only)
  hearth_roundtrip.json  Hearth's export of the data set (`hearth start --import` of the
                         emulator's folder, then `POST /_admin/export` on the hub) seeded into a
                         fresh emulator (`--seed_from_export`), and what it serves then: must equal
                         emulator_readback.json (the script fails otherwise)

The emulator is found as scripts/record_google_suite.py finds it (gcloud's SDK root or
`cloud_firestore_emulator` on the PATH); without it the script exits with that message. Hearth
is the debug build unless --hearth names another.
"""

import argparse
import base64
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import google_suite as suite  # noqa: E402
import record_google_suite as google  # noqa: E402

PROJECT = "demo-cli-export"
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DOCS = f"projects/{PROJECT}/databases/(default)/documents"


# --------------------------------------------------------------------------- the data set

def i(v):
    return {"integerValue": str(v)}


def d(v):
    return {"doubleValue": v}


def s(v):
    return {"stringValue": v}


def ts(v):
    return {"timestampValue": v}


def b(raw):
    return {"bytesValue": base64.b64encode(raw).decode()}


def ref(path, project=PROJECT, database="(default)"):
    return {"referenceValue": f"projects/{project}/databases/{database}/documents/{path}"}


def geo(lat, lng):
    return {"geoPointValue": {"latitude": lat, "longitude": lng}}


def arr(*vs):
    return {"arrayValue": {"values": list(vs)}} if vs else {"arrayValue": {}}


def mp(fields):
    return {"mapValue": {"fields": fields}} if fields else {"mapValue": {}}


NULL = {"nullValue": None}


def vector(*xs):
    return mp({"__type__": s("__vector__"), "value": arr(*[d(x) for x in xs])})


def dataset():
    """Documents (relative path → REST fields, names in UTF-8 order) and Auth accounts."""
    deep = i(5)
    for level in range(5):
        deep = mp({f"l{level}": deep})
    docs = {
        "values/scalars": {
            "bool_false": {"booleanValue": False}, "bool_true": {"booleanValue": True},
            "bytes": b(bytes([0, 1, 2, 254, 255])), "bytes_empty": b(b""),
            "double": d(1.5), "double_inf": d("Infinity"), "double_max": d(1.7976931348623157e308),
            "double_nan": d("NaN"), "double_neg_inf": d("-Infinity"), "double_neg_zero": d(-0.0),
            "double_tiny": d(5e-324), "geo": geo(37.422, -122.084), "geo_edge": geo(-90.0, 180.0),
            "int": i(42), "int_max": i(9223372036854775807), "int_min": i(-9223372036854775808),
            "null": NULL, "string": s("héllo wörld"), "string_empty": s(""),
            "string_long": s("x" * 2000), "string_nul": s("a\u0000b"), "string_rtl": s("\u05e9\u05dc\u05d5\u05dd"),
            "ts": ts("2024-01-02T03:04:05.123456Z"), "ts_epoch": ts("1970-01-01T00:00:00Z"),
            "ts_max": ts("9999-12-31T23:59:59.999999Z"), "ts_min": ts("0001-01-01T00:00:00Z"),
            "ts_pre_epoch": ts("1969-07-20T20:17:40.5Z"),
        },
        "values/references": {
            "numeric": ref("ids/__id7__"), "other_database": ref("x/y", database="other-db"),
            "other_project": ref("x/y", project="another-project"), "same": ref("values/scalars"),
            "sub": ref("values/scalars/sub/one"),
        },
        "values/containers": {
            "array": arr(i(1), s("two"), d(3.0), NULL, {"booleanValue": True}),
            "array_empty": arr(),
            "array_of_maps": arr(mp({"a": i(1)}), mp({}), mp({"nested": arr(s("x"))})),
            "array_one": arr(s("only")),
            "deep": deep,
            "map": mp({"a": i(1), "b": mp({"c": arr(ts("2020-05-05T05:05:05Z"), geo(1.0, 2.0))})}),
            "map_empty": mp({}),
            "map_with_empty_array": mp({"e": arr()}),
            "vector": vector(1.0, 2.5, -3.0),
        },
        "values/names": {
            "a.b": i(1), "`q`": i(2), "e\u0301": i(4), "sp ace": i(3), "\u00e9": i(5), "\u05d0": i(6),
        },
        "values/scalars/sub/one": {"n": i(1)},
        "values/scalars/sub/two": {"n": i(2)},
        "missing/only-sub/child/c1": {"n": i(1)},
        "ids/__id7__": {"n": i(7)},
        "ids/123": {"n": i(123)},
        "ids/e\u0301": {"n": i(2)},
        "ids/with space": {"n": i(3)},
        "ids/\u00e9": {"n": i(1)},
        "e\u0301/doc": {},
        "\u00e9/doc": {"n": i(1)},
    }
    users = [
        {"localId": "alice-uid", "email": "alice@example.com", "emailVerified": True, "displayName": "Alice",
         "passwordHash": "fakeHash:salt=saltAlice:password=alice-secret", "salt": "saltAlice",
         "passwordUpdatedAt": 1733300000000, "validSince": "1733300000", "createdAt": "1733300000000",
         "lastLoginAt": "1733300000000", "customAttributes": "{\"admin\":true}",
         "providerUserInfo": [{"providerId": "password", "email": "alice@example.com", "federatedId": "alice@example.com",
                               "rawId": "alice@example.com", "displayName": "Alice"}]},
        {"localId": "anon-uid", "createdAt": "1733300001000", "lastLoginAt": "1733300001000", "validSince": "1733300001",
         "providerUserInfo": []},
        {"localId": "gina-uid", "email": "gina@example.com", "emailVerified": True, "displayName": "Gina",
         "photoUrl": "https://example.com/gina.png", "createdAt": "1733300002000", "lastLoginAt": "1733300002000",
         "validSince": "1733300002",
         "providerUserInfo": [{"providerId": "google.com", "rawId": "1234567890", "federatedId": "1234567890",
                               "email": "gina@example.com", "displayName": "Gina",
                               "photoUrl": "https://example.com/gina.png"}]},
    ]
    return dict(sorted(docs.items())), users


# --------------------------------------------------------------------------- REST

def call(host, method, path, body=None):
    url = f"http://{host}" + urllib.parse.quote(path, safe="/():%?=&")
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Authorization": "Bearer owner", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def utf8_sorted(fields):
    """`fields` with every map's names in UTF-8 order (the order Hearth writes properties in,
    so the emulator's records and Hearth's can be compared byte for byte)."""
    def value(v):
        if "mapValue" in v and v["mapValue"].get("fields"):
            return {"mapValue": {"fields": utf8_sorted(v["mapValue"]["fields"])}}
        if "arrayValue" in v and v["arrayValue"].get("values"):
            return {"arrayValue": {"values": [value(x) for x in v["arrayValue"]["values"]]}}
        return v
    return {k: value(fields[k]) for k in sorted(fields, key=lambda k: k.encode())}


def write_all(host, docs):
    for path, fields in docs.items():
        fields = utf8_sorted(fields)
        status, body = call(host, "PATCH", f"/v1/{DOCS}/{path}", {"fields": fields})
        if status != 200:
            sys.exit(f"record-cli-export: writing {path} answered {status}: {body}")


def read_all(host, parent=""):
    """Every document under `parent` (recursively, missing documents descended), path → fields."""
    out = {}
    status, body = call(host, "POST", f"/v1/{DOCS}{'/' + parent if parent else ''}:listCollectionIds", {})
    for cid in body.get("collectionIds", []) if status == 200 else []:
        token = None
        while True:
            q = f"?pageSize=300&showMissing=true" + (f"&pageToken={urllib.parse.quote(token)}" if token else "")
            coll = f"{parent}/{cid}" if parent else cid
            status, page = call(host, "GET", f"/v1/{DOCS}/{coll}{q}")
            if status != 200:
                sys.exit(f"record-cli-export: listing {coll} answered {status}: {page}")
            for doc in page.get("documents", []):
                rel = doc["name"][len(DOCS) + 1:]
                if "createTime" in doc:
                    out[rel] = doc.get("fields", {})
                out.update(read_all(host, rel))
            token = page.get("nextPageToken")
            if not token:
                break
    return dict(sorted(out.items()))


# --------------------------------------------------------------------------- the servers

def start(command, log_path, host):
    with open(log_path, "wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
    try:
        suite.wait_ready(process, host, log_path, timeout_s=120.0)
    except BaseException:
        suite.stop_group(process)
        raise
    return process


def start_emulator(binary, work, seed=None):
    (port,) = suite.free_ports(1)
    host = f"127.0.0.1:{port}"
    command = [binary, "start", "--host=127.0.0.1", f"--port={port}"]
    if seed:
        command.append(f"--seed_from_export={seed}")
    return start(command, os.path.join(work, f"emulator-{port}.log"), host), host


def firebase_metadata(emulator_version):
    """firebase-export-metadata.json as firebase-tools' hubExport composes it (CLI version: ours)."""
    return {
        "version": "13.0.0",
        "firestore": {"version": emulator_version, "path": "firestore_export",
                      "metadata_file": "firestore_export/firestore_export.overall_export_metadata"},
        "auth": {"version": "13.0.0", "path": "auth_export"},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "Tests", "Conformance", "cli_export"))
    parser.add_argument("--hearth", default=os.path.join(ROOT, ".build", "debug", "hearth"))
    args = parser.parse_args()
    binary, sdk_root = google.find_emulator()
    version = google.emulator_version(sdk_root)
    docs, users = dataset()
    work = tempfile.mkdtemp(prefix="record-cli-export-")
    out = args.out
    try:
        # 1. The emulator's export of the data set.
        emulator, host = start_emulator(binary, work)
        try:
            write_all(host, docs)
            readback = read_all(host)
            status, body = call(host, "POST", f"/emulator/v1/projects/{PROJECT}:export",
                                {"database": f"projects/{PROJECT}/databases/(default)", "export_directory": work,
                                 "export_name": "firestore_export"})
            if status != 200:
                sys.exit(f"record-cli-export: the emulator's export answered {status}: {body}")
        finally:
            suite.stop_group(emulator)
        export = os.path.join(out, "emulator_export")
        shutil.rmtree(export, ignore_errors=True)
        shutil.copytree(os.path.join(work, "firestore_export"), os.path.join(export, "firestore_export"))
        os.makedirs(os.path.join(export, "auth_export"))
        dump(os.path.join(export, "auth_export", "accounts.json"),
             {"kind": "identitytoolkit#DownloadAccountResponse", "users": users})
        dump(os.path.join(export, "auth_export", "config.json"),
             {"signIn": {"allowDuplicateEmails": False}, "emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}})
        dump(os.path.join(export, "firebase-export-metadata.json"), firebase_metadata(version["version"]))

        # 2. Hearth imports that folder and exports it again; a fresh emulator seeds from Hearth's folder.
        ports = suite.free_ports(2)
        config = os.path.join(work, "firebase.json")
        dump(config, {"firestore": {}, "emulators": {"hub": {"port": ports[1]}, "ui": {"enabled": False}}})
        hearth_log = os.path.join(work, "hearth.log")
        hearth = start([args.hearth, "start", "--config", config, "--in-memory", "--quiet", "--project", PROJECT,
                        "--import", export, "--firestore-port", str(ports[0]), "--hub-port", str(ports[1]),
                        "--functions-port", "0", "--auth-port", "0"], hearth_log, f"127.0.0.1:{ports[0]}")
        hearth_export = os.path.join(work, "hearth-export")
        try:
            hearth_read = read_all(f"127.0.0.1:{ports[0]}")
            status, body = call(f"127.0.0.1:{ports[1]}", "POST", "/_admin/export", {"path": hearth_export})
            if status != 200:
                sys.exit(f"record-cli-export: Hearth's hub export answered {status}: {body}")
        finally:
            suite.stop_group(hearth)
        seed = os.path.join(hearth_export, "firestore_export", "firestore_export.overall_export_metadata")
        emulator, host = start_emulator(binary, work, seed=seed)
        try:
            roundtrip = read_all(host)
        finally:
            suite.stop_group(emulator)
        recorded = {
            "emulator": version, "recorded": datetime.date.today().isoformat(),
            "hearthImportMatches": hearth_read == readback, "documents": roundtrip,
        }
        dump(os.path.join(out, "dataset.json"), {"project": PROJECT, "documents": docs, "users": users})
        dump(os.path.join(out, "emulator_readback.json"),
             {"emulator": version, "recorded": recorded["recorded"], "documents": readback})
        dump(os.path.join(out, "hearth_roundtrip.json"), recorded)
        problems = []
        if hearth_read != readback:
            problems.append("Hearth's import of the emulator's export differs from what the emulator serves: "
                            + first_difference(readback, hearth_read))
        if roundtrip != readback:
            problems.append("the emulator seeded from Hearth's export serves other documents: "
                            + first_difference(readback, roundtrip))
        for p in problems:
            print(f"record-cli-export: {p}", file=sys.stderr)
        print(f"record-cli-export: {len(docs)} documents, {len(users)} accounts; wrote {os.path.relpath(out, ROOT)}")
        return 1 if problems else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def first_difference(want, got):
    for path in sorted(set(want) | set(got)):
        if want.get(path) != got.get(path):
            return f"{path}: want {json.dumps(want.get(path))[:300]}, got {json.dumps(got.get(path))[:300]}"
    return "(none)"


def dump(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=1, ensure_ascii=False, sort_keys=False)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
