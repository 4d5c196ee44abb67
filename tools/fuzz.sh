#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, build/fuzz) and runs each on its seeds, printing its
# executions, executions per second and coverage (cov: edges, ft: features). docs/testing.md
# describes the targets.
#   tools/fuzz.sh                 the test stage: 20 s shared between the targets (2 s at least)
#   HNEFI_LONG=1 tools/fuzz.sh    10 minutes each
#   tools/fuzz.sh SECONDS [TARGET...]   SECONDS each, for the named targets only
# A crash stops the run with the target's log; its input is in build/fuzz/crash-*: keep it in
# tests/fuzz/regress_<target>/ (test_fuzz_<target> replays it) with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
all=(notation book records datagen weights nnue rules proto_uci proto_otep proto_htp)
seconds=$(( 20 / ${#all[@]} ))
[ "$seconds" -lt 2 ] && seconds=2
[ "${HNEFI_LONG:-0}" = 1 ] && seconds=600
if [ $# -gt 0 ]; then
  seconds=$1
  shift
fi
targets=("$@")
[ $# -eq 0 ] && targets=("${all[@]}")
CC=clang cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=Debug -DHNEFI_FUZZ=ON -DHNEFI_WERROR=ON -DHNEFI_WIDE_BOARDS=OFF \
      -DHNEFI_NATIVE=OFF -DCMAKE_C_FLAGS=-O1 >/dev/null
cmake --build build/fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}"
for t in "${targets[@]}"; do
  mkdir -p "build/fuzz/corpus_$t"
  cp "tests/fuzz/seeds_$t"/* "build/fuzz/corpus_$t/"
  max_len=8192
  [ "$t" = nnue ] && max_len=20000 # a network file is larger than the other inputs
  # the target's own output is closed (commands print); libFuzzer's stays
  if ! "build/fuzz/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -max_len="$max_len" \
         -timeout=60 -close_fd_mask=3 -print_final_stats=1 -artifact_prefix=build/fuzz/ \
         "build/fuzz/corpus_$t" > "build/fuzz/log_$t.txt" 2>&1; then
    tail -n 40 "build/fuzz/log_$t.txt"
    echo "fuzz_$t found a crash: keep its input in tests/fuzz/regress_$t/ with the fix"
    exit 1
  fi
  log=build/fuzz/log_$t.txt
  cov=$(grep -E '^#[0-9]+.*(DONE|INITED)' "$log" | tail -n 1 | grep -oE 'cov: [0-9]+ ft: [0-9]+')
  execs=$(grep -oE 'number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$')
  rate=$(grep -oE 'average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$')
  printf 'fuzz_%-10s %4s s %9s execs %6s execs/s  %s\n' "$t" "$seconds" "$execs" "$rate" "$cov"
done
