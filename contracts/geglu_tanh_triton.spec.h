/* The spec of contracts/geglu_tanh_triton.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

/* tanh_result and geglu_a, as both kernels compute them */
static NUM SPEC(gelu_t)(NCX *cx, NUM a) {
    NUM a_cubed = N(mul)(cx, N(mul)(cx, a, a), a);
    NUM inner = N(add)(cx, a, N(mul)(cx, N(lit_dec)(cx, "0.044715"), a_cubed));
    return N(tanh)(cx, N(mul)(cx, N(lit_dec)(cx, "0.7978845608028654"), inner));
}
static NUM SPEC(geglu_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    size_t off = (size_t)(l->idx[0] * c->p[P_STRIDE].i + l->idx[1]);
    NUM a = N(in)(cx, c, R_A, off);
    NUM t = SPEC(gelu_t)(cx, a);
    NUM geglu_a = N(mul)(cx, N(mul)(cx, N(exact)(cx, 0.5), a), N(add)(cx, N(exact)(cx, 1.0), t));
    return N(mul)(cx, geglu_a, N(in)(cx, c, R_B, off));
}
static NUM SPEC(geglu_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    size_t off = (size_t)(l->idx[0] * c->p[P_STRIDE].i + l->idx[1]);
    NUM dc = N(in)(cx, c, R_DC, off), a = N(in)(cx, c, R_BA, off);
    NUM one = N(exact)(cx, 1.0), half = N(exact)(cx, 0.5);
    NUM t = SPEC(gelu_t)(cx, a);
    NUM half_a = N(mul)(cx, half, a);
    if (l->o == 1) /* db = dc * geglu_a */
        return N(mul)(cx, dc, N(mul)(cx, half_a, N(add)(cx, one, t)));
    NUM term1 = N(mul)(cx, half, N(add)(cx, one, t));
    NUM tanh_sq = N(mul)(cx, t, t);
    NUM poly = N(add)(cx, one, N(mul)(cx, N(mul)(cx, N(lit_dec)(cx, "0.134145"), a), a));
    NUM term2 = N(mul)(cx, N(mul)(cx, half_a, N(sub)(cx, one, tanh_sq)),
                       N(mul)(cx, N(lit_dec)(cx, "0.7978845608028654"), poly));
    NUM dcb = N(mul)(cx, dc, N(in)(cx, c, R_BB, off));
    return N(mul)(cx, dcb, N(add)(cx, term1, term2));
}


/* Intents: GEGLU with the tanh GELU, gelu(a, approximate='tanh') * b, as PyTorch documents
 * torch.nn.functional.gelu: 0.5 a (1 + tanh(sqrt(2/pi) (a + 0.044715 a^3))), and its
 * autograd gradients.  sqrt(2/pi) to 34 digits (the real constant, not the kernel's
 * 16-digit literal; the difference is 1e-17 relative). */
static NUM SPEC(intent_t)(NCX *cx, NUM a) {
    NUM k = N(lit_dec)(cx, "0.7978845608028653558798921198687637");
    NUM cube = N(mul)(cx, N(mul)(cx, a, a), a);
    return N(tanh)(cx, N(mul)(cx, k, N(add)(cx, a, N(mul)(cx, N(lit_dec)(cx, "0.044715"), cube))));
}
static NUM SPEC(intent_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    size_t off = (size_t)(l->idx[0] * c->p[P_STRIDE].i + l->idx[1]);
    NUM a = N(in)(cx, c, R_A, off), half = N(exact)(cx, 0.5), one = N(exact)(cx, 1.0);
    NUM gelu = N(mul)(cx, N(mul)(cx, half, a), N(add)(cx, one, SPEC(intent_t)(cx, a)));
    return N(mul)(cx, gelu, N(in)(cx, c, R_B, off));
}
static NUM SPEC(intent_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    size_t off = (size_t)(l->idx[0] * c->p[P_STRIDE].i + l->idx[1]);
    NUM dc = N(in)(cx, c, R_DC, off), a = N(in)(cx, c, R_BA, off), b = N(in)(cx, c, R_BB, off);
    NUM half = N(exact)(cx, 0.5), one = N(exact)(cx, 1.0), t = SPEC(intent_t)(cx, a);
    if (l->o == 1) return N(mul)(cx, dc, N(mul)(cx, N(mul)(cx, half, a), N(add)(cx, one, t))); /* d/db */
    /* d/da gelu = 0.5 (1 + t) + 0.5 a (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 a^2) */
    NUM k = N(lit_dec)(cx, "0.7978845608028653558798921198687637");
    NUM dpoly = N(add)(cx, one, N(mul)(cx, N(lit_dec)(cx, "0.134145"), N(mul)(cx, a, a)));
    NUM d = N(add)(cx, N(mul)(cx, half, N(add)(cx, one, t)),
                   N(mul)(cx, N(mul)(cx, N(mul)(cx, half, a), N(sub)(cx, one, N(mul)(cx, t, t))), N(mul)(cx, k, dpoly)));
    return N(mul)(cx, N(mul)(cx, dc, b), d);
}
