/* The spec of contracts/nested_loops_processing.c (vocabulary: contracts/spec.h): the
 * lane's cell of the input tile at its store's in shift, idx = {r, c, sh_in}. */

static NUM SPEC(nl_copy)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t sm = c->p[P_SM].i, sn = c->p[P_SN].i;
    return N(in)(cx, c, R_IN, (size_t)(l->idx[0] * sm + (l->idx[1] + l->idx[2]) * sn));
}
static NUM SPEC(nl_copy_store)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(nl_copy)(cx, c, l), C_STORE);
}
