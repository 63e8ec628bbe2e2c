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


/* Intents: SwiGLU, silu(a) * b with silu(a) = a * sigmoid(a) (torch.nn.functional.silu,
 * Shazeer 2020), and its autograd gradients: d/db = dc silu(a),
 * d/da = dc b sigmoid(a) (1 + a (1 - sigmoid(a))). */
static NUM SPEC(intent_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    size_t off = (size_t)(l->idx[0] * c->p[P_STRIDE].i + l->idx[1]);
    NUM a = N(in)(cx, c, R_A, off);
    return N(mul)(cx, N(mul)(cx, a, N(sigmoid)(cx, a)), N(in)(cx, c, R_B, off));
}
static NUM SPEC(intent_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    size_t off = (size_t)(l->idx[0] * c->p[P_STRIDE].i + l->idx[1]);
    NUM dc = N(in)(cx, c, R_DC, off), a = N(in)(cx, c, R_BA, off), s = N(sigmoid)(cx, a);
    if (l->o == 1) return N(mul)(cx, dc, N(mul)(cx, a, s));
    NUM d = N(mul)(cx, s, N(add)(cx, N(exact)(cx, 1.0), N(mul)(cx, a, N(sub)(cx, N(exact)(cx, 1.0), s))));
    return N(mul)(cx, N(mul)(cx, dc, N(in)(cx, c, R_BB, off)), d);
}
