#!/usr/bin/env bash
# tilediff diff and certify --baseline end to end: the built-in mean_reduction kernel
# against three versions of it (tests/plugins/diff_variants.c):
#   reorder   the same sums in another order: bits change, no regression, exit 0;
#   signsort  a worse order, every bound still met: an accuracy regression, exit 1;
#   bug       a tail tile dropped: passed -> failed with a reproducer that replays
#             against both versions (NEW fails it, OLD passes it), exit 1.
# Each regression-rule threshold is shown to matter (raising it clears signsort), and a
# stored certify report is refused as a baseline for other cases or another version.
# Usage: diff_test.sh TILEDIFF PLUGIN_DIR
set -u
td=$1 plugins=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # check NAME CONDITION-COMMAND...
    local name=$1; shift
    if "$@"; then echo "ok: $name"; else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
run() { "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }
rc() { cat "$tmp/rc"; }
says() { grep -q -- "$1" "$tmp/out" "$tmp/err"; }
summary='"id":"mean_reduction.mean_dim_kernel_output_summary"'
has() { grep -q -- "$summary.*$2" "$tmp/$1/report.json"; } # has DIR PATTERN: the summary contract's line
mean='mean_reduction.*'
cases=400

# 1. a neutral reordering: bits change, no regression
run "$td" diff --kernels builtin --kernels "$plugins/libtdtest_diff_reorder.so" --contracts "$mean" --cases $cases \
    --out "$tmp/reorder"
cat "$tmp/out"
check "reorder: exit 0" test "$(rc)" = 0
check "reorder: bits changed" has reorder '"change":"bits-changed"'
check "reorder: no verdict change" has reorder '"verdict_change":null'
check "reorder: no regression" has reorder '"regression":false'
check "reorder: lanes moved both ways" has reorder '"closer":[1-9][0-9]*,"farther":[1-9]'
check "reorder: the reports" test -s "$tmp/reorder/report.md" -a -s "$tmp/reorder/report.html"

# 2. a worse order within every bound: an accuracy regression
run "$td" diff --kernels builtin --kernels "$plugins/libtdtest_diff_signsort.so" --contracts "$mean" --cases $cases \
    --out "$tmp/signsort"
cat "$tmp/out"
check "signsort: exit 1" test "$(rc)" = 1
check "signsort: still passes" has signsort '"verdict_change":null'
check "signsort: regression" has signsort '"change":"regression"'
check "signsort: more lanes farther than closer" \
    awk -F'"closer":' '/output_summary/ {split($2, a, /[,:]/); exit !(a[1] < a[3])}' "$tmp/signsort/report.json"
check "signsort: report says so" grep -q "ACCURACY REGRESSION" "$tmp/signsort/report.md"
run "$td" diff --kernels builtin --kernels "$plugins/libtdtest_diff_signsort.so" --contracts "$mean" --cases $cases \
    --out "$tmp/signsort2" --min-growth 4
check "signsort with --min-growth 4: the effect-size threshold clears it" test "$(rc)" = 0
run "$td" diff --kernels builtin --kernels "$plugins/libtdtest_diff_signsort.so" --contracts "$mean" --cases $cases \
    --out "$tmp/signsort3" --alpha 1e-30
check "signsort with --alpha 1e-30: the significance threshold clears it" test "$(rc)" = 0

# 3. a new bug: a verdict change with reproducers for both versions
run "$td" diff --kernels builtin --kernels "$plugins/libtdtest_diff_bug.so" --contracts "$mean" --cases $cases \
    --out "$tmp/bug"
cat "$tmp/out"
check "bug: exit 1" test "$(rc)" = 1
check "bug: passed -> failed" has bug '"verdict_change":"passed -> failed"'
check "bug: new finding" has bug '"new_findings":\[{"class":"out-of-tolerance"'
art=$(ls "$tmp"/bug/artifacts/*.tdf 2>/dev/null | head -1)
check "bug: a reproducer was saved" test -n "$art"
run "$td" repro --kernels "$plugins/libtdtest_diff_bug.so" --kernel bug_reverse_tail "$art"
check "bug: the reproducer fails NEW" test "$(rc)" = 1
run "$td" repro --kernel triton "$art"
check "bug: the reproducer passes OLD" test "$(rc)" = 0

# a NEW that crashes: the child dies, the report keeps the crash as NEW's new finding
run "$td" diff --kernels builtin --kernels "$plugins/libtdtest_crash.so" --contracts 'add_*' --cases 200 --out "$tmp/crash"
check "crash: exit 1" test "$(rc)" = 1
check "crash: a verdict change with a crash finding" \
    grep -q '"id":"add_example.add_kernel_correctness".*"verdict_change":"passed -> failed".*"class":"crash"' \
    "$tmp/crash/report.json"
check "crash: the other contract still compared" grep -q '"id":"add_value.puzzle1_kernel_correctness".*"change":"unchanged"' \
    "$tmp/crash/report.json"

# 4. bad usage
run "$td" diff --kernels builtin
check "one --kernels: exit 2" test "$(rc)" = 2
run "$td" diff --kernels builtin --kernels "$tmp/nonexistent.so"
check "missing library: exit 2" test "$(rc)" = 2
run "$td" diff --kernels builtin --kernels builtin --alpha 2
check "--alpha out of range: exit 2" test "$(rc)" = 2

# 5. certify --baseline: the previous release's report instead of its library
run "$td" certify --contracts "$mean" --cases $cases --out "$tmp/base"
check "baseline certify: exit 0" test "$(rc)" = 0
check "baseline records the case digest and quantiles" grep -q '"cases_digest":"[0-9a-f]*","err_over_tol":{"median"' \
    "$tmp/base/report.json"
run "$td" certify --kernels "$plugins/libtdtest_diff_reorder.so" --contracts "$mean" --baseline "$tmp/base/report.json" \
    --out "$tmp/c_reorder"
check "baseline, reorder: exit 0" test "$(rc)" = 0
check "baseline, reorder: same cases adopted" grep -q "\"cases\":$cases" "$tmp/c_reorder/report.json"
check "baseline section in report.md" grep -q "Changes since baseline" "$tmp/c_reorder/report.md"
check "baseline section in report.html" grep -q "Changes since baseline" "$tmp/c_reorder/report.html"
# without the changed lanes (not stored), the baseline's per-case scores are diluted by
# the lanes that did not change: the shift is as significant, the effect smaller
run "$td" certify --kernels "$plugins/libtdtest_diff_signsort.so" --contracts "$mean" \
    --baseline "$tmp/base/report.json" --min-growth 1.05 --out "$tmp/c_signsort"
check "baseline, signsort at --min-growth 1.05: exit 1" test "$(rc)" = 1
check "baseline, signsort: regression" grep -q "$summary.*\"change\":\"regression\"" "$tmp/c_signsort/report.json"
run "$td" certify --kernels "$plugins/libtdtest_diff_reorder.so" --contracts "$mean" \
    --baseline "$tmp/base/report.json" --min-growth 1 --out "$tmp/c_reorder1"
check "baseline, reorder even at --min-growth 1: exit 0" test "$(rc)" = 0
run "$td" certify --kernels "$plugins/libtdtest_diff_bug.so" --contracts "$mean" --baseline "$tmp/base/report.json" \
    --out "$tmp/c_bug"
check "baseline, bug: exit 1" test "$(rc)" = 1
check "baseline, bug: verdict change" grep -q '"verdict_change":"passed -> failed"' "$tmp/c_bug/report.json"
run "$td" certify --contracts "$mean" --baseline "$tmp/base/report.json" --seed 2 --out "$tmp/x"
check "baseline, other seed: exit 2" test "$(rc)" = 2
check "baseline, other seed: says why" says "other cases"
run "$td" certify --contracts 'mean_reduction.*_summary' --baseline "$tmp/base/report.json" --out "$tmp/x"
check "baseline, other contract set: exit 2" test "$(rc)" = 2
sed 's/"tool":"tilediff [^"]*"/"tool":"tilediff 0.0.0-other"/' "$tmp/base/report.json" >"$tmp/other.json"
run "$td" certify --contracts "$mean" --baseline "$tmp/other.json" --out "$tmp/x"
check "baseline, other version: exit 2" test "$(rc)" = 2
check "baseline, other version: says why" says "another tilediff version"
sed 's/"cases_digest":"[0-9a-f]*"/"cases_digest":"0000000000000000"/' "$tmp/base/report.json" >"$tmp/gen.json"
run "$td" certify --contracts "$mean" --baseline "$tmp/gen.json" --out "$tmp/x"
check "baseline, other decoded cases: exit 2" test "$(rc)" = 2
check "baseline, other decoded cases: says why" says "other cases"

echo "$fails failures"
exit $((fails > 0))
