/* softmax_triton2.softmax_kernel_correctness  (catalogue part 2)
 *
 *   softmaxIO output_ptr input_ptr input_row_stride output_row_stride n_cols BLOCK_SIZE
 *     ⊨ fun xs i => softmaxSpec n_cols BLOCK_SIZE xs i            (hB : 0 < BLOCK_SIZE)
 *   MaskedKernelIO₁: read = pid * input_row_stride, write = pid * output_row_stride,
 *   mask j < n_cols, B = BLOCK_SIZE.
 *
 * The Triton kernel (bench/tritonbench_g/softmax_triton2) is token for token the
 * kernel of softmax_triton1 (the tutorial's fused softmax; only the host wrapper's
 * comments differ), and SoftmaxTriton2.lean states the same softmaxSpec: the masked
 * tile (⊥ lanes), reduceMax, exp(row - max), reduceSum, division.  As for triton1 the
 * catalogue's "j < n_cols" reading is the whole row only when n_cols <= BLOCK_SIZE;
 * the spec is over w = min(n_cols, BLOCK_SIZE) columns.
 *
 * Error model: the family's tile softmax (softmax_common.h): exact max, one
 * subtraction, exp, a pairwise-tree sum of w terms, one division.
 *
 * Special values (TD_SV_REAL): d_j <= 0 so exp never overflows and the sum is >= 1,
 * every output is finite; n_cols = 0 writes nothing.  This file's mutants differ from
 * triton1's: a binary16 denominator and masked lanes loaded as 0 instead of -inf.
 * Parameters, generator, checker, write set and spec: contracts/softmax_tutorial_common.h
 * (shared by softmax_triton1.c and softmax_triton2.c).
 */
#include "softmax_tutorial_common.h"

const td_contract td_c_softmax_triton2 = {
    .id = "softmax_triton2.softmax_kernel_correctness",
    .file = "softmax_triton2",
    SM_TUT_FIELDS,
};
