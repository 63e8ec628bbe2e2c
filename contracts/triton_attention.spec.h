/* The spec of contracts/triton_attention.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

/* _bwd_preprocess: NewDO (o = 0) and Delta (o = 1) of row r */
static NUM SPEC(ta_pre)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t r = l->idx[0], dh = TA_P(c, P_DH);
    NUM L = N(in)(cx, c, R_L, (size_t)r);
    if (l->o == 0) return N(cast)(cx, N(div)(cx, N(in)(cx, c, R_DO, (size_t)(r * dh + l->idx[1])), L), C_STORE);
    NACC a, b;
    N(acc_init)(cx, &a, TD_ORDER_ANY, dh); /* tl.sum: a tree; any order charged */
    N(acc_init)(cx, &b, TD_ORDER_ANY, 0);
    for (int64_t d = 0; d < dh; d++) {
        NUM o = N(in)(cx, c, R_OUT, (size_t)(r * dh + d)), g = N(in)(cx, c, R_DO, (size_t)(r * dh + d));
        N(acc_add)(cx, &a, N(mul)(cx, o, N(div)(cx, g, L)));
        N(acc_add)(cx, &b, N(mul)(cx, o, g));
    }
    NUM as_written = N(acc_end)(cx, &a);
    NUM divided_once = N(div)(cx, N(acc_end)(cx, &b), L);
    return N(either)(cx, as_written, divided_once);
}

/* _fwd_kernel: Out (o = 0), L (o = 1), M (o = 2) of one query row (attn_online_common.spec.h) */
#include "attn_online_common.spec.h"

static NUM SPEC(ta_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    tf_row(c, l, &R);
    return SPEC(at_lane)(cx, c, &R);
}

/* the intent: causal SDPA over keys j <= row (at_intent); L and M lanes: its l and m */
static NUM SPEC(ta_fwd_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    tf_row(c, l, &R);
    return SPEC(at_intent)(cx, c, &R);
}

/* _bwd_kernel: fp16(p[I,J]) (w = 0) or fp16(ds[I,J]) (w = 1) of program p0, memoised per case
 * (every lane of a row or column of the program reads them).  The theorem's closed forms
 * (bwdKernelPG, bwdKernelDPG, bwdKernelDSG) in the kernel's operations:
 *   qk = tl.dot(q, trans(k))            a binary32 sum of BD products, any order (FMA allowed)
 *   p  = exp(qk * sc - m[I])  (J <= I), 0 where the causal where() put -inf (exp(-inf) = 0 exactly)
 *   dp = -Di + tl.dot(do, trans(v))     one binary32 sum of the BD products and -Di, any order
 *                                       (accumulating onto -Di or subtracting after: both in it)
 *   ds = p * dp * sc                    two products
 *   p.to(fp16), ds.to(fp16)             the declared casts "p" and "ds" (bwdFp16), each judged as
 *                                       the cast of the value's admissible interval */
static NUM SPEC(tb_pds)(NCX *cx, const td_case *c, int64_t p0, int64_t I, int64_t J, int w) {
    uint64_t key = ((uint64_t)w << 40) | ((uint64_t)p0 << 24) | ((uint64_t)I << 12) | (uint64_t)J;
    NUM v;
    if (N(memo_get)(cx, key, &v)) return v;
    if (J > I) return N(exact)(cx, 0.0);
    int64_t bd = TB_P(c, B_BD), b2 = tb_b2d(c, p0), nctx = tb_nctx(c);
    NUM sc = N(exact)(cx, c->p[B_SC].r);
    NACC qk, dp;
    N(acc_init)(cx, &qk, TD_ORDER_ANY, bd);
    N(acc_init)(cx, &dp, TD_ORDER_ANY, bd + 1);
    N(acc_add)(cx, &dp, N(neg)(cx, N(in)(cx, c, BR_DELTA, (size_t)(p0 * nctx + I))));
    for (int64_t e = 0; e < bd; e++) {
        size_t oi = (size_t)((b2 + I) * bd + e), oj = (size_t)((b2 + J) * bd + e);
        N(acc_add)(cx, &qk, N(mul)(cx, N(in)(cx, c, BR_Q, oi), N(in)(cx, c, BR_K, oj)));
        N(acc_add)(cx, &dp, N(mul)(cx, N(in)(cx, c, BR_DO, oi), N(in)(cx, c, BR_V, oj)));
    }
    NUM m = N(in)(cx, c, BR_M, (size_t)(p0 * nctx + I));
    NUM p = N(exp)(cx, N(sub)(cx, N(mul)(cx, N(acc_end)(cx, &qk), sc), m));
    NUM ds = N(mul)(cx, N(mul)(cx, p, N(acc_end)(cx, &dp)), sc);
    NUM p16 = N(cast)(cx, p, BC_P), ds16 = N(cast)(cx, ds, BC_DS);
    N(memo_put)(cx, key & ~((uint64_t)1 << 40), p16);
    N(memo_put)(cx, key | ((uint64_t)1 << 40), ds16);
    return w ? ds16 : p16;
}

/* DQ (o = 0), DV (o = 1), DK (o = 2) of row r, lane d of program p0 (bwdKernelDQSpecG and the
 * DV / DK specs): each a sum in any order (the kernel's blocking: tl.dot per BM x BM block, the
 * blocks added in the loop's order, DQ's through its loads and stores; any other blocking or
 * FMA is in it), DQ's with its prior contents as one more term, DV and DK through the "store"
 * cast.  Masked pairs contribute exact zeros and are left out. */
static NUM SPEC(ta_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t p0 = l->idx[0], r = l->idx[1], d = l->idx[2], bd = TB_P(c, B_BD), nctx = tb_nctx(c);
    int64_t b2 = tb_b2d(c, p0);
    NACC a;
    N(acc_init)(cx, &a, TD_ORDER_ANY, nctx + 1);
    if (l->o == 0) {
        N(acc_add)(cx, &a, N(in)(cx, c, BR_DQ, (size_t)((b2 + r) * bd + d)));
        for (int64_t J = 0; J <= r; J++)
            N(acc_add)(cx, &a, N(mul)(cx, SPEC(tb_pds)(cx, c, p0, r, J, 1), N(in)(cx, c, BR_K, (size_t)((b2 + J) * bd + d))));
        return N(acc_end)(cx, &a);
    }
    int reg = l->o == 1 ? BR_DO : BR_Q;
    for (int64_t I = r; I < nctx; I++)
        N(acc_add)(cx, &a, N(mul)(cx, SPEC(tb_pds)(cx, c, p0, I, r, l->o == 2), N(in)(cx, c, reg, (size_t)((b2 + I) * bd + d))));
    return N(cast)(cx, N(acc_end)(cx, &a), BC_STORE);
}
