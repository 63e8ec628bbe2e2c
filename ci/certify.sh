#!/usr/bin/env bash
# The main job: build tilediff and run a certification campaign of the built-in
# kernels on the host backend (about a minute).  Extra arguments go to `tilediff certify`.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/deps.sh
ci/build.sh build >/dev/null
exec build/tilediff certify --budget 60 --out tilediff-certify "$@"
