#!/usr/bin/env bash
# --jobs scaling: wall time of `run`, `certify` and `selftest` with --jobs 1 and with
# --jobs N (default: every core), measured in the same run, one after the other, on
# the same work; reports the speed-up jobs=1 time / jobs=N time.  The outputs of the
# two are compared too (they must be the same but for timings: tests/jobs_test.sh).
#
#   bench/jobs_scaling.sh [--build DIR] [--jobs N] [--contracts GLOB,...] [--rows GLOB] [--cases N]
# Default: build/, every core, 60 cases; `run` on each of --contracts (one kernel: the
# cases are split between the processes), `certify` and `selftest` on --rows (several
# kernels: the rows are).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build jobs=$(nproc) contracts='add_example*,softmax_triton1*,rms_norm_triton*,matmul_triton1*' rows='add_*' cases=60
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --contracts) contracts=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    *) echo "bench/jobs_scaling.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
T=$build/tilediff
[ -x "$T" ] || { echo "bench/jobs_scaling.sh: no $T (build first)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# "WALL CPU": seconds of wall clock and of CPU (user + system, the workers included)
wall() {
  local t0 t1 cpu
  TIMEFORMAT='%U %S'
  t0=$(date +%s.%N)
  cpu=$({ time "$@" >/dev/null 2>&1; } 2>&1 | awk '{print $1 + $2}') || true
  t1=$(date +%s.%N)
  echo "$t0 $t1 $cpu" | awk '{printf "%.2f %.2f", $2 - $1, $3}'
}
IFS=, read -ra globs <<<"$contracts"
# CPU/WALL is the cores' worth a run got: where the machine is shared (other sessions'
# processes, autogroup scheduling) it caps the speed-up whatever --jobs asks for.
printf '%-10s %-20s %9s %8s %9s %8s %8s %9s\n' COMMAND CONTRACTS "J=1 WALL" "J=1 CPU" "J=$jobs WALL" "J=$jobs CPU" \
  SPEEDUP "CPU/WALL"
row() { # row COMMAND LABEL ARGS... (the args without --jobs)
  local cmd=$1 label=$2; shift 2
  local a b
  a=$(wall "$T" "$cmd" "$@" --jobs 1)
  b=$(wall "$T" "$cmd" "$@" --jobs "$jobs")
  echo "$a $b" | awk -v c="$cmd" -v l="$label" '{printf "%-10s %-20s %9.2f %8.2f %9.2f %8.2f %7.2fx %4.2f/%4.2f\n",
    c, l, $1, $2, $3, $4, ($3 > 0 ? $1 / $3 : 0), ($1 > 0 ? $2 / $1 : 0), ($3 > 0 ? $4 / $3 : 0)}'
}
for g in "${globs[@]}"; do
  row run "$g" "$g" --cases "$cases" --artifacts "$tmp/art" --quiet
done
row certify "$rows" --contracts "$rows" --cases "$cases" --out "$tmp/cert"
row selftest "$rows" --contracts "$rows" --cases "$cases" --budget 30
