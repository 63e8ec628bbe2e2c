/* The spec of contracts/chunk_cumsum_vector.c, written once (vocabulary: contracts/spec.h). */

/* Column d of row bh up to step t: one sum of its t+1 terms, charged for any order. */
static NUM SPEC(prefix)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = l->idx[0], t = l->idx[1], d = l->idx[2];
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t m = 0; m <= t; m++) N(acc_add)(cx, &acc, N(in)(cx, c, R_IN, (uint64_t)ccv_off(c, bh, m, d)));
    return N(acc_end)(cx, &acc);
}
static NUM SPEC(copy)(NCX *cx, const td_case *c, const td_olane *l) { return N(in)(cx, c, R_IN, (uint64_t)l->idx[0]); }
static NUM SPEC(copy_r)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(copy)(cx, c, l), C_STORE);
}

/* Intent: torch.cumsum(s, dim=2) of s[B, H, T, S] (PyTorch documentation), by any algorithm. */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(prefix)(cx, c, l); }
