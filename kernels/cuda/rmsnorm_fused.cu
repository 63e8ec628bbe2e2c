/* rmsnorm_fused on CUDA: rms_norm_fwd_fused, one block per row (rmsnorm_tlc.cuh). */
#include "rmsnorm_tlc.cuh"

static int launch(const td_abi_launch *L) { return rn_fused_launch(L, 0, "rms_norm_fwd_fused"); }

TD_KERNEL(td_kc_rmsnorm_fused_summary) = {"rmsnorm_fused.rms_norm_fwd_fused_output_summary", "triton", TD_ABI_CUDA,
                                          NULL, NULL, NULL, 4, 3, launch, NULL};
TD_KERNEL(td_kc_rmsnorm_fused_io) = {"rmsnorm_fused.rms_norm_fwd_fused_io_correctness", "triton", TD_ABI_CUDA, NULL,
                                     NULL, NULL, 4, 3, launch, NULL};
