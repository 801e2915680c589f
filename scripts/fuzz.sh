#!/usr/bin/env bash
# fuzz.sh — run each libFuzzer target of build/fuzz for a fixed time on its seed corpus and
# report executions and findings per target. New inputs go to build/fuzz/corpus/<target>; the
# seed corpus in tests/fuzz/corpus/<name> is read, never written. Crashes land in
# build/fuzz/findings/<target>/ and make the script exit 1.
#
# The engine targets (fuzz_engine, fuzz_regexp) are also seeded from build/fuzz/seeds/, laid out
# here by scripts/fuzz_seeds.py from tests/hostile and tests/limits, plus test262 when
# FUZZ_TEST262_DIR names a checkout of it (not vendored; FUZZ_TEST262_MAX files, default 3000).
# A target with a dictionary tests/fuzz/<name>.dict gets it (-dict). FUZZ_ONLY="engine regexp"
# runs only the targets whose names contain one of its words. FUZZ_TIMEOUT (seconds, default 10)
# is libFuzzer's -timeout: wall-clock time, so raise it on a loaded machine (an engine input may
# use a few seconds of CPU under the sanitizers before its budget or memory ceiling ends it).
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
status=0
for v in FUZZ_SECONDS:"$seconds" FUZZ_TIMEOUT:"${FUZZ_TIMEOUT:-10}" FUZZ_TEST262_MAX:"${FUZZ_TEST262_MAX:-3000}"; do
  case "${v#*:}" in
    '' | *[!0-9]* | 0) echo "fuzz: ${v%%:*} must be a positive whole number, got '${v#*:}'" >&2; exit 2 ;;
  esac
done
if [ -n "${FUZZ_TEST262_DIR:-}" ] && [ ! -d "$FUZZ_TEST262_DIR" ]; then
  echo "fuzz: FUZZ_TEST262_DIR=$FUZZ_TEST262_DIR is not a directory: point it at a test262 checkout, or unset it" >&2
  exit 2
fi
python3 scripts/fuzz_seeds.py build/fuzz/seeds "${FUZZ_TEST262_DIR:-}" "${FUZZ_TEST262_MAX:-3000}" || exit 2
printf '%-24s %12s %10s  %s\n' target executions exec/s findings
for bin in build/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  if [ -n "${FUZZ_ONLY:-}" ]; then
    keep=0
    for w in $FUZZ_ONLY; do case "$name" in *"$w"*) keep=1 ;; esac; done
    [ "$keep" = 1 ] || continue
  fi
  seeds="tests/fuzz/corpus/${name#fuzz_}"
  [ -d "$seeds" ] || seeds="tests/fuzz/corpus/${name#fuzz_}"
  work="build/fuzz/corpus/$name" findings="build/fuzz/findings/$name"
  mkdir -p "$work" "$findings"
  dirs=("$work")
  for d in tests/fuzz/corpus/* build/fuzz/seeds/*; do
    [ -d "$d" ] || continue
    case "$name" in *"$(basename "$d")"*) dirs+=("$d") ;; esac
  done
  dict=()
  [ -f "tests/fuzz/${name#fuzz_}.dict" ] && dict=(-dict="tests/fuzz/${name#fuzz_}.dict")
  log="build/fuzz/$name.log"
  "$bin" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -artifact_prefix="$findings/" \
    -print_final_stats=1 "${dict[@]}" "${dirs[@]}" >"$log" 2>&1
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  # crash-, leak-, timeout-, oom- files are findings; a slow-unit file only records the slowest
  # input so far (wall-clock, so a loaded machine makes them), not a failure.
  found=$(find "$findings" -type f ! -name 'slow-unit-*' | wc -l)
  printf '%-24s %12s %10s  %s\n' "$name" "${runs:-?}" "${speed:-?}" "$found"
  if [ "$found" -gt 0 ]; then status=1; fi
done
exit $status
