/* rms_norm_triton: rms_norm_kernel, one program per row, one tile: var = sum(x * x) / N,
 * rrms = 1 / sqrt(var + eps), Y = (x * rrms) * w (rmsnorm_tl.h). */
#include "rmsnorm_tl.h"

static int rms_norm_kernel(const td_abi_launch *L) { return rn_rms_norm_program(L, RN_OK); }

TD_KERNEL(td_k_rms_norm_triton) = {"rms_norm_triton.rms_norm_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                                   NULL, 7, 3, rms_norm_kernel, NULL};
