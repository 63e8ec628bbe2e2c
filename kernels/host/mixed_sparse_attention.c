/* mixed_sparse_attention on the host.
 *
 * The epilogue slice: program (start_m, off_hz) loads seqlen = Seqlens[off_hz // H], its
 * [BLOCK_M, BLOCK_DMODEL] accumulator tile from AccPre at o_ptrs (unmasked) and its row
 * sums LPre[start_m*BLOCK_M + r], divides (acc / l_i[:, None], binary32) and stores with
 * m_mask = offs_m < seqlen.
 * Parameters: H stride_qz stride_qh stride_om stride_ok BLOCK_M BLOCK_DMODEL.
 * Regions: AccPre, LPre (binary32), Seqlens (int32), Out (binary32). */
#include "attn_online_tl.h"
#include "mixed_sparse_attention_tl.h"

int td_msa_epilogue(const td_abi_launch *L, const msa_epi_bugs *bug) {
    int64_t h = TL_I(L, ME_H), bm = TL_I(L, ME_BM), bd = TL_I(L, ME_BD);
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
            int64_t sidx = bug->seqlen_by_head ? p1 % h : p1 / h;
            if (tl_fault(L, ME_SEQ, sidx, 1, 1, p0)) return 1;
            int64_t seqlen = tl_load_int(L, ME_SEQ, sidx);
            int64_t qo = p1 / h * TL_I(L, ME_SQZ) + p1 % h * TL_I(L, ME_SQH);
            for (int64_t r = 0; r < bm; r++) {
                int64_t m = (int64_t)p0 * bm + r;
                if (tl_fault(L, ME_L, m, 1, 1, p0)) return 1;
                float l = tl_load(L, ME_L, m);
                for (int64_t d = 0; d < bd; d++) {
                    int64_t o = qo + m * TL_I(L, ME_SOM) + d * TL_I(L, ME_SOK);
                    if (tl_fault(L, ME_ACC, o, 1, 1, p0) || tl_fault(L, ME_OUT, o, 1, 1, p0)) return 1;
                    float acc = tl_load(L, ME_ACC, o) / l;
                    if (bug->store_unmasked || m < seqlen) tl_store(L, ME_OUT, o, acc, tl_f32());
                }
            }
        }
    return 0;
}

static int epilogue(const td_abi_launch *L) {
    static const msa_epi_bugs none = {0, 0};
    return td_msa_epilogue(L, &none);
}

TD_KERNEL(td_k_msa_epilogue) = {"mixed_sparse_attention.mixed_sparse_attention_epilogue_io_correctness", "triton",
                                TD_ABI_HOST, NULL, NULL, NULL, 7, 4, epilogue, NULL};

/* The whole kernel (the closed-form contract).  Program (start_m, off_hz), row by row (rows
 * are independent; rows at or past seqlen, NaN under m_mask in the kernel, are never
 * stored and skipped here):
 *   q16 = (q * (sm_scale * 1.44269504)).to(fp16)
 *   8 block iterations: cond = b < num_blks; start_n = cond ? block_offset[b] : 0 (masked
 *     load); keys n = start_n + j; K / V loaded under (n < seqlen) & cond, else 0; qk = (row
 *     < seqlen and n <= row ? 0 : -inf) + dot(q16, k);
 *   the column phase: range(0, 16, BLOCK_N); cond = start_n < num_cols; cols loaded under
 *     cond (else 0); n_mask = start_n + j < num_cols & cond; qk = (n_mask ? 0 : -inf) + dot;
 *   each iteration: m_new = max(m, max qk); alpha = exp2(m - m_new); p = exp2(qk - m_new);
 *     acc = acc * alpha + dot(p.to(fp16), v); l = l * alpha + tl.sum(p);
 *   out = (acc / l).to(fp16), stored under row < seqlen. */
typedef struct msa_st {
    const td_abi_launch *L;
    int64_t kb, bd, bn, row, seqlen;
    const float *q16;
    float m, l, *acc, *k, *v, *qk, *p16;
} msa_st;

/* one loop iteration; keys[j] < 0: lane j's K / V masked to 0; keep[j]: the where() mask */
static int msa_step(msa_st *S, const int64_t *keys, const uint8_t *keep, uint32_t pid) {
    const td_abi_launch *L = S->L;
    for (int64_t j = 0; j < S->bn; j++) {
        int64_t ko = S->kb + keys[j] * TL_I(L, MC_SKN), vo = S->kb + keys[j] * TL_I(L, MC_SVN);
        if (keys[j] >= 0 && (tl_fault(L, MR_K, ko, S->bd, 1, pid) || tl_fault(L, MR_V, vo, S->bd, 1, pid))) return 1;
        float d = 0.0f;
        for (int64_t e = 0; e < S->bd; e++) {
            S->k[e] = keys[j] >= 0 ? tl_load(L, MR_K, ko + e) : 0.0f;
            S->v[j * S->bd + e] = keys[j] >= 0 ? tl_load(L, MR_V, vo + e) : 0.0f;
            d += S->q16[e] * S->k[e];
        }
        S->qk[j] = (keep[j] ? 0.0f : -INFINITY) + d;
    }
    float mx = tl_max(S->qk, S->bn), m_new = S->m > mx ? S->m : mx;
    float alpha = exp2f(S->m - m_new);
    for (int64_t j = 0; j < S->bn; j++) {
        S->qk[j] = exp2f(S->qk[j] - m_new); /* p */
        S->p16[j] = at_cvt(TD_F16, S->qk[j]);
    }
    for (int64_t e = 0; e < S->bd; e++) {
        float d = 0.0f;
        for (int64_t j = 0; j < S->bn; j++) d += S->p16[j] * S->v[j * S->bd + e];
        S->acc[e] = S->acc[e] * (S->l * 0.0f + alpha) + d;
    }
    S->l = S->l * alpha + tl_sum(S->qk, S->bn);
    S->m = m_new;
    return 0;
}

/* the 8 block iterations, then the column phase, for row S->row of program (p0, p1) */
static int msa_row_run(msa_st *S, int64_t t, uint32_t pid, const msa_cf_bugs *bug, int64_t *keys, uint8_t *keep) {
    const td_abi_launch *L = S->L;
    if (tl_fault(L, MR_BCNT, t, 1, 1, pid) || tl_fault(L, MR_CCNT, t, 1, 1, pid)) return 1;
    int64_t nb = tl_load_int(L, MR_BCNT, t), nc = tl_load_int(L, MR_CCNT, t);
    int64_t nblk = bug->blocks_num_blks ? (nb < 8 ? nb : 8) : 8;
    for (int64_t b = 0; b < nblk; b++) {
        int cond = b < nb;
        if (cond && tl_fault(L, MR_BOFF, t * TL_I(L, MC_NS) + b, 1, 1, pid)) return 1;
        int64_t start = cond ? tl_load_int(L, MR_BOFF, t * TL_I(L, MC_NS) + b) : 0;
        for (int64_t j = 0; j < S->bn; j++) {
            int64_t n = start + j;
            keys[j] = n < S->seqlen && cond ? n : -1;
            keep[j] = (uint8_t)(S->row < S->seqlen && n <= S->row);
        }
        if (msa_step(S, keys, keep, pid)) return 1;
    }
    for (int64_t sn = 0; sn < 16; sn += S->bn) {
        int cond = sn < nc;
        if (cond && tl_fault(L, MR_COLS, t * TL_I(L, MC_NV) + sn, S->bn, 1, pid)) return 1;
        for (int64_t j = 0; j < S->bn; j++) {
            int64_t col = cond ? tl_load_int(L, MR_COLS, t * TL_I(L, MC_NV) + sn + j) : 0;
            int nm = sn + j < nc && cond;
            keys[j] = nm ? col : -1;
            keep[j] = (uint8_t)(S->row < S->seqlen && nm && (!bug->cols_causal || col <= S->row));
        }
        if (msa_step(S, keys, keep, pid)) return 1;
    }
    return 0;
}

int td_msa_cf(const td_abi_launch *L, const msa_cf_bugs *bug) {
    int64_t bm = TL_I(L, MC_BM), bn = TL_I(L, MC_BN), bd = TL_I(L, MC_BD), h = TL_I(L, MC_H);
    float qk_scale = TL_R(L, MC_SCALE) * 1.44269504f;
    float *q16, *acc, *k, *v, *qk, *p16;
    int64_t *keys;
    uint8_t *keep;
    TL_ALLOC(L, q16, bd);
    TL_ALLOC(L, acc, bd);
    TL_ALLOC(L, k, bd);
    TL_ALLOC(L, v, bn * bd);
    TL_ALLOC(L, qk, bn);
    TL_ALLOC(L, p16, bn);
    TL_ALLOC(L, keys, bn);
    TL_ALLOC(L, keep, bn);
    int rc = 0;
    for (uint32_t p1 = 0; p1 < L->grid[1] && !rc; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0] && !rc; p0++) {
            if (tl_fault(L, MR_SEQ, p1 / h, 1, 1, p0)) {
                rc = 1;
                break;
            }
            int64_t seqlen = tl_load_int(L, MR_SEQ, p1 / h);
            if ((int64_t)p0 * bm >= seqlen) continue; /* the early return */
            int64_t qb = p1 / h * TL_I(L, MC_SQZ) + p1 % h * TL_I(L, MC_SQH);
            int64_t kvb = p1 / h * TL_I(L, MC_SKZ) + p1 % h * TL_I(L, MC_SKH);
            if (bug->offset_i32) /* Triton's i32 pids times the strides that fit i32: wraps past 2^31 */
                kvb = tl_i32(tl_i32(p1 / h * tl_i32(TL_I(L, MC_SKZ))) + tl_i32(p1 % h * tl_i32(TL_I(L, MC_SKH))));
            msa_st S = {L, kvb, bd, bn, 0, seqlen, q16, 0, 0, acc, k, v, qk, p16};
            for (int64_t i = 0; i < bm && !rc; i++) {
                S.row = (int64_t)p0 * bm + i;
                if (S.row >= seqlen) break; /* m_mask: never stored */
                int64_t qo = qb + S.row * TL_I(L, MC_SQM), oo = qb + S.row * TL_I(L, MC_SOM);
                if (tl_fault(L, MR_Q, qo, bd, 1, p0) || tl_fault(L, MR_OUT, oo, bd, 1, p0)) rc = 1;
                for (int64_t e = 0; e < bd && !rc; e++) q16[e] = at_cvt(TD_F16, tl_load(L, MR_Q, qo + e) * qk_scale), acc[e] = 0.0f;
                S.m = -INFINITY, S.l = 0.0f;
                if (!rc) rc = msa_row_run(&S, (int64_t)p1 * TL_I(L, MC_NR) + p0, p0, bug, keys, keep);
                for (int64_t e = 0; e < bd && !rc; e++) tl_store(L, MR_OUT, oo + e, acc[e] / S.l, at_prof(TD_F16));
            }
        }
    free(q16), free(acc), free(k), free(v), free(qk), free(p16), free(keys), free(keep);
    return rc;
}

static int closed_form(const td_abi_launch *L) {
    static const msa_cf_bugs none = {0, 0, 0};
    return td_msa_cf(L, &none);
}

TD_KERNEL(td_k_msa_cf) = {"mixed_sparse_attention.mixed_sparse_attention_output_closed_form_summary_general", "triton",
                          TD_ABI_HOST, MSA_CF_CASTS, NULL, NULL, MC_NP, MR_NR, closed_form, NULL};
