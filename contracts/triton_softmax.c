/* triton_softmax.softmax_kernel_correctness  (catalogue part 2)
 *
 *   softmaxIO output_ptr input_ptr input_row_stride output_row_stride n_cols BLOCK_SIZE
 *     ⊨ fun xs i => softmaxSpec n_cols BLOCK_SIZE xs i            (hB : 0 < BLOCK_SIZE)
 *   MaskedKernelIO₁: read = pid * input_row_stride, write = pid * output_row_stride,
 *   mask j < n_cols, B = BLOCK_SIZE.
 *
 * The Triton kernel (bench/tritonbench_g/triton_softmax/triton_softmax.py): program
 * row_idx loads BLOCK_SIZE lanes of its row with mask arange < n_cols, other = -inf,
 * takes tl.max, tl.exp(row - row_max), tl.sum, divides and stores the lanes j < n_cols:
 * the same program as the tutorial's fused softmax of softmax_triton1/2 (only names and
 * comments differ).  The wrapper picks BLOCK_SIZE = min(next_power_of_2(n_cols), 1024),
 * so rows wider than 1024 are cut to the tile by the wrapper itself.
 * The named spec checked against TritonSoftmax.lean: softmaxInputTile puts xs j on the
 * lanes j < n_cols and ⊥ elsewhere (the other = -inf); softmaxSpec is reduceMax, exp of
 * (row - max), reduceSum, division: exp(x_i - max)/sum_j exp(x_j - max) over the lanes
 * j < n_cols of the BLOCK_SIZE tile, i.e. over w = min(n_cols, BLOCK_SIZE) columns.
 * The contract does not require n_cols <= BLOCK_SIZE, so the generator makes rows wider
 * than the tile (the wrapper's n_cols > 1024 case) and the spec is over those w columns.
 *
 * Error model (the family's, contracts/softmax_common.h, shared through
 * softmax_tutorial_common.h): exact max (a max of binary32 values), one subtraction
 * (u|d|), exp with the backend's budget (argument error amplified by e_j), the sum of w
 * terms in any order or tree shape, or online with rescales (td_sh_rescaled), one
 * division (u, or (2u + u^2) for e * (1/s): oracle/shadow.c's division budget).
 *
 * Special values (TD_SV_REAL): d_j <= 0 so exp never overflows, and the sum is at least
 * the max lane's exp(0) = 1, so every output is finite; n_cols = 0 writes nothing.
 * Parameters, generator, checker, write set, intent (torch.softmax over the whole row;
 * its gap names n_cols > BLOCK_SIZE) and spec: contracts/softmax_tutorial_common.h.
 */
#include "softmax_tutorial_common.h"

const td_contract td_c_triton_softmax = {
    .id = "triton_softmax.softmax_kernel_correctness",
    .file = "triton_softmax",
    SM_TUT_FIELDS,
};
