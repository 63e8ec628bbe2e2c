#!/usr/bin/env bash
# The main job: build tilediff and run a certification campaign of the built-in
# kernels on the host backend (about a minute).  Extra arguments go to `tilediff certify`.
# It builds only what it runs: the host kernels and the command, without the CUDA
# kernels (nvcc is most of a full build's time, and this job runs on the host), the
# tests or the benchmarks (ci/test.sh builds those), so a first run takes the host
# build's time.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/deps.sh
ci/build.sh build -DTD_CUDA=OFF -DTD_TESTS=OFF -DTD_BENCH=OFF >/dev/null
exec build/tilediff certify --budget 60 --out tilediff-certify "$@"
