/* l2_norm_bwd, alternative alt_fma_div: see l2_norm_common.h (FMA-chain sums, a
 * division for 1/(var+eps), dx = fma(-c, x, dy*rstd)). */
#include "l2_norm_common.h"

static int bwd(const td_abi_launch *L) { return al2_bwd(L); }

TD_KERNEL(td_a_l2_norm_bwd) = {"l2_norm_bwd.l2_norm_bwd_kernel_correctness", "alt_fma_div", TD_ABI_HOST, NULL, NULL,
                               NULL, 4, 3, bwd, NULL};
