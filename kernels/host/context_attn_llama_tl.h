/* context_attn_llama: the host kernel's program, shared by
 * kernels/host/context_attn_llama.c (bug 0: the Triton kernel as written) and
 * kernels/mutants/context_attn_llama.c (one BUG_* switched on each). With bug 0 every
 * switch takes the kernel's own branch, so the correct kernel runs the same operations in
 * the same order. */
#ifndef TD_CONTEXT_ATTN_LLAMA_TL_H
#define TD_CONTEXT_ATTN_LLAMA_TL_H

#include "attn2_tl.h"

enum { P_SM, P_SQBS, P_SQH, P_SQD, P_SREQB, P_SREQS, P_SKBS, P_SKH, P_SKD, P_SVBS, P_SVH, P_SVD,
       P_SOBS, P_SOH, P_SOD, P_H, P_BD, P_BM, P_BN, P_NT, NP };
enum { R_Q, R_K, R_V, R_OUT, R_START, R_SEQLEN, R_REQ, R_REQIDX, R_PLEN, NR };
enum { BUG_BEL_NO_PROMPT = 1, BUG_LAST_PARTIAL, BUG_CAUSAL_NO_PROMPT };  /* 0: no bug */
static inline int context_attn_llama_program(const td_abi_launch *L, int bug) {
    int64_t H = TL_I(L, P_H), D = TL_I(L, P_BD), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), kv_group_num = 1;
    float sm_scale = TL_R(L, P_SM);
    float *q, *k, *v, *qk, *p, *acc, *m_i, *l_i;
    int64_t *kv_loc;
    TL_ALLOC(L, q, BM * D);
    TL_ALLOC(L, k, D * BN);
    TL_ALLOC(L, v, BN * D);
    TL_ALLOC(L, qk, BN);
    TL_ALLOC(L, p, BN);
    TL_ALLOC(L, acc, BM * D);
    TL_ALLOC(L, m_i, BM);
    TL_ALLOC(L, l_i, BM);
    TL_ALLOC(L, kv_loc, BN);
    td_profile st = attn2_store_prof(L, R_OUT);
    for (uint32_t start_m = 0; start_m < L->grid[0]; start_m++)
        for (uint32_t cur_bh = 0; cur_bh < L->grid[1]; cur_bh++) {
            int64_t cur_batch = cur_bh / H, cur_head = cur_bh % H, cur_kv_head = cur_head / kv_group_num;
            int64_t start = tl_load_int(L, R_START, cur_batch), prompt_cache_len = tl_load_int(L, R_PLEN, cur_batch);
            int64_t seq = tl_load_int(L, R_SEQLEN, cur_batch) - prompt_cache_len;
            int64_t req = tl_load_int(L, R_REQIDX, cur_batch);
            int64_t block_start = BM * start_m;
            for (int64_t i = 0; i < BM; i++)
                for (int64_t d = 0; d < D; d++)
                    q[i * D + d] = block_start + i < seq ? tl_load(L, R_Q, (start + block_start + i) * TL_I(L, P_SQBS) +
                                                                              cur_head * TL_I(L, P_SQH) + d * TL_I(L, P_SQD))
                                                         : 0.0f;
            for (int64_t i = 0; i < BM; i++) m_i[i] = -INFINITY, l_i[i] = 0.0f;
            for (int64_t i = 0; i < BM * D; i++) acc[i] = 0.0f;
            int64_t block_mask = block_start < seq ? 1 : 0;
            int64_t a = block_start + BM + prompt_cache_len, bb = seq + prompt_cache_len;
            if (bug == BUG_BEL_NO_PROMPT) a = block_start + BM, bb = seq;
            int64_t block_end_loc = a < bb ? a : bb;
            int64_t hi = block_mask * (bug == BUG_LAST_PARTIAL ? block_end_loc / BN * BN : block_end_loc);
            for (int64_t start_n = 0; start_n < hi; start_n += BN) {
                for (int64_t n = 0; n < BN; n++)
                    kv_loc[n] = start_n + n < block_end_loc
                                    ? tl_load_int(L, R_REQ, TL_I(L, P_SREQB) * req + TL_I(L, P_SREQS) * (start_n + n))
                                    : 0;
                for (int64_t d = 0; d < D; d++)
                    for (int64_t n = 0; n < BN; n++)
                        k[d * BN + n] = start_n + n < block_end_loc
                                            ? tl_load(L, R_K, kv_loc[n] * TL_I(L, P_SKBS) + cur_kv_head * TL_I(L, P_SKH) +
                                                                  d * TL_I(L, P_SKD))
                                            : 0.0f;
                for (int64_t n = 0; n < BN; n++)
                    for (int64_t d = 0; d < D; d++)
                        v[n * D + d] = start_n + n < block_end_loc
                                           ? tl_load(L, R_V, kv_loc[n] * TL_I(L, P_SVBS) + cur_kv_head * TL_I(L, P_SVH) +
                                                                 d * TL_I(L, P_SVD))
                                           : 0.0f;
                for (int64_t i = 0; i < BM; i++) {
                    int64_t offs_m = block_start + i;
                    for (int64_t n = 0; n < BN; n++) {
                        float s = 0.0f; /* qk = tl.dot(q, k) */
                        for (int64_t d = 0; d < D; d++) s += q[i * D + d] * k[d * BN + n];
                        int live = bug == BUG_CAUSAL_NO_PROMPT ? offs_m >= start_n + n : offs_m + prompt_cache_len >= start_n + n;
                        qk[n] = live ? s * sm_scale : -1.0e8f;
                    }
                    float mx = tl_max(qk, BN);
                    float m_ij = m_i[i] > mx ? m_i[i] : mx; /* tl.maximum(m_i, tl.max(qk, 1)) */
                    for (int64_t n = 0; n < BN; n++) p[n] = exp2f(qk[n] - m_ij);
                    float l_ij = tl_sum(p, BN);
                    float alpha = exp2f(m_i[i] - m_ij);
                    l_i[i] = l_i[i] * alpha + l_ij;
                    for (int64_t n = 0; n < BN; n++) p[n] = attn2_rn16(p[n]); /* p.to(v.dtype) */
                    for (int64_t d = 0; d < D; d++) {
                        float s = acc[i * D + d] * alpha; /* acc = acc * alpha; acc = tl.dot(p, v, acc) */
                        for (int64_t n = 0; n < BN; n++) s += p[n] * v[n * D + d];
                        acc[i * D + d] = s;
                    }
                    m_i[i] = m_ij;
                }
            }
            for (int64_t i = 0; i < BM; i++)
                if (block_start + i < seq)
                    for (int64_t d = 0; d < D; d++)
                        tl_store(L, R_OUT, (start + block_start + i) * TL_I(L, P_SOBS) + cur_head * TL_I(L, P_SOH) +
                                               d * TL_I(L, P_SOD),
                                 acc[i * D + d] / l_i[i], st);
        }
    free(q), free(k), free(v), free(qk), free(p), free(acc), free(m_i), free(l_i), free(kv_loc);
    return 0;
}

#endif
