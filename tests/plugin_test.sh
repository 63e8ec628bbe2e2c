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

# 1. install, then build the example outside the tree with only the installed headers
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
check "header installed" test -f "$tmp/prefix/include/tilediff/kernel_abi.h"
check "number-format header installed" test -f "$tmp/prefix/include/tilediff/numfmt.h"
check "number-format library installed" test -n "$(find "$tmp/prefix" -name 'libtilediff_numfmt.so*' | head -1)"
pc=$(find "$tmp/prefix" -name tilediff.pc | head -1)
check "pkg-config file installed" test -n "$pc"
cp "$src"/examples/plugin/{Makefile,example_kernels.c} "$tmp/"
run make -C "$tmp" PKG_CONFIG_PATH="$(dirname "$pc")"
check "example plugin builds against the installed headers" test "$(rc)" = 0
# the same example against the build tree (no install): tilediff-uninstalled.pc
mkdir -p "$tmp/srctree" && cp "$src"/examples/plugin/{Makefile,example_kernels.c} "$tmp/srctree/"
run make -C "$tmp/srctree" PKG_CONFIG_PATH="$build"
check "example plugin builds against the build tree" test "$(rc)" = 0
check "  ... with the build tree's headers" test "$(PKG_CONFIG_PATH=$build pkg-config --cflags tilediff | tr -d ' ')" = "-I$build/include"
run "$build/tilediff" run 'f8_conversion_utils.f16_to_f8_io_correctness' --kernels "$tmp/srctree/libexample_kernels.so" \
    --cases 200 --no-artifacts
check "  ... and its numfmt-based fp16->e5m2 kernel is bit-exact (200 cases)" test "$(rc)" = 0
td="$tmp/prefix/bin/tilediff"
run "$td" certify --kernels "$tmp/libexample_kernels.so" --cases 300 --out "$tmp/cert"
check "certify of the example exits 1" test "$(rc)" = 1
check "add_example passed" grep -q '"id":"add_example.add_kernel_correctness".*"status":"passed"' "$tmp/cert/report.json"
# every claimed-correct variant of a contract is certified on its own row
check "add_example variant 'example' on its own row" \
    grep -q '"id":"add_example.add_kernel_correctness".*"kernel":"example".*"status":"passed"' "$tmp/cert/report.json"
check "add_example variant 'example-reverse' on its own row" \
    grep -q '"id":"add_example.add_kernel_correctness".*"kernel":"example-reverse".*"status":"passed"' "$tmp/cert/report.json"
check "the table shows both variants" test "$(grep -c '^add_example.add_kernel_correctness  *example' "$tmp/out")" = 2
check "the summary counts the contract once and its kernels each" grep -q '"covered":3,"kernels":4' "$tmp/cert/report.json"
check "the numfmt-based kernel passed" \
    grep -q '"id":"f8_conversion_utils.f16_to_f8_io_correctness".*"kernel":"example".*"status":"passed"' "$tmp/cert/report.json"
check "the finding names its case and repro command" grep -q 'first case [0-9]*; repro: tilediff repro --kernels ' "$tmp/out"
check "add_value failed" grep -q '"id":"add_value.puzzle1_kernel_correctness".*"status":"failed"' "$tmp/cert/report.json"
check "others not covered" grep -q '"status":"not-covered"' "$tmp/cert/report.json"
check "all four reports" test -s "$tmp/cert/report.html" -a -s "$tmp/cert/report.md" -a -s "$tmp/cert/junit.xml"
art=$(ls "$tmp"/cert/artifacts/add_value.*.tdf 2>/dev/null | head -1)
check "a reproducer was saved" test -n "$art"
run "$td" repro --kernels "$tmp/libexample_kernels.so" "$art"
check "the reproducer replays the finding" test "$(rc)" = 1
# --kernel picks variants (a glob, repeatable); a library that covers nothing selected is no pass
run "$td" certify --kernels "$tmp/libexample_kernels.so" --kernel '*-reverse' --contracts 'add_*' --cases 50 --out "$tmp/cert2"
check "--kernel GLOB: certify exits 0 on the matching variant" test "$(rc)" = 0
check "--kernel GLOB: only the matching variant ran" \
    test "$(grep -c '"kernel":"example-reverse"' "$tmp/cert2/report.json")" = 1 -a "$(grep -c '"kernel":"example"' "$tmp/cert2/report.json")" = 0
check "--kernel GLOB: a contract without a match is not covered" \
    grep -q '"id":"add_value.puzzle1_kernel_correctness".*"status":"not-covered".*matching --kernel' "$tmp/cert2/report.json"
run "$td" certify --kernels "$tmp/libexample_kernels.so" --contracts 'softmax_*' --cases 5 --out "$tmp/cert3"
check "nothing covered: certify exits 2" test "$(rc)" = 2
check "nothing covered: it says so" says "nothing was certified: the kernel library covers none of the selected contracts"
check "nothing covered: the report still lists them as not covered" grep -q '"covered":0' "$tmp/cert3/report.json"

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
run "$T" run add_example.add_kernel_correctness --kernels "$plugins/libtdtest_not_covered.so" --cases 3 --no-artifacts
check "a launch the backend cannot run: not a finding (exit 0), the reason said" test "$(rc)" = 0 -a -n "$(says '3 of 3 cases not covered on this backend: no tensor cores' && echo y)"
run "$T" certify --kernels "$plugins/libtdtest_not_covered.so" --cases 20 --out "$tmp/nc"
check "certify: that contract not covered, with the reason; the other one still passes" \
  grep -q '"id":"add_example.add_kernel_correctness".*"status":"not-covered".*"reason":"not covered on this backend: no tensor cores' "$tmp/nc/report.json"
check "certify: the other contract of the library still certified" grep -q '"id":"add_value.puzzle1_kernel_correctness".*"status":"passed"' "$tmp/nc/report.json"
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
