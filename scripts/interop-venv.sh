#!/usr/bin/env bash
# Makes .venv with the pinned Python Google clients (from PyPI) for Tests/Interop, once.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
req="$here/Tests/Interop/requirements.txt"
stamp="$here/.venv/.requirements"
if [ -x "$here/.venv/bin/python" ] && cmp -s "$req" "$stamp"; then exit 0; fi
python3 -m venv "$here/.venv"
"$here/.venv/bin/pip" install -q --disable-pip-version-check -r "$req"
cp "$req" "$stamp"
