/* rmsnorm_implementation: one program per (pid_batch, pid_m) row: var += xf * xf over the
 * column blocks, std = sqrt(sum(var) / N_SIZE + eps), then out = (x / std) * rms_w stored
 * through out's format (rmsnorm_tl.h, division form). */
#include "rmsnorm_tl.h"

static int rmsnorm_implementation(const td_abi_launch *L) { return rn_stream_program(L, 1, RN_OK); }

TD_KERNEL(td_k_rmsnorm_impl_summary) = {"rmsnorm_implementation.rmsnorm_implementation_output_summary", "triton",
                                        TD_ABI_HOST, NULL, NULL, NULL, 10, 3, rmsnorm_implementation, NULL};
TD_KERNEL(td_k_rmsnorm_impl_io) = {"rmsnorm_implementation.rmsnorm_implementation_io_correctness", "triton",
                                   TD_ABI_HOST, NULL, NULL, NULL, 10, 3, rmsnorm_implementation, NULL};
