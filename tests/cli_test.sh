#!/usr/bin/env bash
# The command line end to end: exit codes, messages that name what is wrong, and
# reproducers that replay to the same finding byte for byte.
# Usage: cli_test.sh PATH/TO/tilediff
set -u
td=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
expect() { # expect CODE PATTERN -- command...
    local code=$1 pat=$2; shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" != "$code" ] || ! grep -q -- "$pat" "$tmp/out" "$tmp/err"; then
        echo "FAIL: $* -> exit $rc (want $code), output lacks '$pat'"; sed 's/^/    /' "$tmp/err" | head -5
        fails=$((fails + 1))
    else
        echo "ok: $* -> $rc"
    fi
}
C=add_example.add_kernel_correctness
expect 0 "$C" -- "$td" list
expect 0 "error model" -- "$td" list -v
expect 2 "unknown command" -- "$td" frobnicate
expect 2 "unknown contract 'no_such.contract'" -- "$td" run no_such.contract
expect 2 "unknown option '--bogus'" -- "$td" run $C --bogus
expect 2 "needs a non-negative integer" -- "$td" run $C --cases -3
expect 2 "no CUDA device" -- "$td" run $C --backend cuda --cases 1
expect 2 "no host kernel 'nope'" -- "$td" run $C --kernel nope
expect 0 "0 disagreeing cases" -- "$td" run $C --cases 50 --artifacts "$tmp/a0"
# --lane-dump: one "err tol half_ulp" line per checked lane, as many as the run counted
expect 0 "0 disagreeing cases" -- "$td" run $C --cases 20 --no-artifacts --lane-dump "$tmp/lanes"
lanes=$(sed -n 's/.* \([0-9]*\) lanes,.*/\1/p' "$tmp/out")
if [ -n "$lanes" ] && [ "$(wc -l <"$tmp/lanes")" = "$lanes" ] && awk 'NF != 3 || $1 > $2 { bad = 1 } END { exit bad }' "$tmp/lanes"; then
    echo "ok: --lane-dump wrote $lanes lanes, each within its tolerance"
else
    echo "FAIL: --lane-dump: $(wc -l <"$tmp/lanes") lines for ${lanes:-?} lanes"; fails=$((fails + 1))
fi
expect 2 "lane-dump" -- "$td" run $C --cases 1 --lane-dump "$tmp/no/such/dir/f"
expect 1 "FINDING $C" -- "$td" run $C --kernel mut_mask_off_by_one --cases 50 --artifacts "$tmp/a1"
# take the outside-write-set finding's reproducer, by the command printed for it
art=$(sed -n 's/^    outside-write-set in out_ptr: .*; repro: tilediff repro //p' "$tmp/out")
[ -n "$art" ] || { echo "FAIL: no artifact written"; fails=$((fails + 1)); }
expect 1 "outside-write-set" -- "$td" repro "$art"
"$td" repro "$art" >"$tmp/r1" 2>&1; "$td" repro "$art" >"$tmp/r2" 2>&1
cmp -s "$tmp/r1" "$tmp/r2" && echo "ok: repro is byte-for-byte identical" || { echo "FAIL: repro differs between runs"; fails=$((fails + 1)); }
expect 1 '"finding":true' -- "$td" repro --json "$art"
expect 0 "no disagreement" -- "$td" repro --kernel triton "$art"
expect 0 "bound" -- "$td" explain $C "$art"
expect 0 "terms" -- "$td" explain $C "$art" --kernel triton --lane 0
# minimize: keeps the same finding (class and region), shrinks, is deterministic, and
# the result replays; an input that is not a finding has nothing to keep
expect 1 "same finding: outside-write-set out_ptr" -- "$td" minimize "$art" -o "$tmp/min1.tdf"
"$td" minimize "$art" -o "$tmp/min2.tdf" >/dev/null 2>&1
cmp -s "$tmp/min1.tdf" "$tmp/min2.tdf" && echo "ok: minimize is deterministic" ||
    { echo "FAIL: two minimize runs differ"; fails=$((fails + 1)); }
[ -s "$tmp/min1.tdf" ] && [ "$(stat -c %s "$tmp/min1.tdf")" -lt "$(stat -c %s "$art")" ] && echo "ok: minimize shrinks" ||
    { echo "FAIL: the minimised artifact is not smaller"; fails=$((fails + 1)); }
expect 1 "outside-write-set" -- "$td" repro "$tmp/min1.tdf"
expect 2 "not a finding" -- "$td" minimize "$art" --kernel triton -o "$tmp/min3.tdf"
[ ! -e "$tmp/min3.tdf" ] && echo "ok: nothing written for a non-finding" ||
    { echo "FAIL: minimize wrote $tmp/min3.tdf for a non-finding"; fails=$((fails + 1)); }
expect 2 "out of range" -- "$td" explain $C "$art" --lane 99999999
expect 2 "no_such_file" -- "$td" repro "$tmp/no_such_file"
head -c 10 "$art" >"$tmp/trunc.tdf"
expect 2 "truncated artifact header" -- "$td" repro "$tmp/trunc.tdf"
printf 'abc' >"$tmp/raw"
expect 2 "pass --contract" -- "$td" repro "$tmp/raw"
expect 0 "no disagreement" -- "$td" repro --contract $C "$tmp/raw"
: >"$tmp/empty"
expect 0 "no disagreement" -- "$td" repro --contract $C "$tmp/empty"
head -c 1048576 /dev/urandom >"$tmp/big"
expect 0 "no disagreement" -- "$td" repro --contract $C "$tmp/big"
# corpus-stats names the boundary classes a corpus covers and the ones it misses
mkdir -p "$tmp/cs/$C" && cp "$tmp/empty" "$tmp/cs/$C/empty"
expect 0 "missed:  [a-z]" -- "$td" corpus-stats "$tmp/cs/$C"
expect 0 "covered: [a-z]" -- "$td" corpus-stats "$tmp/cs/$C"
expect 2 "no contract" -- "$td" corpus-stats "$tmp/cs"
expect 2 "No such file" -- "$td" corpus-stats "$tmp/no_such_dir"
# certify in two shards, then merged: every contract exactly once
expect 0 "report:" -- "$td" certify --cases 10 --shard 1/2 --out "$tmp/s1"
cp "$tmp/out" "$tmp/s1.out"
expect 0 "report:" -- "$td" certify --cases 10 --shard 2/2 --out "$tmp/s2"
expect 0 "report:" -- "$td" report merge "$tmp/s1" "$tmp/s2" --out "$tmp/m"
n_all=$("$td" list | tail -n +2 | wc -l)
n_merged=$(grep -o '"id":"[^"]*","file"' "$tmp/m/report.json" | sort -u | wc -l)
[ "$n_all" = "$n_merged" ] && echo "ok: merged report has all $n_all contracts" || { echo "FAIL: merged $n_merged of $n_all"; fails=$((fails + 1)); }
for f in report.md report.html junit.xml; do [ -s "$tmp/m/$f" ] || { echo "FAIL: merge wrote no $f"; fails=$((fails + 1)); }; done
# the summary gives a reason for "not checked" only when some are: never "0 not checked: mostly ..."
grep -q ' 0 not checked), ' "$tmp/s1.out" && ! grep -q '0 not checked:' "$tmp/s1.out" &&
    echo "ok: no reason after 0 not checked" || { echo "FAIL: the summary explains 0 not-checked kernels"; fails=$((fails + 1)); }
mkdir -p "$tmp/nc" && cp -r "$tmp/s2/." "$tmp/nc/" &&
    sed -i '0,/"status":"passed"/s//"status":"not-checked","reason":"mostly unbounded lanes"/' "$tmp/nc/report.json"
expect 0 "1 not checked: mostly unbounded lanes)" -- "$td" report merge "$tmp/s1" "$tmp/nc" --out "$tmp/m3"
mkdir -p "$tmp/bad" && echo '{"schema":"other"}' >"$tmp/bad/report.json"
expect 2 "not a tilediff certify report" -- "$td" report merge "$tmp/bad" --out "$tmp/m2"
expect 2 "needs K/N" -- "$td" certify --shard 3/2
# --help / -h on every command: its usage and options, exit 0
for cmd in $("$td" --help | sed -n 's/^  tilediff \([a-z-]*\).*/\1/p'); do
    expect 0 "usage: tilediff $cmd" -- "$td" "$cmd" --help
    expect 0 "usage: tilediff $cmd" -- "$td" "$cmd" -h
done
expect 0 "--kernel VARIANT|GLOB" -- "$td" certify --help
expect 0 "--full" -- "$td" help explain
# offsets beyond 2^31: which contracts reach them, what a far case costs, and the
# int32-offset mutant killed by case 15 of seed 1 (the first far case), replayed
S=softmax_triton1.softmax_kernel_correctness
expect 0 "offsets beyond 2^31: far cases" -- "$td" list -v
expect 0 "24 GiB of address space" -- "$td" run --help
expect 1 "case 15 (seed 1)" -- "$td" run $S --kernel mut_offset_int32 --cases 16 --artifacts "$tmp/far"
expect 1 "illegal memory access: program 1" -- "$td" repro "$tmp"/far/*.tdf
expect 0 "0 disagreeing cases" -- "$td" run $S --cases 16 --no-artifacts
# the large tier (flat launches of 2^31+ elements): opt-in, its cost stated, refused
# where the machine lacks it or the contract has none; without --large no case is large
# (the int32-offset mutant of add_example survives); tests/test_large.c runs the cases
expect 0 "more than 2^31 elements: large tier" -- "$td" list -v
expect 0 "--large" -- "$td" run --help
expect 0 "--large" -- "$td" certify --help
expect 0 "0 disagreeing cases" -- "$td" run $C --kernel mut_large_offset_int32 --cases 16 --no-artifacts
expect 2 "no contract matching '$S' has a large tier" -- "$td" run $S --large --cases 8
expect 2 "commits about .* MiB, and the machine has 1 MiB available" -- \
    env TD_LARGE_MEMAVAIL_MIB=1 "$td" run $C --large --cases 8 --no-artifacts
expect 2 "no contract matching 'triton_argmax\\*' has a large tier" -- "$td" certify --large --contracts 'triton_argmax*' --cases 8 --out "$tmp/cl"
# run: one finding per root cause, naming its case and the exact command that replays it
"$td" run $C --kernel mut_mask_off_by_one --cases 60 --artifacts "$tmp/a2" >"$tmp/run2" 2>&1
roots=$(grep -c '^FINDING ' "$tmp/run2")
grep -q "  $roots distinct finding" "$tmp/run2" && echo "ok: run reports each root cause once ($roots)" ||
    { echo "FAIL: run printed $roots findings but no matching root-cause list"; fails=$((fails + 1)); }
dis=$(sed -n 's/.* \([0-9]*\) disagreeing cases.*/\1/p' "$tmp/run2")
[ "${dis:-0}" -gt "$roots" ] && echo "ok: $dis disagreeing cases grouped into $roots findings" ||
    { echo "FAIL: $dis disagreeing cases, $roots findings: nothing was grouped"; fails=$((fails + 1)); }
grep -q '^  case [0-9]* (seed 1), reproducer ' "$tmp/run2" && echo "ok: a finding names its case" ||
    { echo "FAIL: no case index in the finding"; fails=$((fails + 1)); }
cmd=$(sed -n 's/^  repro: //p' "$tmp/run2" | head -1)
case "$cmd" in "tilediff repro "*) ;; *) echo "FAIL: no repro command printed"; fails=$((fails + 1)) ;; esac
expect 1 "outside-write-set" -- "$td" ${cmd#tilediff }
# certify: --kernel (repeatable, a glob) certifies those variants, each on its own row
expect 1 "report:" -- "$td" certify --contracts $C --kernel triton --kernel 'mut_mask*' --cases 30 --out "$tmp/k1"
grep -q "\"kernel\":\"triton\",\"status\":\"passed\"" "$tmp/k1/report.json" &&
    grep -q "\"kernel\":\"mut_mask_off_by_one\",\"status\":\"failed\"" "$tmp/k1/report.json" &&
    echo "ok: certify --kernel ran both variants on their own rows" || { echo "FAIL: certify --kernel rows"; fails=$((fails + 1)); }
grep -q '"lane_in_tile":' "$tmp/k1/report.json" && echo "ok: findings carry their lane in the tile" ||
    { echo "FAIL: no lane_in_tile in the findings"; fails=$((fails + 1)); }
# certify --budget: a kernel runs at least 8 cases however small its share of the time
expect 0 "report:" -- "$td" certify --contracts $C --budget 0.000001 --out "$tmp/b1"
rows=$(grep -o '"kernel":"[^"]*","status":"[a-z-]*","cases":[0-9]*' "$tmp/b1/report.json")
[ -n "$rows" ] && ! grep -qv '"cases":8$' <<<"$rows" &&
    grep -q 'at least 8 cases a kernel' "$tmp/b1/report.json" && echo "ok: certify --budget runs 8 cases a kernel" ||
    { echo "FAIL: certify --budget's floor of cases: $rows"; fails=$((fails + 1)); }
expect 2 "nothing was certified" -- "$td" certify --contracts $C --kernel nope --cases 5 --out "$tmp/k2"
grep -q '"status":"not-covered"' "$tmp/k2/report.json" && echo "ok: nothing covered still writes the report" ||
    { echo "FAIL: no report for a run that covers nothing"; fails=$((fails + 1)); }
# the terminal table keeps its columns whatever the length of the ids
awk '/^CONTRACT /{h=index($0,"STATUS")} h && /^[a-z]/ && !/^CONTRACT/ {
       if (!match($0, / (passed|failed|not-covered|crashed|timeout) /)) next; if (RSTART + 1 != h) bad=1 }
     END {exit bad || !h}' "$tmp/s1.out" && echo "ok: the table's STATUS column is aligned" ||
    { echo "FAIL: table columns shift"; fails=$((fails + 1)); }
expect 2 "no contract matches" -- "$td" certify --contracts 'nothing_*'
echo "$fails failed"
[ "$fails" = 0 ]
