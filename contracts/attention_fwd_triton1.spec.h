/* The spec of contracts/attention_fwd_triton1.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

/* the carry h[d', d] before chunk c: every earlier chunk's K^T V entry, summed in any order
 * (memoised per head, chunk and entry) */
static inline NUM SPEC(a1_carry)(NCX *cx, const td_case *c, int64_t p0, int64_t ch, int64_t dd, int64_t d) {
    NUM h;
    uint64_t key = a1_key(p0, ch, dd, d, A1_P(c, P_BD));
    if (N(memo_get)(cx, key, &h)) return h;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t u = 0; u < ch; u++)
        for (int64_t tk = 0; tk < A1_P(c, P_BT); tk++)
            N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, R_K, a1_off(c, p0, u, tk, dd)),
                                        N(in)(cx, c, R_V, a1_off(c, p0, u, tk, d))));
    h = N(acc_end)(cx, &acc);
    N(memo_put)(cx, key, h);
    return h;
}

/* the score (scale q) . k of key (u, tk), in any order */
static inline NUM SPEC(a1_score)(NCX *cx, const td_case *c, const NUM *q, int64_t p0, int64_t u, int64_t tk) {
    NACC s;
    N(acc_init)(cx, &s, TD_ORDER_ANY, 0);
    for (int64_t e = 0; e < A1_P(c, P_BD); e++) N(acc_add)(cx, &s, N(mul)(cx, q[e], N(in)(cx, c, R_K, a1_off(c, p0, u, tk, e))));
    return N(acc_end)(cx, &s);
}

/* O[c, t, d] in the two forms an implementation may write (N(either)):
 *   carried    the local terms ((scale q) . k_tk) v_tk and the recurrent terms (scale q_d') h[d', d]
 *              in one sum in any order (the kernel's form);
 *   quadratic  every key up to the end of the chunk as ((scale q) . k_j) v_j in one sum (the
 *              parallel form of linear attention: the products associate the other way, so their
 *              roundings, underflow included, fall elsewhere). */
static NUM SPEC(a1_out)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t p0 = l->idx[0], ch = l->idx[1], t = l->idx[2], d = l->idx[3];
    int64_t bt = A1_P(c, P_BT), bd = A1_P(c, P_BD);
    NUM scale = N(exact)(cx, c->p[P_SCALE].r);
    NUM q[16];
    for (int64_t e = 0; e < bd; e++) q[e] = N(mul)(cx, N(in)(cx, c, R_Q, a1_off(c, p0, ch, t, e)), scale);
    NACC acc, quad;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    N(acc_init)(cx, &quad, TD_ORDER_ANY, 0);
    for (int64_t tk = 0; tk < bt; tk++) {
        NUM term = N(mul)(cx, SPEC(a1_score)(cx, c, q, p0, ch, tk), N(in)(cx, c, R_V, a1_off(c, p0, ch, tk, d)));
        N(acc_add)(cx, &acc, term);
        N(acc_add)(cx, &quad, term);
    }
    if (ch == 0) {
        NUM o = N(acc_end)(cx, &acc);
        N(acc_end)(cx, &quad);
        return o;
    }
    for (int64_t dd = 0; dd < bd; dd++) N(acc_add)(cx, &acc, N(mul)(cx, q[dd], SPEC(a1_carry)(cx, c, p0, ch, dd, d)));
    for (int64_t u = 0; u < ch; u++)
        for (int64_t tk = 0; tk < bt; tk++)
            N(acc_add)(cx, &quad, N(mul)(cx, SPEC(a1_score)(cx, c, q, p0, u, tk), N(in)(cx, c, R_V, a1_off(c, p0, u, tk, d))));
    NUM carried = N(acc_end)(cx, &acc);
    return N(either)(cx, carried, N(acc_end)(cx, &quad));
}
