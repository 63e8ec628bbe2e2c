/* The spec of contracts/kcache_copy_triton.c: lane (b, h, j) holds K[b, h, SPLIT_X*KCACHE_X + j]. */
static NUM SPEC(kcn1)(NCX *cx, const td_case *c, const td_olane *l) {
    const td_pval *q = c->p;
    int64_t d = q[P_SPLIT].i * q[P_X].i + l->idx[2];
    return N(in)(cx, c, R_K, (size_t)(l->idx[0] * q[P_SKT].i + l->idx[1] * q[P_SKH].i + d * q[P_SKD].i));
}
