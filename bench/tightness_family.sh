#!/usr/bin/env bash
# The tightness table per FAMILY (issue 12): are the admissible bounds tight enough to
# catch bugs?  For each family (`tilediff list`'s family column), from tilediff's own
# output (`tilediff run --lane-dump`: err, tol and the output's half-ulp of every checked
# lane; the run summary's disagreeing cases):
#   - the distribution of err/tol (median, p99, max) of the family's PORTS and, apart,
#     of its ALTERNATIVES (kernels/alternatives/: other admissible implementations),
#     over the informative lanes: a tolerance above half an ulp of the output format
#     at the kernel's value (a bound of one final rounding saturates near 1 and says
#     nothing about the derivation), as bench/tightness.sh counts them;
#   - the disagreeing cases of those correct kernels (false alarms: must be 0);
#   - the fraction of the family's mutants (kernels/mutants/) flagged in their cases.
# A family's CASES are shared: the ports' runs together get CASES cases (split evenly
# over the family's contracts, at least MIN each), the alternatives' runs together
# CASES, and every mutant CASES / (the family's contracts), at least MMIN (a mutant needs
# some cases: the far tier that finds 32-bit offsets is every 16th case).  So a family
# costs about 3 * CASES cases, whatever its size (more where MMIN applies).
# A p99 far below 1 for every admissible kernel means the bound sits far above every
# reachable error, where bugs can hide; a max near 1 means some admissible kernel
# reaches it.
#
#   bench/tightness_family.sh [--cases N] [--min M] [--mutant-min M] [--families A,B] [--build DIR] [--jobs J]
#                             [--no-results]
# --cases N    cases per family and kernel group (default 2000)
# --min M      at least M cases per run of a correct kernel (default 20)
# --mutant-min at least M cases per mutant (default 48: three far-tier cases)
# --families   only these families (comma-separated; default all)
# --build DIR  an existing build's tilediff (default: a Release build in build-bench)
# --jobs J     kernel runs at once (default 2)
# The table replaces the "Tightness per family" section of bench/RESULTS.md (unless
# --no-results).
set -euo pipefail
cd "$(dirname "$0")/.."
cases=2000 min=20 mmin=48 fams='' build='' jobs=2 write_results=1
if [ "${1:-}" = "--one" ]; then # worker: --one TILEDIFF OUTDIR IDX FAMILY GROUP CONTRACT VARIANT CASES
  # writes OUTDIR/IDX.row: "family group contract variant cases lanes fails rc", and
  # OUTDIR/IDX.eot: the err/tol of the informative lanes, one per line
  set +euo pipefail
  td=$2 out=$3 idx=$4 fam=$5 grp=$6 c=$7 v=$8 n=$9
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  kopt=()
  [ "$v" = - ] || kopt=(--kernel "$v")
  dump=()
  [ "$grp" = mutant ] || dump=(--lane-dump "$tmp/lanes")
  "$td" run "$c" "${kopt[@]}" --cases "$n" --no-artifacts --jobs 1 "${dump[@]}" >"$tmp/log" 2>&1
  rc=$?
  sum=$(grep -F "$c [" "$tmp/log" | grep -F "/host]: " | tail -1)
  if [ -z "$sum" ]; then # exit 2: the library has no such kernel: no row
    [ "$rc" = 2 ] || printf '%s\t%s\t%s\t%s\t%s\t-\t-\t%s\t-\n' "$fam" "$grp" "$c" "$v" "$n" "$rc" >"$out/$idx.row"
    exit 0
  fi
  v=$(sed -n 's/^[^[]*\[\([^/]*\)\/host\]: .*/\1/p' <<<"$sum")
  lanes=$(sed -n 's/.* \([0-9]*\) lanes,.*/\1/p' <<<"$sum")
  fails=$(sed -n 's/.* \([0-9]*\) disagreeing cases.*/\1/p' <<<"$sum")
  warns=$(sed -n 's/.* \([0-9]*\) warns.*/\1/p' <<<"$sum")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$fam" "$grp" "$c" "$v" "$n" "${lanes:--}" "${fails:--}" "$rc" \
    "${warns:--}" >"$out/$idx.row"
  # "err/tol wide": wide = the tolerance exceeds 4 half-ulps (2 ulps), beyond what a final
  # rounding or a cast straddling a rounding boundary alone gives
  [ -f "$tmp/lanes" ] && awk '$1 ~ /^[0-9.e+-]+$/ && $2 ~ /^[0-9.e+-]+$/ && $3 ~ /^[0-9.e+-]+$/ && $2 + 0 > $3 + 0 {
    printf "%.6g %d\n", $1 / $2, ($2 + 0 > 4 * $3) }' "$tmp/lanes" >"$out/$idx.eot"
  exit 0
fi
while [ $# -gt 0 ]; do
  case "$1" in
    --cases) cases=$2; shift 2 ;;
    --min) min=$2; shift 2 ;;
    --mutant-min) mmin=$2; shift 2 ;;
    --families) fams=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --no-results) write_results=0; shift ;;
    --one) echo "bench/tightness_family.sh: --one is the worker's first argument" >&2; exit 2 ;;
    *) echo "bench/tightness_family.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
for x in "$cases" "$min" "$mmin" "$jobs"; do
  [[ $x =~ ^[1-9][0-9]*$ ]] || { echo "bench/tightness_family.sh: '$x' is not a positive integer" >&2; exit 2; }
done
if [ -z "$build" ]; then
  ci/deps.sh
  ci/build.sh build-bench -DCMAKE_BUILD_TYPE=Release -DTD_CUDA=OFF -DTD_TESTS=OFF -DTD_BENCH=OFF >/dev/null
  build=build-bench
fi
td=$(cd "$build" && pwd)/tilediff
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$td" list | awk 'NR > 1 { print $1, $3 }' >"$tmp/contracts"
# the library's kernels, "contract variant" per line, from one case of each (the summary
# line names the variant): alternatives are alt_*, mutants mut_* (the naming rule of
# kernels/alternatives/ and kernels/mutants/)
"$td" run '*' --all-variants --cases 1 --no-artifacts --jobs 1 2>/dev/null |
  sed -n 's/^\([^ ]*\) \[\([^/]*\)\/host\]: .*/\1 \2/p' >"$tmp/variants" || true
awk '$2 ~ /^alt_/' "$tmp/variants" >"$tmp/alts"
# (mut_large_*: the opt-in --large tier's mutants, which survive every default case by design)
awk '$2 ~ /^mut_/ && $2 !~ /^mut_large_/' "$tmp/variants" >"$tmp/muts"
# the runs: "family group contract variant cases"
awk -v want="$fams" -v N="$cases" -v M="$min" -v MM="$mmin" -v alts="$tmp/alts" -v muts="$tmp/muts" '
  function share(total, k, lo) { s = int((total + k - 1) / k); return s < lo ? lo : s }
  BEGIN {
    nw = split(want, w, ",")
    for (i = 1; i <= nw; i++) ok[w[i]] = 1
    while ((getline l < alts) > 0) { split(l, a, " "); na[a[1]]++; alt[a[1], na[a[1]]] = a[2] }
    while ((getline l < muts) > 0) { split(l, a, " "); nm[a[1]]++; mut[a[1], nm[a[1]]] = a[2] }
  }
  { if (nw && !($2 in ok)) next; fam[NR] = $2; id[NR] = $1; nc[$2]++; for (i = 1; i <= na[$1]; i++) nalt[$2]++ }
  END {
    for (r = 1; r <= NR; r++) {
      if (!(r in id)) continue
      f = fam[r]; c = id[r]
      print f, "port", c, "-", share(N, nc[f], M)
      for (i = 1; i <= na[c]; i++) print f, "alternative", c, alt[c, i], share(N, nalt[f], M)
      for (i = 1; i <= nm[c]; i++) print f, "mutant", c, mut[c, i], share(N, nc[f], MM)
    }
  }' "$tmp/contracts" >"$tmp/runs"
[ -s "$tmp/runs" ] || { echo "bench/tightness_family.sh: no contract in families '$fams'" >&2; exit 2; }
mkdir "$tmp/o"
awk '{ print NR, $0 }' "$tmp/runs" |
  xargs -P "$jobs" -L 1 bash -c '"$0" --one "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8"' "$0" "$td" "$tmp/o"
cat "$tmp/o"/*.row >"$tmp/rows" 2>/dev/null || true
# quantiles per (family, group): each group's values sorted on disk, then one pass
: >"$tmp/q"
for g in port alternative; do
  awk -v g="$g" '$2 == g { print $1 }' "$tmp/runs" | sort -u | while read -r f; do
    files=$(awk -v g="$g" -v f="$f" '$2 == g && $1 == f { print NR }' "$tmp/runs" |
      while read -r i; do if [ -s "$tmp/o/$i.eot" ]; then echo "$tmp/o/$i.eot"; fi; done)
    [ -n "$files" ] || continue
    # shellcheck disable=SC2086
    sort -g -k1,1 $files >"$tmp/sorted"
    awk '$2 == 1' "$tmp/sorted" >"$tmp/wide"
    # quantile Q (percent) of a sorted file's first column; "-" when it is empty
    at() { awk -v q="$1" 'NR == FNR { n++; next } FNR == int((n * q + 99) / 100) { print $1 }' "$2" "$2" | grep . || echo -; }
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$g" "$(wc -l <"$tmp/sorted")" "$(at 50 "$tmp/sorted")" \
      "$(at 99 "$tmp/sorted")" "$(at 100 "$tmp/sorted")" "$(wc -l <"$tmp/wide")" "$(at 99 "$tmp/wide")" \
      "$(at 100 "$tmp/wide")" >>"$tmp/q"
  done
done
{
  echo "## Tightness per family"
  echo
  echo "\`bench/tightness_family.sh --cases $cases --min $min --mutant-min $mmin${fams:+ --families $fams}\` ($(date -u +%Y-%m-%d), tree"
  echo "$(git rev-parse --short HEAD 2>/dev/null || echo "?"), binary $td)."
  echo "Per family: the ports' runs share $cases cases (split over the family's contracts, at least $min each), the"
  echo "alternatives' runs share $cases, each mutant gets $cases / contracts (at least $mmin).  err/tol over the"
  echo "*informative* lanes (tolerance above half an ulp of the output at the kernel's value; one-rounding bounds"
  echo "saturate near 1 and say nothing); lanes = informative lanes; *wide* lanes have a tolerance above 2 ulps (more"
  echo "than a final rounding or a cast straddling a rounding boundary: the derivation's own terms), their p99 and"
  echo "max apart; FAIL = disagreeing cases of correct kernels (false alarms); WARN = lanes of the ports / of the"
  echo "alternatives with a lane past the probabilistic bound but within the rigorous one (not a failure); killed ="
  echo "mutants with a disagreeing case in their cases."
  echo
  echo "| family | contracts | ports: lanes | median | p99 | max | wide | p99 | max | alternatives | alt: lanes | median | p99 | max | wide | p99 | max | FAIL | WARN ports / alts | mutants killed |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  awk -F'\t' -v q="$tmp/q" '
    BEGIN {
      while ((getline l < q) > 0) {
        split(l, x, "\t")
        Q[x[1], x[2]] = sprintf("%s | %s | %s | %s | %s | %s | %s", x[3], g3(x[4]), g3(x[5]), g3(x[6]), x[7], g3(x[8]), g3(x[9]))
      }
    }
    function g3(v) { return v == "-" ? v : sprintf("%.3g", v) }
    {
      f = $1; fam[f] = 1
      if ($2 == "port") nc[f]++
      if ($2 == "alternative") nalt[f]++
      if ($2 != "mutant" && $7 != "0") bad[f] += ($7 == "-" ? 1 : $7)
      if ($2 == "port" && $9 != "-") wp[f] += $9
      if ($2 == "alternative" && $9 != "-") wa[f] += $9
      if ($2 == "mutant") { nm[f]++; if ($7 != "-" && $7 + 0 > 0) kill[f]++ }
    }
    END {
      for (f in fam) {
        qp = ((f, "port") in Q) ? Q[f, "port"] : "0 | - | - | - | 0 | - | -"
        qa = ((f, "alternative") in Q) ? Q[f, "alternative"] : "0 | - | - | - | 0 | - | -"
        printf "| %s | %d | %s | %d | %s | %d | %d / %d | %d/%d (%.0f%%) |\n", f, nc[f], qp, nalt[f], qa, bad[f] + 0,
               wp[f] + 0, wa[f] + 0, kill[f] + 0,
               nm[f] + 0, nm[f] ? 100 * kill[f] / nm[f] : 0
      }
    }' "$tmp/rows" | sort
  echo
  awk -F'\t' '$2 != "mutant" && $7 != "0" { printf "- false alarm or failed run: %s %s (%s cases): FAIL %s, exit %s\n", $3, $4, $5, $7, $8 }
    $2 == "mutant" && ($7 == "-" || $7 == "0") { printf "- mutant not flagged in %s cases: %s %s (exit %s)\n", $5, $3, $4, $8 }' "$tmp/rows"
} >"$tmp/section"
cat "$tmp/section"
if [ "$write_results" = 1 ]; then
  res=bench/RESULTS.md
  [ -f "$res" ] || printf "# Benchmark results\n" >"$res"
  awk -v sec="$tmp/section" '
    /^## Tightness per family$/ { while ((getline l < sec) > 0) print l; skip = 1; done = 1; next }
    skip && /^## / { skip = 0 }
    !skip { print }
    END { if (!done) { print ""; while ((getline l < sec) > 0) print l } }' "$res" >"$tmp/res"
  mv "$tmp/res" "$res"
fi
