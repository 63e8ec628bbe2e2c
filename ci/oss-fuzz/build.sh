#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script: $CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE
# and $SRC / $OUT come from the environment.  For every contract it puts into $OUT:
#   <target>                  the fuzz target (libFuzzer entry point)
#   <target>_seed_corpus.zip  the seed corpus (corpus/<contract>/, one input per boundary class)
#   <target>.options          libFuzzer options (max_len, timeout)
# TILEDIFF_TARGETS (a glob of contract ids, default all) limits the targets built, and
# what is compiled to their contracts and kernels (TD_FUZZ_ONLY).
SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
src=$SRC
[ -f "$src/CMakeLists.txt" ] || src=$SRC/tilediff
work=${WORK:-/tmp}/tilediff-ossfuzz-build
# $CFLAGS / $CXXFLAGS alone choose optimisation and debug info (OSS-Fuzz's -O1
# -gline-tables-only, its coverage builds' own): the build type adds only -DNDEBUG, where
# RelWithDebInfo's "-O2 -g", coming after them, overrode both.
cmake -S "$src" -B "$work" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTD_FUZZ_ENGINE=ossfuzz -DTD_CUDA=OFF -DTD_TESTS=OFF \
  -DTD_BENCH=OFF -DTD_WERROR=OFF "-DTD_FUZZ_TARGETS=${TILEDIFF_TARGETS:-*}" -DTD_FUZZ_ONLY=ON \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO=-DNDEBUG -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-DNDEBUG
# only the fuzz targets (and what they link): not the tilediff command or its plugins
targets=$(cut -d' ' -f1 "$work/fuzz/targets.txt")
if [ -n "$targets" ]; then
  # shellcheck disable=SC2086  # one target name per word
  cmake --build "$work" -j"$(nproc)" --target $targets
fi
while read -r target contract; do
  cp "$work/fuzz/$target" "$OUT/$target"
  if [ -d "$src/corpus/$contract" ]; then
    (cd "$src/corpus/$contract" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
  fi
  if [ -f "$src/corpus/$contract.options" ]; then cp "$src/corpus/$contract.options" "$OUT/$target.options"; fi
done <"$work/fuzz/targets.txt"
