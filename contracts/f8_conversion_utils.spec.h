/* The spec of contracts/f8_conversion_utils.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(convert)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, N(in)(cx, c, R_X, l->off), C_STORE);
}


/* The intent (docs/intent.md): the input's exact value; the audit rounds it once to the
 * output's format with that format's IEEE profile (round to nearest even, overflow to
 * infinity), which is PyTorch's x.to(torch.float8_e5m2) (c10::Float8_e5m2: values at or
 * beyond 61440 in magnitude become inf) and x.to(torch.float16) (exact here). */
static NUM SPEC(convert_intent)(NCX *cx, const td_case *c, const td_olane *l) { return N(in)(cx, c, R_X, l->off); }
