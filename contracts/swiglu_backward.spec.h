/* The spec of contracts/swiglu_backward.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(swiglu_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t r = l->idx[0], col = l->idx[1];
    NUM x = N(in)(cx, c, R_X, (size_t)(r * c->p[P_SX].i + col));
    NUM sig = N(sigmoid)(cx, x);
    if (l->o == 0) { /* dx */
        NUM y = N(in)(cx, c, R_Y, (size_t)(r * c->p[P_SY].i + col));
        NUM dout = N(in)(cx, c, R_DOUT, (size_t)(r * c->p[P_SDOUT].i + col));
        NUM one = N(exact)(cx, 1.0);
        NUM t = N(mul)(cx, sig, N(add)(cx, one, N(mul)(cx, x, N(sub)(cx, one, sig))));
        return N(mul)(cx, N(mul)(cx, t, y), dout);
    }
    NUM xs = N(mul)(cx, x, sig);
    if (l->o == 1) /* dy */
        return N(mul)(cx, xs, N(in)(cx, c, R_DOUT, (size_t)(r * c->p[P_SDOUT].i + col)));
    return N(mul)(cx, xs, N(in)(cx, c, R_Y, (size_t)(r * c->p[P_SY].i + col))); /* out */
}

/* The intent: the gradient of SwiGLU's gate silu(a) * b (Shazeer 2020, "GLU Variants
 * Improve Transformer"; torch.nn.functional.silu(a) = a * sigmoid(a)): for the upstream
 * gradient g, d/da = g * b * silu'(a) with silu'(a) = sigmoid(a) + a * sigmoid(a) *
 * (1 - sigmoid(a)), d/db = g * silu(a), and the recomputed forward silu(a) * b. */
static NUM SPEC(swiglu_bwd_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t r = l->idx[0], col = l->idx[1];
    NUM a = N(in)(cx, c, R_X, (size_t)(r * c->p[P_SX].i + col));
    NUM b = N(in)(cx, c, R_Y, (size_t)(r * c->p[P_SY].i + col));
    NUM g = N(in)(cx, c, R_DOUT, (size_t)(r * c->p[P_SDOUT].i + col));
    NUM s = N(sigmoid)(cx, a), silu = N(mul)(cx, a, s);
    if (l->o == 1) return N(mul)(cx, g, silu);
    if (l->o == 2) return N(mul)(cx, silu, b);
    NUM dsilu = N(add)(cx, s, N(mul)(cx, silu, N(sub)(cx, N(exact)(cx, 1.0), s)));
    return N(mul)(cx, N(mul)(cx, g, b), dsilu);
}
