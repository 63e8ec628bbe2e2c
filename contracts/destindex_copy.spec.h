/* The spec of contracts/destindex_copy.c: lane (t, j) of stream o holds that stream's
 * input element (t, head 0, j). */
static NUM SPEC(dcopy)(NCX *cx, const td_case *c, const td_olane *l) {
    const td_pval *q = c->p;
    int64_t t = l->idx[0], j = l->idx[1];
    if (l->o == 0) return N(in)(cx, c, R_KN, (size_t)(t * q[P_SKN_BS].i + j * q[P_SKN_D].i));
    return N(in)(cx, c, R_KR, (size_t)(t * q[P_SKR_BS].i + j * q[P_SKR_D].i));
}
