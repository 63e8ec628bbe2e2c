/* attention_kernel_aligned: the host kernel's program, shared by
 * kernels/host/attention_kernel_aligned.c (bug 0: the Triton kernel as written) and
 * kernels/mutants/attention_kernel_aligned.c (one BUG_* switched on each). With bug 0
 * every switch takes the kernel's own branch, so the correct kernel runs the same
 * operations in the same order. */
#ifndef TD_ATTENTION_KERNEL_ALIGNED_TL_H
#define TD_ATTENTION_KERNEL_ALIGNED_TL_H

#include "attn2_tl.h"

enum { P_SM, P_SQH, P_SB0H, P_BM, P_BN, P_HD, P_BLS, P_SB0M, P_NB, NP };
enum { R_Q, R_K, R_V, R_B0, R_OUT, NR };
enum { BUG_LAST_BLOCK = 1, BUG_BIAS_SCALED, BUG_L_NOT_RESCALED, BUG_OFFSET_I32 };  /* 0: no bug */
static inline int attention_kernel_aligned_program(const td_abi_launch *L, int bug) {
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
            if (bug == BUG_OFFSET_I32) { /* q_offset = off_hz * stride_qh in Triton's int32: wraps past 2^31 */
                q_offset = tl_i32(off_hz * tl_i32(TL_I(L, P_SQH)));
                if (tl_fault(L, R_Q, q_offset + start_m * BM * D, BM * D, 1, off_hz)) {
                    free(q), free(qk), free(p), free(acc), free(m_i), free(l_i), free(b1);
                    return 1; /* an illegal address: the launch fails */
                }
            }
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
            for (int64_t start_n = 0; start_n < (bug == BUG_LAST_BLOCK ? N_CTX - BN : N_CTX); start_n += BN) {
                for (int64_t i = 0; i < BM; i++) {
                    float b0 = tl_load(L, R_B0, b_offset + (start_m * BM + i) * sb0m + start_n / BN);
                    for (int64_t n = 0; n < BN; n++) {
                        float s = 0.0f; /* tl.dot(q, k, out_dtype=fp16) */
                        for (int64_t d = 0; d < D; d++)
                            s = attn2_rn16(s + q[i * D + d] * tl_load(L, R_K, kv_offset + d + (start_n + n) * D));
                        float bias = attn2_hadd(b0, b1[i * BN + n]);
                        if (bug == BUG_BIAS_SCALED) bias = attn2_hmul(bias, attn2_rn16(1.44269504f));
                        qk[n] = attn2_hadd(s, bias); /* qk += (b0 + b1), fp16 */
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
                    l_i[i] = bug == BUG_L_NOT_RESCALED ? l_i[i] + tl_sum(p, BN) : l_i[i] * alpha + tl_sum(p, BN);
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

#endif
