/* context_attn_nopad: the host kernel's program, shared by
 * kernels/host/context_attn_nopad.c (bug 0: the Triton kernel as written) and
 * kernels/mutants/context_attn_nopad.c (one BUG_* switched on each). With bug 0 every
 * switch takes the kernel's own branch, so the correct kernel runs the same operations in
 * the same order. */
#ifndef TD_CONTEXT_ATTN_NOPAD_TL_H
#define TD_CONTEXT_ATTN_NOPAD_TL_H

#include "attn2_tl.h"

enum { P_SM, P_RS, P_HS, P_BLK, P_DM, P_NT, NP };
enum { R_Q, R_K, R_V, R_START, R_SEQLEN, R_OUT, NR };
enum { BUG_DIAGONAL = 1, BUG_SCALE_TWICE, BUG_LAST_BLOCK, BUG_OFFSET_I32 };  /* 0: no bug */
static inline int context_attn_nopad_program(const td_abi_launch *L, int bug) {
    int64_t rs = TL_I(L, P_RS), hs = TL_I(L, P_HS), BM = TL_I(L, P_BLK), BN = BM, D = TL_I(L, P_DM);
    float sm_scale = TL_R(L, P_SM);
    float *q, *k, *v, *qk, *p, *acc, *m_i, *l_i;
    TL_ALLOC(L, q, BM * D);
    TL_ALLOC(L, k, D * BN);
    TL_ALLOC(L, v, BN * D);
    TL_ALLOC(L, qk, BM * BN);
    TL_ALLOC(L, p, BN);
    TL_ALLOC(L, acc, BM * D);
    TL_ALLOC(L, m_i, BM);
    TL_ALLOC(L, l_i, BM);
    td_profile st = attn2_store_prof(L, R_OUT);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++)
            for (uint32_t sm = 0; sm < L->grid[2]; sm++) {
                int64_t seqlen = tl_load_int(L, R_SEQLEN, b), start = tl_load_int(L, R_START, b);
                int64_t block_start = BM * sm;
                if (attn2_ctx_load_q(L, R_Q, q, BM, D, start, block_start, seqlen, rs, h, hs, bug == BUG_OFFSET_I32, h)) {
                    free(q), free(k), free(v), free(qk), free(p), free(acc), free(m_i), free(l_i);
                    return 1; /* an illegal address: the launch fails */
                }
                for (int64_t i = 0; i < BM; i++) m_i[i] = -INFINITY, l_i[i] = 0.0f;
                for (int64_t i = 0; i < BM * D; i++) acc[i] = 0.0f;
                int64_t block_mask = block_start < seqlen ? 1 : 0;
                int64_t hi = block_mask * (bug == BUG_LAST_BLOCK ? sm : sm + 1) * BM;
                for (int64_t start_n = 0; start_n < hi; start_n += BN) {
                    for (int64_t d = 0; d < D; d++)
                        for (int64_t n = 0; n < BN; n++)
                            k[d * BN + n] = start_n + n < seqlen ? tl_load(L, R_K, (start + start_n + n) * rs + h * hs + d)
                                                                 : 0.0f;
                    for (int64_t n = 0; n < BN; n++)
                        for (int64_t d = 0; d < D; d++)
                            v[n * D + d] = start_n + n < seqlen ? tl_load(L, R_V, (start + start_n + n) * rs + h * hs + d)
                                                                : 0.0f;
                    for (int64_t i = 0; i < BM; i++) {
                        /* qk = tl.dot(q, k); qk *= sm_scale; causal mask */
                        for (int64_t n = 0; n < BN; n++) {
                            float s = 0.0f;
                            for (int64_t d = 0; d < D; d++) s += q[i * D + d] * k[d * BN + n];
                            s = s * sm_scale;
                            if (bug == BUG_SCALE_TWICE) s = s * sm_scale;
                            int live = bug == BUG_DIAGONAL ? block_start + i > start_n + n : block_start + i >= start_n + n;
                            qk[i * BN + n] = live ? s : -INFINITY;
                        }
                        float m_ij = tl_max(&qk[i * BN], BN);
                        for (int64_t n = 0; n < BN; n++) p[n] = expf(qk[i * BN + n] - m_ij);
                        float l_ij = tl_sum(p, BN);
                        float m_i_new = m_i[i] > m_ij ? m_i[i] : m_ij;
                        float alpha = expf(m_i[i] - m_i_new), beta = expf(m_ij - m_i_new);
                        float l_i_new = alpha * l_i[i] + beta * l_ij;
                        float p_scale = beta / l_i_new;
                        for (int64_t n = 0; n < BN; n++) p[n] = attn2_rn16(p[n] * p_scale); /* p.to(v.dtype) */
                        float acc_scale = l_i[i] / l_i_new * alpha;
                        for (int64_t d = 0; d < D; d++) {
                            float dot = 0.0f; /* tl.dot(p, v) */
                            for (int64_t n = 0; n < BN; n++) dot += p[n] * v[n * D + d];
                            acc[i * D + d] = acc[i * D + d] * acc_scale;
                            acc[i * D + d] += dot;
                        }
                        l_i[i] = l_i_new;
                        m_i[i] = m_i_new;
                    }
                }
                for (int64_t i = 0; i < BM; i++)
                    if (block_start + i < seqlen)
                        for (int64_t d = 0; d < D; d++)
                            tl_store(L, R_OUT, (start + block_start + i) * rs + h * hs + d, acc[i * D + d], st);
            }
    free(q), free(k), free(v), free(qk), free(p), free(acc), free(m_i), free(l_i);
    return 0;
}

#endif
