# bench/lib.sh — shared by the benchmarks: the peers, built or installed once under build/bench.
# Sourced, not run.

# Bare qjs from the same patched QuickJS source chidori is built from.
bench_qjs() {
  if [ ! -x build/bench/qjs ] || [ build/quickjs-src/.stamp -nt build/bench/qjs ]; then
    echo "bench: building bare qjs from build/quickjs-src" >&2
    rm -rf build/bench/quickjs && mkdir -p build/bench && cp -r build/quickjs-src build/bench/quickjs
    make -s -C build/bench/quickjs -j"$(nproc)" qjs >/dev/null 2>&1
    cp build/bench/quickjs/qjs build/bench/qjs
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
