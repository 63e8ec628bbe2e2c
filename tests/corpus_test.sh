#!/usr/bin/env bash
# The committed corpora: every contract has a seed corpus that covers every boundary
# class its generator declares and is what `tilediff corpus-seed` makes of the current
# generator (not stale), and every reproducer under corpus/regressions replays to the
# verdict it recorded (mutants still killed, correct kernels still passing).
# ci/regen-contract.sh regenerates all of them for a contract.
# Usage: corpus_test.sh SOURCE_DIR PATH/TO/tilediff
set -u
src=$1 td=$2
fails=0
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
"$td" corpus-seed --out "$fresh" >/dev/null # a class not reached is reported below
# the contract list once: under the sanitizers each `tilediff list` costs ~0.05 s, and two
# per contract were a third of this test there
list=$("$td" list | tail -n +2)
while read -r id; do
  dir="$src/corpus/$id"
  if [ ! -d "$dir" ]; then echo "FAIL: $id has no seed corpus (tilediff corpus-seed --contracts '$id')"; fails=$((fails + 1)); continue; fi
  [ -f "$src/corpus/$id.options" ] || { echo "FAIL: $id has no .options"; fails=$((fails + 1)); }
  out=$("$td" corpus-stats "$dir" 2>&1) || { echo "FAIL: corpus-stats $dir: $out"; fails=$((fails + 1)); continue; }
  printf '%s\n' "$out" | grep -q '^missed:  none' || { echo "FAIL: $id seeds miss classes: $(printf '%s' "$out" | grep '^missed')"; fails=$((fails + 1)); }
  diff -rq "$fresh/$id" "$dir" >/dev/null && cmp -s "$fresh/$id.options" "$src/corpus/$id.options" ||
    { echo "FAIL: $id's seed corpus is stale (ci/regen-contract.sh '$id')"; fails=$((fails + 1)); }
done < <(awk '{print $1}' <<<"$list")
"$td" regress "$src/corpus/regressions" || { echo "FAIL: regression corpus verdicts changed"; fails=$((fails + 1)); }
# every mutant has a regression input
while read -r id; do
  n=$(ls "$src/corpus/regressions/$id"/*.tdf 2>/dev/null | wc -l)
  m=$(awk -v c="$id" '$1 == c' <<<"$list" | grep -o '([0-9]* mutants)' | grep -o '[0-9]*')  # host mutants (the regressions replay on the host)
  [ -z "$m" ] || [ "$n" -ge "$m" ] || { echo "FAIL: $id has $m mutants but $n regression inputs"; fails=$((fails + 1)); }
done < <(awk '{print $1}' <<<"$list")
echo "$fails failed"
[ "$fails" = 0 ]
