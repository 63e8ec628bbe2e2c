#!/usr/bin/env bash
# Fuzzing throughput per target on the host backend: executions per second under
# libFuzzer (no sanitizer: what the harness costs, not ASan), and where the time goes:
# decode (bytes -> case, write set), kernel (the launch), compare (guards, sentinels,
# cells outside the write set) and oracle (shadow evaluation, MPFR for the lanes that
# need it).  Every column of a row comes from one run of its target.
#
# EXEC/S is executions per wall second, EXEC/CPUS per second of the process's CPU time
# (on a shared machine the second is the one to compare; the shares below are of the
# harness's own clock, so a loaded machine blurs them a little).
# ORACLE/KERNEL is oracle time / kernel time: what checking every lane costs against
# the kernel alone.  (Dividing by decode + kernel, as this script once did, hides the
# oracle's cost behind a slow decode.)  HARNESS/KERNEL is the whole case (decode +
# kernel + compare + oracle) / kernel time.
#
#   bench/fuzz_throughput.sh [--runs N] [--targets GLOB[,GLOB...]] [--build-dir DIR]
# Default: 2000 runs, every target, a Release libFuzzer build in build-bench-fuzz/ (the
# tilediff binary and the selected targets only).  With --build-dir, that already
# configured libFuzzer build is used (tests/CMakeLists.txt's bench_fuzz_smoke).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=2000 targets='*' b=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    --build-dir) b=$2; shift 2 ;;
    *) echo "bench/fuzz_throughput.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ -z "$b" ]; then
  ci/deps.sh --fuzz
  b=build-bench-fuzz
  mkdir -p $b
  CC=clang CXX=clang++ cmake -S . -B $b -DCMAKE_BUILD_TYPE=Release -DTD_FUZZ_ENGINE=libfuzzer -DTD_CUDA=OFF \
    -DTD_TESTS=OFF -DTD_BENCH=OFF >$b.configure.log 2>&1 || { cat $b.configure.log; exit 1; }
  # tilediff too: a libFuzzer build must link every binary, not only the fuzz targets
  cmake --build $b -j"$(nproc)" --target tilediff >/dev/null
fi
[ -f "$b/fuzz/targets.txt" ] || { echo "bench/fuzz_throughput.sh: $b is not a libFuzzer build" >&2; exit 2; }
printf '%-64s %8s %9s %8s %7s %7s %7s %7s %13s %14s\n' TARGET EXEC/S EXEC/CPUS LANES/EX DECODE% KERNEL% COMPARE% \
  ORACLE% ORACLE/KERNEL HARNESS/KERNEL
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
while read -r target contract; do
  want=0
  IFS=, read -ra globs <<<"$targets"
  for g in "${globs[@]}"; do
    # shellcheck disable=SC2053 # a glob, as TD_FUZZ_TARGETS
    [[ $contract == $g ]] && want=1
  done
  [ $want = 1 ] || continue
  [ -x "$b/fuzz/$target" ] || cmake --build "$b" -j"$(nproc)" --target "$target" >/dev/null
  mkdir -p "$tmp/$contract"
  seeds=()
  [ -d "corpus/$contract" ] && seeds=("corpus/$contract")
  t0=$(date +%s.%N)
  TIMEFORMAT='%U %S' # the process's CPU time: exec/s per CPU second does not depend on the machine's load
  if ! { time TILEDIFF_FUZZ_PROFILE=1 "$b/fuzz/$target" -runs="$runs" -max_len=256 -seed=1 "$tmp/$contract" \
    "${seeds[@]}" >"$tmp/log" 2>&1; } 2>"$tmp/cpu"; then
    echo "$contract: the target failed (run a fuzz campaign on it); its log:" >&2
    tail -20 "$tmp/log" >&2
    status=1
    continue
  fi
  t1=$(date +%s.%N)
  cases= lanes= dec= ker= cmp= ora= tot=
  read -r cases lanes dec ker cmp ora tot < <(awk '/^tilediff-profile/ {print $4, $6, $8, $10, $12, $14, $16}' "$tmp/log") || true
  if [ -z "${tot:-}" ]; then
    echo "$contract: the target printed no tilediff-profile line" >&2
    status=1
    continue
  fi
  cpu=$(awk '{print $1 + $2}' "$tmp/cpu")
  awk -v c="$contract" -v n="$cases" -v l="$lanes" -v d="$dec" -v k="$ker" -v m="$cmp" -v o="$ora" -v t="$tot" \
      -v w0="$t0" -v w1="$t1" -v cpu="$cpu" 'function ratio(a, b) { return b > 0 ? sprintf("%.2fx", a / b) : "-" }
      BEGIN {
        wall = w1 - w0; tt = (t > 0 ? t : 1);
        printf "%-64s %8.0f %9.0f %8.0f %7.1f %7.1f %7.1f %7.1f %13s %14s\n", c, n / wall, (cpu > 0 ? n / cpu : 0),
               (n > 0 ? l / n : 0), 100 * d / tt, 100 * k / tt, 100 * m / tt, 100 * o / tt, ratio(o, k), ratio(t, k) }'
done <"$b/fuzz/targets.txt"
exit $status
