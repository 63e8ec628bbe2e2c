/* softmax_triton1.softmax_kernel_correctness  (catalogue part 2)
 *
 *   softmaxIO output_ptr input_ptr input_row_stride output_row_stride n_cols BLOCK_SIZE
 *     ⊨ fun xs i => softmaxSpec n_cols BLOCK_SIZE xs i            (hB : 0 < BLOCK_SIZE)
 *   MaskedKernelIO₁: read = pid * input_row_stride, write = pid * output_row_stride,
 *   mask j < n_cols, B = BLOCK_SIZE.
 *
 * The Triton kernel (bench/tritonbench_g/softmax_triton1, the Triton tutorial's fused
 * softmax): program pid loads its row's BLOCK_SIZE lanes with other = -inf, subtracts
 * tl.max, takes tl.exp, divides by tl.sum and stores the lanes j < n_cols.
 * The named spec softmaxSpec (SoftmaxTriton1.lean) builds the tile with the masked
 * lanes as ⊥, reduceMax, exp(row - max), reduceSum, division: exactly the catalogue's
 * reading exp(x_i - max)/sum_j exp(x_j - max), over the lanes j < n_cols of the TILE.
 * The catalogue's "j < n_cols" is only the whole row when n_cols <= BLOCK_SIZE; the
 * contract allows n_cols > BLOCK_SIZE, and then the kernel (and the Lean spec) reduce
 * and write the first BLOCK_SIZE columns only: the spec here is over w = min(n_cols,
 * BLOCK_SIZE) columns, and the generator makes such rows.
 *
 * Error model: the family's tile softmax (softmax_common.h): exact max, one
 * subtraction, exp, a pairwise-tree sum of w terms (ceil(log2 w) additions per term),
 * one division.
 *
 * Special values (TD_SV_REAL): d_j <= 0 so exp never overflows, and the sum is at
 * least the max lane's exp(0) = 1, so the kernel never divides by 0 and every output
 * is finite.  n_cols = 0 writes nothing (the kernel's NaN row is never stored).  Input
 * rows may overlap (input_row_stride 0 or below the row): the spec reads the cells.
 * Parameters, generator, checker, write set and spec: contracts/softmax_tutorial_common.h
 * (shared by softmax_triton1.c and softmax_triton2.c).
 */
#include "softmax_tutorial_common.h"

const td_contract td_c_softmax_triton1 = {
    .id = "softmax_triton1.softmax_kernel_correctness",
    .file = "softmax_triton1",
    SM_TUT_FIELDS,
};
