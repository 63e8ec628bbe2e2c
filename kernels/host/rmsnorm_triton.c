/* rmsnorm_triton: one program per (pid_batch, pid_m) row of a (batch, M, K) tensor:
 * var += pow(x, 2) over the column blocks, rstd = rsqrt(sum(var) / N_SIZE + eps), then
 * out = (x * rstd) * rms_w stored through out's format (rmsnorm_tl.h). */
#include "rmsnorm_tl.h"

static int rmsnorm_triton(const td_abi_launch *L) { return rn_stream_program(L, 0, RN_OK); }

TD_KERNEL(td_k_rmsnorm_triton_summary) = {"rmsnorm_triton.rmsnorm_full_output_summary", "triton", TD_ABI_HOST, NULL,
                                          NULL, NULL, 10, 3, rmsnorm_triton, NULL};
TD_KERNEL(td_k_rmsnorm_triton_io) = {"rmsnorm_triton.rmsnorm_full_io_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                                     NULL, 10, 3, rmsnorm_triton, NULL};
