/* The spec of contracts/triton_linear_activation.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "matmul_common.spec.h"

static NUM SPEC(tla_act)(NCX *cx, int act, NUM x) {
    switch (act) {
    case ACT_TANH: return N(tanh)(cx, x);
    case ACT_GELU: { /* x * 0.5 * (1.0 + erf(x / sqrt2)) */
        NUM e = N(erf)(cx, N(div)(cx, x, N(lit_c)(cx, TD_C_SQRT2)));
        return N(mul)(cx, N(mul)(cx, x, N(exact)(cx, 0.5)), N(add)(cx, N(exact)(cx, 1.0), e));
    }
    case ACT_FAST_GELU: { /* 0.5 * x * (1 + tanh(sqrt2pi * (x + 0.044715 * x * x * x))) */
        NUM cube = N(mul)(cx, N(mul)(cx, N(mul)(cx, N(lit_dec)(cx, "0.044715"), x), x), x);
        NUM t = N(tanh)(cx, N(mul)(cx, N(lit_c)(cx, TD_C_SQRT_2_OVER_PI), N(add)(cx, x, cube)));
        return N(mul)(cx, N(mul)(cx, N(exact)(cx, 0.5), x), N(add)(cx, N(exact)(cx, 1.0), t));
    }
    case ACT_RELU: return N(max)(cx, N(exact)(cx, 0.0), x);
    default: return x;
    }
}
static NUM SPEC(tla)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM bias = N(in)(cx, c, R_BIAS, (size_t)l->idx[3]); /* acc = 0 + bias: exact */
    NUM lin = SPEC(mm_dot_2d)(cx, c, l, map, &d2, c->p[P_HB].i ? &bias : NULL);
    return l->o == 1 ? lin : SPEC(tla_act)(cx, (int)c->p[P_ACT].i, lin);
}

/* The intent: torch.nn.functional.linear(A, W, bias) = A W^T + bias (PyTorch
 * documentation; the sum over all K columns in any order), then the activation as
 * PyTorch defines it: torch.tanh, F.gelu (approximate="none": x/2 (1 + erf(x/sqrt 2))),
 * F.gelu(approximate="tanh") (Hendrycks & Gimpel 2016), F.relu, and none; the saved
 * pre-activation is the linear output itself.  tla_act's formulas are these functions
 * (its rounding order is the shadow's concern, not the exact value's). */
static NUM SPEC(tla_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM lin = SPEC(mm_intent_2d)(cx, c, l, map, &d2);
    if (c->p[P_HB].i) lin = N(add)(cx, lin, N(in)(cx, c, R_BIAS, (size_t)l->idx[3]));
    return l->o == 1 ? lin : SPEC(tla_act)(cx, (int)c->p[P_ACT].i, lin);
}
