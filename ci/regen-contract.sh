#!/usr/bin/env bash
# Regenerates the committed artefacts of the contracts whose id matches GLOB, or with
# --check says which of them are stale:
#   tests/decode-digests.txt     the contract's line (tilediff digest)
#   corpus/<id>/, <id>.options   the seed corpus, one input per boundary class (tilediff corpus-seed)
#   corpus/regressions/<id>/     one minimised killing input per host mutant (tilediff corpus-regress)
# Run it after adding a contract or after a deliberate change to a generator (the same
# bytes then decode to other cases, so every input above changes meaning).
# Usage: ci/regen-contract.sh [--check] [--build-dir DIR] GLOB    (a shell pattern over the
#        contract ids of `tilediff list`, e.g. 'add_example.*'; '*' for every contract)
# Exit: 0 done / up to date, 1 stale (--check) or a mutant no input kills, 2 bad usage.
set -uo pipefail
cd "$(dirname "$0")/.."
check=0 bdir=build glob=
while (($#)); do
  case "$1" in
    --check) check=1 ;;
    --build-dir) bdir=${2:?--build-dir DIR}; shift ;;
    -*) echo "ci/regen-contract.sh: unknown option $1" >&2; exit 2 ;;
    *) glob=$1 ;;
  esac
  shift
done
[ -n "$glob" ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
td=$bdir/tilediff
[ -x "$td" ] || { echo "ci/regen-contract.sh: no $td (build first: cmake --build $bdir --target tilediff)" >&2; exit 2; }
mapfile -t ids < <("$td" list | tail -n +2 | awk '{print $1}' | while read -r id; do
  [[ $id == $glob ]] && echo "$id"; done)
((${#ids[@]})) || { echo "ci/regen-contract.sh: no contract id matches '$glob' (tilediff list)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stale=0
note() { echo "$*"; stale=1; }

# digests: the matching contracts' lines from this build, every other line as committed
# (in the registry's order)
"$td" digest >"$tmp/digests.all" || exit 3
printf '%s\n' "${ids[@]}" >"$tmp/ids"
awk 'FILENAME == ARGV[1] { mine[$1] = 1; next } FILENAME == ARGV[2] { old[$1] = $0; next }
     { if ($1 in mine) print; else if ($1 in old) print old[$1] }' \
  "$tmp/ids" tests/decode-digests.txt "$tmp/digests.all" >"$tmp/digests.txt"

# seeds: generated afresh into tmp
"$td" corpus-seed --contracts "$glob" --out "$tmp/corpus" >"$tmp/seed.log" || { cat "$tmp/seed.log"; stale=1; }

if ((check)); then
  cmp -s "$tmp/digests.txt" tests/decode-digests.txt ||
    note "stale: tests/decode-digests.txt (contracts matching '$glob' decode differently, or are missing)"
  for id in "${ids[@]}"; do
    diff -rq "$tmp/corpus/$id" "corpus/$id" >/dev/null 2>&1 || note "stale: corpus/$id/ (the seed corpus)"
    cmp -s "$tmp/corpus/$id.options" "corpus/$id.options" || note "stale: corpus/$id.options"
    # regressions: each must still give its recorded verdict, and every host mutant has one
    if [ -d "corpus/regressions/$id" ]; then
      "$td" regress "corpus/regressions/$id" >"$tmp/regress.log" 2>&1 ||
        note "stale: corpus/regressions/$id/ ($(tail -1 "$tmp/regress.log"))"
    fi
    m=$("$td" list | awk -v c="$id" '$1 == c' | grep -o '([0-9]* mutants)' | grep -o '[0-9]*')
    n=$(ls "corpus/regressions/$id"/*.tdf 2>/dev/null | wc -l)
    [ -z "$m" ] || [ "$n" -ge "$m" ] || note "stale: corpus/regressions/$id/ has $n inputs for $m host mutants"
  done
  ((stale)) && echo "regenerate: ci/regen-contract.sh '$glob'" && exit 1
  echo "up to date: ${#ids[@]} contracts matching '$glob'"
  exit 0
fi

cp "$tmp/digests.txt" tests/decode-digests.txt
for id in "${ids[@]}"; do
  rm -rf "corpus/$id" && cp -r "$tmp/corpus/$id" "corpus/$id" && cp "$tmp/corpus/$id.options" corpus/
done
cat "$tmp/seed.log"
# regressions: a mutant's old input is replaced by its new one; inputs of real
# findings (variants that are not mutants of this build) are kept
"$td" corpus-regress --contracts "$glob" --out "$tmp/reg" | sed "s|^$tmp/reg/|corpus/regressions/|" || stale=1
for id in "${ids[@]}"; do
  [ -d "$tmp/reg/$id" ] || continue
  mkdir -p "corpus/regressions/$id"
  for f in "$tmp/reg/$id"/*.tdf; do
    v=$(basename "$f" | cut -d. -f1)
    rm -f "corpus/regressions/$id/$v".*.tdf "corpus/regressions/$id/$v".*.expect
  done
  cp "$tmp/reg/$id"/* "corpus/regressions/$id/"
done
((stale)) && { echo "ci/regen-contract.sh: see above (a class not reached, or a mutant no input kills)"; exit 1; }
echo "regenerated: ${#ids[@]} contracts matching '$glob'; review with git status corpus tests/decode-digests.txt"
