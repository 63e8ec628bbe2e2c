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

/* ---- the summary bundle: the forward then the backward kernel of one launch ----
 * Per head bh and value lane v the forward state is a row S_t[k] (k < K), the
 * backward's a column C_t[k]; rows and columns never mix (each update touches one v),
 * so both are memoised per case by (tag, head, step, k, v), k = K the per-(step, v)
 * scalars (v_new, dv before beta).  Every carried value (S, C, v_new) is materialised
 * as ONE term (either(x, x): leaves 0; a kernel stores or carries it in a register, it
 * cannot re-associate the whole history into the next step's sums). */
#ifndef FRD_SUM_KEYS
#define FRD_SUM_KEYS
enum { FRD_TAG_S = 1, FRD_TAG_VN = 2, FRD_TAG_C = 3, FRD_TAG_DVR = 4 };
static uint64_t frd_key(const td_case *c, int tag, int64_t bh, int64_t t, int64_t k, int64_t v) {
    int64_t T = c->p[SP_T].i, K = c->p[SP_K].i, V = c->p[SP_V].i;
    return ((uint64_t)tag << 56) | (uint64_t)(((bh * (T + 1) + t) * (K + 1) + k) * V + v);
}
#endif

static NUM SPEC(frd_k)(NCX *cx, const td_case *c, int64_t bh, int64_t t, int64_t k) {
    return N(in)(cx, c, SR_K, (size_t)(bh * c->p[SP_SQK].i + k + t * c->p[SP_K].i));
}
/* b_q = q * scale (rounded on load) */
static NUM SPEC(frd_qs)(NCX *cx, const td_case *c, int64_t bh, int64_t t, int64_t k) {
    return N(mul)(cx, N(in)(cx, c, SR_Q, (size_t)(bh * c->p[SP_SQK].i + k + t * c->p[SP_K].i)),
                  N(exact)(cx, c->p[SP_SCALE].r));
}
/* a [T, V] row-major operand of head bh (v, do_) */
static NUM SPEC(frd_vrow)(NCX *cx, const td_case *c, int reg, int64_t bh, int64_t t, int64_t v) {
    return N(in)(cx, c, reg, (size_t)(bh * c->p[SP_SVO].i + v + t * c->p[SP_V].i));
}
static NUM SPEC(frd_beta)(NCX *cx, const td_case *c, int64_t bh, int64_t t, int64_t v) {
    if (c->p[SP_HEADWISE].i) return SPEC(frd_vrow)(cx, c, SR_BETA, bh, t, v);
    return N(in)(cx, c, SR_BETA, (size_t)(bh * c->p[SP_T].i + t));
}
static int SPEC(frd_memo_vec)(NCX *cx, const td_case *c, int tag, int64_t bh, int64_t t, int64_t v, NUM *x) {
    for (int64_t k = 0; k < c->p[SP_K].i; k++)
        if (!N(memo_get)(cx, frd_key(c, tag, bh, t, k, v), &x[k])) return 0;
    return 1;
}

/* S_t (row v of head bh's state after t steps): S_0 = h0 or 0; step s:
 * vn_s = v_s[v] - sum_k S_s[k] k_s[k], S_{s+1}[k] = S_s[k] + k_s[k] (vn_s beta_s).
 * *vn_last: vn_{t-1} when this call ran step t-1. */
static void SPEC(frd_fwd)(NCX *cx, const td_case *c, int64_t bh, int64_t v, int64_t t, NUM *S, NUM *vn_last) {
    int64_t K = c->p[SP_K].i, V = c->p[SP_V].i, s = t;
    while (s > 0 && !SPEC(frd_memo_vec)(cx, c, FRD_TAG_S, bh, s, v, S)) s--;
    if (s == 0)
        for (int64_t k = 0; k < K; k++)
            S[k] = c->p[SP_USE_INIT].i ? N(in)(cx, c, SR_H0, (size_t)((bh * K + k) * V + v)) : N(exact)(cx, 0.0);
    for (; s < t; s++) {
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
        for (int64_t k = 0; k < K; k++) N(acc_add)(cx, &acc, N(mul)(cx, S[k], SPEC(frd_k)(cx, c, bh, s, k)));
        NUM vn = N(sub)(cx, SPEC(frd_vrow)(cx, c, SR_V, bh, s, v), N(acc_end)(cx, &acc));
        vn = N(either)(cx, vn, vn);
        N(memo_put)(cx, frd_key(c, FRD_TAG_VN, bh, s, K, v), vn);
        if (vn_last) *vn_last = vn;
        NUM u = N(mul)(cx, vn, SPEC(frd_beta)(cx, c, bh, s, v));
        for (int64_t k = 0; k < K; k++) {
            NUM x = N(add)(cx, S[k], N(mul)(cx, SPEC(frd_k)(cx, c, bh, s, k), u));
            S[k] = N(either)(cx, x, x);
            N(memo_put)(cx, frd_key(c, FRD_TAG_S, bh, s + 1, k, v), S[k]);
        }
    }
}
static NUM *SPEC(frd_vec)(const td_case *c) {
    NUM *x = malloc((size_t)c->p[SP_K].i * sizeof(NUM));
    if (!x) abort();
    return x;
}
/* v_new at step t (the value the forward stores into v, the backward's v) */
static NUM SPEC(frd_vn)(NCX *cx, const td_case *c, int64_t bh, int64_t v, int64_t t) {
    NUM vn;
    if (N(memo_get)(cx, frd_key(c, FRD_TAG_VN, bh, t, c->p[SP_K].i, v), &vn)) return vn;
    NUM *S = SPEC(frd_vec)(c);
    SPEC(frd_fwd)(cx, c, bh, v, t + 1, S, &vn);
    free(S);
    return vn;
}

/* C_t (column v of head bh's d_h after the backward's step t; C_T = dht or 0); step s:
 * D_s = C_{s+1} + (q_s scale) do_s[v], dvr_s = sum_k D_s[k] k_s[k], dv_s = dvr_s beta_s,
 * C_s[k] = D_s[k] - k_s[k] dv_s.  *dvr_last: dvr_t when this call ran step t. */
static void SPEC(frd_bwd)(NCX *cx, const td_case *c, int64_t bh, int64_t v, int64_t t, NUM *C, NUM *dvr_last) {
    int64_t K = c->p[SP_K].i, V = c->p[SP_V].i, T = c->p[SP_T].i, s = t;
    while (s < T && !SPEC(frd_memo_vec)(cx, c, FRD_TAG_C, bh, s, v, C)) s++;
    if (s == T)
        for (int64_t k = 0; k < K; k++)
            C[k] = c->p[SP_USE_DHT].i ? N(in)(cx, c, SR_DHT, (size_t)((bh * K + k) * V + v)) : N(exact)(cx, 0.0);
    for (s = s - 1; s >= t; s--) {
        NUM dov = SPEC(frd_vrow)(cx, c, SR_DO, bh, s, v);
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
        for (int64_t k = 0; k < K; k++) {
            C[k] = N(add)(cx, C[k], N(mul)(cx, SPEC(frd_qs)(cx, c, bh, s, k), dov));
            N(acc_add)(cx, &acc, N(mul)(cx, C[k], SPEC(frd_k)(cx, c, bh, s, k)));
        }
        NUM dvr = N(acc_end)(cx, &acc);
        dvr = N(either)(cx, dvr, dvr);
        N(memo_put)(cx, frd_key(c, FRD_TAG_DVR, bh, s, K, v), dvr);
        if (dvr_last) *dvr_last = dvr;
        NUM dv = N(mul)(cx, dvr, SPEC(frd_beta)(cx, c, bh, s, v));
        for (int64_t k = 0; k < K; k++) {
            NUM x = N(sub)(cx, C[k], N(mul)(cx, SPEC(frd_k)(cx, c, bh, s, k), dv));
            C[k] = N(either)(cx, x, x);
            N(memo_put)(cx, frd_key(c, FRD_TAG_C, bh, s, k, v), C[k]);
        }
    }
}
/* dv before beta (d_v = sum_k d_h k) at step t */
static NUM SPEC(frd_dvr)(NCX *cx, const td_case *c, int64_t bh, int64_t v, int64_t t) {
    NUM d;
    if (N(memo_get)(cx, frd_key(c, FRD_TAG_DVR, bh, t, c->p[SP_K].i, v), &d)) return d;
    NUM *C = SPEC(frd_vec)(c);
    SPEC(frd_bwd)(cx, c, bh, v, t, C, &d);
    free(C);
    return d;
}

/* dk_t[k] = sum_jv D_t[k, jv] (vn_t beta_t)[jv] - sum_jv dv_t[jv] S_t[k, jv] (loop 1's
 * store, corrected by loop 2), dq_t[k] = (sum_jv S_{t+1}[k, jv] do_t[jv]) scale: over
 * the lane's value block (jv < BV, active) */
static NUM SPEC(frd_dkq)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = l->idx[0], k = l->idx[1], t = l->idx[3], V = c->p[SP_V].i, BV = c->p[SP_BV].i;
    NUM *X = SPEC(frd_vec)(c);
    NACC a1, a2;
    N(acc_init)(cx, &a1, TD_ORDER_ANY, 0);
    N(acc_init)(cx, &a2, TD_ORDER_ANY, 0);
    for (int64_t jv = 0; jv < BV; jv++) {
        int64_t v = (int64_t)l->pid[0] * BV + jv;
        if (v >= V) continue; /* masked: every factor loads 0 */
        if (l->o == SO_DQ) {
            SPEC(frd_fwd)(cx, c, bh, v, t + 1, X, NULL);
            N(acc_add)(cx, &a1, N(mul)(cx, X[k], SPEC(frd_vrow)(cx, c, SR_DO, bh, t, v)));
            continue;
        }
        NUM beta = SPEC(frd_beta)(cx, c, bh, t, v), vn = SPEC(frd_vn)(cx, c, bh, v, t);
        SPEC(frd_bwd)(cx, c, bh, v, t + 1, X, NULL);
        NUM D = N(add)(cx, X[k], N(mul)(cx, SPEC(frd_qs)(cx, c, bh, t, k), SPEC(frd_vrow)(cx, c, SR_DO, bh, t, v)));
        N(acc_add)(cx, &a1, N(mul)(cx, D, N(mul)(cx, vn, beta)));
        SPEC(frd_fwd)(cx, c, bh, v, t, X, NULL);
        N(acc_add)(cx, &a2, N(mul)(cx, N(mul)(cx, SPEC(frd_dvr)(cx, c, bh, v, t), beta), X[k]));
    }
    free(X);
    NUM s1 = N(acc_end)(cx, &a1);
    if (l->o == SO_DQ) return N(mul)(cx, s1, N(exact)(cx, c->p[SP_SCALE].r));
    return N(sub)(cx, s1, N(acc_end)(cx, &a2));
}

/* the state lanes: S_t[k] (ht, HOut) or C_0[k] (dh0) */
static NUM SPEC(frd_state)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM *X = SPEC(frd_vec)(c), r;
    if (l->o == SO_DH0)
        SPEC(frd_bwd)(cx, c, l->idx[0], l->idx[2], 0, X, NULL);
    else
        SPEC(frd_fwd)(cx, c, l->idx[0], l->idx[2], l->idx[3], X, NULL);
    r = X[l->idx[1]];
    free(X);
    return r;
}

static NUM SPEC(frd_summary)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = l->idx[0], v = l->idx[2], t = l->idx[3], K = c->p[SP_K].i;
    switch (l->o) {
    case SO_VNEW: return SPEC(frd_vn)(cx, c, bh, v, t);
    case SO_O: { /* o_t[v] = sum_k S_{t+1}[k] (q_t[k] scale) */
        NUM *S = SPEC(frd_vec)(c);
        SPEC(frd_fwd)(cx, c, bh, v, t + 1, S, NULL);
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
        for (int64_t k = 0; k < K; k++) N(acc_add)(cx, &acc, N(mul)(cx, S[k], SPEC(frd_qs)(cx, c, bh, t, k)));
        free(S);
        return N(acc_end)(cx, &acc);
    }
    case SO_DV: return N(mul)(cx, SPEC(frd_dvr)(cx, c, bh, v, t), SPEC(frd_beta)(cx, c, bh, t, v));
    case SO_DBETA: {
        if (c->p[SP_HEADWISE].i) return N(mul)(cx, SPEC(frd_dvr)(cx, c, bh, v, t), SPEC(frd_vn)(cx, c, bh, v, t));
        NACC acc; /* scalar beta: over the program's value block */
        N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
        for (int64_t jv = 0; jv < c->p[SP_BV].i; jv++) {
            int64_t vv = (int64_t)l->pid[0] * c->p[SP_BV].i + jv;
            if (vv < c->p[SP_V].i)
                N(acc_add)(cx, &acc, N(mul)(cx, SPEC(frd_dvr)(cx, c, bh, vv, t), SPEC(frd_vn)(cx, c, bh, vv, t)));
        }
        return N(acc_end)(cx, &acc);
    }
    case SO_DQ:
    case SO_DK: return SPEC(frd_dkq)(cx, c, l);
    default: return SPEC(frd_state)(cx, c, l); /* SO_HT, SO_HOUT, SO_DH0 */
    }
}
