#!/usr/bin/env bash
# fetch-quickjs.sh — obtain the pinned QuickJS source and lay it out, patched, for the build.
#
# Owns: .cache/quickjs/ (downloaded tarball, private apt state) and build/quickjs-src/ (the
# extracted, patched tree plus a stamp). Trusts: deps/quickjs.lock and patches/quickjs/*.patch
# from this repo; the machine's apt configuration for the mirror URI. Never hard-codes a host:
# the mirror is read from the machine's own Debian sources at run time.
#
# Fast path: when the stamp matches the lock and the patch series, nothing is downloaded,
# extracted or touched (so make sees nothing new).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
# shellcheck disable=SC1091
. deps/quickjs.lock

cache="$top/.cache/quickjs"
out="$top/build/quickjs-src"
tarball="$cache/$ORIG_TARBALL"

patch_sum() {
  local f
  for f in deps/quickjs.lock patches/quickjs/*.patch; do if [ -f "$f" ]; then cat "$f"; fi; done | sha256sum | cut -d' ' -f1
}
want_stamp="$ORIG_SHA256 $(patch_sum)"
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$want_stamp" ]; then
  exit 0
fi

have_good_tarball() { [ -f "$tarball" ] && [ "$(sha256sum "$tarball" | cut -d' ' -f1)" = "$ORIG_SHA256" ]; }

if ! have_good_tarball; then
  echo "fetch-quickjs: fetching $PACKAGE $DEBIAN_VERSION source ($SUITE) with apt-get" >&2
  rm -rf "$cache/dl"
  scripts/private-apt.sh deb-src "$SUITE" "$cache/apt" "$cache/dl" source --download-only "$PACKAGE=$DEBIAN_VERSION"
  mv -f "$cache/dl/$ORIG_TARBALL" "$tarball"
  rm -rf "$cache/dl"
  if ! have_good_tarball; then
    echo "fetch-quickjs: $ORIG_TARBALL does not match the pinned SHA-256 ($ORIG_SHA256); refusing to build" >&2
    rm -f "$tarball"
    exit 1
  fi
fi

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
tar -C "$out.tmp" -xJf "$tarball"
src="$out.tmp/$SRC_DIR"
for p in patches/quickjs/*.patch; do
  [ -f "$p" ] || continue
  if ! patch -s -p1 -d "$src" < "$p"; then
    echo "fetch-quickjs: patch $p does not apply" >&2
    exit 1
  fi
done
rm -rf "$out"
mv "$src" "$out"
rm -rf "$out.tmp"
echo "$want_stamp" > "$out/.stamp"
echo "fetch-quickjs: QuickJS $DEBIAN_VERSION ready in build/quickjs-src" >&2
