/* The spec of contracts/chunk_bwd_dqkg.c (vocabulary: contracts/spec.h): dqSpec, dkSpec
 * and dgSpec of ChunkBwdDqkg.lean, each sum ONE sum in any order of its terms, the
 * shared intermediates (the masked scores, the gated dk, the chunk's dg_last) memoised
 * per case.  Masked loads read an exact 0; zero terms are left out (a kernel adds them
 * exactly). */

static NUM SPEC(cbd_vo)(NCX *cx, const td_case *c, int reg, int64_t bh, int64_t t, int64_t a) {
    return N(in)(cx, c, reg, (size_t)(bh * c->p[P_SVH].i + t * c->p[P_SVT].i + a));
}
static NUM SPEC(cbd_qk)(NCX *cx, const td_case *c, int reg, int64_t bh, int64_t t, int64_t kk) {
    return N(in)(cx, c, reg, (size_t)(bh * c->p[P_SKH].i + t * c->p[P_SKT].i + kk));
}
/* hElem: column col of the (V, NT*K) view, 0 past NT*K (the guard is NT*K, not K) */
static NUM SPEC(cbd_h)(NCX *cx, const td_case *c, int reg, int64_t bh, int64_t col, int64_t a) {
    if (col >= c->p[P_NT].i * c->p[P_K].i) return N(exact)(cx, 0.0);
    return N(in)(cx, c, reg, (size_t)(bh * c->p[P_SHH].i + a + col * c->p[P_SHT].i));
}
static NUM SPEC(cbd_g)(NCX *cx, const td_case *c, int64_t bh, int64_t t) {
    return N(in)(cx, c, R_G, (size_t)(bh * c->p[P_T].i + t));
}
static NUM SPEC(cbd_glast)(NCX *cx, const td_case *c, int64_t bh, int64_t t) {
    int64_t T = c->p[P_T].i, BT = c->p[P_BT].i, e = t / BT * BT + BT;
    return SPEC(cbd_g)(cx, c, bh, (e < T ? e : T) - 1);
}

/* dsMasked(t, s), s <= t in one chunk: (sum_a do[t,a] v[s,a]) * scale * exp(g_t - g_s) */
static NUM SPEC(cbd_ds)(NCX *cx, const td_case *c, int64_t bh, int64_t t, int64_t s) {
    NUM d;
    uint64_t key = cbd_key(1, bh, t, s);
    if (N(memo_get)(cx, key, &d)) return d;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t a = 0; a < c->p[P_V].i; a++)
        N(acc_add)(cx, &acc, N(mul)(cx, SPEC(cbd_vo)(cx, c, R_DO, bh, t, a), SPEC(cbd_vo)(cx, c, R_V, bh, s, a)));
    NUM w = N(exp)(cx, N(sub)(cx, SPEC(cbd_g)(cx, c, bh, t), SPEC(cbd_g)(cx, c, bh, s)));
    d = N(mul)(cx, N(mul)(cx, N(acc_end)(cx, &acc), N(exact)(cx, c->p[P_SCALE].r)), w);
    N(memo_put)(cx, key, d);
    return d;
}

/* dkGated(t, kk): (sum_a v[t,a] dh[col,a]) * exp(-g_t + g_last) */
static NUM SPEC(cbd_dkg)(NCX *cx, const td_case *c, int64_t bh, int64_t t, int64_t kk) {
    NUM d;
    uint64_t key = cbd_key(2, bh, t, kk);
    if (N(memo_get)(cx, key, &d)) return d;
    int64_t col = t / c->p[P_BT].i * c->p[P_K].i + kk;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t a = 0; a < c->p[P_V].i; a++)
        N(acc_add)(cx, &acc, N(mul)(cx, SPEC(cbd_vo)(cx, c, R_V, bh, t, a), SPEC(cbd_h)(cx, c, R_DH, bh, col, a)));
    NUM e = N(add)(cx, N(neg)(cx, SPEC(cbd_g)(cx, c, bh, t)), SPEC(cbd_glast)(cx, c, bh, t));
    d = N(mul)(cx, N(acc_end)(cx, &acc), N(exp)(cx, e));
    N(memo_put)(cx, key, d);
    return d;
}

/* dqSpec: (sum_a do[t,a] h[col,a]) * exp(g_t) * scale + sum_{cs<=s<=t} ds(t,s) k[s,kk] */
static NUM SPEC(cbd_dq)(NCX *cx, const td_case *c, int64_t bh, int64_t t, int64_t kk) {
    NUM d;
    uint64_t key = cbd_key(3, bh, t, kk);
    if (N(memo_get)(cx, key, &d)) return d;
    int64_t BT = c->p[P_BT].i, col = t / BT * c->p[P_K].i + kk;
    NACC acc, out;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t a = 0; a < c->p[P_V].i; a++)
        N(acc_add)(cx, &acc, N(mul)(cx, SPEC(cbd_vo)(cx, c, R_DO, bh, t, a), SPEC(cbd_h)(cx, c, R_H, bh, col, a)));
    NUM gq = N(mul)(cx, N(mul)(cx, N(acc_end)(cx, &acc), N(exp)(cx, SPEC(cbd_g)(cx, c, bh, t))),
                    N(exact)(cx, c->p[P_SCALE].r));
    N(acc_init)(cx, &out, TD_ORDER_ANY, 0);
    N(acc_add)(cx, &out, gq);
    for (int64_t s = t / BT * BT; s <= t; s++)
        N(acc_add)(cx, &out, N(mul)(cx, SPEC(cbd_ds)(cx, c, bh, t, s), SPEC(cbd_qk)(cx, c, R_K, bh, s, kk)));
    d = N(acc_end)(cx, &out);
    N(memo_put)(cx, key, d);
    return d;
}

/* dkSpec: dkGated(t, kk) + sum_{t<=s<min(ce,T)} ds(s,t) q[s,kk] */
static NUM SPEC(cbd_dk)(NCX *cx, const td_case *c, int64_t bh, int64_t t, int64_t kk) {
    NUM d;
    uint64_t key = cbd_key(4, bh, t, kk);
    if (N(memo_get)(cx, key, &d)) return d;
    int64_t T = c->p[P_T].i, ce = t / c->p[P_BT].i * c->p[P_BT].i + c->p[P_BT].i;
    NACC out;
    N(acc_init)(cx, &out, TD_ORDER_ANY, 0);
    N(acc_add)(cx, &out, SPEC(cbd_dkg)(cx, c, bh, t, kk));
    for (int64_t s = t; s < (ce < T ? ce : T); s++)
        N(acc_add)(cx, &out, N(mul)(cx, SPEC(cbd_ds)(cx, c, bh, s, t), SPEC(cbd_qk)(cx, c, R_Q, bh, s, kk)));
    d = N(acc_end)(cx, &out);
    N(memo_put)(cx, key, d);
    return d;
}

/* dgLastFinal of chunk i_t, key block i_k: (sum_{a<V, e<BK} h dh) * exp(g_last)
 * + sum_{rows, kk<K} dkGated k.  The h*dh sum runs over the whole BK block: its
 * columns past K read the next chunk's rows of h and dh (hElem's guard is NT*K). */
static NUM SPEC(cbd_dglast)(NCX *cx, const td_case *c, int64_t bh, int64_t i_t, int64_t i_k) {
    NUM d;
    uint64_t key = cbd_key(5, bh, i_t, i_k);
    if (N(memo_get)(cx, key, &d)) return d;
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, BT = c->p[P_BT].i, BK = c->p[P_BK].i;
    NACC hh, out;
    N(acc_init)(cx, &hh, TD_ORDER_ANY, 0);
    for (int64_t e = 0; e < BK; e++)
        for (int64_t a = 0; a < c->p[P_V].i; a++) {
            int64_t col = i_t * K + i_k * BK + e;
            N(acc_add)(cx, &hh, N(mul)(cx, SPEC(cbd_h)(cx, c, R_H, bh, col, a), SPEC(cbd_h)(cx, c, R_DH, bh, col, a)));
        }
    N(acc_init)(cx, &out, TD_ORDER_ANY, 0);
    N(acc_add)(cx, &out, N(mul)(cx, N(acc_end)(cx, &hh), N(exp)(cx, SPEC(cbd_glast)(cx, c, bh, i_t * BT))));
    for (int64_t t = i_t * BT; t < i_t * BT + BT && t < T; t++)
        for (int64_t kk = i_k * BK; kk < i_k * BK + BK && kk < K; kk++)
            N(acc_add)(cx, &out, N(mul)(cx, SPEC(cbd_dkg)(cx, c, bh, t, kk), SPEC(cbd_qk)(cx, c, R_K, bh, t, kk)));
    d = N(acc_end)(cx, &out);
    N(memo_put)(cx, key, d);
    return d;
}

/* lane idx = (bh, t, kk) of dq / dk, (bh, t, i_k) of dg */
static NUM SPEC(cbd)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = l->idx[0], t = l->idx[1], x = l->idx[2];
    if (l->region == R_DQ) return SPEC(cbd_dq)(cx, c, bh, t, x);
    if (l->region == R_DK) return SPEC(cbd_dk)(cx, c, bh, t, x);
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, BT = c->p[P_BT].i, BK = c->p[P_BK].i, ce = t / BT * BT + BT;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t kk = x * BK; kk < x * BK + BK && kk < K; kk++)
        N(acc_add)(cx, &acc, N(sub)(cx, N(mul)(cx, SPEC(cbd_qk)(cx, c, R_Q, bh, t, kk), SPEC(cbd_dq)(cx, c, bh, t, kk)),
                                    N(mul)(cx, SPEC(cbd_qk)(cx, c, R_K, bh, t, kk), SPEC(cbd_dk)(cx, c, bh, t, kk))));
    if (t == (ce < T ? ce : T) - 1) N(acc_add)(cx, &acc, SPEC(cbd_dglast)(cx, c, bh, t / BT, x));
    return N(acc_end)(cx, &acc);
}
