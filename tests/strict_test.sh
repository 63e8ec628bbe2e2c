#!/usr/bin/env bash
# --strict: a WARN (an error above the probabilistic bound and within the rigorous one)
# fails `tilediff run` and `tilediff certify` under --strict and only then.  The plugin
# (tests/plugins/selftest_plugins.c, FLAVOUR_ST_WARN) errs between the two bounds on the
# long rows of mean_reduction: warns, never disagrees.  Loosening either rule (strict
# ignored, or a WARN failing without it) fails here.
# Usage: strict_test.sh TILEDIFF PLUGIN.so
set -u
T=$1 lib=$2
C=mean_reduction.mean_dim_kernel_output_summary
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # check NAME CONDITION-COMMAND...
    local name=$1; shift
    if "$@"; then echo "ok: $name"; else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
run() { "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }
rc() { cat "$tmp/rc"; }

run "$T" run "$C" --kernels "$lib" --kernel plugin_warn --cases 80 --no-artifacts --quiet
check "run: warns, exit 0" test "$(rc)" = 0
check "run: the summary counts the WARN lanes" grep -qE ' 0 disagreeing cases, [1-9][0-9]* warns' "$tmp/out"
run "$T" run "$C" --kernels "$lib" --kernel plugin_warn --cases 80 --no-artifacts --quiet --strict
check "run --strict: exit 1" test "$(rc)" = 1
check "run --strict: the WARN cases are disagreeing cases" grep -qE ' [1-9][0-9]* disagreeing cases, [1-9][0-9]* warns' "$tmp/out"

run "$T" certify --kernels "$lib" --contracts "$C" --cases 80 --out "$tmp/c1"
check "certify: exit 0" test "$(rc)" = 0
check "certify: passed with warns" grep -qE '"status":"passed".*"warns":[1-9]' "$tmp/c1/report.json"
run "$T" certify --kernels "$lib" --contracts "$C" --cases 80 --out "$tmp/c2" --strict
check "certify --strict: exit 1" test "$(rc)" = 1
check "certify --strict: failed" grep -q '"status":"failed"' "$tmp/c2/report.json"

[ "$fails" = 0 ] && echo "strict_test: all passed" || echo "strict_test: $fails failed"
exit $((fails > 0))
