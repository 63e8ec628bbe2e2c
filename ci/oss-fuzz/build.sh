#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script: $CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE
# and $SRC / $OUT come from the environment.  For every contract it puts into $OUT:
#   <target>                  the fuzz target (libFuzzer entry point)
#   <target>_seed_corpus.zip  the seed corpus (corpus/<contract>/, one input per boundary class)
#   <target>.options          libFuzzer options (max_len, timeout)
# TILEDIFF_TARGETS (a glob of contract ids, default all) limits the targets built.
SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
src=$SRC
[ -f "$src/CMakeLists.txt" ] || src=$SRC/tilediff
work=${WORK:-/tmp}/tilediff-ossfuzz-build
cmake -S "$src" -B "$work" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTD_FUZZ_ENGINE=ossfuzz -DTD_CUDA=OFF -DTD_TESTS=OFF \
  -DTD_BENCH=OFF -DTD_WERROR=OFF "-DTD_FUZZ_TARGETS=${TILEDIFF_TARGETS:-*}" \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS"
cmake --build "$work" -j"$(nproc)"
while read -r target contract; do
  cp "$work/fuzz/$target" "$OUT/$target"
  if [ -d "$src/corpus/$contract" ]; then
    (cd "$src/corpus/$contract" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
  fi
  if [ -f "$src/corpus/$contract.options" ]; then cp "$src/corpus/$contract.options" "$OUT/$target.options"; fi
done <"$work/fuzz/targets.txt"
