/* The spec of contracts/destindex_copy_kv2.c: the lane (t, h, d) holds K[t, h, d]. */
static NUM SPEC(dkv2)(NCX *cx, const td_case *c, const td_olane *l) {
    const td_pval *q = c->p;
    int64_t off = l->idx[0] * q[P_SKBS].i + l->idx[1] * q[P_SKH].i + l->idx[2] * q[P_SKD].i;
    return N(in)(cx, c, R_K, (size_t)off);
}
