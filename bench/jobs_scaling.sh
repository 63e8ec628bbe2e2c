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
wall() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s.%N); echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}'; }
IFS=, read -ra globs <<<"$contracts"
printf '%-10s %-28s %10s %10s %8s\n' COMMAND CONTRACTS "JOBS=1 s" "JOBS=$jobs s" SPEEDUP
row() { # row COMMAND LABEL ARGS... (the args without --jobs)
  local cmd=$1 label=$2; shift 2
  local a b
  a=$(wall "$T" "$cmd" "$@" --jobs 1)
  b=$(wall "$T" "$cmd" "$@" --jobs "$jobs")
  printf '%-10s %-28s %10s %10s %7.2fx\n' "$cmd" "$label" "$a" "$b" "$(echo "$a $b" | awk '{print ($2 > 0 ? $1 / $2 : 0)}')"
}
for g in "${globs[@]}"; do
  row run "$g" "$g" --cases "$cases" --artifacts "$tmp/art" --quiet
done
row certify "$rows" --contracts "$rows" --cases "$cases" --out "$tmp/cert"
row selftest "$rows" --contracts "$rows" --cases "$cases" --budget 30
