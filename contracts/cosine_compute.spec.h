/* The spec of contracts/cosine_compute.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(cos)(NCX *cx, const td_case *c, const td_olane *l) { return N(cos)(cx, N(in)(cx, c, R_A, l->off)); }


/* The intent (docs/intent.md): torch.cos, exact, rounded once to the output. */
static NUM SPEC(cos_intent)(NCX *cx, const td_case *c, const td_olane *l) { return N(cos)(cx, N(in)(cx, c, R_A, l->off)); }
