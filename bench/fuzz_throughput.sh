#!/usr/bin/env bash
# Fuzzing throughput per target on the host backend: executions per second under
# libFuzzer (no sanitizer: what the harness costs, not ASan), and where the time goes:
# decode (bytes -> case, write set), kernel (the launch), compare (guards, sentinels,
# cells outside the write set) and oracle (shadow evaluation, MPFR for the lanes that
# need it).  The baseline measured in the same run is the kernel alone: "oracle cost"
# is total time / (decode + kernel) time, the price of checking every lane.
#
#   bench/fuzz_throughput.sh [--runs N] [--targets GLOB]     (default 2000 runs, all targets)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=2000 targets='*'
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    *) echo "bench/fuzz_throughput.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
ci/deps.sh --fuzz
b=build-bench-fuzz
CC=clang CXX=clang++ ci/build.sh $b -DCMAKE_BUILD_TYPE=Release -DTD_FUZZ_ENGINE=libfuzzer -DTD_CUDA=OFF -DTD_TESTS=OFF \
  -DTD_BENCH=OFF "-DTD_FUZZ_TARGETS=$targets" >/dev/null
printf '%-64s %9s %8s %8s %8s %8s %8s %10s\n' TARGET EXEC/S LANES/EX DECODE% KERNEL% COMPARE% ORACLE% ORACLECOST
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while read -r target contract; do
  seeds=corpus/$contract
  mkdir -p "$tmp/$contract"
  t0=$(date +%s.%N)
  TILEDIFF_FUZZ_PROFILE=1 "$b/fuzz/$target" -runs="$runs" -max_len=256 -seed=1 "$tmp/$contract" ${seeds:+$( [ -d "$seeds" ] && echo "$seeds")} \
    >"$tmp/log" 2>&1 || { echo "$contract: the target failed (see a fuzz campaign)"; continue; }
  t1=$(date +%s.%N)
  read -r cases lanes dec ker cmp ora tot < <(awk '/^tilediff-profile/ {print $4, $6, $8, $10, $12, $14, $16}' "$tmp/log")
  awk -v c="$contract" -v n="$cases" -v l="$lanes" -v d="$dec" -v k="$ker" -v m="$cmp" -v o="$ora" -v t="$tot" \
      -v w0="$t0" -v w1="$t1" 'BEGIN {
        wall = w1 - w0; tt = (t > 0 ? t : 1);
        printf "%-64s %9.0f %8.0f %8.1f %8.1f %8.1f %8.1f %9.2fx\n", c, n / wall, (n > 0 ? l / n : 0),
               100 * d / tt, 100 * k / tt, 100 * m / tt, 100 * o / tt, (d + k > 0 ? t / (d + k) : 0) }'
done <"$b/fuzz/targets.txt"
