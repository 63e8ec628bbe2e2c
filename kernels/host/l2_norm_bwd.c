/* l2_norm_bwd: _l2_norm_bwd_kernel, one program per row, one tile: var = sum(x * x),
 * rstd = 1 / sqrt(var + eps), dx = dy * rstd - sum(dy * x) * (1 / (var + eps)) * rstd * x
 * (rmsnorm_tl.h). */
#include "rmsnorm_tl.h"

static int l2_norm_bwd(const td_abi_launch *L) { return rn_l2_bwd_program(L, RN_OK); }

TD_KERNEL(td_k_l2_norm_bwd) = {"l2_norm_bwd.l2_norm_bwd_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                               4, 3, l2_norm_bwd, NULL};
