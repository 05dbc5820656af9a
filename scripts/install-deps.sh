#!/usr/bin/env bash
# Installs what building and testing Hearth needs on a fresh Debian machine, skipping what is
# already there: the C libraries' -dev packages (SQLite, OpenSSL, nghttp2), curl and python3-venv,
# and headless Chromium (+ chromedriver) for Tests/WebClients/browser, which is skipped with a line
# when apt-get is unavailable. With --quiet it prints nothing when everything is present.
set -euo pipefail
quiet=${1:-}
need=()
for pkg in libsqlite3-dev libssl-dev libnghttp2-dev python3-venv curl; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
browser=()
for pkg in chromium chromium-driver; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || browser+=("$pkg")
done
if [ ${#browser[@]} -gt 0 ] && ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: skip ${browser[*]} (no apt-get; the browser suite will skip)" >&2
  browser=()
fi
need+=("${browser[@]}")
if [ ${#need[@]} -eq 0 ]; then
  [ "$quiet" = "--quiet" ] || echo "install-deps: everything present"
  exit 0
fi
echo "install-deps: installing ${need[*]}" >&2
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq >&2
$sudo_cmd apt-get install -y -qq "${need[@]}" >&2
