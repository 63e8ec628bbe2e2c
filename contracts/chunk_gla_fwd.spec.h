/* The spec of contracts/chunk_gla_fwd.c (vocabulary: contracts/spec.h): cgfOutput at
 * lane idx = (bh, t, p), one sum in any order of the gated inter terms and the masked
 * intra terms.  Cost O(K + BT) per lane. */
static NUM SPEC(cgf_out)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = (int64_t)l->idx[0], t = (int64_t)l->idx[1], p = (int64_t)l->idx[2];
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, BT = c->p[P_BT].i, cs = t / BT * BT;
    size_t qrow = (size_t)(bh * c->p[P_SKH].i + t * c->p[P_SKT].i);
    size_t hbase = (size_t)(bh * c->p[P_SHH].i + t / BT * K * V + p);
    NUM scale = N(exact)(cx, c->p[P_SCALE].r);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t e = 0; e < K; e++) {
        NUM qs = N(mul)(cx, N(in)(cx, c, R_Q, qrow + (size_t)e), scale);
        NUM qg = N(mul)(cx, qs, N(exp)(cx, N(in)(cx, c, R_G, qrow + (size_t)e)));
        N(acc_add)(cx, &acc, N(mul)(cx, qg, N(in)(cx, c, R_H, hbase + (size_t)(e * c->p[P_SHT].i))));
    }
    for (int64_t s = cs; s <= t; s++) {
        NUM a = N(in)(cx, c, R_A, (size_t)(bh * T * BT + t * BT + (s - cs)));
        N(acc_add)(cx, &acc, N(mul)(cx, a, N(in)(cx, c, R_V, (size_t)(bh * c->p[P_SVH].i + s * c->p[P_SVT].i + p))));
    }
    return N(acc_end)(cx, &acc);
}
