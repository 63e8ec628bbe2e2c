/* The spec of contracts/quantize_global.c (vocabulary: contracts/spec.h). */

/* scale127 * (xs i * ys i), then the kernel's store (llrint, int8) */
static NUM SPEC(qg)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM y = N(mul)(cx, N(in)(cx, c, R_X, l->off), N(in)(cx, c, R_INV, 0));
    return N(cast)(cx, N(mul)(cx, N(exact)(cx, c->p[P_SCALE].r), y), C_STORE);
}

/* Intent: round-half-even(127 * x * (1/absmax)) with absmax = max|x| over the tensor (the
 * reciprocal rounded once, as torch's 1.0 / absmax does), stored as int8. */
static NUM SPEC(qg_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM inv;
    if (!N(memo_get)(cx, 1, &inv)) {
        double m = 0;
        for (size_t e = 0; e < (size_t)c->p[P_N].i; e++) m = fmax(m, fabs(td_get(c, R_X, e)));
        inv = N(div)(cx, N(exact)(cx, 1.0), N(exact)(cx, m));
        N(memo_put)(cx, 1, inv);
    }
    NUM y = N(mul)(cx, N(in)(cx, c, R_X, l->off), inv);
    return N(cast)(cx, N(mul)(cx, N(exact)(cx, 127.0), y), C_STORE);
}
