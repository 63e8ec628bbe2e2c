/* The spec of contracts/swiglu_fwd.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(swiglu)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t r = l->idx[0], col = l->idx[1];
    NUM x = N(in)(cx, c, R_X, (size_t)(r * c->p[P_SX].i + col));
    NUM y = N(in)(cx, c, R_Y, (size_t)(r * c->p[P_SY].i + col));
    return N(mul)(cx, N(mul)(cx, x, N(sigmoid)(cx, x)), y);
}


/* Intent: SwiGLU, silu(x) * y (torch.nn.functional.silu: x * sigmoid(x); Shazeer 2020). */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t r = l->idx[0], col = l->idx[1];
    NUM x = N(in)(cx, c, R_X, (size_t)(r * c->p[P_SX].i + col));
    NUM y = N(in)(cx, c, R_Y, (size_t)(r * c->p[P_SY].i + col));
    return N(mul)(cx, y, N(mul)(cx, x, N(sigmoid)(cx, x)));
}
