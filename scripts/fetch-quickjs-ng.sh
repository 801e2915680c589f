#!/usr/bin/env bash
# fetch-quickjs-ng.sh — obtain the pinned quickjs-ng source (deps/quickjs-ng.lock), the engine, and
# lay it out, unpatched, in .cache/quickjs-ng/src for scripts/prepare-quickjs-ng.sh (which copies
# and patches it).
#
# Owns: .cache/quickjs-ng/ (the downloaded .deb, private apt state, the extracted tree plus a
# stamp). Trusts: deps/quickjs-ng.lock; the machine's apt configuration for the mirror URI
# (scripts/private-apt.sh). Prints the tree's path on stdout. Fast path: a tree whose stamp
# matches the lock is used as it is, without the network.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
# shellcheck disable=SC1091
. deps/quickjs-ng.lock

cache="$top/.cache/quickjs-ng"
deb="$cache/$DEB_FILE"
out="$cache/src"
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$DEB_SHA256" ]; then
  echo "$out"
  exit 0
fi

have_good_deb() { [ -f "$deb" ] && [ "$(sha256sum "$deb" | cut -d' ' -f1)" = "$DEB_SHA256" ]; }

if ! have_good_deb; then
  got=
  for suite in $SUITES; do
    echo "fetch-quickjs-ng: fetching $PACKAGE $DEBIAN_VERSION ($suite) with apt-get" >&2
    rm -rf "$cache/dl"
    if scripts/private-apt.sh deb "$suite" "$cache/apt" "$cache/dl" download "$PACKAGE=$DEBIAN_VERSION"; then
      got=$suite
      break
    fi
  done
  if [ -z "$got" ]; then
    echo "fetch-quickjs-ng: cannot fetch $PACKAGE $DEBIAN_VERSION from $SUITES (gone from the archive? bump deps/quickjs-ng.lock)" >&2
    rm -rf "$cache/dl" "$cache/apt"
    exit 1
  fi
  mv -f "$cache/dl/$DEB_FILE" "$deb"
  rm -rf "$cache/dl" "$cache/apt"
  if ! have_good_deb; then
    echo "fetch-quickjs-ng: $DEB_FILE does not match the pinned SHA-256 ($DEB_SHA256); refusing to build" >&2
    rm -f "$deb"
    exit 1
  fi
fi

rm -rf "$out" "$out.tmp"
mkdir -p "$out.tmp/x"
dpkg-deb -x "$deb" "$out.tmp/x"
mv "$out.tmp/x/$SRC_DIR" "$out"
cp "$out.tmp/x/$LICENSE_FILE" "$out/LICENSE"
rm -rf "$out.tmp"
echo "$DEB_SHA256" > "$out/.stamp"
echo "fetch-quickjs-ng: quickjs-ng $DEBIAN_VERSION ready in $out" >&2
echo "$out"
