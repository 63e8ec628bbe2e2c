/* The spec of contracts/kv_cache_filling.c.
 * fill_kv: lane (b, h, d) of output o holds KStates (o = 0) or VStates (o = 1) at (SIDX, h, d);
 * fill_meta: lane (b, i) holds MetaPre[i]. */
static NUM SPEC(fill_kv)(NCX *cx, const td_case *c, const td_olane *l) {
    const td_pval *q = c->p;
    int ps = l->o ? P_SVSS : P_SKSS;
    int64_t off = q[P_SIDX].i * q[ps].i + l->idx[1] * q[ps + 1].i + l->idx[2] * q[ps + 2].i;
    return N(in)(cx, c, l->o ? R_VS : R_KS, (size_t)off);
}
static NUM SPEC(fill_meta)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(in)(cx, c, RM_PRE, (size_t)l->idx[1]);
}
