#!/usr/bin/env bash
# ctest "triton_errors": how failures of Triton kernels are reported (tests/triton/bad_kernels.py).
# Usage: check_errors.sh TILEDIFF VENV_PYTHON
set -uo pipefail
td=$1
py=$2
here=$(cd "$(dirname "$0")" && pwd)
lib="$here/bad_kernels.py"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0
expect() { # name expected-exit pattern command...
  local name=$1 want=$2 pat=$3
  shift 3
  local rc=0
  (cd "$out" && "$@") >"$out/log" 2>&1 || rc=$?
  if [ "$rc" != "$want" ] || ! grep -qE -- "$pat" "$out/log"; then
    echo "FAIL: $name: exit $rc (expected $want), looked for /$pat/"
    tail -15 "$out/log"
    fail=1
  else
    echo "ok:   $name"
  fi
}
A=add_example.add_kernel_correctness
expect "a kernel that raises is a finding, with the file and line" 1 \
  "launch failed \(1\): the kernel raised: ValueError: .* at bad_kernels.py:[0-9]+" \
  "$td" run --kernels "$lib" --kernel raises --cases 1 "$A"
expect "a launch naming no such region says which exist" 1 \
  "no argument named 'no_such_region' \(it has in_ptr0, in_ptr1, out_ptr\)" \
  "$td" run --kernels "$lib" --kernel python_error --cases 1 "$A"
expect "inline PTX is the interpreter's limit, not the kernel's fault (exit 0, not a finding)" 0 \
  "not covered on this backend: inline PTX" \
  "$td" run --kernels "$lib" --kernel inline_asm --cases 1 relu_triton_kernel.relu_kernel_correctness
expect "a libdevice call the interpreter does not patch: not covered, with the line (exit 0)" 0 \
  "not covered on this backend: libdevice calls .*\\(y = tl.where\\(x > 0, tl.extra.cuda.libdevice.pow" \
  "$td" run --kernels "$lib" --kernel libdevice --cases 1 relu_triton_kernel.relu_kernel_correctness
expect "an unknown contract id is named" 1 "no contract 'no_such_file.no_such_contract'" \
  "$td" run --kernels "$lib" --kernel raises --cases 1 "$A"
expect "a wild read kills only the contract's child: crashed, certify goes on" 1 \
  "crashed" "$td" certify --kernels "$lib" --kernel wild_read --cases 2 --out "$out/c" --contracts "$A"
# run: each case in a worker process; a kernel that kills it is a finding with a
# reproducer, and the findings made before it are kept (exit 1, not a dead tilediff)
expect "run: a wild read is a crash finding (exit 1) with its case" 1 \
  "crash: the process died of signal 11 \(Segmentation fault\) during case 4" \
  "$td" run --kernels "$lib" --kernel wrong_then_wild --cases 6 "$A"
cp "$out/log" "$out/crashrun.log"
expect "run: the crash's reproducer is written and its repro command printed" 0 \
  "crash: 1 case, first case 4; repro: tilediff repro --kernels .*bad_kernels.py tilediff-artifacts/$A\.wrong_then_wild\.[0-9a-f]+\.tdf" \
  sh -c "cat '$out/crashrun.log'; ls '$out'/tilediff-artifacts/$A.wrong_then_wild.*.tdf"
expect "run: the wrong results before and after the crash are reported too" 0 \
  "unwritten in out_ptr, lane 0 of the tile: 2 cases, first case 1" cat "$out/crashrun.log"
# deadlines count time without progress (a launch returned, a program instance began):
# a kernel that never finishes a program is a timeout; a correct one that is merely
# slow under the interpreter (~1-3 ms per program instance) is not
expect "certify: a Triton kernel that loops forever is a timeout finding" 1 \
  '"status":"timeout".*no progress for 2 s' \
  sh -c "'$td' certify --kernels '$lib' --kernel loops_forever --cases 2 --timeout 2 --out '$out/loop' --contracts $A \
    >/dev/null; rc=\$?; cat '$out/loop/report.json'; exit \$rc"
expect "certify: the correct ReLU is not a timeout though its campaign outlasts --timeout" 0 \
  "relu_triton_kernel.relu_kernel_correctness +triton +passed +40 " \
  "$td" certify --kernels "$here/../../examples/triton/kernels.py" --cases 40 --timeout 1 --out "$out/relu" \
  --contracts relu_triton_kernel.relu_kernel_correctness
expect "run --timeout: a correct kernel slow per launch (one lane per program) is no hang" 0 \
  "4 cases, [0-9]+ lanes, 0 disagreeing cases" \
  "$td" run --kernels "$lib" --kernel one_lane_per_program --cases 4 --timeout 1 "$A"
expect "a kernel file that queries triton.runtime.driver.active at import loads on the host backend (stand-in driver)" 0 \
  " 0 disagreeing cases" \
  "$td" run --kernels "$here/driver_query.py" --kernel persistent --cases 4 "$A"
printf 'import tilediff_triton as td\nraise RuntimeError("broken on purpose")\n' >"$out/broken.py"
expect "a kernel file that fails to import: exit 2 with its error" 2 \
  "cannot load Python kernel file .*broken.py: .*RuntimeError: broken on purpose" \
  "$td" run --kernels "$out/broken.py" --cases 1 "$A"
expect "a bf16 store the interpreter truncates: an interpreter deviation, not the kernel's bug (exit 0)" 0 \
  "not covered on this backend: interpreter deviates from compiled Triton: its fp32 -> bf16 conversion is bf16:rtz:inf, cast slot 'store' requires bf16:rne:inf" \
  "$td" run --kernels "$lib" --kernel bf16_store --cases 1 rmsnorm_implementation.rmsnorm_implementation_io_correctness
expect "a scalar mask over a block of pointers runs as compiled Triton runs it (exit 0, agreed)" 0 \
  " 0 disagreeing cases" \
  "$td" run --kernels "$lib" --kernel scalar_mask --cases 3 "$A"
expect "'and' of two masks is elementwise, as compiled Triton makes it (exit 0, agreed)" 0 \
  " 0 disagreeing cases" \
  "$td" run --kernels "$lib" --kernel and_mask --cases 4 log_softmax.log_softmax_kernel_correctness
expect "an e5m2 load the interpreter widens wrongly: an interpreter deviation, not the kernel's bug (exit 0)" 0 \
  "not covered on this backend: interpreter deviates from compiled Triton: its e5m2 -> fp(32|16) conversion of loaded values is not exact" \
  "$td" run --kernels "$lib" --kernel e5m2_load --cases 2 f8_conversion_utils.f8_to_f16_io_correctness
printf 'import tilediff_triton as td\n@td.kernel("add_example.add_kernel_correctness", declares="order=sideways")\ndef k(g, p, r):\n    pass\n' >"$out/decl.py"
expect "a declaration the loader does not know: exit 2" 2 "declaration 'order=sideways'" \
  "$td" run --kernels "$out/decl.py" --cases 1 "$A"
# a torch._inductor-generated kernel file (the bridge's Python is torch-free): named as
# not covered, never as the kernel's error
printf 'import torch\nimport triton\nfrom torch._inductor.runtime import triton_helpers\n' >"$out/inductor.py"
expect "a kernel file that needs torch._inductor: exit 2, not covered on this backend" 2 \
  "cannot load Python kernel file .*inductor.py: not covered on this backend: needs torch._inductor" \
  "$td" run --kernels "$out/inductor.py" --cases 1 "$A"
printf 'x = 1\n' >"$out/empty.py"
expect "a kernel file that registers nothing: exit 2" 2 "no kernel registered" \
  "$td" run --kernels "$out/empty.py" --cases 1 "$A"
# the GPU path imports cleanly and says clearly that there is no device here
expect "the cuda backend without a GPU: exit 2, clear message" 2 "^tilediff run: no CUDA device" \
  "$td" run --backend cuda --kernels "$here/../../examples/triton/kernels.py" --cases 1 "$A"
expect "compiled Triton's device check names the missing device" 0 \
  "^NoDevice: compiled Triton has no CUDA device here \(.*\); use --backend host" \
  env PYTHONPATH="$here/../../python" "$py" -c "
import tilediff_triton.cuda as c
try:
    c.check_device(); print('a device is present')
except c.NoDevice as e:
    print('NoDevice:', e)"
# repro --emit-python: a standalone script replays a finding and names the disagreeing lanes
ex="$here/../../examples/triton/kernels.py"
(cd "$out" && "$td" run --kernels "$ex" --kernel bug_tail --cases 3 "$A" >/dev/null 2>&1)
art=$(ls "$out"/tilediff-artifacts/*.tdf 2>/dev/null | head -1)
expect "repro --emit-python writes a script" 1 "wrote .*repro.py" \
  "$td" repro "$art" --kernels "$ex" --emit-python "$out/repro.py"
expect "the emitted script replays the planted bug on its own" 1 "^[1-9][0-9]* of [0-9]+ reported lanes disagree" \
  "$py" "$out/repro.py"
expect "--emit-python refuses a C kernel library" 2 "needs a Python kernel file" \
  "$td" repro "$art" --kernel triton --emit-python "$out/x.py"
exit $fail
