#!/usr/bin/env bash
# How tight the derived tolerances are, per contract, on the port AND on every
# alternative (kernels/alternatives/: other admissible implementations), from CASES
# cases per kernel (default 2000) with per-lane samples (`tilediff run --lane-dump`):
#   - median and 99th percentile of err/tol over the INFORMATIVE lanes: those whose
#     tolerance exceeds half an ulp of the output format at the kernel's value (a lane whose
#     bound is one final rounding saturates near 1 and says nothing about the bound);
#   - the largest err/tol over the informative lanes and over all checked lanes;
#   - the number of disagreeing cases (must be 0: every kernel here is correct).
# The issue-12 goal: on every reduction contract, some alternative reaches a worst
# err/tol of at least 1e-2 (a bound far above anything reachable detects nothing).
# The table replaces the "Tightness" section of bench/RESULTS.md.
#
#   bench/tightness.sh [--cases N] [--contracts GLOB] [--build DIR] [--jobs J] [--no-results]
# --build DIR uses an existing build's tilediff (default: a Release build in build-bench).
set -euo pipefail
cd "$(dirname "$0")/.."
cases=2000 glob='*' build='' jobs=2 write_results=1
if [ "${1:-}" = "--one" ]; then # worker: --one TILEDIFF CASES CONTRACT VARIANT -> one TSV line
  # (v "-": the library's default correct kernel, the port; its name is read back)
  set +euo pipefail
  td=$2 cases=$3 c=$4 v=$5
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  kopt=()
  [ "$v" = - ] || kopt=(--kernel "$v")
  "$td" run "$c" "${kopt[@]}" --cases "$cases" --no-artifacts --lane-dump "$tmp/lanes" >"$tmp/log" 2>&1
  rc=$?
  sum=$(grep -F "$c [" "$tmp/log" | grep -F "/host]: " | tail -1)
  if [ -z "$sum" ]; then # exit 2: the library has no such kernel (no row); else say what happened
    [ "$rc" = 2 ] || printf '%s\t%s\t%s\t-\t-\t-\t-\t-\t-\texit %s\t%s\n' "$c" "$v" "$cases" "$rc" "$rc"
    exit 0
  fi
  v=$(sed -n 's/^[^[]*\[\([^/]*\)\/host\]: .*/\1/p' <<<"$sum")
  lanes=$(sed -n 's/.* \([0-9]*\) lanes,.*/\1/p' <<<"$sum")
  fails=$(sed -n 's/.* \([0-9]*\) disagreeing cases.*/\1/p' <<<"$sum")
  worst=$(sed -n 's/.*worst err\/tol \([^,]*\),.*/\1/p' <<<"$sum")
  # err/tol of the lanes with a finite tolerance above one final-cast half-ulp
  awk '$1 ~ /^[0-9.e+-]+$/ && $2 ~ /^[0-9.e+-]+$/ && $3 ~ /^[0-9.e+-]+$/ && $2 + 0 > $3 + 0 { print $1 / $2 }' \
    "$tmp/lanes" 2>/dev/null | sort -g >"$tmp/r" || true
  n=$(wc -l <"$tmp/r")
  q() { [ "$n" -gt 0 ] && sed -n "$(( (n * $1 + 99) / 100 ))p" "$tmp/r" || echo -; }
  max=$([ "$n" -gt 0 ] && tail -1 "$tmp/r" || echo -)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$v" "$cases" "${lanes:--}" "$n" "$(q 50)" "$(q 99)" \
    "$max" "${worst:--}" "${fails:--}" "$rc"
  exit 0
fi
while [ $# -gt 0 ]; do
  case "$1" in
    --cases) cases=$2; shift 2 ;;
    --contracts) glob=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --no-results) write_results=0; shift ;;
    --one) echo "bench/tightness.sh: --one is the worker's first argument" >&2; exit 2 ;;
    *) echo "bench/tightness.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ -z "$build" ]; then
  ci/deps.sh
  ci/build.sh build-bench -DCMAKE_BUILD_TYPE=Release -DTD_CUDA=OFF -DTD_TESTS=OFF -DTD_BENCH=OFF >/dev/null
  build=build-bench
fi
td=$(cd "$build" && pwd)/tilediff
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the kernels: each contract's port (the library's default correct kernel), then the
# alternatives of the built-in library
"$td" list | awk 'NR > 1 { print $1, $3 }' >"$tmp/contracts"
# (asked of tilediff, not grepped from the sources: alternatives name their contract
# through macros too; one case per variant, the summary line names it; alt_* is the naming
# rule of kernels/alternatives/)
"$td" run "$glob" --all-variants --cases 1 --no-artifacts --jobs 1 2>/dev/null |
  sed -n 's/^\([^ ]*\) \[\(alt_[^/]*\)\/host\]: .*/\1 \2/p' >"$tmp/alts" || true
while read -r c fam; do
  # shellcheck disable=SC2053
  [[ $c == $glob ]] || continue
  echo "$c -"
  awk -v c="$c" '$1 == c { print $1, $2 }' "$tmp/alts"
done <"$tmp/contracts" >"$tmp/kernels"
xargs -P "$jobs" -L 1 bash -c '"$0" --one "$1" "$2" "$3" "$4"' "$0" "$td" "$cases" <"$tmp/kernels" >"$tmp/rows"
sort -k1,1 -k2,2 "$tmp/rows" >"$tmp/sorted"
{
  echo "## Tightness"
  echo
  echo "\`bench/tightness.sh --cases $cases\` ($(date -u +%Y-%m-%d), $(git rev-parse --short HEAD 2>/dev/null || echo '?'))."
  echo "err/tol per checked lane; *informative* lanes have a tolerance above half an ulp of the output format"
  echo "at the kernel's value (a one-rounding bound saturates near 1 and says nothing).  median, p99, max(inf.)"
  echo "are over the informative lanes, max(all) over every checked lane; FAIL = disagreeing cases (a FAIL"
  echo "of a port or an alternative is a false alarm).  Kernels: the port and kernels/alternatives/ (alt_*)."
  echo
  echo "| contract | family | kernel | cases | lanes | informative | median | p99 | max (inf.) | max (all) | FAIL |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  while IFS=$'\t' read -r c v n lanes inf med p99 max worst fails rc; do
    fam=$(awk -v c="$c" '$1 == c { print $2 }' "$tmp/contracts")
    echo "| $c | $fam | $v | $n | $lanes | $inf | $med | $p99 | $max | $worst | $fails |"
  done <"$tmp/sorted"
  echo
  awk -F'\t' '{ k++; if ($10 != "0") f++; if ($2 ~ /^alt_/) a++ }
    END { printf "%d kernels (%d alternatives), %d with disagreeing cases\n", k, a, f }' "$tmp/sorted"
} >"$tmp/section"
cat "$tmp/section"
if [ "$write_results" = 1 ]; then
  res=bench/RESULTS.md
  [ -f "$res" ] || printf "# Benchmark results\n" >"$res"
  # replace the Tightness section (up to the next "## " heading), or append it
  awk -v sec="$tmp/section" '
    /^## Tightness$/ { while ((getline l < sec) > 0) print l; skip = 1; done = 1; next }
    skip && /^## / { skip = 0 }
    !skip { print }
    END { if (!done) { print ""; while ((getline l < sec) > 0) print l } }' "$res" >"$tmp/res"
  mv "$tmp/res" "$res"
fi
