#!/usr/bin/env bash
# The rules of `tilediff selftest`, each checked so that loosening it fails here:
#  - a flag on a correct kernel (an alternative) is a false alarm: exit 1;
#  - a mutant killed by a crash or a hang counts only when the crash is the kernel's;
#    tilediff dying outside the kernel is a harness bug (exit 3), not a kill;
#  - the false-alarm half gets the same case budget per kernel as the kill half.
# Usage: selftest_test.sh TILEDIFF PLUGIN_DIR
set -u
T=$1 plugins=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # check NAME CONDITION-COMMAND...
    local name=$1; shift
    if "$@"; then echo "ok: $name"; else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
run() { "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }
rc() { cat "$tmp/rc"; }
line() { grep -E "$1" "$tmp/out"; } # the matrix line of a kernel
has() { line "$1" | grep -qE -- "$2"; }

run "$T" selftest --kernels "$plugins/libtdtest_st_good.so" --cases 60 --budget 5
check "correct library: exit 0" test "$(rc)" = 0
check "the mutant is killed" has ' mut_plus_one ' ' yes '
check "the alternative is in the false-alarm matrix, clean" has ' alt_plugin ' 'alternative +60 .* clean'
check "the port is in the false-alarm matrix, clean" has '^add_example.* plugin ' 'port +60 .* clean'

run "$T" selftest --kernels "$plugins/libtdtest_st_false_alarm.so" --cases 60 --budget 5
check "a flagged alternative fails selftest (exit 1)" test "$(rc)" = 1
check "the flag is reported as a false alarm" has ' alt_plugin ' 'FLAGGED .*false alarm'
check "the summary counts it" grep -q '1 false alarms on 2 correct kernels (1 of them on 1 alternatives)' "$tmp/out"

run "$T" selftest --kernels "$plugins/libtdtest_st_crash.so" --cases 60 --budget 5
check "a mutant that crashes in its own code is killed (exit 0)" test "$(rc)" = 0
check "caught as a crash" has ' mut_plus_one ' ' yes .* crash'

run "$T" selftest --kernels "$plugins/libtdtest_st_hang.so" --cases 60 --budget 5 --timeout 1
check "a mutant that hangs in its own code is killed (exit 0)" test "$(rc)" = 0
check "caught as a hang" has ' mut_plus_one ' ' yes .* hang'

TD_SELFTEST_FAULT=harness-abort run "$T" selftest --kernels "$plugins/libtdtest_st_good.so" --cases 60 --budget 5
check "tilediff dying outside the kernel is a harness error (exit 3)" test "$(rc)" = 3
check "... and kills no mutant" has ' mut_plus_one ' ' \? .*HARNESS ERROR: tilediff died of signal 6'
check "... and is no false alarm either" has ' alt_plugin ' 'HARNESS ERROR'
check "the summary says 0 killed" grep -q '^0 of 1 mutants killed' "$tmp/out"

# a budget far too small for the cases asked: both halves still run their floor of cases
run "$T" selftest --kernels "$plugins/libtdtest_st_good.so" --cases 37 --budget 0.001
check "tiny budget: exit 0" test "$(rc)" = 0
check "the alternative ran the full case budget" has ' alt_plugin ' 'alternative +37 '
check "the port ran the full case budget" has '^add_example.* plugin ' 'port +37 '
check "the kill half states the floor" grep -q 'at least 37 cases' "$tmp/out"

# --only: the rows asked for and no others (CI runs mutants,alternatives: the ports are
# test_contracts'); a flagged alternative still fails without the ports
run "$T" selftest --kernels "$plugins/libtdtest_st_good.so" --cases 60 --budget 5 --only mutants,alternatives
check "--only mutants,alternatives: exit 0" test "$(rc)" = 0
check "... the mutant row" has ' mut_plus_one ' ' yes '
check "... the alternative row" has ' alt_plugin ' 'alternative +60 .* clean'
check "... no port row" sh -c "! grep -qE '^add_example.* plugin +port ' '$tmp/out'"
run "$T" selftest --kernels "$plugins/libtdtest_st_good.so" --cases 60 --budget 5 --only ports
check "--only ports: no kill matrix" sh -c "! grep -q 'Kill matrix' '$tmp/out'"
check "... the port row only" has '^add_example.* plugin ' 'port +60 .* clean'
check "... no alternative row" sh -c "! grep -q ' alt_plugin ' '$tmp/out'"
run "$T" selftest --kernels "$plugins/libtdtest_st_false_alarm.so" --cases 60 --budget 5 --only alternatives
check "--only alternatives: a flagged alternative still fails (exit 1)" test "$(rc)" = 1
run "$T" selftest --kernels "$plugins/libtdtest_st_good.so" --only mutants,bogus
check "--only with an unknown kind: exit 2" test "$(rc)" = 2

echo "$fails failed"
[ "$fails" = 0 ]
