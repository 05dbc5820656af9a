#!/usr/bin/env python3
"""Records how Google's Cloud Firestore emulator treats query explain (`explainOptions`).

Usage:
    gcloud emulators firestore start --host-port=127.0.0.1:8089 &
    python3 scripts/record_explain_conformance.py [--host 127.0.0.1:8089] [--out Tests/Conformance]

Writes Tests/Conformance/explain_requests.json: a three-document dataset and RunQuery /
RunAggregationQuery REST bodies with and without `explainOptions` (well-formed and malformed),
each with the HTTP status the emulator answers, the ids or aggregate values it returns, and
whether any response element carries `explainMetrics`. REST goes through urllib (stdlib) with
`Authorization: Bearer owner`, project `demo-explain`.

When google-cloud-firestore is importable (the interop virtualenv), the file also gets a
`grpc` section: the Python client's `get(explain_options=ExplainOptions(analyze=…))` for a query
and a count over gRPC, the message fields of the raw RunQuery stream, and what
`get_explain_metrics()` raises. Without the client that section is left out (and the script
says so).

Nothing in the file depends on the clock, so re-recording against the same emulator version
gives the same file.
"""

import argparse
import json
import os
import pathlib
import sys
import urllib.error
import urllib.request

PROJECT = "demo-explain"
DB = f"projects/{PROJECT}/databases/(default)"
DOCS = f"{DB}/documents"

QUERY = {"from": [{"collectionId": "c"}],
         "where": {"fieldFilter": {"field": {"fieldPath": "a"}, "op": "GREATER_THAN", "value": {"integerValue": "1"}}}}
AGGREGATION = {"structuredQuery": QUERY, "aggregations": [{"alias": "n", "count": {}}]}

# (id, verb, body): the explain member is the only thing that varies.
CASES = [
    ("runQuery without explainOptions", "runQuery", {"structuredQuery": QUERY}),
    ("runQuery analyze false", "runQuery", {"structuredQuery": QUERY, "explainOptions": {"analyze": False}}),
    ("runQuery analyze true", "runQuery", {"structuredQuery": QUERY, "explainOptions": {"analyze": True}}),
    ("runQuery explainOptions {}", "runQuery", {"structuredQuery": QUERY, "explainOptions": {}}),
    ("runQuery explainOptions null", "runQuery", {"structuredQuery": QUERY, "explainOptions": None}),
    ("runQuery explain_options (snake_case)", "runQuery", {"structuredQuery": QUERY, "explain_options": {"analyze": True}}),
    ("runQuery analyze \"true\" (string)", "runQuery", {"structuredQuery": QUERY, "explainOptions": {"analyze": "true"}}),
    ("runQuery analyze \"yes\"", "runQuery", {"structuredQuery": QUERY, "explainOptions": {"analyze": "yes"}}),
    ("runQuery analyze 1", "runQuery", {"structuredQuery": QUERY, "explainOptions": {"analyze": 1}}),
    ("runQuery explainOptions unknown member", "runQuery", {"structuredQuery": QUERY, "explainOptions": {"bogus": 1}}),
    ("runQuery explainOptions true", "runQuery", {"structuredQuery": QUERY, "explainOptions": True}),
    ("runAggregationQuery without explainOptions", "runAggregationQuery", {"structuredAggregationQuery": AGGREGATION}),
    ("runAggregationQuery analyze false", "runAggregationQuery",
     {"structuredAggregationQuery": AGGREGATION, "explainOptions": {"analyze": False}}),
    ("runAggregationQuery analyze true", "runAggregationQuery",
     {"structuredAggregationQuery": AGGREGATION, "explainOptions": {"analyze": True}}),
    ("runAggregationQuery explainOptions unknown member", "runAggregationQuery",
     {"structuredAggregationQuery": AGGREGATION, "explainOptions": {"bogus": 1}}),
]


def call(base, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers={
        "Authorization": "Bearer owner", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as resp:
            return resp.status, json.loads(resp.read().decode() or "null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode() or "null")


def summarize(verb, status, answer):
    """The parts of an answer that do not depend on the clock."""
    if status != 200:
        error = (answer or {}).get("error", {})
        return {"status": status, "error": error.get("status"), "message": error.get("message")}
    elements = answer if isinstance(answer, list) else [answer]
    out = {"status": 200, "elements": len(elements),
           "explainMetrics": any("explainMetrics" in e for e in elements)}
    if verb == "runQuery":
        out["ids"] = [e["document"]["name"].rsplit("/", 1)[1] for e in elements if "document" in e]
    else:
        out["aggregateFields"] = [e["result"]["aggregateFields"] for e in elements if "result" in e]
    return out


def record_rest(base):
    status, _ = call(base, "DELETE", f"/emulator/v1/{DOCS}")
    assert status == 200, status
    dataset = {f"c/d{i}": {"a": {"integerValue": str(i)}} for i in (1, 2, 3)}
    for path, fields in dataset.items():
        status, _ = call(base, "PATCH", f"/v1/{DOCS}/{path}", {"fields": fields})
        assert status == 200, status
    cases = []
    for case_id, verb, body in CASES:
        status, answer = call(base, "POST", f"/v1/{DOCS}:{verb}", body)
        cases.append({"id": case_id, "verb": verb, "body": body, "expect": summarize(verb, status, answer)})
    return dataset, cases


def record_grpc(host):
    """The Python client over gRPC; None when it is not installed."""
    try:
        os.environ["FIRESTORE_EMULATOR_HOST"] = host
        from google.cloud import firestore
        from google.cloud.firestore_v1.base_query import FieldFilter
        from google.cloud.firestore_v1.query_profile import ExplainOptions
        from google.cloud.firestore_v1.types import firestore as fs, query_profile as qp
    except ImportError:
        return None
    db = firestore.Client(project=PROJECT)
    query = db.collection("c").where(filter=FieldFilter("a", ">", 1))
    out = {"client": f"google-cloud-firestore {firestore.__version__}", "cases": []}
    for analyze in (False, True):
        options = ExplainOptions(analyze=analyze)
        for kind, run in (("query.get", lambda: query.get(explain_options=options)),
                          ("count.get", lambda: query.count(alias="n").get(explain_options=options)),
                          ("query.stream", lambda: query.stream(explain_options=options))):
            case = {"id": f"{kind} analyze {str(analyze).lower()}"}
            try:
                result = run()
                if kind == "query.stream":
                    case["ids"] = [d.id for d in result]
                try:
                    result.get_explain_metrics()
                    case["getExplainMetrics"] = "returned"
                except Exception as e:  # the client's QueryExplainError
                    case["getExplainMetrics"] = f"{type(e).__name__}: {e}"
            except Exception as e:
                case["raised"] = f"{type(e).__name__}: {e}"
            out["cases"].append(case)
        request = fs.RunQueryRequest(parent=f"{DOCS}", structured_query=query._to_protobuf(),
                                     explain_options=qp.ExplainOptions(analyze=analyze))
        fields = [[f.name for f, _ in fs.RunQueryResponse.pb(m).ListFields()]
                  for m in db._firestore_api.run_query(request=request, metadata=db._rpc_metadata)]
        out["cases"].append({"id": f"raw RunQuery analyze {str(analyze).lower()}", "messageFields": fields})
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1:8089")
    parser.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parent.parent / "Tests/Conformance"))
    parser.add_argument("--version", default="1.19.9", help="the emulator's version, written into the file")
    args = parser.parse_args()
    dataset, cases = record_rest(f"http://{args.host}")
    corpus = {
        "recordedWith": f"Cloud Firestore emulator {args.version}",
        "description": "Query explain against the emulator: RunQuery / RunAggregationQuery REST bodies with and "
                       "without explainOptions, sent to a database holding `dataset`. `expect`: the HTTP status; on "
                       "success the number of response elements, the returned ids (or aggregate values) and whether "
                       "any element carries explainMetrics; on failure the error status and message. `grpc`: the "
                       "Python client against the same data over gRPC (recorded when it is installed).",
        "dataset": dataset,
        "cases": cases,
    }
    grpc = record_grpc(args.host)
    if grpc is None:
        print("google-cloud-firestore not importable: the grpc section is left out", file=sys.stderr)
    else:
        corpus["grpc"] = grpc
    out = pathlib.Path(args.out) / "explain_requests.json"
    out.write_text(json.dumps(corpus, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(cases)} REST cases{'' if grpc is None else ' and ' + str(len(grpc['cases'])) + ' gRPC cases'} to {out}")


if __name__ == "__main__":
    main()
