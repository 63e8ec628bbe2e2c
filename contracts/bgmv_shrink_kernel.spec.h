/* The spec of contracts/bgmv_shrink_kernel.c (vocabulary: contracts/spec.h): the lane's
 * idx[] = {pid1 (batch row), n (rank row)}.  One split's sum is charged for any order;
 * TD_ORDER_TREE documents the source (tl.sum over the BLOCK_K tile, then the K loop). */
static NUM SPEC(bs_partial)(NCX *cx, const td_case *c, int64_t b, int64_t n, int64_t pid0) {
    int64_t K = pv(c, P_K), bk = pv(c, P_BK), step = bk * pv(c, P_SK);
    int64_t w0 = pv(c, P_L0) * td_geti(c, R_IDX, (size_t)b) + n * pv(c, P_LK);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_TREE, (long)bk);
    int terms = 0;
    for (int64_t t0 = 0; t0 < K; t0 += step)
        for (int64_t k = t0 + pid0 * bk; k < t0 + (pid0 + 1) * bk && k < K; k++, terms++) {
            NUM x = N(in)(cx, c, R_IN, (size_t)(b * pv(c, P_XM) + k));
            NUM w = N(in)(cx, c, R_LORA, (size_t)(w0 + k * pv(c, P_LN)));
            N(acc_add)(cx, &acc, N(mul)(cx, x, w));
        }
    NUM s = terms ? N(acc_end)(cx, &acc) : N(exact)(cx, 0.0); /* a split past K adds nothing */
    return N(mul)(cx, N(exact)(cx, c->p[P_SCALE].r), s);
}
/* (4) SPLIT_K = 1: the store of shrinkSpec; (5) SPLIT_K > 1: old + every split's
 * shrinkSpec, the atomic adds in any order */
static NUM SPEC(bgmv_shrink)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], n = l->idx[1], sk = pv(c, P_SK);
    if (sk == 1) return SPEC(bs_partial)(cx, c, b, n, 0);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    N(acc_add)(cx, &acc, N(in)(cx, c, R_OUT, l->off));
    for (int64_t p = 0; p < sk; p++) N(acc_add)(cx, &acc, SPEC(bs_partial)(cx, c, b, n, p));
    return N(acc_end)(cx, &acc);
}
static NUM SPEC(bgmv_shrink_r)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(bs_partial)(cx, c, l->idx[0], l->idx[1], l->pid[0]), C_STORE);
}
