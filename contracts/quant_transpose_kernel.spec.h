/* The spec of contracts/quant_transpose_kernel.c (vocabulary: contracts/spec.h). */

static NUM SPEC(qt)(NCX *cx, const td_case *c, const td_olane *l) {
    qt_par q = qt_get(c);
    NUM a = N(in)(cx, c, R_A, (uint64_t)(l->idx[0] * q.sam + l->idx[1] * q.san));
    return N(cast)(cx, N(mul)(cx, N(exact)(cx, q.scale), N(mul)(cx, a, N(in)(cx, c, R_INV, 0))), C_STORE);
}

/* Intent: round-half-even(127 * A[m, n] * (1/absmax)), the reciprocal of absmax = max|A|
 * rounded once (torch's 1.0 / absmax), stored at the transposed position. */
static NUM SPEC(qt_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    qt_par q = qt_get(c);
    NUM inv;
    if (!N(memo_get)(cx, 1, &inv)) {
        inv = N(div)(cx, N(exact)(cx, 1.0), N(exact)(cx, qt_absmax(c, &q)));
        N(memo_put)(cx, 1, inv);
    }
    NUM a = N(in)(cx, c, R_A, (uint64_t)(l->idx[0] * q.sam + l->idx[1] * q.san));
    return N(cast)(cx, N(mul)(cx, N(exact)(cx, 127.0), N(mul)(cx, a, inv)), C_STORE);
}
