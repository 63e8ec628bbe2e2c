/* The spec of contracts/rowwise_quantization_triton.c (vocabulary: contracts/spec.h). */

static NUM SPEC(qr)(NCX *cx, const td_case *c, const td_olane *l) {
    double m = qr_rowmax(c, (int64_t)l->pid[0]);
    if (l->o == 1) return N(cast)(cx, N(exact)(cx, m), C_MAXS);
    if (m == 0) return N(cast)(cx, N(exact)(cx, 0.0), C_STORE); /* Lean: x / 0 = 0 */
    /* Lean's 127 * (x / m), or x * (127 / m) (the reciprocal formed once per row) */
    NUM x = N(in)(cx, c, R_X, l->off), mm = N(exact)(cx, m), k = N(exact)(cx, 127.0);
    NUM a = N(mul)(cx, k, N(div)(cx, x, mm));
    NUM b = N(mul)(cx, x, N(div)(cx, k, mm));
    return N(cast)(cx, N(either)(cx, a, b), C_STORE);
}

/* Intent: round-half-even(127 * x / absmax_row) in either order of its two operations,
 * and the absmax itself in float16; a zero row quantizes to 0. */
static NUM SPEC(qr_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    double m = qr_rowmax(c, (int64_t)l->pid[0]);
    if (l->o == 1) return N(cast)(cx, N(exact)(cx, m), C_MAXS);
    if (m == 0) return N(cast)(cx, N(exact)(cx, 0.0), C_STORE);
    NUM x = N(in)(cx, c, R_X, l->off), mm = N(exact)(cx, m), k = N(exact)(cx, 127.0);
    NUM a = N(div)(cx, N(mul)(cx, k, x), mm);                  /* (127 x) / m: exact at a real tie */
    NUM b = N(mul)(cx, k, N(div)(cx, x, mm));                  /* 127 (x / m) */
    return N(cast)(cx, N(either)(cx, a, b), C_STORE);
}
