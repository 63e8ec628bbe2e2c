#!/usr/bin/env bash
# Builds the fuzz targets (one per contract, generated from the registry) three ways:
#   build-fuzz-libfuzzer/fuzz/  clang -fsanitize=fuzzer,address,undefined
#   build-fuzz-afl/fuzz/        afl-clang-fast, persistent mode (AFL_USE_ASAN=1)
#   build-fuzz-replay/fuzz/     gcc, a plain driver that replays files and directories
# Usage: ci/build-fuzzers.sh [--engines libfuzzer,afl,replay] [--targets GLOB]
set -euo pipefail
cd "$(dirname "$0")/.."
engines=libfuzzer,afl,replay targets='*'
while [ $# -gt 0 ]; do
  case "$1" in
    --engines) engines=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    *) echo "ci/build-fuzzers.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
ci/deps.sh --fuzz
common=(-DTD_CUDA=OFF -DTD_TESTS=OFF -DTD_BENCH=OFF "-DTD_FUZZ_TARGETS=$targets")
IFS=, read -ra list <<<"$engines"
for e in "${list[@]}"; do
  case "$e" in
    libfuzzer) CC=clang CXX=clang++ ci/build.sh build-fuzz-libfuzzer "${common[@]}" -DTD_FUZZ_ENGINE=libfuzzer -DTD_SANITIZE=ON ;;
    afl) AFL_USE_ASAN=1 AFL_QUIET=1 CC=afl-clang-fast CXX=afl-clang-fast++ ci/build.sh build-fuzz-afl "${common[@]}" -DTD_FUZZ_ENGINE=afl -DTD_WERROR=OFF ;;
    replay) CC=gcc CXX=g++ ci/build.sh build-fuzz-replay "${common[@]}" -DTD_FUZZ_ENGINE=replay ;;
    *) echo "ci/build-fuzzers.sh: unknown engine '$e'" >&2; exit 2 ;;
  esac
  echo "built $(wc -l <"build-fuzz-$e/fuzz/targets.txt") $e targets in build-fuzz-$e/fuzz/"
done
