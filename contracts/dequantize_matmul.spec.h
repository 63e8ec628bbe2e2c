/* The spec of contracts/dequantize_matmul.c (vocabulary: contracts/spec.h):
 * xs j * ys j, the int8 weight times its column's scale, one binary32 product. */
static NUM SPEC(dqm)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t k = l->idx[0], n = l->idx[1];
    NUM b = N(in)(cx, c, R_B, (size_t)(k * c->p[P_SBK].i + n * c->p[P_SBN].i));
    return N(mul)(cx, b, N(in)(cx, c, R_S, (size_t)n));
}

/* The intent: the dequantized weight q * s[n] (the same single rounding). */
static NUM SPEC(dqm_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t k = l->idx[0], n = l->idx[1];
    return N(mul)(cx, N(in)(cx, c, R_S, (size_t)n), N(in)(cx, c, R_B, (size_t)(k * c->p[P_SBK].i + n * c->p[P_SBN].i)));
}
