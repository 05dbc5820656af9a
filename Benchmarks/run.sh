#!/usr/bin/env bash
# Runs Hearth's benchmarks: installs what they measure against (scripts/bench-deps.sh), builds
# `hearth-bench` in release mode and runs it with the given arguments, e.g.
#   Benchmarks/run.sh            # ~15 minutes: REST, store range query at 10k, rules, fan-out, listen, memory,
#                                # WebChannel
#   Benchmarks/run.sh --full     # adds the 1,000,000-document range query
#   Benchmarks/run.sh --only rules --rules-seconds 5
# The report is printed and written to Benchmarks/results/latest.{txt,json}.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/bench-deps.sh --quiet
swift build -c release --product hearth-bench >&2
# The listen and memory sections run Hearth as a child process (`hearth start`).
swift build -c release --product hearth >&2
exec "$(swift build -c release --show-bin-path)/hearth-bench" "$@"
