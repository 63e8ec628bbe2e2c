/* The spec of contracts/add_example.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(add)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(add)(cx, N(in)(cx, c, R_X, l->off), N(in)(cx, c, R_Y, l->off));
}


/* The intent (docs/intent.md): torch.add(x, y), x + y exact (the audit rounds it once to
 * the binary32 output).  The same real as the spec: the contract is the operation. */
static NUM SPEC(add_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(add)(cx, N(in)(cx, c, R_X, l->off), N(in)(cx, c, R_Y, l->off));
}
