/* The spec of contracts/context_attn_llama.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn2_common.spec.h"

/* score of query row gi (of batch b, head h) against key position j: tl.dot(q, k) * sm_scale */
static NUM SPEC(ll_score)(NCX *cx, const td_case *c, int64_t b, int64_t h, int64_t gi, int64_t j, uint64_t row) {
    uint64_t key = attn2_key(TAG_S, row, (uint64_t)j, 0);
    NUM s;
    if (N(memo_get)(cx, key, &s)) return s;
    int64_t st = td_geti(c, R_START, (size_t)b), req = td_geti(c, R_REQIDX, (size_t)b);
    int64_t slot = td_geti(c, R_REQ, (size_t)(req * c->p[P_SREQB].i + j * c->p[P_SREQS].i));
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t e = 0; e < c->p[P_BD].i; e++) {
        NUM q = N(in)(cx, c, R_Q, (size_t)((st + gi) * c->p[P_SQBS].i + h * c->p[P_SQH].i + e * c->p[P_SQD].i));
        NUM k = N(in)(cx, c, R_K, (size_t)(slot * c->p[P_SKBS].i + h * c->p[P_SKH].i + e * c->p[P_SKD].i));
        N(acc_add)(cx, &acc, N(mul)(cx, q, k));
    }
    s = N(mul)(cx, N(acc_end)(cx, &acc), N(exact)(cx, c->p[P_SM].r));
    N(memo_put)(cx, key, s);
    return s;
}

/* acc / l of output lane (b, h, gi, d), in the kernel's order */
static NUM SPEC(ll_out)(NCX *cx, const td_case *c, const td_olane *lane) {
    int64_t b = lane->idx[0], h = lane->idx[1], gi = lane->idx[2], d = lane->idx[3];
    int64_t BN = c->p[P_BN].i, H = c->p[P_H].i;
    int64_t plen = td_geti(c, R_PLEN, (size_t)b), req = td_geti(c, R_REQIDX, (size_t)b);
    int64_t last = gi + plen; /* the row's last live key */
    uint64_t row = (uint64_t)((b * H + h) * ((int64_t)c->grid[0] * c->p[P_BM].i) + gi);
    NUM m = N(exact)(cx, 0.0), l = N(exact)(cx, 0.0), acc = N(exact)(cx, 0.0);
    for (int64_t t = 0; t * BN <= last; t++) {
        int64_t j1 = (t + 1) * BN - 1 < last ? (t + 1) * BN - 1 : last; /* live keys t*BN .. j1 */
        NUM m_new, alpha, l_new, p16[256];
        int hit = N(memo_get)(cx, attn2_key(TAG_M, row, (uint64_t)t, 0), &m_new) &&
                  N(memo_get)(cx, attn2_key(TAG_A, row, (uint64_t)t, 0), &alpha) &&
                  N(memo_get)(cx, attn2_key(TAG_L, row, (uint64_t)t, 0), &l_new);
        for (int64_t j = t * BN; hit && j <= j1; j++)
            hit = N(memo_get)(cx, attn2_key(TAG_P16, row, (uint64_t)j, 0), &p16[j - t * BN]);
        if (!hit) {
            NUM bm = SPEC(ll_score)(cx, c, b, h, gi, t * BN, row);
            for (int64_t j = t * BN + 1; j <= j1; j++) bm = N(max)(cx, bm, SPEC(ll_score)(cx, c, b, h, gi, j, row));
            if (t == 0) { /* maximum(-inf, tl.max(qk)) = tl.max(qk); alpha = exp2(-inf) = 0 */
                m_new = bm;
                alpha = N(exact)(cx, 0.0);
            } else {
                NUM beta;
                SPEC(a2_rescale)(cx, m, bm, 1, &m_new, &alpha, &beta);
            }
            NACC ls;
            N(acc_init)(cx, &ls, TD_ORDER_TREE, 0);
            for (int64_t j = t * BN; j < (t + 1) * BN; j++) {
                if (j > j1) { /* exp2(-1e8 - m) = 0 in its place of the tree */
                    N(acc_add)(cx, &ls, N(exact)(cx, 0.0));
                    continue;
                }
                NUM pj = N(exp2)(cx, N(sub)(cx, SPEC(ll_score)(cx, c, b, h, gi, j, row), m_new)); /* exp2(qk - m_ij) */
                N(acc_add)(cx, &ls, pj);
                p16[j - t * BN] = SPEC(p16)(cx, pj); /* p.to(v.dtype) */
                N(memo_put)(cx, attn2_key(TAG_P16, row, (uint64_t)j, 0), p16[j - t * BN]);
            }
            NUM l_ij = N(acc_end)(cx, &ls);
            l_new = t == 0 ? l_ij : N(add)(cx, N(mul)(cx, l, alpha), l_ij); /* l_i * alpha + l_ij */
            N(memo_put)(cx, attn2_key(TAG_M, row, (uint64_t)t, 0), m_new);
            N(memo_put)(cx, attn2_key(TAG_A, row, (uint64_t)t, 0), alpha);
            N(memo_put)(cx, attn2_key(TAG_L, row, (uint64_t)t, 0), l_new);
        }
        /* acc = tl.dot(p, v, acc * alpha): the products added onto acc*alpha in order */
        NACC dot;
        N(acc_init)(cx, &dot, TD_ORDER_SEQ, 0);
        if (t > 0) N(acc_add)(cx, &dot, N(mul)(cx, acc, alpha));
        for (int64_t j = t * BN; j <= j1; j++) {
            int64_t slot = td_geti(c, R_REQ, (size_t)(req * c->p[P_SREQB].i + j * c->p[P_SREQS].i));
            NUM v = N(in)(cx, c, R_V, (size_t)(slot * c->p[P_SVBS].i + h * c->p[P_SVH].i + d * c->p[P_SVD].i));
            N(acc_add)(cx, &dot, N(mul)(cx, p16[j - t * BN], v));
        }
        acc = N(acc_end)(cx, &dot);
        m = m_new, l = l_new;
    }
    double mlo = N(down)(cx, m), smag = 0, lmag = 0, vsum = 0, vmax = 0;
    for (int64_t j = 0; j <= last; j++) {
        int64_t slot = td_geti(c, R_REQ, (size_t)(req * c->p[P_SREQB].i + j * c->p[P_SREQS].i));
        double w = SPEC(a2_wb)(cx, SPEC(ll_score)(cx, c, b, h, gi, j, row), mlo, 1);
        double v = fabs(td_get(c, R_V, (size_t)(slot * c->p[P_SVBS].i + h * c->p[P_SVH].i + d * c->p[P_SVD].i)));
        smag += w * v, lmag += w, vsum += v, vmax = v > vmax ? v : vmax;
    }
    SPEC(a2_reblock)(cx, (long)(last + 1), smag, lmag, vsum, vmax, 1, 0, &acc, &l);
    return N(div)(cx, acc, l);
}
static NUM SPEC(llama)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(k16)(cx, SPEC(ll_out)(cx, c, l)); /* the store into the fp16 Out */
}
static NUM SPEC(llama_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(ll_out)(cx, c, l), C_STORE);
}


/* The intent (docs/intent.md): scaled dot-product attention of query row gi (position
 * gi + plen: the prompt cache's plen tokens come first) over keys 0 .. gi + plen, the
 * rows Req_to_tokens[req, j] of K and V, with the causal mask of those positions; the
 * host folds log2 e into sm_scale (sm_scale = 1/sqrt(d) * 1.4426950408889634 with
 * exp2), so the operation's scale is sm_scale * ln 2.  Exact, no fp16 P. */
static NUM SPEC(ll_intent_score)(NCX *cx, const td_case *c, int64_t b, int64_t h, int64_t gi, int64_t j) {
    int64_t st = td_geti(c, R_START, (size_t)b), req = td_geti(c, R_REQIDX, (size_t)b);
    int64_t slot = td_geti(c, R_REQ, (size_t)(req * c->p[P_SREQB].i + j * c->p[P_SREQS].i));
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t e = 0; e < c->p[P_BD].i; e++) {
        NUM q = N(in)(cx, c, R_Q, (size_t)((st + gi) * c->p[P_SQBS].i + h * c->p[P_SQH].i + e * c->p[P_SQD].i));
        NUM k = N(in)(cx, c, R_K, (size_t)(slot * c->p[P_SKBS].i + h * c->p[P_SKH].i + e * c->p[P_SKD].i));
        N(acc_add)(cx, &acc, N(mul)(cx, q, k));
    }
    NUM sc = N(mul)(cx, N(exact)(cx, c->p[P_SM].r), N(log)(cx, N(exact)(cx, 2.0)));
    return N(mul)(cx, N(acc_end)(cx, &acc), sc);
}
static NUM SPEC(ll_intent)(NCX *cx, const td_case *c, const td_olane *lane) {
    int64_t b = lane->idx[0], h = lane->idx[1], gi = lane->idx[2], d = lane->idx[3];
    int64_t last = gi + td_geti(c, R_PLEN, (size_t)b), req = td_geti(c, R_REQIDX, (size_t)b);
    uint64_t row = (uint64_t)((b * c->p[P_H].i + h) * ((int64_t)c->grid[0] * c->p[P_BM].i) + gi);
    NUM m, ls;
    if (!N(memo_get)(cx, attn2_key(A2I_M, row, 0, 0), &m) || !N(memo_get)(cx, attn2_key(A2I_L, row, 0, 0), &ls)) {
        m = SPEC(ll_intent_score)(cx, c, b, h, gi, 0);
        for (int64_t j = 1; j <= last; j++) m = N(max)(cx, m, SPEC(ll_intent_score)(cx, c, b, h, gi, j));
        NACC l;
        N(acc_init)(cx, &l, TD_ORDER_ANY, 0);
        for (int64_t j = 0; j <= last; j++) {
            NUM p = N(exp)(cx, N(sub)(cx, SPEC(ll_intent_score)(cx, c, b, h, gi, j), m));
            N(acc_add)(cx, &l, p);
            N(memo_put)(cx, attn2_key(A2I_P, row, (uint64_t)j, 0), p);
        }
        ls = N(acc_end)(cx, &l);
        N(memo_put)(cx, attn2_key(A2I_M, row, 0, 0), m);
        N(memo_put)(cx, attn2_key(A2I_L, row, 0, 0), ls);
    }
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t j = 0; j <= last; j++) {
        int64_t slot = td_geti(c, R_REQ, (size_t)(req * c->p[P_SREQB].i + j * c->p[P_SREQS].i));
        NUM p;
        if (!N(memo_get)(cx, attn2_key(A2I_P, row, (uint64_t)j, 0), &p))
            p = N(exp)(cx, N(sub)(cx, SPEC(ll_intent_score)(cx, c, b, h, gi, j), m));
        N(acc_add)(cx, &acc, N(mul)(cx, p, N(in)(cx, c, R_V, (size_t)(slot * c->p[P_SVBS].i + h * c->p[P_SVH].i + d * c->p[P_SVD].i))));
    }
    return N(div)(cx, N(acc_end)(cx, &acc), ls);
}
