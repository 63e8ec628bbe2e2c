/* The spec of contracts/lightning_attention.c (vocabulary: contracts/spec.h).  The
 * running prefix KV_row[a, c] = sum_{r <= row} K[r, a] V[r, c] of a head and its magnitude
 * sum_{r <= row} |K[r, a] V[r, c]| are memoised per case by (head, row, a, c), so a lane
 * costs O(d); while a lane is explained the memo is off and the whole prefix is traced. */

#ifndef LA_SPEC_ONCE
#define LA_SPEC_ONCE
static uint64_t la_key(const td_case *c, int tag, int64_t bh, int64_t row, int64_t a, int64_t ch) {
    return ((uint64_t)tag << 56) | (uint64_t)(((bh * c->p[P_N].i + row) * c->p[P_D].i + a) * c->p[P_E].i + ch);
}
/* The admissible-evaluation term of the header: gamma_rounds S + eta * nprod (every
 * product that may underflow, already scaled by the operand that follows it). */
static inline td_sh td_sh_la_widen(td_shcx *cx, td_sh x, long rounds, double S, double nprod) {
    double e = td_up(td_gamma(rounds, cx->u) * S + cx->eta * nprod);
    return td_sh_widen(cx, x, e, "any nesting, block size and order of the dot products: gamma_{d+rows+2} sum|q k v|");
}
static inline td_mp td_mp_la_widen(td_mpcx *cx, td_mp x, long rounds, double S, double nprod) {
    (void)rounds, (void)S, (void)nprod;
    return td_mp_widen(cx, x, 0, "");
}
#endif

/* KV_row[a, ch] (row >= 0) and *mag = sum_{r <= row} |K[r, a] V[r, ch]| (an upper bound) */
static NUM SPEC(la_kv)(NCX *cx, const td_case *c, int64_t bh, int64_t row, int64_t a, int64_t ch, double *mag) {
    int64_t n = c->p[P_N].i, d = c->p[P_D].i, e = c->p[P_E].i, s = row;
    NUM kv, am;
    while (s >= 0 && !(N(memo_get)(cx, la_key(c, 1, bh, s, a, ch), &kv) && N(memo_get)(cx, la_key(c, 2, bh, s, a, ch), &am)))
        s--;
    double m = 0;
    if (s < 0) kv = N(exact)(cx, 0.0);
    else m = N(hi)(cx, am);
    for (int64_t r = s + 1; r <= row; r++) {
        double kk = td_spec_load(c, R_K, (size_t)(bh * n * d + r * d + a)), vv = td_spec_load(c, R_V, (size_t)(bh * n * e + r * e + ch));
        kv = N(add)(cx, kv, N(mul)(cx, N(exact)(cx, kk), N(exact)(cx, vv)));
        m = td_up(m + fabs(kk * vv));
        N(memo_put)(cx, la_key(c, 1, bh, r, a, ch), kv);
        N(memo_put)(cx, la_key(c, 2, bh, r, a, ch), N(exact)(cx, m));
    }
    *mag = m;
    return kv;
}

/* sum_a Q[qrow, a] KV_prow[a, ch], widened to every admissible evaluation (rows: the
 * number of key rows in the prefix, prow + 1) */
static NUM SPEC(la_qkv)(NCX *cx, const td_case *c, int64_t bh, int64_t qrow, int64_t prow, int64_t ch) {
    int64_t n = c->p[P_N].i, d = c->p[P_D].i, rows = prow + 1;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    double S = 0, qa = 0;
    for (int64_t a = 0; a < d; a++) {
        double m, q = td_spec_load(c, R_Q, (size_t)(bh * n * d + qrow * d + a));
        NUM kv = SPEC(la_kv)(cx, c, bh, prow, a, ch, &m);
        N(acc_add)(cx, &acc, N(mul)(cx, N(exact)(cx, q), kv));
        S = td_up(S + fabs(q) * m);
        qa = td_up(qa + fabs(q));
    }
    /* underflow: rows*d products k v (then times q: rows sum|q|), rows*d products q k
     * (then times v, |v| <= 8: 8 rows d), and rows + d products of the second level */
    double nprod = td_up(rows * qa + 8.0 * (double)(rows * d) + (double)(rows + d));
    return N(la_widen)(cx, N(acc_end)(cx, &acc), (long)(d + rows + 1), S, nprod);
}

static NUM SPEC(la_summary)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = (int64_t)l->idx[0], ch = (int64_t)l->idx[2], n = c->p[P_N].i, B = c->p[P_BLOCK].i;
    int64_t P = c->p[P_M].i * B;
    switch (l->o) {
    case O_OUT: return SPEC(la_qkv)(cx, c, bh, (int64_t)l->idx[1], (int64_t)l->idx[1], ch);
    case O_KVOUT: { /* kvClosed(m+1): N = min((m+1) BLOCK, n) rows, any order */
        int64_t N_ = P + B < n ? P + B : n;
        double m;
        NUM kv = SPEC(la_kv)(cx, c, bh, N_ - 1, (int64_t)l->idx[1], ch, &m);
        return N(la_widen)(cx, kv, (long)N_, m, (double)N_);
    }
    default: { /* OInter: q rows past n are loaded as 0; kvClosed(0) = 0 */
        int64_t row = P + (int64_t)l->idx[1];
        if (row >= n || P == 0) return N(exact)(cx, 0.0);
        return SPEC(la_qkv)(cx, c, bh, row, P - 1, ch);
    }
    }
}

static NUM SPEC(la_grad)(NCX *cx, const td_case *c, const td_olane *l) { return N(in)(cx, c, RG_GRADPRE, l->off); }

/* ---- the intent: causal linear attention without decay (Lightning Attention-2 with
 * lambda = 1), in its quadratic (attention) form O = [(Q K^T) . M] V, written
 * independently of the contract's prefix: o[t, c] = sum_{s <= t} (q_t . k_s) v_s[c]; the
 * carry lanes are the running state k^T v of the linear form (KVOut: rows < min((m+1)
 * BLOCK, n)) and its product with the block's queries (OInter), summed directly. */
static NUM SPEC(la_intent_kv)(NCX *cx, const td_case *c, int64_t bh, int64_t rows, int64_t a, int64_t ch) {
    int64_t n = c->p[P_N].i, d = c->p[P_D].i, e = c->p[P_E].i;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t r = 0; r < rows; r++)
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, R_K, (size_t)(bh * n * d + r * d + a)),
                                    N(in)(cx, c, R_V, (size_t)(bh * n * e + r * e + ch))));
    return N(acc_end)(cx, &acc);
}
static NUM SPEC(la_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = (int64_t)l->idx[0], ch = (int64_t)l->idx[2], n = c->p[P_N].i, d = c->p[P_D].i, e = c->p[P_E].i;
    int64_t B = c->p[P_BLOCK].i, P = c->p[P_M].i * B;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    if (l->o == O_OUT) {
        int64_t t = (int64_t)l->idx[1];
        for (int64_t s = 0; s <= t; s++) {
            NACC sc;
            N(acc_init)(cx, &sc, TD_ORDER_ANY, 0);
            for (int64_t a = 0; a < d; a++)
                N(acc_add)(cx, &sc, N(mul)(cx, N(in)(cx, c, R_Q, (size_t)(bh * n * d + t * d + a)),
                                           N(in)(cx, c, R_K, (size_t)(bh * n * d + s * d + a))));
            N(acc_add)(cx, &acc, N(mul)(cx, N(acc_end)(cx, &sc), N(in)(cx, c, R_V, (size_t)(bh * n * e + s * e + ch))));
        }
    } else if (l->o == O_KVOUT) {
        return SPEC(la_intent_kv)(cx, c, bh, P + B < n ? P + B : n, (int64_t)l->idx[1], ch);
    } else {
        int64_t row = P + (int64_t)l->idx[1];
        for (int64_t a = 0; a < d && row < n; a++)
            N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, R_Q, (size_t)(bh * n * d + row * d + a)),
                                        SPEC(la_intent_kv)(cx, c, bh, P, a, ch)));
    }
    return N(acc_end)(cx, &acc);
}
