/* The spec of contracts/fused_layernorm_triton.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "layernorm_common.spec.h"

/* A Welford node: mean and m2 (kernel-evaluated values), weight an exact count. */
typedef struct SPEC(wf) {
    NUM mean, m2;
    int64_t w;
} SPEC(wf);

/* welford_combine as triton_helpers writes it (a side of weight 0 leaves the other
 * exactly as it is: delta*0 and the ratio w2/w2 = 1 are exact) */
static SPEC(wf) SPEC(wf_combine)(NCX *cx, SPEC(wf) a, SPEC(wf) b) {
    if (b.w == 0) return a;
    if (a.w == 0) return b;
    NUM delta = N(sub)(cx, b.mean, a.mean);
    NUM r = N(div)(cx, N(exact)(cx, (double)b.w), N(exact)(cx, (double)(a.w + b.w)));
    SPEC(wf) o;
    o.mean = N(add)(cx, a.mean, N(mul)(cx, delta, r));
    o.m2 = N(add)(cx, N(add)(cx, a.m2, b.m2), N(mul)(cx, N(mul)(cx, N(mul)(cx, delta, delta), N(exact)(cx, (double)a.w)), r));
    o.w = a.w + b.w;
    return o;
}

/* tl.reduce over lanes [lo, lo + n) of the row, the host's pairwise halving tree */
static SPEC(wf) SPEC(wf_tree)(NCX *cx, const td_case *c, uint64_t base, int64_t rnumel, int64_t lo, int64_t n) {
    SPEC(wf) e;
    if (lo >= rnumel) { /* masked lanes: (0, 0, 0) */
        e.mean = e.m2 = N(exact)(cx, 0.0);
        e.w = 0;
        return e;
    }
    if (n == 1) {
        e.mean = N(in)(cx, c, R_IN0, base + (uint64_t)lo);
        e.m2 = N(exact)(cx, 0.0);
        e.w = 1;
        return e;
    }
    int64_t h = n / 2;
    SPEC(wf) a = SPEC(wf_tree)(cx, c, base, rnumel, lo, h);
    SPEC(wf) b = SPEC(wf_tree)(cx, c, base, rnumel, lo + h, n - h);
    return SPEC(wf_combine)(cx, a, b);
}

/* The same statistics as any other competent kernel may compute them: the mean by
 * any algorithm (N(mean): a sum in any order then one division, sum(x/n), textbook
 * Welford), then sum (x - mean)^2 in any order, in which the mean's error e enters as
 * n e^2 and 2 e |sum (x - mean)|: a near-constant row whose mean lands on one of its
 * values loses its whole variance in a Welford update (m2 += d (x - mean) = 0), and
 * this bound covers that where the tree of welford_combine is exact. */
static NUM SPEC(twopass)(NCX *cx, const td_case *c, uint64_t base, int64_t rn, NUM *m2) {
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t j = 0; j < rn; j++) N(acc_add)(cx, &acc, N(in)(cx, c, R_IN0, base + (uint64_t)j));
    NUM mu = N(mean)(cx, N(acc_end)(cx, &acc), (long)rn);
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t j = 0; j < rn; j++) {
        NUM d = N(sub)(cx, N(in)(cx, c, R_IN0, base + (uint64_t)j), mu);
        N(acc_add)(cx, &acc, N(mul)(cx, d, d));
    }
    *m2 = N(acc_end)(cx, &acc);
    return mu;
}

static NUM SPEC(summary)(NCX *cx, const td_case *c, const td_olane *l) {
    uint64_t row = l->pid[0];
    int64_t rn = c->p[P_RNUMEL].i;
    NUM mean, rstd;
    if (!N(memo_get)(cx, LN_KEY(1, row), &mean) || !N(memo_get)(cx, LN_KEY(2, row), &rstd)) {
        SPEC(wf) t = SPEC(wf_tree)(cx, c, row * (uint64_t)rn, rn, 0, c->p[P_RBLOCK].i);
        NUM m2p, meanp = SPEC(twopass)(cx, c, row * (uint64_t)rn, rn, &m2p);
        /* the port's welford_combine tree, or any other admissible algorithm */
        mean = N(either)(cx, t.mean, meanp);
        NUM var = N(either)(cx, N(div)(cx, t.m2, N(exact)(cx, (double)rn)), N(div)(cx, m2p, N(exact)(cx, (double)rn)));
        rstd = N(ln_rsqrt_floor)(cx, N(add)(cx, var, N(lit_dec)(cx, "1e-05")), (double)1e-05f, 0);
        N(memo_put)(cx, LN_KEY(1, row), mean);
        N(memo_put)(cx, LN_KEY(2, row), rstd);
    }
    if (l->o == 0) return mean;
    if (l->o == 1) return rstd;
    return SPEC(ln_affine)(cx, N(in)(cx, c, R_IN0, l->off), mean, rstd, N(in)(cx, c, R_IN1, l->j),
                           N(in)(cx, c, R_IN2, l->j));
}

static NUM SPEC(normalize)(NCX *cx, const td_case *c, const td_olane *l) {
    uint64_t p0 = l->pid[0], col = (uint64_t)l->idx[1];
    return SPEC(ln_affine)(cx, N(in)(cx, c, RN_IN0, l->off), N(in)(cx, c, RN_OUT0, p0), N(in)(cx, c, RN_IO0, p0),
                           N(in)(cx, c, RN_IN1, col), N(in)(cx, c, RN_IN2, col));
}


/* Intent (layernorm_common.spec.h): layer norm of each row over its rnumel columns. */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(ln_inductor_intent)(cx, c, l, R_IN0, R_IN1, R_IN2, c->p[P_RNUMEL].i);
}
