#!/usr/bin/env bash
# test-deps.sh — install what the test suites need from npm: TypeScript for the eraser's oracle
# (tests/ts), the MCP servers the tool tests talk to (tests/mcp). Quick when installed: a
# folder whose node_modules is newer than its package-lock.json is left alone. Installs Debian's
# nodejs and npm when Node is missing. Registry addresses come from npm's own configuration.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "test-deps: installing nodejs and npm" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >&2
  else
    echo "test-deps: node/npm are missing; the TypeScript and MCP suites will be skipped" >&2
    exit 0
  fi
fi

for dir in tests/ts tests/mcp; do
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
