#!/usr/bin/env bash
# Builds hearth, makes .venv (pinned clients, scripts/interop-venv.sh) and runs the hostile
# suite (Tests/Hostile): malformed HTTP/1.1, REST, HTTP/2 and gRPC traffic, rules attacks,
# concurrency and kill -9 durability. Known bugs are strict xfails; extra args go to pytest
# (e.g. `scripts/hostile.sh -k grpc -x`).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
scripts/install-deps.sh --quiet
echo "== swift build --product hearth"
swift build --product hearth >/dev/null 2>&1 || { swift build --product hearth; exit 1; }
scripts/interop-venv.sh
echo "== hostile suite"
export HEARTH_BIN="$here/.build/debug/hearth"
exec .venv/bin/python -m pytest -q -p no:cacheprovider Tests/Hostile "$@"
