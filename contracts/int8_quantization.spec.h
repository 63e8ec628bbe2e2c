/* The spec of contracts/int8_quantization.c (vocabulary: contracts/spec.h). */

/* preScale * x / scale: a division by a power of two is exact in every implementation
 * (unless the quotient is subnormal), so there it is the exact product by 2^-e */
static NUM SPEC(pbi_v)(NCX *cx, const td_case *c, const td_olane *l, double s) {
    NUM px = N(mul)(cx, N(exact)(cx, c->p[P_PRESCALE].r), N(in)(cx, c, R_X, l->off));
    int e;
    double fr = frexp(s, &e);
    double q = fabs(c->p[P_PRESCALE].r * td_get(c, R_X, l->off)) / s; /* the quotient's magnitude, from inputs */
    if (fr == 0.5 && s <= 0x1p126 && (q == 0 || q >= 0x1p-126)) return N(mul)(cx, px, N(exact)(cx, ldexp(1.0, 1 - e)));
    return N(div)(cx, px, N(exact)(cx, s));
}

static NUM SPEC(pbi)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t ss = c->p[P_SSTRIDE].i;
    double s = td_get(c, R_SPRE, (size_t)(l->idx[0] * ss + l->idx[1]));
    if (l->o == 1) return N(exact)(cx, s);                      /* Scale = ScalePre */
    if (s == 0) return N(cast)(cx, N(exact)(cx, 0.0), C_STORE); /* Lean: x / 0 = 0 */
    NUM v = SPEC(pbi_v)(cx, c, l, s);
    NUM half = N(sel)(cx, N(cmp)(cx, v, N(exact)(cx, 0.0), 'g'), N(exact)(cx, 0.5), N(exact)(cx, -0.5));
    return N(cast)(cx, N(add)(cx, v, half), C_STORE);
}

/* Intent: SageAttention's documented per-block quantization, round half away from zero of
 * x / scale written as trunc(v + sign(v)/2) in binary32 (its addition charged as in the
 * contract), with scale the block's absmax / 127 (the gap says where ScalePre is not). */
static NUM SPEC(pbi_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(pbi)(cx, c, l); }
