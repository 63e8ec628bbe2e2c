"""Elementwise Triton kernels (written for tilediff's examples; each has a planted-bug twin)."""
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def add_kernel_bug_tail(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # planted bug: the mask drops the last element of the tensor
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements - 1
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


# string annotation, as some kernel files write it (the interpreter must still see a constexpr)
@triton.jit
def relu_kernel(x_ptr, out_ptr, N, block_size: "tl.constexpr"):
    pid = tl.program_id(0)
    offsets = pid * block_size + tl.arange(0, block_size)
    mask = offsets < N
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    result = tl.where(x >= 0, x, 0.0)
    # the catalogued kernel stores from program 0 only
    if pid == 0:
        tl.store(out_ptr + offsets, result, mask=mask)


@triton.jit
def relu_kernel_bug_strict(x_ptr, out_ptr, N, block_size: "tl.constexpr"):
    # planted bug: the comparison is inverted, negatives pass and positives become 0
    pid = tl.program_id(0)
    offsets = pid * block_size + tl.arange(0, block_size)
    mask = offsets < N
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    result = tl.where(x <= 0, x, 0.0)
    if pid == 0:
        tl.store(out_ptr + offsets, result, mask=mask)


@triton.jit
def swiglu_fwd_kernel(X, Y, OUT, stride_x_row, stride_y_row, stride_out_row, ncols, BLOCK_N: tl.constexpr,
                      BUG_NO_GATE: tl.constexpr = False):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    m = cols < ncols
    x = tl.load(X + row * stride_x_row + cols, mask=m, other=0.0).to(tl.float32)
    y = tl.load(Y + row * stride_y_row + cols, mask=m, other=0.0).to(tl.float32)
    gate = x * tl.sigmoid(x)
    if BUG_NO_GATE:
        gate = x  # planted bug: the SiLU gate is left out
    tl.store(OUT + row * stride_out_row + cols, gate * y, mask=m)


# Autotuned: every config is certified as its own variant by tilediff (never benchmarked);
# the heuristic marks blocks that need no mask, as real kernels do for speed.
@triton.autotune(configs=[triton.Config({"BLOCK_SIZE": 64}, num_warps=2),
                          triton.Config({"BLOCK_SIZE": 256}, num_warps=4),
                          triton.Config({"BLOCK_SIZE": 1024}, num_warps=8)],
                 key=["n_elements"])
@triton.heuristics({"EVEN": lambda args: args["n_elements"] % args["BLOCK_SIZE"] == 0})
@triton.jit
def sin_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr, EVEN: tl.constexpr,
               BUG_SHIFT: tl.constexpr = False):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    if EVEN:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n_elements)
    y = tl.sin(x)
    if BUG_SHIFT:
        y = tl.sin(x + 1e-3)  # planted bug: a phase shift
    if EVEN:
        tl.store(output_ptr + offs, y)
    else:
        tl.store(output_ptr + offs, y, mask=offs < n_elements)
