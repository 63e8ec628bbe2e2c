/* The spec of contracts/token_attn_reduceV.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn2_common.spec.h"

/* acc = sum over blocks of tl.sum(p * v) in the kernel's order */
static NUM SPEC(reducev_acc)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1], d = l->idx[2], BN = c->p[P_BN].i;
    int64_t len = td_geti(c, R_SEQLEN, (size_t)b), st = td_geti(c, R_START, (size_t)b),
            q = td_geti(c, R_REQIDX, (size_t)b);
    int64_t vcol = (h / c->p[P_KVG].i) * c->p[P_SVH].i + d * c->p[P_SVD].i;
    NUM acc = N(exact)(cx, 0.0);
    for (int64_t s0 = 0; s0 < len; s0 += BN) {
        NACC t;
        N(acc_init)(cx, &t, TD_ORDER_TREE, 0);
        for (int64_t j = 0; j < BN; j++) {
            int64_t n = s0 + j;
            if (n >= len) { /* masked lane: p = 0, v = 0, an exact zero in its place of the tree */
                N(acc_add)(cx, &t, N(exact)(cx, 0.0));
                continue;
            }
            int64_t slot = td_geti(c, R_REQ, (size_t)(q * c->p[P_SRTB].i + n * c->p[P_SRTS].i));
            NUM pv = N(in)(cx, c, R_PROB, (size_t)(h * c->p[P_SPH].i + (st + n) * c->p[P_SPBS].i));
            NUM vv = N(in)(cx, c, R_V, (size_t)(slot * c->p[P_SVBS].i + vcol));
            N(acc_add)(cx, &t, N(mul)(cx, pv, vv));
        }
        NUM bs = N(acc_end)(cx, &t);
        acc = s0 == 0 ? bs : N(add)(cx, acc, bs); /* acc += tl.sum(...); 0 + x is exact */
    }
    return acc;
}
static NUM SPEC(reducev)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(k16)(cx, SPEC(reducev_acc)(cx, c, l)); /* acc.to(fp16): the kernel's store */
}
static NUM SPEC(reducev_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(reducev_acc)(cx, c, l), C_STORE);
}


/* The intent (docs/intent.md): sum_n P[h, start + n] V[loc(n), h // kvg, d], exact. */
static NUM SPEC(reducev_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1], d = l->idx[2];
    int64_t len = td_geti(c, R_SEQLEN, (size_t)b), st = td_geti(c, R_START, (size_t)b),
            q = td_geti(c, R_REQIDX, (size_t)b);
    int64_t vcol = (h / c->p[P_KVG].i) * c->p[P_SVH].i + d * c->p[P_SVD].i;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t n = 0; n < len; n++) {
        int64_t slot = td_geti(c, R_REQ, (size_t)(q * c->p[P_SRTB].i + n * c->p[P_SRTS].i));
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, R_PROB, (size_t)(h * c->p[P_SPH].i + (st + n) * c->p[P_SPBS].i)),
                                    N(in)(cx, c, R_V, (size_t)(slot * c->p[P_SVBS].i + vcol))));
    }
    return len > 0 ? N(acc_end)(cx, &acc) : N(exact)(cx, 0.0);
}
