/* rmsnorm_implementation on CUDA: one block per (pid_batch, pid_m) program; the var tile
 * folded per lane over the column blocks, tl.sum's tree, std = sqrt(var / N + eps), then
 * (x / std) * rms_w stored through out's format (rmsnorm_tlc.cuh, division form). */
#include "rmsnorm_tlc.cuh"

static int launch(const td_abi_launch *L) { return rn_stream_launch(L, 1, "rmsnorm_implementation"); }

TD_KERNEL(td_kc_rmsnorm_impl_summary) = {"rmsnorm_implementation.rmsnorm_implementation_output_summary", "triton",
                                         TD_ABI_CUDA, NULL, NULL, NULL, 10, 3, launch, NULL};
TD_KERNEL(td_kc_rmsnorm_impl_io) = {"rmsnorm_implementation.rmsnorm_implementation_io_correctness", "triton",
                                    TD_ABI_CUDA, NULL, NULL, NULL, 10, 3, launch, NULL};
