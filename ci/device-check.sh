#!/usr/bin/env bash
# The GPU check: build with CUDA and certify the built-in CUDA kernels on the device with
# a small budget (needs an NVIDIA GPU; without one `tilediff` says "no CUDA device" and
# this script exits 2).  Writes the report to ${OUT:-device-out}/certify-cuda.
#   ci/device-check.sh [BUDGET_SECONDS]   (default 120)
# The Triton examples are certified with compiled Triton when a Triton venv is present:
# .venv-triton in the repository root (ci/deps.sh --triton), or TD_TRITON_VENV=DIR.
set -uo pipefail
cd "$(dirname "$0")/.."
budget=${1:-120}
out=${OUT:-device-out}
mkdir -p "$out"
nvidia-smi -L 2>&1 | head -2 | tee "$out/device.txt"
venv=${TD_TRITON_VENV:-$PWD/.venv-triton}
ci/build.sh build-device -DCMAKE_BUILD_TYPE=Release -DTD_TESTS=OFF -DTD_BENCH=OFF -DTD_TRITON_VENV="$venv" \
  >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 3; }
build-device/tilediff certify --backend cuda --budget "$budget" --out "$out/certify-cuda" 2>&1 | tee "$out/certify-cuda.txt"
rc=${PIPESTATUS[0]}
echo "certify --backend cuda exit $rc"
# Compiled Triton on tilediff's device buffers: the Triton examples.  The bridge is built
# when .venv-triton is present (ci/deps.sh --triton, run where there is network; a
# device machine without network gets the venv carried with the working tree).
if [ -f build-device/libtilediff_triton.so ]; then
  # every correct example (and each autotune config) must pass on the GPU ...
  build-device/tilediff certify --backend cuda --kernels examples/triton/kernels.py --cases "${TD_TRITON_CASES:-50}" \
    --out "$out/certify-triton-cuda" 2>&1 | tee "$out/certify-triton-cuda.txt"
  trc=${PIPESTATUS[0]}
  echo "certify --backend cuda --kernels examples/triton/kernels.py exit $trc"
  [ "$trc" -gt "$rc" ] && rc=$trc
  # ... and every planted-bug twin must be flagged (exit 1, no row passed)
  build-device/tilediff certify --backend cuda --kernels examples/triton/kernels.py --kernel 'bug_*' \
    --cases "${TD_TRITON_CASES:-50}" --out "$out/certify-triton-cuda-twins" 2>&1 | tee "$out/certify-triton-cuda-twins.txt"
  mrc=${PIPESTATUS[0]}
  echo "certify --backend cuda --kernels examples/triton/kernels.py --kernel 'bug_*' exit $mrc (1 expected)"
  if [ "$mrc" != 1 ] || grep -q '"status":"passed"' "$out/certify-triton-cuda-twins/report.json"; then
    echo "a planted-bug twin was not flagged on the GPU (or certify failed)"
    [ "$rc" -lt 1 ] && rc=1
  fi
elif [ -x "$venv/bin/python3" ]; then
  echo "Triton venv $venv present but the bridge was not built (python3-dev missing? see $out/build.log)"
  exit 3
else
  echo "Triton on the GPU not checked: no bridge (run ci/deps.sh --triton before this script)"
fi
exit "$rc"
