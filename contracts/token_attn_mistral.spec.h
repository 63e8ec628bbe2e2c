/* The spec of contracts/token_attn_mistral.c (vocabulary: contracts/spec.h): the
 * windowed P·V sum of lane (b, h, d), in any order (the admissible model). */

#include "attn2_common.spec.h"

static NUM SPEC(mistral_acc)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1], d = l->idx[2];
    int64_t len = td_geti(c, R_SEQLEN, (size_t)b), ast = td_geti(c, R_ASTART, (size_t)b),
            att = td_geti(c, R_ASEQLEN, (size_t)b), q = td_geti(c, R_REQIDX, (size_t)b);
    int64_t ws = tm_ws(len, c->p[P_SW].i);
    int64_t vcol = (h / c->p[P_KVG].i) * c->p[P_SVH].i + d * c->p[P_SVD].i;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_TREE, c->p[P_BN].i); /* the source: tl.sum per block, blocks in order */
    for (int64_t n = 0; n < att; n++) {
        int64_t slot = td_geti(c, R_REQ, (size_t)(q * c->p[P_SRTB].i + (ws + n) * c->p[P_SRTS].i));
        NUM pv = N(in)(cx, c, R_PROB, (size_t)(h * c->p[P_SPH].i + (ast + n) * c->p[P_SPBS].i));
        NUM vv = N(in)(cx, c, R_V, (size_t)(slot * c->p[P_SVBS].i + vcol));
        N(acc_add)(cx, &acc, N(mul)(cx, pv, vv));
    }
    return att > 0 ? N(acc_end)(cx, &acc) : N(exact)(cx, 0.0);
}
static NUM SPEC(mistral)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(k16)(cx, SPEC(mistral_acc)(cx, c, l)); /* acc.to(fp16): the kernel's store */
}
static NUM SPEC(mistral_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(mistral_acc)(cx, c, l), C_STORE);
}

/* The intent (docs/intent.md): sum over the window's att_seqlen tokens, exact. */
static NUM SPEC(mistral_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1], d = l->idx[2];
    int64_t len = td_geti(c, R_SEQLEN, (size_t)b), ast = td_geti(c, R_ASTART, (size_t)b),
            att = td_geti(c, R_ASEQLEN, (size_t)b), q = td_geti(c, R_REQIDX, (size_t)b);
    int64_t ws = tm_ws(len, c->p[P_SW].i);
    int64_t vcol = (h / c->p[P_KVG].i) * c->p[P_SVH].i + d * c->p[P_SVD].i;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t n = 0; n < att; n++) {
        int64_t slot = td_geti(c, R_REQ, (size_t)(q * c->p[P_SRTB].i + (ws + n) * c->p[P_SRTS].i));
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, R_PROB, (size_t)(h * c->p[P_SPH].i + (ast + n) * c->p[P_SPBS].i)),
                                    N(in)(cx, c, R_V, (size_t)(slot * c->p[P_SVBS].i + vcol))));
    }
    return att > 0 ? N(acc_end)(cx, &acc) : N(exact)(cx, 0.0);
}
