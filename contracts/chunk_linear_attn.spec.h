/* The spec of contracts/chunk_linear_attn.c (vocabulary: contracts/spec.h).  Every
 * state is ONE sum of all its leaves (the initial state and every product of the chunks
 * it covers), written out per lane: a chain of nested sums memoised per chunk would
 * let the shadow's sum-of-sums rule (td_sh_leaf_mag: leaf magnitudes recovered as
 * ek / gamma) re-read each level's propagated error as leaf magnitude, a bound that
 * doubles per chunk.  Cost: O(t BT) per lane at chunk t; the generator keeps
 * NT^2 BT K V small. */

/* the products of chunk u added to acc: k[u*BT + c, e] v[u*BT + c, p] (fwd) or
 * (q[., e] * scale) do[., p] (bwd, scale non-NULL), rows c < BT with u*BT + c < T */
static void SPEC(cla_chunk)(NCX *cx, const td_case *c, NACC *acc, const int *pi, int ra, int rb, const NUM *scale,
                            int64_t bh, int64_t u, int64_t e, int64_t p) {
    int64_t T = c->p[pi[8]].i, BT = c->p[pi[11]].i;
    for (int64_t s = u * BT; s < (u + 1) * BT && s < T; s++) {
        NUM a = N(in)(cx, c, ra, (size_t)(bh * c->p[pi[0]].i + s * c->p[pi[1]].i + e * c->p[pi[2]].i));
        NUM b = N(in)(cx, c, rb, (size_t)(bh * c->p[pi[3]].i + s * c->p[pi[4]].i + p * c->p[pi[5]].i));
        if (scale) a = N(mul)(cx, a, *scale);
        N(acc_add)(cx, acc, N(mul)(cx, a, b));
    }
}

/* claHState(t): h0 (or 0) plus the products of chunks 0 .. t-1, one sum */
static NUM SPEC(cla_h)(NCX *cx, const td_case *c, int64_t bh, int64_t t, int64_t e, int64_t p) {
    static const int pi[] = {P_SQKH, P_SQKT, P_SQKD, P_SVOH, P_SVOT, P_SVOD, P_SHH, P_SHT, P_T, P_K, P_V, P_BT};
    int64_t K = c->p[P_K].i, V = c->p[P_V].i;
    if (t == 0) return c->p[P_USE_INIT].i ? N(in)(cx, c, R_H0, (size_t)(bh * K * V + e * V + p)) : N(exact)(cx, 0.0);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0); /* the source: the carried tile + one tl.dot per chunk (documentation) */
    if (c->p[P_USE_INIT].i) N(acc_add)(cx, &acc, N(in)(cx, c, R_H0, (size_t)(bh * K * V + e * V + p)));
    for (int64_t u = 0; u < t; u++) SPEC(cla_chunk)(cx, c, &acc, pi, R_K, R_V, NULL, bh, u, e, p);
    return N(acc_end)(cx, &acc);
}

/* claDhState(t): the products (q scale) do of chunks t+1 .. NT-1, one sum */
static NUM SPEC(cla_dh)(NCX *cx, const td_case *c, int64_t bh, int64_t t, int64_t e, int64_t p) {
    static const int pi[] = {PB_SQKH, PB_SQKT, PB_SQKD, PB_SVOH, PB_SVOT, PB_SVOD, PB_SHH, PB_SHT, PB_T, PB_K, PB_V, PB_BT};
    int64_t NT = c->p[PB_NT].i;
    if (t == NT - 1) return N(exact)(cx, 0.0);
    NUM scale = N(exact)(cx, c->p[PB_SCALE].r);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0); /* the source: the carried tile + one tl.dot per chunk (documentation) */
    for (int64_t u = NT - 1; u > t; u--) SPEC(cla_chunk)(cx, c, &acc, pi, RB_Q, RB_DO, &scale, bh, u, e, p);
    return N(acc_end)(cx, &acc);
}

static NUM SPEC(cla_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(cla_h)(cx, c, l->idx[0], l->idx[1], l->idx[2], l->idx[3]);
}
static NUM SPEC(cla_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(cla_dh)(cx, c, l->idx[0], l->idx[1], l->idx[2], l->idx[3]);
}

/* ---- the intents: causal linear attention (Katharopoulos et al. 2020, eq. (9)-(10):
 * S_n = S_0 + sum_{s < n} k_s^T v_s, o_n = scale q_n S_{n+1}) read at the chunk starts,
 * written token by token from the definition: the state before token n = t*BT (n = T at
 * the end), and for the backward the gradient of L = sum_n <do_n, o_n> with respect to
 * the state increment k_s^T v_s of a token s in chunk t by the chunked algorithm, i.e.
 * what the later chunks' outputs read from it: sum over tokens n >= (t+1)*BT of
 * scale q_n^T do_n (the tokens of chunk t itself see it through the intra-chunk term,
 * which the chunked backward handles in its dqkv kernel).  Sums in any order. */
static NUM SPEC(cla_intent_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = l->idx[0], t = l->idx[1], e = l->idx[2], p = l->idx[3], K = c->p[P_K].i, V = c->p[P_V].i;
    int64_t n = t * c->p[P_BT].i < c->p[P_T].i ? t * c->p[P_BT].i : c->p[P_T].i;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    N(acc_add)(cx, &acc, c->p[P_USE_INIT].i ? N(in)(cx, c, R_H0, (size_t)(bh * K * V + e * V + p)) : N(exact)(cx, 0.0));
    for (int64_t s = 0; s < n; s++)
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, R_K, (size_t)(bh * c->p[P_SQKH].i + s * c->p[P_SQKT].i + e * c->p[P_SQKD].i)),
                                    N(in)(cx, c, R_V, (size_t)(bh * c->p[P_SVOH].i + s * c->p[P_SVOT].i + p * c->p[P_SVOD].i))));
    return N(acc_end)(cx, &acc);
}
static NUM SPEC(cla_intent_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = l->idx[0], t = l->idx[1], e = l->idx[2], p = l->idx[3];
    NUM scale = N(exact)(cx, c->p[PB_SCALE].r);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    N(acc_add)(cx, &acc, N(exact)(cx, 0.0));
    for (int64_t s = (t + 1) * c->p[PB_BT].i; s < c->p[PB_T].i; s++) {
        NUM q = N(in)(cx, c, RB_Q, (size_t)(bh * c->p[PB_SQKH].i + s * c->p[PB_SQKT].i + e * c->p[PB_SQKD].i));
        NUM d = N(in)(cx, c, RB_DO, (size_t)(bh * c->p[PB_SVOH].i + s * c->p[PB_SVOT].i + p * c->p[PB_SVOD].i));
        N(acc_add)(cx, &acc, N(mul)(cx, N(mul)(cx, q, scale), d));
    }
    return N(acc_end)(cx, &acc);
}
