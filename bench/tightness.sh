#!/usr/bin/env bash
# The derived tolerances' two numbers, from one run of CASES cases per contract on the
# correct host kernels (default 10^4; on both cores: two certify shards merged):
#   - the largest err/tol observed per contract: below 1e-3 the bound is too loose to
#     catch a real bug (each such contract's file must say why it cannot be tighter);
#   - the number of FAILs: must be 0 (a FAIL of a correct kernel is a false alarm).
#
#   bench/tightness.sh [--cases N] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
cases=10000 out=tightness-out
while [ $# -gt 0 ]; do
  case "$1" in
    --cases) cases=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "bench/tightness.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
ci/deps.sh
ci/build.sh build-bench -DCMAKE_BUILD_TYPE=Release -DTD_CUDA=OFF -DTD_TESTS=OFF -DTD_BENCH=OFF >/dev/null
td=build-bench/tilediff
rm -rf "$out"
"$td" certify --cases "$cases" --shard 1/2 --timeout 7200 --out "$out/s1" >/dev/null &
p1=$!
"$td" certify --cases "$cases" --shard 2/2 --timeout 7200 --out "$out/s2" >/dev/null &
p2=$!
wait $p1 || true
wait $p2 || true
"$td" report merge "$out/s1" "$out/s2" --out "$out/all" >/dev/null || true
python3 - "$out/all/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
loose = 0
fails = 0
print(f"{'CONTRACT':64} {'CASES':>7} {'LANES':>11} {'FAILS':>6} {'WARNS':>6} {'WORST ERR/TOL':>13}")
for c in r["contracts"]:
    w = c["worst_err_over_tol"]
    w = float("inf") if w == "inf" else (w if w is not None else float("nan"))
    f = c["disagreements"]
    fails += f
    flag = ""
    if w == w and 0 < w < 1e-3:
        loose += 1
        flag = "  < 1e-3: see the contract file"
    print(f"{c['id']:64} {c['cases']:7} {c['lanes']:11} {f:6} {c['warns']:6} {w:13.4g}{flag}")
print(f"\n{len(r['contracts'])} contracts, {fails} disagreeing cases (must be 0), {loose} contracts with worst err/tol below 1e-3")
PY
