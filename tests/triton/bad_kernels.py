"""Kernels that fail in the ways a Triton author's kernels do; tests/triton/check_errors.sh
expects each to be reported as described in its variant's docstring line."""
import triton
import triton.language as tl

import tilediff_triton as td


@triton.jit
def add_raises(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    # a kernel-author error the interpreter raises on: shapes that do not broadcast
    x = tl.load(x_ptr + offs, mask=offs < n)
    y = tl.load(y_ptr + tl.arange(0, 2 * BLOCK))
    tl.store(out_ptr + offs, x + y, mask=offs < n)


@triton.jit
def add_wild_read(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    # reads 2^40 elements past the buffer: the process dies (SIGSEGV)
    x = tl.load(x_ptr + offs + (1 << 40), mask=offs < n)
    tl.store(out_ptr + offs, x, mask=offs < n)


@triton.jit
def relu_asm(x_ptr, out_ptr, N, block_size: tl.constexpr):
    offs = tl.program_id(0) * block_size + tl.arange(0, block_size)
    x = tl.load(x_ptr + offs, mask=offs < N, other=0.0)
    y = tl.inline_asm_elementwise("max.f32 $0, $1, 0f00000000;", "=r,r", [x], dtype=tl.float32, is_pure=True,
                                  pack=1)
    if tl.program_id(0) == 0:
        tl.store(out_ptr + offs, y, mask=offs < N)


@td.kernel("add_example.add_kernel_correctness", variant="raises")
def k_raises(grid, p, r):
    add_raises[grid](r.in_ptr0, r.in_ptr1, r.out_ptr, p.n_elements, BLOCK=p.BLOCK_SIZE)


@td.kernel("add_example.add_kernel_correctness", variant="python_error")
def k_python_error(grid, p, r):
    add_raises[grid](r.in_ptr0, r.no_such_region, r.out_ptr, p.n_elements, BLOCK=p.BLOCK_SIZE)


@td.kernel("add_example.add_kernel_correctness", variant="wild_read")
def k_wild(grid, p, r):
    add_wild_read[grid](r.in_ptr0, r.in_ptr1, r.out_ptr, p.n_elements, BLOCK=p.BLOCK_SIZE)


@td.kernel("relu_triton_kernel.relu_kernel_correctness", variant="inline_asm")
def k_asm(grid, p, r):
    relu_asm[grid](r.x_ptr, r.out_ptr, p.N, block_size=p.block_size)


@triton.jit
def add_scalar_mask(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # one element at a time through a 1-wide block under a scalar mask (`row < n_rows` in
    # a row kernel): compiled Triton broadcasts the i1 scalar; the interpreter's splat
    # hands it on as int32, which its masked load/store reject unless compat.py converts it
    one = tl.arange(0, 1)
    for i in range(0, BLOCK):
        o = tl.program_id(0) * BLOCK + i
        x = tl.load(x_ptr + o + one, mask=o < n)
        y = tl.load(y_ptr + o + one, mask=o < n)
        tl.store(out_ptr + o + one, x + y, mask=o < n)


@td.kernel("add_example.add_kernel_correctness", variant="scalar_mask")
def k_scalar_mask(grid, p, r):
    add_scalar_mask[grid](r.in_ptr0, r.in_ptr1, r.out_ptr, p.n_elements, BLOCK=p.BLOCK_SIZE)


@triton.jit
def widen_e5m2(Y, X, N, BLOCK: tl.constexpr):
    # a correct e5m2 -> fp16 widening: compiled Triton converts exactly
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Y + o, tl.load(X + o, mask=o < N), mask=o < N)


@td.kernel("f8_conversion_utils.f8_to_f16_io_correctness", variant="e5m2_load")
def k_e5m2_load(grid, p, r):
    widen_e5m2[grid](r.Y, r.X, p.N, BLOCK=p.BLOCK_SIZE)


@triton.jit
def log_softmax_and_mask(out_ptr, x_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # rows x columns of one k, masked with Python's `and` on two blocks: compiled Triton
    # makes it an elementwise logical and; the interpreter, unless compat.py rewrites it,
    # returns one operand (a (BLOCK_M, 1) mask) and reads past the row
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = rows[:, None] < M and cols[None, :] < N
    at = rows[:, None] * N * K + cols[None, :] * K + tl.program_id(1)
    x = tl.load(x_ptr + at, mask=mask, other=-float("inf"))
    z = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(z)
    tl.store(out_ptr + at, tl.log(e / tl.sum(e, axis=1)[:, None]), mask=mask)


@td.kernel("log_softmax.log_softmax_kernel_correctness", variant="and_mask")
def k_and_mask(grid, p, r):
    log_softmax_and_mask[grid](r.output_ptr, r.input_ptr, p.M, p.N, p.K, BLOCK_M=p.BLOCK_M, BLOCK_N=p.BLOCK_N)


@triton.jit
def relu_libdevice(x_ptr, out_ptr, N, block_size: tl.constexpr):
    # pow(x, 1) = x exactly: a relu through a libdevice call, which the interpreter does
    # not patch (the call fails asking for its `_semantic` argument)
    offs = tl.program_id(0) * block_size + tl.arange(0, block_size)
    x = tl.load(x_ptr + offs, mask=offs < N, other=0.0)
    y = tl.where(x > 0, tl.extra.cuda.libdevice.pow(x, 1.0), 0.0)
    if tl.program_id(0) == 0:
        tl.store(out_ptr + offs, y, mask=offs < N)


@td.kernel("relu_triton_kernel.relu_kernel_correctness", variant="libdevice")
def k_libdevice(grid, p, r):
    relu_libdevice[grid](r.x_ptr, r.out_ptr, p.N, block_size=p.block_size)


@td.kernel("no_such_file.no_such_contract")
def k_unknown(grid, p, r):
    pass


@td.kernel("rmsnorm_implementation.rmsnorm_implementation_io_correctness", variant="bf16_store")
def k_bf16(grid, p, r):
    # never reached on the host backend: the interpreter truncates fp32 -> bf16 and the
    # contract's store slot requires round-to-nearest-even
    raise AssertionError("a bf16-store contract was launched on the interpreter")


@triton.jit
def add_loops_forever(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    # a loop whose exit condition never holds: the program instance never finishes
    i = 0
    while i >= 0:
        i = i + 1 - 1
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def add_one_lane(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # correct, and slow under the interpreter: one element per program instance
    i = tl.program_id(0)
    if i < n:
        tl.store(out_ptr + i, tl.load(x_ptr + i) + tl.load(y_ptr + i))


@triton.jit
def add_drops_last(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n - 1  # the last element is never written
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@td.kernel("add_example.add_kernel_correctness", variant="loops_forever")
def k_loops(grid, p, r):
    add_loops_forever[grid](r.in_ptr0, r.in_ptr1, r.out_ptr, p.n_elements, BLOCK=p.BLOCK_SIZE)


@td.kernel("add_example.add_kernel_correctness", variant="one_lane_per_program")
def k_one_lane(grid, p, r):
    # the grid of its own: n program instances (~1-3 ms each in the interpreter)
    add_one_lane[(p.n_elements,)](r.in_ptr0, r.in_ptr1, r.out_ptr, p.n_elements, BLOCK=p.BLOCK_SIZE)


@td.kernel("add_example.add_kernel_correctness", variant="wrong_then_wild")
def k_wrong_then_wild(grid, p, r):
    # larger cases: a wrong result (a finding); small ones: a read that kills the process.
    # `run` must report both: the crash must not take the earlier findings with it
    if p.n_elements <= 64:
        add_wild_read[grid](r.in_ptr0, r.in_ptr1, r.out_ptr, p.n_elements, BLOCK=p.BLOCK_SIZE)
    else:
        add_drops_last[grid](r.in_ptr0, r.in_ptr1, r.out_ptr, p.n_elements, BLOCK=p.BLOCK_SIZE)
