/* The spec of contracts/attention_score.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

/* the score of (row r, key n): the dot over BD lanes in any order, times qk_scale */
static inline NUM SPEC(as_x)(NCX *cx, const td_case *c, int64_t p1, int64_t r, int64_t n, NUM qks) {
    int64_t qo = as_qoff(c, p1), ko = as_koff(c, p1);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t d = 0; d < AS_P(c, P_BD); d++) {
        NUM q = N(in)(cx, c, R_Q, (size_t)(qo + r * AS_P(c, P_SQM) + d * AS_P(c, P_SQK)));
        NUM k = N(in)(cx, c, R_K, (size_t)(ko + d * AS_P(c, P_SKK) + n * AS_P(c, P_SKN)));
        N(acc_add)(cx, &acc, N(mul)(cx, q, k));
    }
    return N(mul)(cx, N(acc_end)(cx, &acc), qks);
}

/* Out[n] of head pid1: the kept rows' 2^(x - M[r]) summed in any order, then stored */
static NUM SPEC(as_out)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t p1 = l->idx[0], n = l->idx[1], round = AS_P(c, P_ROUND);
    NUM qks = N(mul)(cx, N(exact)(cx, c->p[P_SM].r), N(lit_dec)(cx, AS_LOG2E));
    NACC acc;
    int kept = 0;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, AS_P(c, P_BN));
    for (int64_t r = 0; r < round; r++) {
        if (!as_keep(c, r, n)) continue; /* tl.where(mask, p, 0): an exact zero */
        NUM y = N(sub)(cx, SPEC(as_x)(cx, c, p1, r, n, qks), N(in)(cx, c, R_M, (size_t)(p1 * round + r)));
        N(acc_add)(cx, &acc, N(exp2)(cx, y));
        kept++;
    }
    NUM o = kept ? N(acc_end)(cx, &acc) : N(exact)(cx, 0.0);
    return N(cast)(cx, o, C_STORE);
}
