#!/usr/bin/env bash
# The plugin ABI end to end: the example library built from outside the tree against
# an installed tilediff is certified (its bug flagged, its correct kernel passed), and
# every broken library gives a clear message and the documented exit code without
# losing the report.
# Usage: plugin_test.sh SOURCE_DIR BUILD_DIR PLUGIN_DIR
set -u
src=$1 build=$2 plugins=$3
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

# 1. install, then build the example outside the tree with only the installed header
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
check "header installed" test -f "$tmp/prefix/include/tilediff/kernel_abi.h"
pc=$(find "$tmp/prefix" -name tilediff.pc | head -1)
check "pkg-config file installed" test -n "$pc"
cp "$src"/examples/plugin/{Makefile,example_kernels.c} "$tmp/"
run make -C "$tmp" PKG_CONFIG_PATH="$(dirname "$pc")"
check "example plugin builds against the installed header" test "$(rc)" = 0
td="$tmp/prefix/bin/tilediff"
run "$td" certify --kernels "$tmp/libexample_kernels.so" --cases 300 --out "$tmp/cert"
check "certify of the example exits 1" test "$(rc)" = 1
check "add_example passed" grep -q '"id":"add_example.add_kernel_correctness".*"status":"passed"' "$tmp/cert/report.json"
check "add_value failed" grep -q '"id":"add_value.puzzle1_kernel_correctness".*"status":"failed"' "$tmp/cert/report.json"
check "others not covered" grep -q '"status":"not-covered"' "$tmp/cert/report.json"
check "all four reports" test -s "$tmp/cert/report.html" -a -s "$tmp/cert/report.md" -a -s "$tmp/cert/junit.xml"
art=$(ls "$tmp"/cert/artifacts/add_value.*.tdf 2>/dev/null | head -1)
check "a reproducer was saved" test -n "$art"
run "$td" repro --kernels "$tmp/libexample_kernels.so" "$art"
check "the reproducer replays the finding" test "$(rc)" = 1

# 2. broken libraries
T="$build/tilediff"
run "$T" run add_example.add_kernel_correctness --kernels "$plugins/libtdtest_bad_version.so" --cases 1
check "another ABI version: exit 2 and a message" test "$(rc)" = 2 -a -n "$(says 'built for kernel ABI v99' && echo y)"
run "$T" run add_example.add_kernel_correctness --kernels "$plugins/libtdtest_v1.so" --cases 50
check "an ABI v1 library still loads and passes (it declares nothing)" test "$(rc)" = 0
run "$T" run add_example.add_kernel_correctness --kernels "$plugins/libtdtest_bad_declares.so" --cases 1
check "an unknown declaration: exit 2, named" test "$(rc)" = 2 -a -n "$(says 'order=zigzag' && echo y)"
run "$T" run add_example.add_kernel_correctness --kernels "$plugins/libtdtest_no_symbol.so" --cases 1
check "missing symbol: exit 2" test "$(rc)" = 2 -a -n "$(says 'does not export td_kernel_table' && echo y)"
run "$T" run add_example.add_kernel_correctness --kernels "$plugins/libtdtest_bad_counts.so" --cases 1
check "parameter count mismatch: exit 2" test "$(rc)" = 2 -a -n "$(says 'expects 3 parameters' && echo y)"
run "$T" run add_example.add_kernel_correctness --kernels "$tmp/no_such_lib.so" --cases 1
check "missing library: exit 2, named" test "$(rc)" = 2 -a -n "$(says 'no_such_lib.so' && echo y)"
run "$T" run add_example.add_kernel_correctness --kernels "$plugins/libtdtest_launch_error.so" --cases 3 --no-artifacts
check "launch error: a finding (exit 1) with the kernel's message" test "$(rc)" = 1 -a -n "$(says 'device out of memory (simulated)' && echo y)"
run "$T" certify --kernels "$plugins/libtdtest_crash.so" --cases 200 --out "$tmp/crash"
check "crashing kernel: certify exits 1" test "$(rc)" = 1
check "crash reported as a finding of its contract" grep -q '"id":"add_example.add_kernel_correctness".*"status":"crashed"' "$tmp/crash/report.json"
check "the other contract still certified" grep -q '"id":"add_value.puzzle1_kernel_correctness".*"status":"passed"' "$tmp/crash/report.json"
run "$T" certify --kernels "$plugins/libtdtest_hang.so" --cases 200 --timeout 5 --out "$tmp/hang"
check "hanging kernel: certify exits 1" test "$(rc)" = 1
check "hang reported as a timeout of its contract" grep -q '"id":"add_example.add_kernel_correctness".*"status":"timeout"' "$tmp/hang/report.json"
hart=$(ls "$tmp"/hang/artifacts/add_example.*.tdf 2>/dev/null | head -1)
check "the hanging case was saved" test -n "$hart"
echo "$fails failed"
[ "$fails" = 0 ]
