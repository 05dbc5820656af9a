"""The rules baseline of `hearth-bench`: the same decisions, written as CEL expressions, timed
in cel-python (https://github.com/cloud-custodian/cel-python).

Firestore security rules are built on CEL; this file restates each benchmarked rule condition
in plain CEL (rules-only methods such as keys().hasOnly() become CEL macros; map diffs and
document reads become host functions, as the rules runtime provides them natively).

Usage: rules_baseline.py CASE MIN_SECONDS
  CASE: presence-create | presence-update | get-heavy
Prints one JSON object: case, decisions, seconds, perSecond, result.

The activation and the stored documents are built once, outside the timed loop (generous to
the baseline: Hearth's figure includes building `request` and `resource` for every decision).
"""

import datetime
import json
import sys
import time

import celpy
from celpy import celtypes

T = datetime.datetime(2026, 1, 1, 12, 0, 0, 123456, tzinfo=datetime.timezone.utc)

CLIENT_KEYS = '["lat", "lng", "geohash", "updatedAt", "fcmToken"]'
POSITION_KEYS = '["lat", "lng", "geohash", "updatedAt"]'

# Every field present after the write has its declared shape (docs/app/shouts-and-whispers.md §3, §5).
WELL_FORMED = """
(!("lat" in d) || (type(d.lat) == double && d.lat >= -90.0 && d.lat <= 90.0))
&& (!("lng" in d) || (type(d.lng) == double && d.lng >= -180.0 && d.lng <= 180.0))
&& (!("geohash" in d) || (type(d.geohash) == string && size(d.geohash) <= 12))
&& (!("updatedAt" in d) || type(d.updatedAt) == timestamp)
&& (!("fcmToken" in d) || type(d.fcmToken) == null_type
    || (type(d.fcmToken) == string && size(d.fcmToken) <= 4096))
"""

IS_OWNER = 'type(request.auth) != null_type && request.auth.uid == uid'

EXPRESSIONS = {
    "presence-create": f"""
        {IS_OWNER}
        && d.all(k, k in {CLIENT_KEYS})
        && {WELL_FORMED}
        && (!d.exists(k, k in {POSITION_KEYS}) || d.updatedAt == request.time)
    """,
    "presence-update": f"""
        {IS_OWNER}
        && d.all(k, k in {CLIENT_KEYS} || k == "lastSentAt")
        && !("lastSentAt" in affected(d, resource.data))
        && {WELL_FORMED}
        && (!affected(d, resource.data).exists(k, k in {POSITION_KEYS}) || d.updatedAt == request.time)
    """,
    "get-heavy": """
        type(request.auth) != null_type
        && request.auth.uid in get("rooms/" + room).members
        && !exists_doc("rooms/" + room + "/bans/" + request.auth.uid)
        && get("users/" + request.auth.uid).role in ["member", "admin"]
        && get("rooms/" + room).open == true
        && d.senderId == request.auth.uid
        && type(d.text) == string && size(d.text) <= 500
    """,
}


def cel(value):
    """Python data → CEL values (datetimes become timestamps)."""
    if isinstance(value, datetime.datetime):
        return celtypes.TimestampType(value)
    if isinstance(value, dict):
        return celtypes.MapType({celtypes.StringType(k): cel(v) for k, v in value.items()})
    if isinstance(value, list):
        return celtypes.ListType([cel(v) for v in value])
    return celpy.json_to_cel(value)


TOKEN = "f" * 152
PRESENCE_NEW = {"lat": 37.7749, "lng": -122.4194, "geohash": "9q8yyk8yt", "updatedAt": T, "fcmToken": TOKEN}
PRESENCE_OLD = {
    "lat": 37.7712, "lng": -122.4131, "geohash": "9q8yym2c1", "fcmToken": TOKEN,
    "updatedAt": T - datetime.timedelta(seconds=60), "lastSentAt": T - datetime.timedelta(hours=1),
}
MEMBERS = ["member-%02d" % i for i in range(19)] + ["alice"]
DOCUMENTS = {
    "rooms/r1": cel({"members": MEMBERS, "open": True, "title": "General"}),
    "users/alice": cel({"role": "member", "name": "Alice"}),
}


def affected(new, old):
    """Keys added, removed or changed between two maps (rules' MapDiff.affectedKeys())."""
    keys = [k for k in new if k not in old or new[k] != old[k]] + [k for k in old if k not in new]
    return celtypes.ListType(keys)


def get_document(path):
    """get(): the stored document's data; a missing document is an error, as in rules."""
    doc = DOCUMENTS.get(str(path))
    if doc is None:
        raise ValueError("no document at " + str(path))
    return doc


def exists_doc(path):
    """exists(): whether a document is stored at path."""
    return celtypes.BoolType(str(path) in DOCUMENTS)


def activation(case):
    auth = {"uid": "alice", "token": {"sub": "alice", "email": "alice@example.com", "firebase": {"sign_in_provider": "google.com"}}}
    if case == "presence-create":
        return {"uid": cel("alice"), "d": cel(PRESENCE_NEW), "request": cel({"auth": auth, "time": T})}
    if case == "presence-update":
        merged = dict(PRESENCE_OLD)
        merged.update(PRESENCE_NEW)
        return {"uid": cel("alice"), "d": cel(merged), "request": cel({"auth": auth, "time": T}), "resource": cel({"data": PRESENCE_OLD})}
    return {
        "room": cel("r1"),
        "d": cel({"senderId": "alice", "text": "hello from the benchmark", "sentAt": T}),
        "request": cel({"auth": auth, "time": T}),
    }


def main():
    case, min_seconds = sys.argv[1], float(sys.argv[2])
    env = celpy.Environment()
    program = env.program(
        env.compile(EXPRESSIONS[case]),
        functions={"affected": affected, "get": get_document, "exists_doc": exists_doc},
    )
    act = activation(case)
    result = program.evaluate(act)
    for _ in range(20):  # warm-up
        program.evaluate(act)
    n = 0
    start = time.perf_counter()
    while True:
        for _ in range(10):
            program.evaluate(act)
        n += 10
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            break
    print(json.dumps({"case": case, "decisions": n, "seconds": elapsed, "perSecond": n / elapsed, "result": bool(result)}))


if __name__ == "__main__":
    main()
