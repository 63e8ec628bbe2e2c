#!/usr/bin/env bash
# tilediff's test suite, as CI runs it (.ci/run calls this).
#  1. gcc, -Werror, CUDA kernels compiled when nvcc is found: every test but the long sweep
#  2. clang, -Werror, AddressSanitizer + UndefinedBehaviorSanitizer: the same tests
#  3. the exhaustive binary32 rounding sweep (label "sweep", both cores, < 3 minutes)
# Environment: TD_SKIP_ASAN=1 / TD_SKIP_SWEEP=1 skip a stage (for local iteration only).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ci/deps.sh
jobs=$(nproc)
start=$SECONDS
stage() { printf '\n==== %s (%ds)\n' "$*" $((SECONDS - start)); }

stage "gcc build"
CC=gcc CXX=g++ ci/build.sh build-ci-gcc
stage "gcc tests"
(cd build-ci-gcc && ctest --output-on-failure -j"$jobs" -LE sweep)

if [ "${TD_SKIP_ASAN:-0}" != 1 ]; then
  stage "clang + ASan/UBSan build"
  CC=clang CXX=clang++ ci/build.sh build-ci-asan -DTD_SANITIZE=ON -DTD_CUDA=OFF
  stage "clang + ASan/UBSan tests"
  (cd build-ci-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
     ctest --output-on-failure -j"$jobs" -LE sweep)
fi

if [ "${TD_SKIP_SWEEP:-0}" != 1 ]; then
  stage "exhaustive rounding sweep"
  (cd build-ci-gcc && ctest --output-on-failure -L sweep)
fi
stage "done"
