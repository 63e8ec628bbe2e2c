/* rmsnorm_fused_llama: _rms_norm_fwd_fused, rmsnorm_fused's program with the store
 * tl.store(Y + cols, y.to(tl.float16)) (rmsnorm_tl.h). */
#include "rmsnorm_tl.h"

static int rms_norm_fwd_fused_llama(const td_abi_launch *L) { return rn_fused_program(L, 1, RN_OK); }

TD_KERNEL(td_k_rmsnorm_llama_summary) = {"rmsnorm_fused_llama.rms_norm_fwd_fused_llama_output_summary", "triton",
                                         TD_ABI_HOST, NULL, NULL, NULL, 4, 3, rms_norm_fwd_fused_llama, NULL};
TD_KERNEL(td_k_rmsnorm_llama_io) = {"rmsnorm_fused_llama.rms_norm_fwd_fused_llama_io_correctness", "triton",
                                    TD_ABI_HOST, NULL, NULL, NULL, 4, 3, rms_norm_fwd_fused_llama, NULL};
