/* The spec of contracts/swiglu_triton.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(swiglu_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    size_t off = (size_t)(l->idx[0] * c->p[P_STRIDE].i + l->idx[1]);
    NUM a = N(in)(cx, c, R_A, off), b = N(in)(cx, c, R_B, off);
    return N(mul)(cx, N(mul)(cx, a, N(sigmoid)(cx, a)), b);
}
static NUM SPEC(swiglu_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    size_t off = (size_t)(l->idx[0] * c->p[P_STRIDE].i + l->idx[1]);
    NUM dc = N(in)(cx, c, R_DC, off), a = N(in)(cx, c, R_BA, off);
    NUM sig = N(sigmoid)(cx, a);
    NUM silu = N(mul)(cx, a, sig);
    if (l->o == 1) return N(mul)(cx, dc, silu); /* db */
    NUM inner = N(add)(cx, N(mul)(cx, silu, N(sub)(cx, N(exact)(cx, 1.0), sig)), sig);
    return N(mul)(cx, N(mul)(cx, dc, inner), N(in)(cx, c, R_BB, off)); /* da */
}

