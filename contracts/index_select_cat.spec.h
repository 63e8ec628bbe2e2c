/* The spec of contracts/index_select_cat.c (vocabulary: contracts/spec.h): the lane's
 * idx[] = {r, c, index[r]}; the value is the source element, exactly. */
static NUM SPEC(index_select_cat)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t src = l->idx[2] * c->p[P_S0].i + l->idx[1] * c->p[P_S1].i;
    return N(in)(cx, c, R_SRC, (size_t)src);
}
