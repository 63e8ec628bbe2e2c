/* The spec of contracts/sgmv_expand_slice.c (vocabulary: contracts/spec.h): the lane's
 * idx[] = {b (batch), m (row of the sequence, < seq_len), n (column of the slice, < N)};
 * for these lanes the loads' % seq_len and % N are the identity.  The sum is charged for
 * any order; TD_ORDER_TREE documents the source (tl.dot per BLOCK_K block, then the loop). */
static NUM SPEC(sgmv_expand)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], m = l->idx[1], n = l->idx[2], K = pv(c, P_BK) * pv(c, P_NKB);
    int64_t a0 = (td_geti(c, R_START, (size_t)b) + m) * pv(c, P_XM);
    int64_t w0 = pv(c, P_L0) * td_geti(c, R_IDX, (size_t)b) + n * pv(c, P_LK);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_TREE, (long)pv(c, P_BK));
    for (int64_t k = 0; k < K; k++) {
        NUM x = N(in)(cx, c, R_IN, (size_t)(a0 + k * pv(c, P_XK)));
        NUM w = N(in)(cx, c, R_LORA, (size_t)(w0 + k * pv(c, P_LN)));
        N(acc_add)(cx, &acc, N(mul)(cx, x, w));
    }
    return N(acc_end)(cx, &acc);
}
static NUM SPEC(sgmv_expand_r)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(sgmv_expand)(cx, c, l), C_STORE);
}
