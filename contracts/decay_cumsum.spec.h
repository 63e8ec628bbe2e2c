/* The spec of contracts/decay_cumsum.c (vocabulary: contracts/spec.h). */

/* g_o[row t] = 1.44269504 * sum_{u <= t} g[row u]  (fwdDecayStreamSpec), then R's store cast.
 * Two admissible forms: the constant times the prefix sum (the Lean's closed form) or the
 * prefix sum of the scaled terms RN(g_u * c) (the kernel's cum_decay += _g * inv_ln2); each
 * sum in any order (sequential, chunked of any size, tl.cumsum's tree).  The real constant
 * is the decimal; the kernel holds RN32 of it (lit_dec charges that rounding). */
static NUM SPEC(dc_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t DK = c->p[P_DK].i, t = l->idx[1];
    uint64_t base = (uint64_t)l->idx[0]; /* the lane's row-0 offset in its chunk */
    NUM k = N(lit_dec)(cx, "1.44269504");
    NACC a, b;
    N(acc_init)(cx, &a, TD_ORDER_SEQ, 0);
    N(acc_init)(cx, &b, TD_ORDER_SEQ, 0);
    for (int64_t u = 0; u <= t; u++) {
        NUM g = N(in)(cx, c, R_G, base + (uint64_t)(u * DK));
        N(acc_add)(cx, &a, g);
        N(acc_add)(cx, &b, N(mul)(cx, g, k));
    }
    NUM scaled_sum = N(mul)(cx, k, N(acc_end)(cx, &a));
    return N(cast)(cx, N(either)(cx, scaled_sum, N(acc_end)(cx, &b)), C_STORE);
}

/* The intent: the same prefix sum along the chunk (torch.cumsum(g * inv_ln2, dim=t) per
 * chunk of BT steps: fla's chunk-local log2 cumulative decay), rounded once to g_o. */
static NUM SPEC(dc_fwd_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(dc_fwd)(cx, c, l); }

/* ---- prepare_qg_kg: qg = q * exp2(g) * scale, kg = k * exp2(g[BT-1] - g) (prepStreamSpec),
 * then R's store cast.  The product q * exp2(g) * scale in either association (the kernel:
 * q * (exp2(g) * scale)); exp2 with the backend's budget (an exp2 of the log2 decay, as the
 * kernel; the ratio of two exponentials, exp2(last) / exp2(g), is not admissible: it
 * underflows where the decays are near 0, see the mutants).  l->idx[0]: the lane's row-0
 * offset in its chunk; idx[1]: t. */
static NUM SPEC(dc_prep)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t DK = c->p[P_DK].i, BT = c->p[P_BT].i, t = l->idx[1];
    uint64_t base = (uint64_t)l->idx[0], off = base + (uint64_t)(t * DK);
    NUM g = N(in)(cx, c, R_PG, off);
    if (l->o == 0) {
        NUM q = N(in)(cx, c, R_PQ, off), e = N(exp2)(cx, g), s = N(exact)(cx, c->p[P_SCALE].r);
        NUM v = N(either)(cx, N(mul)(cx, q, N(mul)(cx, e, s)), N(mul)(cx, N(mul)(cx, q, e), s));
        return N(cast)(cx, v, C_STORE);
    }
    NUM last = N(in)(cx, c, R_PG, base + (uint64_t)((BT - 1) * DK));
    NUM v = N(mul)(cx, N(in)(cx, c, R_PK, off), N(exp2)(cx, N(sub)(cx, last, g)));
    return N(cast)(cx, v, C_STORE);
}

/* ---- bwd_decay_global_cumsum (bwdDecayStreamSpec): per row u of the chunk
 *   dq(u) = dq_inner + dq_inter * exp2(g),  dk(u) = dk_inner + dk_inter * exp2(g[BT-1] - g),
 *   dg(t) = sum_{t <= u < BT} (dq(u) q(u) - dk(u) k(u)).
 * dq_inter / dk_inter are read as before the launch (in place).  The sum's 2 (BT - t)
 * product leaves in any order (acc_end): pairwise differences first or two separate suffix
 * sums, any chunking; FMA contraction is covered (it removes roundings the model charges). */
/* dq(u), dk(u) are memoised per cell (key: offset, channel): the dg lanes of a chunk share them */
static NUM SPEC(dc_bwd_dq)(NCX *cx, const td_case *c, uint64_t off) {
    NUM v;
    if (N(memo_get)(cx, off * 2, &v)) return v;
    NUM e = N(exp2)(cx, N(in)(cx, c, R_BG, off));
    v = N(add)(cx, N(in)(cx, c, R_DQI, off), N(mul)(cx, N(in)(cx, c, R_DQT, off), e));
    N(memo_put)(cx, off * 2, v);
    return v;
}
static NUM SPEC(dc_bwd_dk)(NCX *cx, const td_case *c, uint64_t off, uint64_t last_off) {
    NUM v;
    if (N(memo_get)(cx, off * 2 + 1, &v)) return v;
    NUM e = N(exp2)(cx, N(sub)(cx, N(in)(cx, c, R_BG, last_off), N(in)(cx, c, R_BG, off)));
    v = N(add)(cx, N(in)(cx, c, R_DKI, off), N(mul)(cx, N(in)(cx, c, R_DKT, off), e));
    N(memo_put)(cx, off * 2 + 1, v);
    return v;
}
static NUM SPEC(dc_bwd_exact)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t DK = c->p[P_DK].i, BT = c->p[P_BT].i, t = l->idx[1];
    uint64_t base = (uint64_t)l->idx[0], last = base + (uint64_t)((BT - 1) * DK);
    if (l->o == 0) return SPEC(dc_bwd_dq)(cx, c, base + (uint64_t)(t * DK));
    if (l->o == 1) return SPEC(dc_bwd_dk)(cx, c, base + (uint64_t)(t * DK), last);
    NACC a;
    N(acc_init)(cx, &a, TD_ORDER_SEQ, 0); /* the source: u from BT-1 down to t */
    for (int64_t u = BT - 1; u >= t; u--) {
        uint64_t off = base + (uint64_t)(u * DK);
        N(acc_add)(cx, &a, N(mul)(cx, SPEC(dc_bwd_dq)(cx, c, off), N(in)(cx, c, R_BQ, off)));
        N(acc_add)(cx, &a, N(neg)(cx, N(mul)(cx, SPEC(dc_bwd_dk)(cx, c, off, last), N(in)(cx, c, R_BK, off))));
    }
    return N(acc_end)(cx, &a);
}
/* ⊨[R]: the same, then R's store cast into the binary32 outputs */
static NUM SPEC(dc_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(dc_bwd_exact)(cx, c, l), C_STORE);
}
