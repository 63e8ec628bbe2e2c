/* The spec of contracts/embedding_triton_kernel.c (vocabulary: contracts/spec.h): the
 * lane's idx[] = {row t, column d, ids[t]}. */
static NUM SPEC(embedding)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t id = l->idx[2], vs = c->p[P_VSTART].i;
    if (id < vs || id >= c->p[P_VEND].i) return N(exact)(cx, 0.0); /* outside this shard */
    return N(in)(cx, c, R_WEIGHT, (size_t)((id - vs) * c->p[P_SW].i + l->idx[1]));
}
static NUM SPEC(embedding_r)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(embedding)(cx, c, l), C_STORE);
}
