/* attention_kernel_aligned: _fwd_kernel_aligned with one layout for Q, K, V and Out
 * (stride_qh, HEAD, 1), grid (cdiv(N_CTX, BLOCK_M), Z*H = 8).  Parameters: sm_scale,
 * stride_qh, stride_b0h, BLOCK_M, BLOCK_N, HEAD, BIAS_LAST_SIZE, stride_b0m, nB.
 * qk is fp16: tl.dot(q, k, out_dtype=fp16) accumulates in fp16 (host model: exact fp16
 * products, every partial sum rounded to fp16), and the bias add is fp16 + fp16. */
#include "attn2_tl.h"

enum { P_SM, P_SQH, P_SB0H, P_BM, P_BN, P_HD, P_BLS, P_SB0M, P_NB, NP };
enum { R_Q, R_K, R_V, R_B0, R_OUT, NR };

static int fwd_kernel_aligned(const td_abi_launch *L) {
    int64_t BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), D = TL_I(L, P_HD), BLS = TL_I(L, P_BLS);
    int64_t N_CTX = BN * TL_I(L, P_NB), sb0m = TL_I(L, P_SB0M);
    float sm_scale = TL_R(L, P_SM);
    float *q, *qk, *p, *acc, *m_i, *l_i, *b1;
    TL_ALLOC(L, q, BM * D);
    TL_ALLOC(L, qk, BN);
    TL_ALLOC(L, p, BN);
    TL_ALLOC(L, acc, BM * D);
    TL_ALLOC(L, m_i, BM);
    TL_ALLOC(L, l_i, BM);
    TL_ALLOC(L, b1, BM * BN);
    td_profile st = attn2_store_prof(L, R_OUT);
    for (uint32_t start_m = 0; start_m < L->grid[0]; start_m++)
        for (uint32_t off_hz = 0; off_hz < L->grid[1]; off_hz++) {
            int64_t q_offset = off_hz * TL_I(L, P_SQH), kv_offset = q_offset; /* all strides stride_qh */
            int64_t b_offset = off_hz * TL_I(L, P_SB0H);
            for (int64_t i = 0; i < BM; i++) m_i[i] = -INFINITY, l_i[i] = 0.0f;
            for (int64_t i = 0; i < BM * D; i++) acc[i] = 0.0f;
            float qk_scale = sm_scale * 1.44269504f;
            for (int64_t i = 0; i < BM; i++)
                for (int64_t d = 0; d < D; d++)
                    q[i * D + d] = attn2_rn16(tl_load(L, R_Q, q_offset + (start_m * BM + i) * D + d) * qk_scale);
            for (int64_t i = 0; i < BM; i++)
                for (int64_t n = 0; n < BN; n++)
                    b1[i * BN + n] = tl_load(L, R_B0, b_offset + (start_m * BM + i) * sb0m + (n % BLS) + BLS);
            for (int64_t start_n = 0; start_n < N_CTX; start_n += BN) {
                for (int64_t i = 0; i < BM; i++) {
                    float b0 = tl_load(L, R_B0, b_offset + (start_m * BM + i) * sb0m + start_n / BN);
                    for (int64_t n = 0; n < BN; n++) {
                        float s = 0.0f; /* tl.dot(q, k, out_dtype=fp16) */
                        for (int64_t d = 0; d < D; d++)
                            s = attn2_rn16(s + q[i * D + d] * tl_load(L, R_K, kv_offset + d + (start_n + n) * D));
                        qk[n] = attn2_hadd(s, attn2_hadd(b0, b1[i * BN + n])); /* qk += (b0 + b1), fp16 */
                    }
                    float mx = tl_max(qk, BN);
                    float m_i_new = m_i[i] > mx ? m_i[i] : mx;
                    float alpha = exp2f(m_i[i] - m_i_new);
                    for (int64_t n = 0; n < BN; n++) p[n] = exp2f(qk[n] - m_i_new);
                    for (int64_t d = 0; d < D; d++) {
                        float dot = 0.0f;
                        for (int64_t n = 0; n < BN; n++)
                            dot += attn2_rn16(p[n]) * tl_load(L, R_V, kv_offset + (start_n + n) * D + d);
                        acc[i * D + d] *= alpha;
                        acc[i * D + d] += dot;
                    }
                    l_i[i] = l_i[i] * alpha + tl_sum(p, BN);
                    m_i[i] = m_i_new;
                }
            }
            for (int64_t i = 0; i < BM; i++)
                for (int64_t d = 0; d < D; d++)
                    tl_store(L, R_OUT, q_offset + (start_m * BM + i) * D + d, acc[i * D + d] / l_i[i], st);
        }
    free(q), free(qk), free(p), free(acc), free(m_i), free(l_i), free(b1);
    return 0;
}

TD_KERNEL(td_k_attention_kernel_aligned) = {
    "attention_kernel_aligned.attention_kernel_aligned_output_summary_general", "triton", TD_ABI_HOST,
    "store=fp16:rne:inf", NULL, NULL, NP, NR, fwd_kernel_aligned};
TD_KERNEL(td_k_attention_kernel_aligned_io) = {"attention_kernel_aligned.attention_kernel_aligned_io_correctness",
                                               "triton", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR,
                                               fwd_kernel_aligned};
