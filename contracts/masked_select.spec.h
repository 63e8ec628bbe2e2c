/* The spec of contracts/masked_select.c (vocabulary: contracts/spec.h): the lane's
 * idx[0] is its input element j; the value is inp[j], exactly. */
static NUM SPEC(masked_select)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(in)(cx, c, R_INP, (size_t)l->idx[0]);
}
