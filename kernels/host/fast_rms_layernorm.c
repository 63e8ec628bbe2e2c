/* fast_rms_layernorm: _rms_layernorm_forward and _gemma_rms_layernorm_forward, one
 * program per row, one tile: inv_var = rsqrt(sum(x * x) / n_cols + eps) stored in r,
 * Y = (x * inv_var) * W (Gemma: * (W + 1)) (rmsnorm_tl.h). */
#include "rmsnorm_tl.h"

static int rms_layernorm_forward(const td_abi_launch *L) { return rn_fast_rms_program(L, 0, RN_OK); }
static int gemma_rms_layernorm_forward(const td_abi_launch *L) { return rn_fast_rms_program(L, 1, RN_OK); }

TD_KERNEL(td_k_fast_rms_layernorm) = {"fast_rms_layernorm.rms_layernorm_forward_correctness", "triton", TD_ABI_HOST,
                                      NULL, NULL, NULL, 7, 4, rms_layernorm_forward, NULL};
TD_KERNEL(td_k_gemma_rms_layernorm) = {"fast_rms_layernorm.gemma_rms_layernorm_forward_correctness", "triton",
                                       TD_ABI_HOST, NULL, NULL, NULL, 6, 4, gemma_rms_layernorm_forward, NULL};
