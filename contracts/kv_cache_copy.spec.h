/* The spec of contracts/kv_cache_copy.c: lane (b, h, d) of output o holds K[b, h, d]
 * (o = 0, KCache) or V[b, h, d] (o = 1, VCache). */
static NUM SPEC(kvcc)(NCX *cx, const td_case *c, const td_olane *l) {
    const td_pval *q = c->p;
    int64_t b = l->idx[0], h = l->idx[1], d = l->idx[2];
    if (l->o == 0) return N(in)(cx, c, R_K, (size_t)(b * q[P_SKT].i + h * q[P_SKH].i + d * q[P_SKD].i));
    return N(in)(cx, c, R_V, (size_t)(b * q[P_SVT].i + h * q[P_SVH].i + d * q[P_SVD].i));
}
