#!/usr/bin/env bash
# Runs only the Python interop suite (Tests/Interop): builds the debug hearth, makes the
# pinned venv, then pytest. Extra arguments go to pytest (e.g. -k listen, -x, -rxX).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! swift build --product hearth >"$log" 2>&1; then cat "$log"; exit 1; fi
grep -E "warning:" "$log" || true
scripts/interop-venv.sh
.venv/bin/python -m pytest -q Tests/Interop "$@"
