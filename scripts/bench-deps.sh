#!/usr/bin/env bash
# Installs what `hearth-bench` measures against, skipping what is already there:
#   wrk          the one HTTP load generator that hits Hearth, nginx and the official emulator
#   nginx-light  the physical HTTP baseline (nginx serving the same bytes on loopback)
#   python3-venv + cel-python in .build/bench-venv: the rules baseline (the same expressions in CEL)
#   google-cloud-firestore (with grpcio) in the same venv, pinned as in Tests/Interop/requirements.txt:
#                the listen section's load client and its grpcio relay baseline
# The official emulator (gcloud + cloud-firestore-emulator) is not installed here: the benchmark
# prints "emulator: not available" when `gcloud` is absent.
# Run from anywhere; the venv lands in the package's .build directory. With --quiet it prints
# nothing when everything is present.
set -euo pipefail
quiet=${1:-}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { [ "$quiet" = "--quiet" ] || echo "bench-deps: $*"; }

need=()
command -v wrk >/dev/null 2>&1 || need+=(wrk)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then
  echo "bench-deps: installing ${need[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq >&2
  $sudo_cmd apt-get install -y -qq "${need[@]}" >&2
else
  say "wrk, nginx and python3-venv present"
fi

venv="$root/.build/bench-venv"
firestore_pin=$(grep -E '^google-cloud-firestore==' "$root/Tests/Interop/requirements.txt" 2>/dev/null || echo google-cloud-firestore)
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import celpy, grpc, google.cloud.firestore_v1' >/dev/null 2>&1; then
  say "cel-python and google-cloud-firestore present in .build/bench-venv"
else
  echo "bench-deps: installing cel-python and $firestore_pin into .build/bench-venv" >&2
  mkdir -p "$root/.build"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check cel-python "$firestore_pin" >&2
fi
