/* rmsnorm_triton on CUDA: one block per (pid_batch, pid_m) program; the var tile folded
 * per lane over the column blocks, tl.sum's tree, rsqrtf(var / N + eps), then
 * (x * rstd) * rms_w stored through out's format (rmsnorm_tlc.cuh). */
#include "rmsnorm_tlc.cuh"

static int launch(const td_abi_launch *L) { return rn_stream_launch(L, 0, "rmsnorm_triton"); }

TD_KERNEL(td_kc_rmsnorm_triton_summary) = {"rmsnorm_triton.rmsnorm_full_output_summary", "triton", TD_ABI_CUDA, NULL,
                                           NULL, NULL, 10, 3, launch, NULL};
TD_KERNEL(td_kc_rmsnorm_triton_io) = {"rmsnorm_triton.rmsnorm_full_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                      NULL, 10, 3, launch, NULL};
