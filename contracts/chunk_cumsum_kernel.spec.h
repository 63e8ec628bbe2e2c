/* The spec of contracts/chunk_cumsum_kernel.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type. */

/* The inclusive prefix sum of row idx[0] up to step idx[1]: one sum of its i+1 terms,
 * charged for any order (the chunked scan with its carry is one order among many). */
static NUM SPEC(prefix)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t T = c->p[P_T].i, row = l->idx[0], i = l->idx[1];
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t m = 0; m <= i; m++) N(acc_add)(cx, &acc, N(in)(cx, c, R_S, (uint64_t)(row * T + m)));
    return N(acc_end)(cx, &acc);
}
static NUM SPEC(prefix_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(prefix)(cx, c, l), C_STORE);
}

/* Intent: torch.cumsum(s, dim=-1) (PyTorch documentation): out[..., i] = sum_{m <= i}
 * s[..., m], by any algorithm; the io twin stores it once in s's dtype. */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(prefix)(cx, c, l); }
static NUM SPEC(intent_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(intent)(cx, c, l), C_STORE);
}
