/* The spec of contracts/layernorm_fwd_triton.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "layernorm_common.spec.h"

/* The two statistics of row (p0, p1), in the kernel's blocked order. */
static void SPEC(row_stats)(NCX *cx, const td_case *c, uint64_t base, uint64_t rowkey, NUM *mean, NUM *rstd) {
    if (N(memo_get)(cx, LN_KEY(1, rowkey), mean) && N(memo_get)(cx, LN_KEY(2, rowkey), rstd)) return;
    int64_t n = c->p[P_N].i, B = c->p[P_BLOCK].i, lanes = n < B ? n : B;
    NUM nn = N(exact)(cx, (double)n);
    NUM mu = nn, sum = nn;
    for (int pass = 0; pass < 2; pass++) {
        NACC tree;
        N(acc_init)(cx, &tree, TD_ORDER_TREE, 0);
        for (int64_t e = 0; e < lanes; e++) {
            /* lane e: columns e, e+B, ... accumulated in tile order */
            NACC seq;
            N(acc_init)(cx, &seq, TD_ORDER_SEQ, 0);
            NUM part = nn;
            int64_t terms = 0;
            for (int64_t col = e; col < n; col += B, terms++) {
                NUM x = N(in)(cx, c, R_X, base + (uint64_t)col);
                NUM t = x;
                if (pass == 1) {
                    NUM d = N(sub)(cx, x, mu);
                    t = N(mul)(cx, d, d);
                }
                if (terms == 0) part = t;
                N(acc_add)(cx, &seq, t);
            }
            /* every accumulator is ended (the MPFR one owns memory), its value used
             * only where it adds something: one term, 0 + t, is exact */
            NUM lane_sum = N(acc_end)(cx, &seq);
            if (terms > 1) part = lane_sum;
            if (lanes == 1) sum = part; /* one lane: the tree adds zeros */
            else N(acc_add)(cx, &tree, part);
        }
        NUM tree_sum = N(acc_end)(cx, &tree);
        if (lanes > 1) sum = tree_sum;
        if (pass == 0) mu = N(div)(cx, sum, nn);
    }
    NUM var = N(div)(cx, sum, nn);
    NUM r = N(ln_rsqrt_floor)(cx, N(add)(cx, var, N(exact)(cx, c->p[P_EPS].r)), c->p[P_EPS].r, 1);
    N(memo_put)(cx, LN_KEY(1, rowkey), mu);
    N(memo_put)(cx, LN_KEY(2, rowkey), r);
    *mean = mu;
    *rstd = r;
}

static NUM SPEC(y)(NCX *cx, const td_case *c, const td_olane *l) {
    uint64_t s = l->pid[0], k = l->pid[1], i = (uint64_t)l->idx[2];
    uint64_t base = s * (uint64_t)c->p[P_SXN].i + k * (uint64_t)c->p[P_SXH].i;
    NUM mean, rstd;
    SPEC(row_stats)(cx, c, base, s * c->grid[1] + k, &mean, &rstd);
    NUM xhat = N(mul)(cx, N(sub)(cx, N(in)(cx, c, R_X, base + i), mean), rstd);
    return N(mul)(cx, xhat, N(in)(cx, c, R_W, k * (uint64_t)c->p[P_SWH].i + i));
}
static NUM SPEC(y_io)(NCX *cx, const td_case *c, const td_olane *l) { return N(cast)(cx, SPEC(y)(cx, c, l), C_STORE); }


/* Intent: torch.nn.functional.layer_norm(x, (N,), weight=w, bias=None) of row (s, k):
 * (x - mean) / sqrt(var + eps) * w over its N entries; the io twin stores it once. */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) {
    uint64_t s = l->pid[0], k = l->pid[1], i = (uint64_t)l->idx[2];
    uint64_t base = s * (uint64_t)c->p[P_SXN].i + k * (uint64_t)c->p[P_SXH].i;
    NUM mean, rstd;
    SPEC(ln_intent_stats)(cx, c, R_X, base, c->p[P_N].i, N(exact)(cx, c->p[P_EPS].r), c->p[P_EPS].r,
                          s * c->grid[1] + k, &mean, &rstd);
    NUM xhat = N(mul)(cx, N(sub)(cx, N(in)(cx, c, R_X, base + i), mean), rstd);
    return N(mul)(cx, xhat, N(in)(cx, c, R_W, k * (uint64_t)c->p[P_SWH].i + i));
}
static NUM SPEC(intent_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(intent)(cx, c, l), C_STORE);
}
