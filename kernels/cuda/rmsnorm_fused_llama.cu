/* rmsnorm_fused_llama on CUDA: _rms_norm_fwd_fused, one block per row, y.to(fp16) before
 * the store (rmsnorm_tlc.cuh). */
#include "rmsnorm_tlc.cuh"

static int launch(const td_abi_launch *L) { return rn_fused_launch(L, 1, "_rms_norm_fwd_fused (llama)"); }

TD_KERNEL(td_kc_rmsnorm_llama_summary) = {"rmsnorm_fused_llama.rms_norm_fwd_fused_llama_output_summary", "triton",
                                          TD_ABI_CUDA, NULL, NULL, NULL, 4, 3, launch, NULL};
TD_KERNEL(td_kc_rmsnorm_llama_io) = {"rmsnorm_fused_llama.rms_norm_fwd_fused_llama_io_correctness", "triton",
                                     TD_ABI_CUDA, NULL, NULL, NULL, 4, 3, launch, NULL};
