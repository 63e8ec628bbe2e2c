/* The spec of contracts/sin_kernel.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(sin)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(sin)(cx, N(in)(cx, c, R_X, l->off));
}


/* The intent (docs/intent.md): torch.sin, exact, rounded once to the output. */
static NUM SPEC(sin_intent)(NCX *cx, const td_case *c, const td_olane *l) { return N(sin)(cx, N(in)(cx, c, R_X, l->off)); }
