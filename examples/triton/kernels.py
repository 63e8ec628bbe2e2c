"""tilediff's Triton examples: real Triton kernels (elementwise.py, norms.py, ...) registered
as implementations of catalogue contracts, each with a planted-bug twin.

    tilediff certify --kernels examples/triton/kernels.py
    tilediff run --kernels examples/triton/kernels.py --kernel bug_tail add_example.add_kernel_correctness
"""
import triton

import tilediff_triton as td

import elementwise as ew
import norms


def cdiv(a, b):
    return triton.cdiv(a, b)


# ---- elementwise ----
@td.kernel("add_example.add_kernel_correctness", declares="order=seq;fma=off")
def add(grid, p, r):
    ew.add_kernel[grid](r.in_ptr0, r.in_ptr1, r.out_ptr, p.n_elements, BLOCK_SIZE=p.BLOCK_SIZE)


@td.kernel("add_example.add_kernel_correctness", variant="bug_tail", mutant="the mask drops the last element")
def add_bug(grid, p, r):
    ew.add_kernel_bug_tail[grid](r.in_ptr0, r.in_ptr1, r.out_ptr, p.n_elements, BLOCK_SIZE=p.BLOCK_SIZE)


@td.kernel("relu_triton_kernel.relu_kernel_correctness")
def relu(grid, p, r):
    ew.relu_kernel[grid](r.x_ptr, r.out_ptr, p.N, block_size=p.block_size)


@td.kernel("relu_triton_kernel.relu_kernel_correctness", variant="bug_inverted", mutant="x <= 0 instead of x >= 0")
def relu_bug(grid, p, r):
    ew.relu_kernel_bug_strict[grid](r.x_ptr, r.out_ptr, p.N, block_size=p.block_size)


# ---- softmax and norms ----
@td.kernel("softmax_triton1.softmax_kernel_correctness")
def softmax(grid, p, r):
    norms.softmax_kernel[grid](r.output_ptr, r.input_ptr, p.input_row_stride, p.output_row_stride, p.n_cols,
                               BLOCK_SIZE=p.BLOCK_SIZE)


@td.kernel("softmax_triton1.softmax_kernel_correctness", variant="bug_other0", mutant="masked lanes load 0, not -inf")
def softmax_bug(grid, p, r):
    norms.softmax_kernel_bug_nomax[grid](r.output_ptr, r.input_ptr, p.input_row_stride, p.output_row_stride,
                                         p.n_cols, BLOCK_SIZE=p.BLOCK_SIZE)


@td.kernel("rms_norm_triton.rms_norm_kernel_correctness")
def rms_norm(grid, p, r):
    norms.rms_norm_kernel[grid](r.Y, r.X, r.W, p.y_stride_r, p.y_stride_c, p.x_stride_r, p.x_stride_c, p.N, p.eps,
                                BLOCK_SIZE=p.BLOCK_SIZE)


@td.kernel("rms_norm_triton.rms_norm_kernel_correctness", variant="bug_count", mutant="mean over BLOCK_SIZE, not N")
def rms_norm_bug(grid, p, r):
    norms.rms_norm_kernel_bug_count[grid](r.Y, r.X, r.W, p.y_stride_r, p.y_stride_c, p.x_stride_r, p.x_stride_c, p.N,
                                          p.eps, BLOCK_SIZE=p.BLOCK_SIZE)
