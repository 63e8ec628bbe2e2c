/* The spec of contracts/lora_expand_gemv.c (vocabulary: contracts/spec.h): the lane's
 * idx[] = {pid0 (slice), pid1 (batch row), m (row of the slice)}.  The sum is charged for
 * any order; TD_ORDER_TREE documents the source (tl.sum over the BLOCK_K tile). */
static NUM SPEC(lora_gemv)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t s = l->idx[0], b = l->idx[1], m = l->idx[2], K = c->p[P_K].i;
    int64_t a0 = b * c->p[P_XM].i;
    int64_t w0 = c->p[P_L0].i * td_geti(c, R_IDX, (size_t)b) + (s * c->p[P_SPLIT].i + m) * c->p[P_LK].i;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_TREE, 0);
    for (int64_t k = 0; k < K; k++) {
        NUM x = N(in)(cx, c, R_IN, (size_t)(a0 + k * c->p[P_XK].i));
        NUM w = N(in)(cx, c, R_LORA, (size_t)(w0 + k * c->p[P_LN].i));
        N(acc_add)(cx, &acc, N(mul)(cx, x, w));
    }
    return N(acc_end)(cx, &acc);
}
static NUM SPEC(lora_gemv_r)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(lora_gemv)(cx, c, l), C_STORE);
}
