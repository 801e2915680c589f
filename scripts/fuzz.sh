#!/usr/bin/env bash
# fuzz.sh — run each libFuzzer target of build/fuzz for a fixed time on its seed corpus and
# report executions and findings per target. New inputs go to build/fuzz/corpus/<target>; the
# seed corpus in tests/fuzz/corpus/<name> is read, never written. Crashes land in
# build/fuzz/findings/<target>/ and make the script exit 1.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
status=0
printf '%-24s %12s %10s  %s\n' target executions exec/s findings
for bin in build/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  seeds="tests/fuzz/corpus/${name#fuzz_}"
  [ -d "$seeds" ] || seeds="tests/fuzz/corpus/${name#fuzz_}"
  work="build/fuzz/corpus/$name" findings="build/fuzz/findings/$name"
  mkdir -p "$work" "$findings"
  dirs=("$work")
  for d in tests/fuzz/corpus/*; do
    case "$name" in *"$(basename "$d")"*) dirs+=("$d") ;; esac
  done
  log="build/fuzz/$name.log"
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$findings/" \
    -print_final_stats=1 "${dirs[@]}" >"$log" 2>&1
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  found=$(find "$findings" -type f | wc -l)
  printf '%-24s %12s %10s  %s\n' "$name" "${runs:-?}" "${speed:-?}" "$found"
  if [ "$found" -gt 0 ]; then status=1; fi
done
exit $status
