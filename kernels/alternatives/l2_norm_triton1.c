/* l2_norm_triton1, alternative alt_fma_div: see l2_norm_common.h (FMA-chain sum of
 * squares, y = x / sqrt(var + eps)). */
#include "l2_norm_common.h"

static int fwd(const td_abi_launch *L) { return al2_fwd(L, 0); }

TD_KERNEL(td_a_l2_norm_triton1_fwd) = {"l2_norm_triton1.l2_norm_fwd_1pass_kernel_correctness", "alt_fma_div",
                                       TD_ABI_HOST, NULL, NULL, NULL, 4, 2, fwd, NULL};
