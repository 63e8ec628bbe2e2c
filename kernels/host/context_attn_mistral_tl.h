/* context_attn_mistral: the host kernel's program, shared by
 * kernels/host/context_attn_mistral.c (bug 0: the Triton kernel as written) and
 * kernels/mutants/context_attn_mistral.c (one BUG_* switched on each). With bug 0 every
 * switch takes the kernel's own branch, so the correct kernel runs the same operations in
 * the same order. */
#ifndef TD_CONTEXT_ATTN_MISTRAL_TL_H
#define TD_CONTEXT_ATTN_MISTRAL_TL_H

#include "attn2_tl.h"

enum { G_SM, G_RS, G_HS, G_BLK, G_DM, G_SW, G_NP };
enum { I_SM, I_RS, I_HS, I_SW, I_BLK, I_DM, I_NT, I_NP };
enum { R_Q, R_K, R_V, R_START, R_SEQLEN, R_OUT, NR };
typedef struct { int sm, rs, hs, blk, dm, sw; } pix;
enum { BUG_WINDOW = 1, BUG_NO_GUARD, BUG_ACC_NOT_RESCALED, BUG_OFFSET_I32 };  /* 0: no bug */
static inline int context_attn_mistral_program(const td_abi_launch *L, pix x, int bug) {
    int64_t rs = TL_I(L, x.rs), hs = TL_I(L, x.hs), BM = TL_I(L, x.blk), BN = BM, D = TL_I(L, x.dm);
    int64_t sliding_window = TL_I(L, x.sw), kv_group_num = 1;
    float sm_scale = TL_R(L, x.sm);
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
                int64_t kvh = h / kv_group_num;
                int64_t seqlen = tl_load_int(L, R_SEQLEN, b), start = tl_load_int(L, R_START, b);
                int64_t block_start = BM * sm;
                if (attn2_ctx_load_q(L, R_Q, q, BM, D, start, block_start, seqlen, rs, h, hs, bug == BUG_OFFSET_I32, h)) {
                    free(q), free(k), free(v), free(qk), free(p), free(acc), free(m_i), free(l_i);
                    return 1; /* an illegal address: the launch fails */
                }
                for (int64_t i = 0; i < BM; i++) m_i[i] = -INFINITY, l_i[i] = 0.0f;
                for (int64_t i = 0; i < BM * D; i++) acc[i] = 0.0f;
                int64_t block_mask = block_start < seqlen ? 1 : 0;
                for (int64_t start_n = 0; start_n < block_mask * (sm + 1) * BM; start_n += BN) {
                    for (int64_t d = 0; d < D; d++)
                        for (int64_t n = 0; n < BN; n++)
                            k[d * BN + n] = start_n + n < seqlen
                                                ? tl_load(L, R_K, (start + start_n + n) * rs + kvh * hs + d)
                                                : 0.0f;
                    for (int64_t n = 0; n < BN; n++)
                        for (int64_t d = 0; d < D; d++)
                            v[n * D + d] = start_n + n < seqlen
                                               ? tl_load(L, R_V, (start + start_n + n) * rs + kvh * hs + d)
                                               : 0.0f;
                    for (int64_t i = 0; i < BM; i++) {
                        int64_t offs_m = block_start + i;
                        for (int64_t n = 0; n < BN; n++) {
                            float s = 0.0f; /* tl.dot(q, k) */
                            for (int64_t d = 0; d < D; d++) s += q[i * D + d] * k[d * BN + n];
                            s = s * sm_scale;
                            s = offs_m >= start_n + n ? s : -1e9f;                 /* causal */
                            int in_win = bug == BUG_WINDOW ? start_n + n >= offs_m - sliding_window : start_n + n > offs_m - sliding_window;
                            s = in_win ? s : -1e9f; /* the window (int32) */
                            qk[i * BN + n] = s;
                        }
                        float m_ij = tl_max(&qk[i * BN], BN);
                        m_ij = m_ij == -1e9f ? 0.0f : m_ij;
                        for (int64_t n = 0; n < BN; n++) p[n] = expf(qk[i * BN + n] - m_ij);
                        float l_ij = tl_sum(p, BN);
                        float m_i_new = m_i[i] > m_ij ? m_i[i] : m_ij;
                        float alpha = expf(m_i[i] - m_i_new), beta = expf(m_ij - m_i_new);
                        float l_i_new = alpha * l_i[i] + beta * l_ij;
                        if (bug != BUG_NO_GUARD) l_i_new = l_i_new == 0.0f ? 1e-9f : l_i_new;
                        float p_scale = beta / l_i_new;
                        for (int64_t n = 0; n < BN; n++) p[n] = attn2_rn16(p[n] * p_scale); /* p.to(v.dtype) */
                        float acc_scale = l_i[i] / l_i_new * alpha;
                        for (int64_t d = 0; d < D; d++) {
                            float dot = 0.0f; /* tl.dot(p, v) */
                            for (int64_t n = 0; n < BN; n++) dot += p[n] * v[n * D + d];
                            acc[i * D + d] = bug == BUG_ACC_NOT_RESCALED ? acc[i * D + d] : acc[i * D + d] * acc_scale;
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
