/* rmsnorm_fused: rms_norm_fwd_fused, one program per row: _var += x * x over the column
 * blocks, rstd = 1 / sqrt(sum(_var) / N + eps), Y = (x * rstd) * w (rmsnorm_tl.h). */
#include "rmsnorm_tl.h"

static int rms_norm_fwd_fused(const td_abi_launch *L) { return rn_fused_program(L, 0, RN_OK); }

TD_KERNEL(td_k_rmsnorm_fused_summary) = {"rmsnorm_fused.rms_norm_fwd_fused_output_summary", "triton", TD_ABI_HOST,
                                         NULL, NULL, NULL, 4, 3, rms_norm_fwd_fused, NULL};
TD_KERNEL(td_k_rmsnorm_fused_io) = {"rmsnorm_fused.rms_norm_fwd_fused_io_correctness", "triton", TD_ABI_HOST, NULL,
                                    NULL, NULL, 4, 3, rms_norm_fwd_fused, NULL};
