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
