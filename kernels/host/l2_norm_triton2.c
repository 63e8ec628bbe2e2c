/* l2_norm_triton2: _l2_norm_fwd_1pass_kernel and _l2_norm_bwd_kernel, one program per
 * row, one tile (rmsnorm_tl.h). */
#include "rmsnorm_tl.h"

static int l2_norm_fwd(const td_abi_launch *L) { return rn_l2_fwd_program(L, RN_OK); }
static int l2_norm_bwd(const td_abi_launch *L) { return rn_l2_bwd_program(L, RN_OK); }

TD_KERNEL(td_k_l2_norm_triton2_fwd) = {"l2_norm_triton2.l2_norm_fwd_1pass_kernel_correctness", "triton", TD_ABI_HOST,
                                       NULL, NULL, NULL, 4, 2, l2_norm_fwd, NULL};
TD_KERNEL(td_k_l2_norm_triton2_bwd) = {"l2_norm_triton2.l2_norm_bwd_kernel_correctness", "triton", TD_ABI_HOST, NULL,
                                       NULL, NULL, 4, 3, l2_norm_bwd, NULL};
