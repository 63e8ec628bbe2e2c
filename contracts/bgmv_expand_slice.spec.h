/* The spec of contracts/bgmv_expand_slice.c (vocabulary: contracts/spec.h): the lane's
 * idx[] = {pid0 (slice), pid1 (batch row), g (row of the slice)}.  The sum is charged
 * for any order; TD_ORDER_TREE documents the source (tl.sum over the BLOCK_K tile). */
static NUM SPEC(bgmv_expand)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t s = l->idx[0], b = l->idx[1], g = l->idx[2];
    int64_t K = pv(c, P_K) < pv(c, P_BK) ? pv(c, P_K) : pv(c, P_BK); /* Σ_{k<BLOCK_K} [k<K] */
    int64_t a0 = b * pv(c, P_XM);
    int64_t w0 = pv(c, P_L0) * td_geti(c, R_IDX, (size_t)b) + (s * pv(c, P_SPLIT) + g) * pv(c, P_LK);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_TREE, 0);
    for (int64_t k = 0; k < K; k++) {
        NUM x = N(in)(cx, c, R_IN, (size_t)(a0 + k * pv(c, P_XK)));
        NUM w = N(in)(cx, c, R_LORA, (size_t)(w0 + k * pv(c, P_LN)));
        N(acc_add)(cx, &acc, N(mul)(cx, x, w));
    }
    return N(acc_end)(cx, &acc);
}
static NUM SPEC(bgmv_expand_r)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(bgmv_expand)(cx, c, l), C_STORE);
}
