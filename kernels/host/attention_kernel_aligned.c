/* attention_kernel_aligned: _fwd_kernel_aligned with one layout for Q, K, V and Out
 * (stride_qh, HEAD, 1), grid (cdiv(N_CTX, BLOCK_M), Z*H = 8).  Parameters: sm_scale,
 * stride_qh, stride_b0h, BLOCK_M, BLOCK_N, HEAD, BIAS_LAST_SIZE, stride_b0m, nB.
 * qk is fp16: tl.dot(q, k, out_dtype=fp16) accumulates in fp16 (host model: exact fp16
 * products, every partial sum rounded to fp16), and the bias add is fp16 + fp16. */
#include "attention_kernel_aligned_tl.h"

static int fwd_kernel_aligned(const td_abi_launch *L) { return attention_kernel_aligned_program(L, 0); }

TD_KERNEL(td_k_attention_kernel_aligned) = {
    "attention_kernel_aligned.attention_kernel_aligned_output_summary_general", "triton", TD_ABI_HOST,
    "store=fp16:rne:inf", NULL, NULL, NP, NR, fwd_kernel_aligned, NULL};
TD_KERNEL(td_k_attention_kernel_aligned_io) = {"attention_kernel_aligned.attention_kernel_aligned_io_correctness",
                                               "triton", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR,
                                               fwd_kernel_aligned, NULL};
