/* The spec of contracts/cache_transform_triton.c: output o's lane (row, col) holds the
 * cos (o = 0) or sin (o = 1) cache at (source row, col). */
static NUM SPEC(ct_dec)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t src = td_geti(c, R_IDX, (size_t)l->idx[0]);
    return N(in)(cx, c, l->o ? R_SIN : R_COS, (size_t)(src * c->p[PD_CS].i + l->idx[1] * c->p[PD_HS].i));
}
static NUM SPEC(ct_pre)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t src = ct_ori(c, l->idx[0]);
    return N(in)(cx, c, l->o ? R_SIN : R_COS, (size_t)(src * c->p[PP_CS].i + l->idx[1] * c->p[PP_HS].i));
}
