#!/usr/bin/env bash
# prepare-quickjs-ng.sh — lay out the quickjs-ng tree, patched, that `make` builds the engine from.
#
# Owns: build/ng-src/ (a copy of the tree with patches/quickjs-ng/*.patch applied, plus a stamp).
# Trusts: the patch series of this repo and the tree: with no argument (NG_SRC unset in the
# Makefile), the pinned quickjs-ng of deps/quickjs-ng.lock, fetched and checked by
# scripts/fetch-quickjs-ng.sh; with one, the local quickjs-ng tree it names (another version, for
# measuring), e.g.
#   git -C quickjs-ng archive v0.16.2 | tar -x -C /tmp/ng-src
#
# Fast path: when the stamp matches the tree's files and the patch series, nothing is touched.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 0 ] || [ -z "$1" ]; then
  src=$(scripts/fetch-quickjs-ng.sh)
else
  src=$1
fi
if [ -z "$src" ] || [ ! -f "$src/quickjs.c" ] || [ ! -f "$src/quickjs.h" ]; then
  echo "prepare-quickjs-ng: NG_SRC must name a quickjs-ng source tree (with quickjs.c and quickjs.h);" >&2
  echo "  e.g. make NG_SRC=/path/to/quickjs-ng, or no NG_SRC for the pinned one (got '${src}')" >&2
  exit 1
fi
out=build/ng-src
want_stamp=$( { find "$src" -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort | xargs cat; \
  for p in patches/quickjs-ng/*.patch; do if [ -f "$p" ]; then cat "$p"; fi; done; } | sha256sum | cut -d' ' -f1)
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$want_stamp" ]; then
  exit 0
fi
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
# the top-level C sources and headers are all the build compiles
find "$src" -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' -o -name LICENSE -o -name 'test262*.conf' \) \
  -exec cp {} "$out.tmp/" \;
for p in patches/quickjs-ng/*.patch; do
  [ -f "$p" ] || continue
  if ! patch -s -p1 -d "$out.tmp" < "$p"; then
    echo "prepare-quickjs-ng: patch $p does not apply to $src" >&2
    exit 1
  fi
done
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$want_stamp" > "$out/.stamp"
echo "prepare-quickjs-ng: quickjs-ng from $src ready in $out" >&2
