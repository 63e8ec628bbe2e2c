/* The spec of contracts/fused_recurrent_delta.c (vocabulary: contracts/spec.h). */
static NUM SPEC(frd_out)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t K = c->p[P_K].i, V = c->p[P_V].i, BK = c->p[P_BK].i, BV = c->p[P_BV].i, t = c->p[P_T].i;
    int64_t p0 = l->pid[0], p1 = l->pid[1], p2 = l->pid[2], jv = (int64_t)l->j;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_TREE, 0);
    for (int64_t jk = 0; jk < BK && p1 * BK + jk < K; jk++)
        N(acc_add)(cx, &acc,
                   N(mul)(cx, N(in)(cx, c, R_HNEXT, (size_t)(p2 * K * V + (p1 * BK + jk) * V + p0 * BV + jv)),
                          N(in)(cx, c, R_Q, (size_t)(p2 * c->p[P_SQK].i + p1 * BK + jk + t * K))));
    return N(acc_end)(cx, &acc);
}

/* The intent: DeltaNet's readout o_t = S_t q_t (Schlag et al. 2021; Yang et al. 2024,
 * S_t = S_{t-1}(I - beta_t k_t k_t^T) + beta_t v_t k_t^T), S_t the given state of head p2
 * (HNext holds S_t^T as [K, V]), over all K keys; q as passed (a caller's scale folded
 * in).  Partial when the K axis has several blocks (set apart by the contract file). */
static NUM SPEC(frd_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t K = c->p[P_K].i, V = c->p[P_V].i, t = c->p[P_T].i, h = l->pid[2];
    int64_t v = (int64_t)l->pid[0] * c->p[P_BV].i + (int64_t)l->j;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t k = 0; k < K; k++)
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, R_HNEXT, (size_t)((h * K + k) * V + v)),
                                    N(in)(cx, c, R_Q, (size_t)(h * c->p[P_SQK].i + t * K + k))));
    return N(acc_end)(cx, &acc);
}
