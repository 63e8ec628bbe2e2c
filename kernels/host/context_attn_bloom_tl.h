/* context_attn_bloom: the host kernel's program (_fwd_kernel, grid (batch, head,
 * cdiv(max_input_len, BLOCK_M)), kv_group_num = 1), shared by
 * kernels/host/context_attn_bloom.c (bug 0: the Triton kernel as written) and
 * kernels/mutants/context_attn_bloom.c (one CP_BUG_* switched on each).  K/V rows come
 * through the token table (ctx_pc_tl.h); head lanes d >= head_dim are masked. */
#ifndef TD_CONTEXT_ATTN_BLOOM_TL_H
#define TD_CONTEXT_ATTN_BLOOM_TL_H

#include "ctx_pc_tl.h"

static const ctxpc_tl ctxpc_bloom = {.gather = 1, .p_sk = 6, .p_sv = 9, .p_sreq = 4, .r_req = 6, .r_reqidx = 7,
                                     .r_plen = 8};

/* one KV block's update of query row i: qk[0..BN) holds the masked, scaled scores */
static inline void ctxpc_bloom_step(const float *qk, const float *v, int64_t BN, int64_t D, int live_block, int bug,
                                    float *p, float *m_i, float *l_i, float *acc) {
    float m_ij = tl_max(qk, BN);
    for (int64_t n = 0; n < BN; n++) p[n] = expf(qk[n] - m_ij);
    float l_ij = tl_sum(p, BN);
    float m_i_new = *m_i > m_ij ? *m_i : m_ij;
    float alpha = expf(*m_i - m_i_new), beta = expf(m_ij - m_i_new);
    float l_i_new = alpha * *l_i + beta * l_ij;
    float p_scale = beta / l_i_new;
    for (int64_t n = 0; n < BN; n++) p[n] = attn2_rn16(p[n] * p_scale); /* p.to(v.dtype) */
    float acc_scale = bug == CP_BUG_ACC_SCALE_NO_ALPHA ? *l_i / l_i_new : *l_i / l_i_new * alpha;
    acc_scale = live_block ? acc_scale : 1.0f; /* tl.where(offs_m + prompt_cache_len >= start_n, ...) */
    for (int64_t d = 0; d < D; d++) {
        float dot = 0.0f; /* tl.dot(p, v) */
        for (int64_t n = 0; n < BN; n++) dot += p[n] * v[n * D + d];
        acc[d] = acc[d] * acc_scale;
        acc[d] += dot;
    }
    *l_i = l_i_new, *m_i = m_i_new;
}

static inline int context_attn_bloom_program(const td_abi_launch *L, int bug) {
    const ctxpc_tl *t = &ctxpc_bloom;
    int64_t hd = TL_I(L, CP_H), D = TL_I(L, CP_BD), BM = TL_I(L, CP_BM), BN = TL_I(L, CP_BN);
    float sm_scale = TL_R(L, CP_SM);
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
    td_profile st = attn2_store_prof(L, CR_OUT);
    for (uint32_t cur_batch = 0; cur_batch < L->grid[0]; cur_batch++)
        for (uint32_t cur_head = 0; cur_head < L->grid[1]; cur_head++)
            for (uint32_t start_m = 0; start_m < L->grid[2]; start_m++) {
                int64_t start = tl_load_int(L, CR_START, cur_batch), plen = tl_load_int(L, t->r_plen, cur_batch);
                int64_t seq = tl_load_int(L, CR_SEQLEN, cur_batch) - plen, req = tl_load_int(L, t->r_reqidx, cur_batch);
                int64_t block_start = BM * start_m;
                int fault = 0;
                for (int64_t i = 0; i < BM; i++)
                    for (int64_t d = 0; d < D; d++)
                        q[i * D + d] =
                            block_start + i < seq && d < hd
                                ? tl_load(L, CR_Q, ctxpc_q_off(L, start + block_start + i, cur_head, d,
                                                               bug == CP_BUG_Q_OFFSET_INT32, cur_head, &fault))
                                : 0.0f;
                if (fault) {
                    free(q), free(k), free(v), free(qk), free(p), free(acc), free(m_i), free(l_i), free(kv_loc);
                    return 1;
                }
                for (int64_t i = 0; i < BM; i++) m_i[i] = -INFINITY, l_i[i] = 0.0f;
                for (int64_t i = 0; i < BM * D; i++) acc[i] = 0.0f;
                int64_t block_mask = block_start < seq ? 1 : 0;
                int64_t a = (start_m + 1) * BM + plen, bb = seq + plen;
                if (bug == CP_BUG_BEL_NO_PROMPT) a = (start_m + 1) * BM, bb = seq;
                int64_t block_end_loc = a < bb ? a : bb;
                for (int64_t start_n = 0; start_n < block_mask * block_end_loc; start_n += BN) {
                    for (int64_t n = 0; n < BN; n++)
                        kv_loc[n] = start_n + n < block_end_loc ? ctxpc_kv_loc(L, t, req, start_n + n) : 0;
                    for (int64_t n = 0; n < BN; n++)
                        for (int64_t d = 0; d < D; d++) {
                            int in = start_n + n < block_end_loc && d < hd;
                            k[d * BN + n] = in ? tl_load(L, CR_K, ctxpc_kv_off(L, t, t->p_sk, 0, kv_loc[n], cur_head, d, 0)) : 0.0f;
                            v[n * D + d] = in ? tl_load(L, CR_V, ctxpc_kv_off(L, t, t->p_sv, 0, kv_loc[n], cur_head, d, 0)) : 0.0f;
                        }
                    for (int64_t i = 0; i < BM; i++) {
                        int64_t offs_m = block_start + i;
                        for (int64_t n = 0; n < BN; n++) {
                            float s = 0.0f; /* qk = tl.dot(q, k); qk *= sm_scale; the causal where */
                            for (int64_t d = 0; d < D; d++) s += q[i * D + d] * k[d * BN + n];
                            int live = bug == CP_BUG_CAUSAL_NO_PROMPT ? offs_m >= start_n + n : offs_m + plen >= start_n + n;
                            qk[n] = live ? s * sm_scale : -100000000.0f;
                        }
                        ctxpc_bloom_step(qk, v, BN, D, offs_m + plen >= start_n, bug, p, &m_i[i], &l_i[i], &acc[i * D]);
                    }
                }
                for (int64_t i = 0; i < BM; i++)
                    if (block_start + i < seq)
                        for (int64_t d = 0; d < hd && d < D; d++)
                            tl_store(L, CR_OUT, (start + block_start + i) * TL_I(L, CP_SOBS) + cur_head * TL_I(L, CP_SOH) +
                                                    d * TL_I(L, CP_SOD),
                                     acc[i * D + d], st);
            }
    free(q), free(k), free(v), free(qk), free(p), free(acc), free(m_i), free(l_i), free(kv_loc);
    return 0;
}

#endif
