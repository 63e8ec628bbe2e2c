/* The prompt-cache prefill attentions of LightLLM (context_attn_llama, context_attn_fwd,
 * context_attn_bloom): what their host programs share, and the program of llama and fwd
 * (one Triton loop; llama reads K/V rows through the token table, fwd from the batch's
 * own [b, h, s, d] cache).  Used by kernels/host/context_attn_{llama,fwd}.c (bug 0: the
 * Triton kernel as written) and kernels/mutants/ (one CP_BUG_* switched on each).  With
 * bug 0 every switch takes the kernel's own branch, so the correct kernel runs the same
 * operations in the same order.  The three contracts share the parameter and region
 * positions below; the K/V strides, the table and the prompt-cache lengths differ. */
#ifndef TD_CTX_PC_TL_H
#define TD_CTX_PC_TL_H

#include "attn2_tl.h"

enum { CP_SM, CP_SQBS, CP_SQH, CP_SQD, CP_SOBS = 12, CP_SOH, CP_SOD, CP_H, CP_BD, CP_BM, CP_BN, CP_NT };
enum { CR_Q, CR_K, CR_V, CR_OUT, CR_START, CR_SEQLEN };
typedef struct ctxpc_tl {
    int gather;           /* K/V rows through Req_to_tokens; else the (b, h, s, d) cache */
    int p_sk, p_sv;       /* the first K / V stride: (bs, h, d) or (b, h, s, d) */
    int p_sreq;           /* the table's (b, s) strides */
    int r_req, r_reqidx;  /* Req_to_tokens, B_req_idx */
    int r_plen;           /* the prompt-cache lengths */
} ctxpc_tl;
enum { CP_BUG_BEL_NO_PROMPT = 1, CP_BUG_LAST_PARTIAL, CP_BUG_CAUSAL_NO_PROMPT, CP_BUG_KV_NO_BATCH,
       CP_BUG_ACC_SCALE_NO_ALPHA, CP_BUG_Q_OFFSET_INT32 };

/* Q's element (row, head, d); int32 (CP_BUG_Q_OFFSET_INT32): the offset as Triton's
 * int32 arithmetic leaves it (row, head and the strides int32, tl_i32), which past 2^31
 * elements wraps to an illegal address (tl_fault: *fault set) or another row. */
static inline int64_t ctxpc_q_off(const td_abi_launch *L, int64_t row, int64_t head, int64_t d, int int32,
                                  uint32_t pid, int *fault) {
    int64_t off = row * TL_I(L, CP_SQBS) + head * TL_I(L, CP_SQH) + d * TL_I(L, CP_SQD);
    if (!int32) return off;
    off = tl_i32(row * tl_i32(TL_I(L, CP_SQBS)) + head * tl_i32(TL_I(L, CP_SQH)) + d * tl_i32(TL_I(L, CP_SQD)));
    if (!*fault) *fault = tl_fault(L, CR_Q, off, 1, 1, pid);
    return *fault ? 0 : off;
}

/* the row of key position n of batch b: the token table's slot, or n itself */
static inline int64_t ctxpc_kv_loc(const td_abi_launch *L, const ctxpc_tl *t, int64_t req, int64_t n) {
    return t->gather ? tl_load_int(L, t->r_req, TL_I(L, t->p_sreq) * req + TL_I(L, t->p_sreq + 1) * n) : n;
}
/* the element (b, loc, head, d) of K (p_s = p_sk) or V (p_sv); no_batch: the cache's
 * batch offset forgotten (CP_BUG_KV_NO_BATCH) */
static inline int64_t ctxpc_kv_off(const td_abi_launch *L, const ctxpc_tl *t, int p_s, int64_t b, int64_t loc,
                                   int64_t head, int64_t d, int no_batch) {
    if (t->gather) return loc * TL_I(L, p_s) + head * TL_I(L, p_s + 1) + d * TL_I(L, p_s + 2);
    return (no_batch ? 0 : b) * TL_I(L, p_s) + head * TL_I(L, p_s + 1) + loc * TL_I(L, p_s + 2) + d * TL_I(L, p_s + 3);
}

static inline int ctxpc_deferred_program(const td_abi_launch *L, const ctxpc_tl *t, int bug) {
    int64_t H = TL_I(L, CP_H), D = TL_I(L, CP_BD), BM = TL_I(L, CP_BM), BN = TL_I(L, CP_BN), kv_group_num = 1;
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
    for (uint32_t start_m = 0; start_m < L->grid[0]; start_m++)
        for (uint32_t cur_bh = 0; cur_bh < L->grid[1]; cur_bh++) {
            int64_t cur_batch = cur_bh / H, cur_head = cur_bh % H, cur_kv_head = cur_head / kv_group_num;
            int64_t start = tl_load_int(L, CR_START, cur_batch);
            int64_t prompt_cache_len = tl_load_int(L, t->r_plen, cur_batch);
            int64_t seq = tl_load_int(L, CR_SEQLEN, cur_batch) - prompt_cache_len;
            int64_t req = t->gather ? tl_load_int(L, t->r_reqidx, cur_batch) : 0;
            int nob = bug == CP_BUG_KV_NO_BATCH;
            int64_t block_start = BM * start_m;
            int fault = 0;
            for (int64_t i = 0; i < BM; i++)
                for (int64_t d = 0; d < D; d++)
                    q[i * D + d] = block_start + i < seq
                                       ? tl_load(L, CR_Q, ctxpc_q_off(L, start + block_start + i, cur_head, d,
                                                                      bug == CP_BUG_Q_OFFSET_INT32, cur_bh, &fault))
                                       : 0.0f;
            if (fault) {
                free(q), free(k), free(v), free(qk), free(p), free(acc), free(m_i), free(l_i), free(kv_loc);
                return 1;
            }
            for (int64_t i = 0; i < BM; i++) m_i[i] = -INFINITY, l_i[i] = 0.0f;
            for (int64_t i = 0; i < BM * D; i++) acc[i] = 0.0f;
            int64_t block_mask = block_start < seq ? 1 : 0;
            int64_t a = block_start + BM + prompt_cache_len, bb = seq + prompt_cache_len;
            if (bug == CP_BUG_BEL_NO_PROMPT) a = block_start + BM, bb = seq;
            int64_t block_end_loc = a < bb ? a : bb;
            int64_t hi = block_mask * (bug == CP_BUG_LAST_PARTIAL ? block_end_loc / BN * BN : block_end_loc);
            for (int64_t start_n = 0; start_n < hi; start_n += BN) {
                for (int64_t n = 0; n < BN; n++)
                    kv_loc[n] = start_n + n < block_end_loc ? ctxpc_kv_loc(L, t, req, start_n + n) : 0;
                for (int64_t d = 0; d < D; d++)
                    for (int64_t n = 0; n < BN; n++)
                        k[d * BN + n] = start_n + n < block_end_loc
                                            ? tl_load(L, CR_K, ctxpc_kv_off(L, t, t->p_sk, cur_batch, kv_loc[n],
                                                                            cur_kv_head, d, nob))
                                            : 0.0f;
                for (int64_t n = 0; n < BN; n++)
                    for (int64_t d = 0; d < D; d++)
                        v[n * D + d] = start_n + n < block_end_loc
                                           ? tl_load(L, CR_V, ctxpc_kv_off(L, t, t->p_sv, cur_batch, kv_loc[n],
                                                                           cur_kv_head, d, nob))
                                           : 0.0f;
                for (int64_t i = 0; i < BM; i++) {
                    int64_t offs_m = block_start + i;
                    for (int64_t n = 0; n < BN; n++) {
                        float s = 0.0f; /* qk = tl.dot(q, k) */
                        for (int64_t d = 0; d < D; d++) s += q[i * D + d] * k[d * BN + n];
                        int live = bug == CP_BUG_CAUSAL_NO_PROMPT ? offs_m >= start_n + n : offs_m + prompt_cache_len >= start_n + n;
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
                        tl_store(L, CR_OUT, (start + block_start + i) * TL_I(L, CP_SOBS) + cur_head * TL_I(L, CP_SOH) +
                                                d * TL_I(L, CP_SOD),
                                 acc[i * D + d] / l_i[i], st);
        }
    free(q), free(k), free(v), free(qk), free(p), free(acc), free(m_i), free(l_i), free(kv_loc);
    return 0;
}

static const ctxpc_tl ctxpc_llama = {.gather = 1, .p_sk = 6, .p_sv = 9, .p_sreq = 4, .r_req = 6, .r_reqidx = 7,
                                    .r_plen = 8};
static const ctxpc_tl ctxpc_fwd = {.gather = 0, .p_sk = 4, .p_sv = 8, .r_plen = 6};

#endif
