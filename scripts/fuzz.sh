#!/usr/bin/env bash
# Coverage-guided fuzzing of Hearth's decoders with libFuzzer (issue 18 item 1).
#
#   scripts/fuzz.sh TARGET SECONDS    one target: FuzzHTTP1 FuzzProto FuzzRules FuzzExport FuzzJSON
#   scripts/fuzz.sh all SECONDS       each target in turn
#
# Builds the target with `-sanitize=fuzzer,address -DFUZZING` into .build/fuzz (debug, so the
# harnesses reach internal parsers through @testable), seeds .build/fuzz-corpus/TARGET from
# the repository's own data (requests, rules files, the recorded export), runs it for SECONDS
# with a 1 s timeout per input and a 2 GiB RSS limit, and prints one line: executions, coverage
# (edges) and features. A crash, a leak, a timeout or an out-of-memory leaves its input in
# .build/fuzz-artifacts/TARGET/ and exits 1. A normal `swift build` makes each target a replayer:
# `.build/debug/FuzzRules FILE|DIR…` runs the inputs once.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
targets=(FuzzHTTP1 FuzzProto FuzzRules FuzzExport FuzzJSON)
[ $# -eq 2 ] || { echo "usage: scripts/fuzz.sh TARGET|all SECONDS (targets: ${targets[*]})" >&2; exit 2; }
if [ "$1" = all ]; then
  for t in "${targets[@]}"; do "$0" "$t" "$2"; done
  exit 0
fi
target="$1"
seconds="$2"
printf '%s\n' "${targets[@]}" | grep -qx "$target" || { echo "fuzz: unknown target $target (${targets[*]})" >&2; exit 2; }

swift build --product "$target" --build-path .build/fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
  > ".build/fuzz-build-$target.log" 2>&1 || { tail -n 40 ".build/fuzz-build-$target.log"; exit 1; }

corpus=".build/fuzz-corpus/$target"
artifacts=".build/fuzz-artifacts/$target"
mkdir -p "$corpus" "$artifacts"
python3 - "$target" "$corpus" <<'PY'
import glob, json, os, sys
target, corpus = sys.argv[1], sys.argv[2]
def seed(name, data):
    with open(os.path.join(corpus, "seed-" + name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
if target == "FuzzHTTP1":
    seed("get", "\x07GET /v1/projects/p/databases/(default)/documents/c/d HTTP/1.1\r\nHost: x\r\n\r\n")
    seed("post", "\x0bPOST /v1/x:commit HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
    seed("chunked", "\x03POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n")
    seed("pipelined", "\x1eGET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
elif target == "FuzzRules":
    for i, path in enumerate(["firebase/firestore.rules", "firebase-poetry/firestore.rules"]):
        seed(f"app{i}", open(path, encoding="utf-8").read())
    for path in glob.glob("rules/**/*.json", recursive=True):
        try:
            suite = json.load(open(path, encoding="utf-8"))
        except ValueError:
            continue
        for j, case in enumerate([suite] + suite.get("cases", [])):
            if isinstance(case.get("rulesText"), str):
                seed(f"{os.path.basename(path)}-{j}", case["rulesText"])
elif target == "FuzzExport":
    base = "Tests/Conformance/cli_export/emulator_export/firestore_export"
    for path in glob.glob(base + "/**/*", recursive=True):
        if os.path.isfile(path):
            seed(os.path.basename(path), open(path, "rb").read())
elif target == "FuzzJSON":
    for path in ["firebase/firebase.json", "firebase-poetry/firebase.json", "firebase/firestore.indexes.json",
                 "firebase-poetry/firestore.indexes.json", "Tests/Conformance/cli_export/dataset.json"]:
        seed(os.path.basename(os.path.dirname(path)) + "-" + os.path.basename(path), open(path, "rb").read())
elif target == "FuzzProto":
    # A small CommitRequest and Value per decoder slot; libFuzzer grows the rest.
    seed("commit", bytes([7]) + bytes.fromhex("0a1370726f6a656374732f702f6461746162617365732f2864656661756c7429"))
    seed("value", bytes([16]) + bytes.fromhex("10012a0568656c6c6f"))
PY

dict=()
[ -f "Fuzz/$target/tokens.dict" ] && dict=("-dict=Fuzz/$target/tokens.dict")
set +e
".build/fuzz/debug/$target" -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -max_len=65536 \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" "$corpus" > ".build/fuzz-$target.log" 2>&1
status=$?
set -e
runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" ".build/fuzz-$target.log" | grep -oE "[0-9]+$" || echo 0)
cov=$(grep -oE "cov: [0-9]+ ft: [0-9]+" ".build/fuzz-$target.log" | tail -n 1 || true)
echo "fuzz $target: $runs executions in ${seconds} s, ${cov:-cov: ?}, corpus $(ls "$corpus" | wc -l) inputs"
if [ $status -ne 0 ]; then
  tail -n 40 ".build/fuzz-$target.log"
  echo "fuzz $target: FAILED (exit $status); the input is in $artifacts/"
  exit 1
fi
