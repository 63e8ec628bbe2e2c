/* The spec of contracts/add_value.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(add_value)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(add)(cx, N(in)(cx, c, R_X, l->off), N(exact)(cx, c->p[P_VALUE].r));
}
static NUM SPEC(add_value_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(add_value)(cx, c, l), C_STORE);
}


/* The intent (docs/intent.md): torch.add(x, value), exact, rounded once to the output. */
static NUM SPEC(add_value_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(add)(cx, N(in)(cx, c, R_X, l->off), N(exact)(cx, c->p[P_VALUE].r));
}
