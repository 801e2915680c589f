# bench/lib.sh — shared by the benchmarks: the peers, built or installed once under build/bench.
# Sourced, not run.

# Bare qjs from the same patched engine source chidori is built from (quickjs-ng: build/ng-src,
# laid out by the build), with the engine's own qjs.c and quickjs-libc.c and its default flags.
bench_qjs() {
  local src=build/ng-src
  if [ ! -x build/bench/qjs ] || [ $src/.stamp -nt build/bench/qjs ] || [ bench/qjs_stubs.c -nt build/bench/qjs ]; then
    echo "bench: building bare qjs from $src" >&2
    mkdir -p build/bench
    gcc -O2 -D_GNU_SOURCE -w -I$src -o build/bench/qjs.tmp $src/qjs.c $src/quickjs-libc.c $src/quickjs.c \
      $src/libregexp.c $src/libunicode.c $src/dtoa.c bench/qjs_stubs.c -lm -lpthread -ldl &&
      mv build/bench/qjs.tmp build/bench/qjs
  fi
}

# Deno from npm (its binary ships in a registry package).
bench_deno() {
  if [ ! -x build/bench/deno/node_modules/.bin/deno ]; then
    echo "bench: installing deno from npm into build/bench/deno" >&2
    mkdir -p build/bench/deno
    (cd build/bench/deno && npm install --no-audit --no-fund --loglevel=error deno >/dev/null 2>&1) || true
  fi
  [ -x build/bench/deno/node_modules/.bin/deno ] && echo build/bench/deno/node_modules/.bin/deno
}
