/* block_sparse_attn on the host.
 *
 * The output stores (block_sparse_attn_output_store_slice / _second_slice): program
 * (start_m, off_bh) splits off_bh into off_h = off_bh % num_heads, off_b = off_bh //
 * num_heads, loads its [BLOCK_M, BLOCK_D] accumulator tile masked by offs_m <
 * total_seq_len (other = 0) and stores it at out + off_o (first slice) and out + off_o +
 * BLOCK_D (second slice) under the same mask.  One launch runs the first slice over the
 * grid, then the second.
 * Parameters: num_heads total_seq_len stride_acc_b stride_acc_h stride_acc_m stride_acc_d
 * stride_ob stride_oh stride_om BLOCK_M BLOCK_D.  Regions: Acc, Acc2, Out (binary32). */
#include "block_sparse_attn_tl.h"

int td_bsa_store_slice(const td_abi_launch *L, int reg, int second, const bsa_store_bugs *bug) {
    int64_t nh = TL_I(L, BS_NH), seq = TL_I(L, BS_SEQ), bm = TL_I(L, BS_BM), bd = TL_I(L, BS_BD);
    td_profile st = tl_f32();
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
            int64_t off_h = p1 % nh, off_b = p1 / nh;
            int64_t sad = bug->acc_d_unstrided ? 1 : TL_I(L, BS_SAD);
            int64_t abase = off_b * TL_I(L, BS_SAB) + off_h * TL_I(L, BS_SAH);
            int64_t obase = off_b * TL_I(L, BS_SOB) + off_h * TL_I(L, BS_SOH) + (second && !bug->no_shift ? bd : 0);
            for (int64_t r = 0; r < bm; r++) {
                int64_t m = (int64_t)p0 * bm + r;
                int load = m < seq, store = bug->store_unmasked || m < seq;
                for (int64_t d = 0; d < bd && store; d++) {
                    float v = 0.0f; /* other = 0.0 */
                    if (load) {
                        int64_t a = abase + m * TL_I(L, BS_SAM) + d * sad;
                        if (tl_fault(L, reg, a, 1, 1, p0)) return 1;
                        v = tl_load(L, reg, a);
                    }
                    int64_t o = obase + m * TL_I(L, BS_SOM) + d;
                    if (tl_fault(L, BS_OUT, o, 1, 1, p0)) return 1;
                    tl_store(L, BS_OUT, o, v, st);
                }
            }
        }
    return 0;
}

static int stores(const td_abi_launch *L) {
    static const bsa_store_bugs none = {0, 0, 0};
    if (td_bsa_store_slice(L, BS_ACC, 0, &none)) return 1;
    return td_bsa_store_slice(L, BS_ACC2, 1, &none);
}

TD_KERNEL(td_k_bsa_stores_io) = {"block_sparse_attn.block_sparse_attn_output_stores_io_correctness", "triton",
                                 TD_ABI_HOST, NULL, NULL, NULL, 11, 3, stores, NULL};
TD_KERNEL(td_k_bsa_stores_io_r) = {"block_sparse_attn.block_sparse_attn_output_stores_io_correctnessR", "triton",
                                   TD_ABI_HOST, "store=fp32:rne:inf", NULL, NULL, 11, 3, stores, NULL};

/* ---- block_sparse_attention_kernel (NUM_D_BLOCKS = 2, EVEN_M = EVEN_N = true) ----
 * Program (start_m, off_bh): q, q2 = the two D blocks of the tile's BLOCK_M rows
 * (unmasked); layout_h = off_h % num_layout; for col_idx_idx in [start_l, end_l):
 * start_n = C[...] * BLOCK_N, qk = (q.k + q2.k2) * scale + where(offs_m >= start_n +
 * offs_n, 0, -inf), m_ij = max, p = exp(qk - m_ij), l_ij = sum p, m_new = max(m_i, m_ij),
 * alpha = exp(m_i - m_new), beta = exp(m_ij - m_new), l_new = alpha l_i + beta l_ij,
 * p *= beta / l_new, acc, acc2 *= l_i / l_new * alpha, acc += p.v, acc2 += p.v2;
 * stores acc and acc2 (+ BLOCK_D) for rows < total_seq_len.  Binary32 throughout (the
 * tensors are binary32: p.to(Q.dtype) is exact). */
typedef struct bsa_prog {
    int64_t bm, bd, bn, row0, qb, kb, vb;
    float *q, *acc, *m, *l, *qk, *p;
} bsa_prog;

/* one selected block: the scores, then the online update of m, l, acc */
static void bsa_block(const td_abi_launch *L, bsa_prog *P, int64_t start_n, const bsa_bugs *bug) {
    int64_t bm = P->bm, bn = P->bn, dim = 2 * P->bd;
    float scale = TL_R(L, BF_SCALE);
    for (int64_t i = 0; i < bm; i++) {
        for (int64_t j = 0; j < bn; j++) {
            float s1 = 0.0f, s2 = 0.0f; /* tl.dot(q, k) + tl.dot(q2, k2) */
            for (int64_t e = 0; e < P->bd; e++) {
                int64_t ko = P->kb + (start_n + j) * TL_I(L, BF_SKN);
                s1 += P->q[i * dim + e] * tl_load(L, BF_K, ko + e);
                s2 += P->q[i * dim + P->bd + e] * tl_load(L, BF_K, ko + P->bd + e);
            }
            float s = (0.0f + s1 + s2) * scale;
            int64_t key = (bug->causal_local ? 0 : start_n) + j;
            P->qk[i * bn + j] = s + (P->row0 + i >= key ? 0.0f : -INFINITY);
        }
        float mij = tl_max(P->qk + i * bn, bn);
        for (int64_t j = 0; j < bn; j++) P->p[i * bn + j] = expf(P->qk[i * bn + j] - mij);
        float lij = tl_sum(P->p + i * bn, bn);
        float mnew = P->m[i] > mij ? P->m[i] : mij;
        float alpha = expf(P->m[i] - mnew), beta = expf(mij - mnew);
        float lnew = alpha * P->l[i] + beta * lij;
        float pscale = beta / lnew, ascale = P->l[i] / lnew * alpha;
        for (int64_t d = 0; d < dim; d++) {
            float pv = 0.0f;
            for (int64_t j = 0; j < bn; j++)
                pv += P->p[i * bn + j] * pscale * tl_load(L, BF_V, P->vb + (start_n + j) * TL_I(L, BF_SVN) + d);
            P->acc[i * dim + d] = P->acc[i * dim + d] * ascale + pv;
        }
        P->l[i] = lnew;
        P->m[i] = mnew;
    }
}

static int bsa_program(const td_abi_launch *L, uint32_t p0, uint32_t p1, bsa_prog *P, const bsa_bugs *bug) {
    int64_t nh = TL_I(L, BF_NH), dim = 2 * P->bd, seq = TL_I(L, BF_SEQ);
    int64_t off_h = p1 % nh, off_b = p1 / nh, off_h_kv = off_h / (nh / TL_I(L, BF_NKV));
    P->row0 = (int64_t)p0 * P->bm;
    P->qb = off_b * TL_I(L, BF_SQB) + off_h * TL_I(L, BF_SQH);
    P->kb = off_b * TL_I(L, BF_SKB) + off_h_kv * TL_I(L, BF_SKH);
    if (bug->offset_i32) /* Triton's i32 pids times the strides that fit i32: wraps past 2^31 (faults below) */
        P->kb = tl_i32(tl_i32(off_b * tl_i32(TL_I(L, BF_SKB))) + tl_i32(off_h_kv * tl_i32(TL_I(L, BF_SKH))));
    P->vb = off_b * TL_I(L, BF_SVB) + off_h_kv * TL_I(L, BF_SVH);
    for (int64_t i = 0; i < P->bm; i++) {
        P->m[i] = -INFINITY, P->l[i] = 0.0f;
        for (int64_t e = 0; e < dim; e++) {
            P->q[i * dim + e] = tl_load(L, BF_Q, P->qb + (P->row0 + i) * TL_I(L, BF_SQM) + e);
            P->acc[i * dim + e] = 0.0f;
        }
    }
    int64_t layout_h = (bug->layout_by_kv_head ? off_h_kv : off_h) % TL_I(L, BF_NL);
    int64_t rp = layout_h * TL_I(L, BF_RSH) + p0;
    if (tl_fault(L, BF_R, rp, 2, 1, p0)) return 1;
    int64_t start_l = (int32_t)tl_load_int(L, BF_R, rp), end_l = (int32_t)tl_load_int(L, BF_R, rp + 1);
    for (int64_t t = start_l; t < end_l; t++) {
        int64_t ci = layout_h * TL_I(L, BF_CSH) + t;
        if (tl_fault(L, BF_C, ci, 1, 1, p0)) return 1;
        int64_t start_n = (int32_t)tl_load_int(L, BF_C, ci) * P->bn;
        int64_t kl = P->kb + (start_n + P->bn - 1) * TL_I(L, BF_SKN) + dim - 1;
        int64_t vl = P->vb + (start_n + P->bn - 1) * TL_I(L, BF_SVN) + dim - 1;
        if (tl_fault(L, BF_K, P->kb + start_n * TL_I(L, BF_SKN), 1, 1, p0) || tl_fault(L, BF_K, kl, 1, 1, p0) ||
            tl_fault(L, BF_V, P->vb + start_n * TL_I(L, BF_SVN), 1, 1, p0) || tl_fault(L, BF_V, vl, 1, 1, p0))
            return 1;
        bsa_block(L, P, start_n, bug);
    }
    int64_t ob = off_b * TL_I(L, BF_SOB) + off_h * TL_I(L, BF_SOH);
    for (int64_t i = 0; i < P->bm; i++) {
        if (!(bug->store_unmasked || P->row0 + i < seq)) continue;
        int64_t o = ob + (P->row0 + i) * TL_I(L, BF_SOM);
        if (tl_fault(L, BF_OUT, o, dim, 1, p0)) return 1;
        for (int64_t e = 0; e < dim; e++) tl_store(L, BF_OUT, o + e, P->acc[i * dim + e], tl_f32());
    }
    return 0;
}

int td_bsa_attention(const td_abi_launch *L, const bsa_bugs *bug) {
    bsa_prog P = {.bm = TL_I(L, BF_BM), .bd = TL_I(L, BF_BD), .bn = TL_I(L, BF_BN)};
    int64_t dim = 2 * P.bd;
    TL_ALLOC(L, P.q, P.bm * dim);
    TL_ALLOC(L, P.acc, P.bm * dim);
    TL_ALLOC(L, P.m, P.bm);
    TL_ALLOC(L, P.l, P.bm);
    TL_ALLOC(L, P.qk, P.bm * P.bn);
    TL_ALLOC(L, P.p, P.bm * P.bn);
    int rc = 0;
    for (uint32_t p1 = 0; p1 < L->grid[1] && !rc; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0] && !rc; p0++) rc = bsa_program(L, p0, p1, &P, bug);
    free(P.q), free(P.acc), free(P.m), free(P.l), free(P.qk), free(P.p);
    return rc;
}

static int attention(const td_abi_launch *L) {
    static const bsa_bugs none = {0, 0, 0, 0};
    return td_bsa_attention(L, &none);
}

TD_KERNEL(td_k_bsa_cf) = {"block_sparse_attn.block_sparse_attn_output_closed_form_summary_general", "triton",
                          TD_ABI_HOST, NULL, NULL, NULL, 22, 6, attention, NULL};
