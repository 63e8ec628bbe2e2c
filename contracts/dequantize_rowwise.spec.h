/* The spec of contracts/dequantize_rowwise.c (vocabulary: contracts/spec.h). */

/* ys i * xs i * inv_127 in any association (Lean's and the kernel's (s x) inv; s (x inv);
 * x (s inv), the row factor formed once): where s x is exact the first form's product is
 * correctly rounded and the fp16 store of it decided, which another association is not
 * bound to, so each form is given; then the float16 store */
static NUM SPEC(dq)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM s = N(in)(cx, c, R_STATE, l->pid[0]);
    NUM x = N(in)(cx, c, R_X, l->off), inv = N(exact)(cx, c->p[P_INV].r);
    NUM a = N(mul)(cx, N(mul)(cx, s, x), inv), b = N(mul)(cx, s, N(mul)(cx, x, inv));
    NUM d = N(mul)(cx, x, N(mul)(cx, s, inv));
    return N(cast)(cx, N(either)(cx, N(either)(cx, a, b), d), C_STORE);
}

/* Intent: the dequantized value x * absmax / 127 with the supplied factor inv_127 (the
 * host's 1/127 as the kernel holds it), rounded once to the float16 output. */
static NUM SPEC(dq_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(dq)(cx, c, l); /* the same three associations */
}
