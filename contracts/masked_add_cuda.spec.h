/* The spec of contracts/masked_add_cuda.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

static NUM SPEC(masked_add)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM grad = N(in)(cx, c, R_GRAD, l->off), pv = N(in)(cx, c, R_P, l->off);
    return N(add)(cx, grad, N(mul)(cx, pv, N(exact)(cx, c->p[P_ALPHA].r)));
}


/* The intent (docs/intent.md): grad + alpha * p where p_mask is false (the masked lanes
 * keep grad: the write set), torch.add(grad, p, alpha=alpha) restricted to ~p_mask. */
static NUM SPEC(masked_add_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM grad = N(in)(cx, c, R_GRAD, l->off), pv = N(in)(cx, c, R_P, l->off);
    return N(add)(cx, grad, N(mul)(cx, N(exact)(cx, c->p[P_ALPHA].r), pv));
}
