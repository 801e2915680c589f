#!/usr/bin/env bash
# test-deps.sh — install what the test suites need: from npm, TypeScript for the eraser's oracle
# and the SDK's type checks (tests/ts), the MCP servers the tool tests talk to (tests/mcp), and
# playwright-core for the dashboard's browser test (tests/browser), the OpenTelemetry protobuf
# definitions that check the trace export (tests/otel), the npm packages agents import in the
# npm-package tests (tests/npm); from Debian, nodejs and npm
# when Node is missing, and chromium (large, so only here, not in setup.sh: `make demo` does not
# need it). Quick when installed: dpkg is asked first, and a folder whose node_modules is newer
# than its package-lock.json is left alone. Registry addresses come from npm's and apt's own
# configuration.
set -euo pipefail
cd "$(dirname "$0")/.."

installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed$'; }

if ! installed chromium; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "test-deps: installing chromium (the dashboard's browser test)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends chromium >&2 ||
      echo "test-deps: chromium could not be installed; the browser test will be skipped" >&2
  else
    echo "test-deps: chromium is missing; the browser test will be skipped (apt-get install chromium as root)" >&2
  fi
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "test-deps: installing nodejs and npm" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >&2
  else
    echo "test-deps: node/npm are missing; the TypeScript and MCP suites will be skipped" >&2
    exit 0
  fi
fi

for dir in tests/ts tests/mcp tests/browser tests/otel tests/npm; do
  [ -f "$dir/package.json" ] || continue
  stamp="$dir/node_modules/.chidori-installed"
  if [ -f "$stamp" ] && [ "$stamp" -nt "$dir/package.json" ] && { [ ! -f "$dir/package-lock.json" ] || [ "$stamp" -nt "$dir/package-lock.json" ]; }; then
    continue
  fi
  echo "test-deps: npm install in $dir" >&2
  if [ -f "$dir/package-lock.json" ]; then
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
  else
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error >&2)
  fi
  touch "$stamp"
done
