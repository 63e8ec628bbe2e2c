/* The spec of contracts/fused_activation.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(fused)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM x = N(in)(cx, c, R_X, l->off);
    NUM bias = N(in)(cx, c, R_BIAS, l->off % (uint64_t)c->p[P_NW].i);
    NUM inp = N(in)(cx, c, R_IN, l->off);
    NUM z = N(add)(cx, N(add)(cx, N(mul)(cx, N(exact)(cx, c->p[P_MULT].r), inp), x), bias);
    if (c->p[P_SIGMOID].i) return N(sigmoid)(cx, z);
    return N(max)(cx, N(exact)(cx, 0.0), z);
}


/* The intent (docs/intent.md): torch.sigmoid or torch.relu of x + bias + multiplier * in,
 * the bias (num_weights values) broadcast along the flat index (bias[j % num_weights]),
 * exact and rounded once (no binary32 rounding of the product or the sums). */
static NUM SPEC(fused_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM x = N(in)(cx, c, R_X, l->off);
    NUM bias = N(in)(cx, c, R_BIAS, l->off % (uint64_t)c->p[P_NW].i);
    NUM z = N(add)(cx, N(add)(cx, x, bias), N(mul)(cx, N(exact)(cx, c->p[P_MULT].r), N(in)(cx, c, R_IN, l->off)));
    if (c->p[P_SIGMOID].i) return N(sigmoid)(cx, z);
    return N(max)(cx, N(exact)(cx, 0.0), z);
}
