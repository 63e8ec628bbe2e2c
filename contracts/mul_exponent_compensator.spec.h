/* The spec of contracts/mul_exponent_compensator.c, written once (vocabulary:
 * contracts/spec.h): spec_instantiate.h includes this file once per number type,
 * NUM = td_sh (tolerance) then td_mp (reference). */

/* y = x * exponent_compensator, the constant 2^112 held exactly (a binary32 number) */
static NUM SPEC(mec)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(mul)(cx, N(in)(cx, c, R_SRC, l->off), N(exact)(cx, 0x1p112));
}

/* The intent (docs/intent.md): torch.mul(x, 2**112), exact, rounded once to the output. */
static NUM SPEC(mec_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(mul)(cx, N(in)(cx, c, R_SRC, l->off), N(exact)(cx, 0x1p112));
}
