/* l2_norm_triton2, alternatives (see l2_norm_common.h): the forward as alt_tree_rsqrt
 * (a pairwise tree over the row's n lanes, not the padded tile), the backward as
 * alt_fma_div (FMA-chain sums, a division for 1/(var+eps), an FMA-contracted update). */
#include "l2_norm_common.h"

static int fwd(const td_abi_launch *L) { return al2_fwd(L, 1); }
static int bwd(const td_abi_launch *L) { return al2_bwd(L); }

TD_KERNEL(td_a_l2_norm_triton2_fwd) = {"l2_norm_triton2.l2_norm_fwd_1pass_kernel_correctness", "alt_tree_rsqrt",
                                       TD_ABI_HOST, NULL, NULL, NULL, 4, 2, fwd, NULL};
TD_KERNEL(td_a_l2_norm_triton2_bwd) = {"l2_norm_triton2.l2_norm_bwd_kernel_correctness", "alt_fma_div", TD_ABI_HOST,
                                       NULL, NULL, NULL, 4, 3, bwd, NULL};
