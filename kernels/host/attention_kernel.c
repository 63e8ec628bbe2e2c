/* attention_kernel: _fwd_kernel_aligned (relative-position bias attention), grid
 * (cdiv(N_CTX, BLOCK_M), Z*H = 8).  Parameters: sm_scale, stride_qh, stride_kh, stride_b0h,
 * BLOCK_M, BLOCK_N, HEAD, BIAS_LAST_SIZE, stride_b0m, nB; q/k/v/o strides (stride_.h, HEAD,
 * 1), N_CTX = BLOCK_N * nB, P_SEQ = 0, OUT_DTYPE fp16. */
#include "attention_kernel_tl.h"

static int fwd_kernel_aligned(const td_abi_launch *L) { return attention_kernel_program(L, 0); }

TD_KERNEL(td_k_attention_kernel) = {"attention_kernel.attention_kernel_genuine_output_compute_correct_general",
                                    "triton", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR,
                                    fwd_kernel_aligned, NULL};
TD_KERNEL(td_k_attention_kernel_io) = {"attention_kernel.attention_kernel_io_correctness", "triton", TD_ABI_HOST,
                                       "store=fp16:rne:inf", NULL, NULL, NP, NR, fwd_kernel_aligned, NULL};
