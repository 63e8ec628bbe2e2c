#!/usr/bin/env bash
# Configures and builds one tilediff build directory.
# Usage: ci/build.sh BUILD_DIR [cmake options...]
# The CUDA kernels and backend are compiled whenever nvcc is on PATH (or in
# /usr/local/cuda/bin); pass -DTD_CUDA=OFF to skip them.
set -euo pipefail
dir=$1; shift
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
cmake -S "$(dirname "$0")/.." -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >"$dir.configure.log" 2>&1 ||
  { cat "$dir.configure.log"; exit 1; }
cmake --build "$dir" -j"$(nproc)"
