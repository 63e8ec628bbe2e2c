#!/usr/bin/env bash
# The contracts compile in a unity build (CMAKE_UNITY_BUILD=ON): CMake then compiles
# each contract file through a generated source that #includes it, so a contract that
# relies on being the main file (a self-include through __BASE_FILE__, as the spec
# instantiation once did) fails here.  Configures a scratch host-only build (-O0: the
# point is that it compiles) and compiles the td_contracts target's own sources, not
# the libraries it links (rounding/fast.c alone would triple the time), through the
# Makefile generator's per-target build file.
# Usage: unity_build_test.sh SOURCE_DIR C_COMPILER [C_COMPILER_LAUNCHER]
set -u
src=$1 cc=$2 launcher=${3:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cmake -S "$src" -B "$dir" -G "Unix Makefiles" -DCMAKE_UNITY_BUILD=ON -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_COMPILER="$cc" ${launcher:+-DCMAKE_C_COMPILER_LAUNCHER="$launcher"} \
  -DTD_CUDA=OFF -DTD_TESTS=OFF -DTD_BENCH=OFF >"$dir/configure.log" 2>&1 ||
  { echo "FAIL: configure"; cat "$dir/configure.log"; exit 1; }
# every file of contracts/ must really go through a unity source (none skipped)
missing=0
for f in "$src"/contracts/*.c; do
  cat "$dir"/CMakeFiles/*/Unity/unity_*_c.c 2>/dev/null | grep -qF "/contracts/$(basename "$f")\"" ||
    { echo "FAIL: $f is not in a unity source"; missing=$((missing + 1)); }
done
[ "$missing" = 0 ] || exit 1
(cd "$dir" && make -j"$(nproc)" -f CMakeFiles/td_contracts.dir/build.make CMakeFiles/td_contracts.dir/build) \
  >"$dir/build.log" 2>&1 ||
  { echo "FAIL: td_contracts does not compile with CMAKE_UNITY_BUILD=ON:"; grep -m 20 -E 'error' "$dir/build.log"; exit 1; }
n=$(ls "$dir"/CMakeFiles/td_contracts.dir/Unity/unity_*_c.c | wc -l)
echo "ok: td_contracts compiles with CMAKE_UNITY_BUILD=ON ($n unity sources)"
