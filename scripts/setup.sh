#!/usr/bin/env bash
# setup.sh — install the Debian packages chidori builds and tests with.
# Idempotent and quick when everything is present: it asks dpkg first and only calls apt-get
# (update + install) for what is missing. Runs as root on Debian 12; elsewhere it prints what
# is missing and stops.
set -euo pipefail

# Build: compiler, make, xz for the QuickJS tarball, libcurl (provider and http effects),
# libmicrohttpd and SQLite (`chidori serve`), libpq's headers (`chidori serve --db postgresql://…`;
# the library itself is loaded when first used, see src/serve/db_pg.c), libicu-dev (Intl: headers,
# and the static libraries the worker links in).
# Tests: python3 (runner), nodejs + npm (TypeScript oracle, MCP servers), clang + compiler-rt
# (libFuzzer and sanitizers), hyperfine and bubblewrap (bench peers), python3-setuptools,
# python3-venv and python3-pip (the Python SDK's install test: pip install with no index),
# postgresql-15 (tests/pgserver.py runs a throwaway cluster from /usr/lib/postgresql/15/bin).
PACKAGES=(gcc make xz-utils ca-certificates patch python3 libcurl4-openssl-dev libssl-dev libmicrohttpd-dev libsqlite3-dev libicu-dev clang libclang-rt-14-dev hyperfine bubblewrap python3-setuptools python3-venv python3-pip libpq-dev postgresql-15)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "setup: missing packages: ${missing[*]} — install them as root (apt-get install ${missing[*]})" >&2
  exit 1
fi

echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
