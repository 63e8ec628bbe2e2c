/* The spec half of contracts/attn_online_common.h: helpers written once against the vocabulary of
 * contracts/spec.h.  A contract's spec file includes it, so it is compiled once per number
 * type with that spec (no include guard on purpose). */

typedef struct SPEC(at_st) {
    NUM a[AT_MAXB];        /* alpha (AT_NORM_END) or l_prev * l_rcp (AT_NORM_STEP) of each block */
    uint8_t one[AT_MAXB];  /* AT_NORM_END: alpha is exactly 1 (the running max did not move) */
    NUM p[AT_MAXK];        /* the weights as the P . V product consumes them (after the P cast) */
    NUM l, m;
    double pm[AT_MAXK];    /* >= the kernel's e^(s_j - m) (2^...) at the final max m, any blocking */
    double pm_seed;        /* the same for a seeded row's stored state, e^(m0 - m) */
    int any;               /* some block was processed (or the row is seeded) */
} SPEC(at_st);

static inline NUM SPEC(at_expb)(NCX *cx, const at_row *R, NUM x) { return R->base2 ? N(exp2)(cx, x) : N(exp)(cx, x); }

/* The score of key j, formed in the kernel's order.  flatten: the dot's multiply and add
 * rules (static inline in the spec vocabulary) are inlined into the loop instead of a
 * call per term; the same operations in the same order, so the same values and flags. */
static __attribute__((flatten)) NUM SPEC(at_score)(NCX *cx, const td_case *c, const at_row *R, const NUM *q16, NUM scale, int j) {
    if (R->zero[j]) return N(exact)(cx, 0.0); /* qk = 0 + dot(q, 0): finite q, exactly 0 */
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int e = 0; e < R->nd; e++) {
        NUM q = R->score == AT_SC_FLASH ? q16[e] : N(in)(cx, c, R->q_reg, (size_t)R->q_off[e]);
        N(acc_add)(cx, &acc, N(mul)(cx, q, N(in)(cx, c, R->k_reg, (size_t)(R->k_off[j] + e * R->k_es))));
    }
    NUM d = N(acc_end)(cx, &acc);
    switch (R->score) {
    case AT_SC_SAGE:
        return N(mul)(cx, N(mul)(cx, d, N(exact)(cx, R->qscale)), N(exact)(cx, R->kscale[j / R->bn]));
    case AT_SC_SCALE: return N(mul)(cx, d, scale);
    default: return d;
    }
}

/* Upper bounds of every kept key's weight e^(s_j - m) (2^(s_j - m)) at the row's final
 * maximum, as ANY kernel holds it: s_j at most up(s_j), its final max at least down(m)
 * (the max of its scores, each within its bound of the exact one), and at most 1 (m is
 * one of the scores); the factor 1 + 2^-8 covers the exp's own error and a kernel-side
 * fp16 rounding (both far below 2^-8 relative).  They size the terms of td_sh_reblock
 * (magnitudes only: a looser bound only widens). */
static inline double SPEC(at_wbound)(double d, int base2) {
    double w = d >= 0 ? 1.0 : (base2 ? exp2(d) : exp(d));
    return w * (1 + 0x1p-8);
}
static inline void SPEC(at_pmag)(NCX *cx, const at_row *R, const uint8_t *kind, const NUM *s, SPEC(at_st) *S) {
    double mlo = N(down)(cx, S->m);
    for (int b = 0; b < R->nblk; b++) {
        if (kind[b] != AT_B_FIRST && kind[b] != AT_B_NEXT) continue;
        for (int k = 0; k < R->bn; k++) {
            int j = R->blk_lo[b] + k;
            if (at_kept(R, j)) S->pm[j] = SPEC(at_wbound)(N(up)(cx, s[j]) - mlo, R->base2);
        }
    }
    S->pm_seed = R->seeded ? SPEC(at_wbound)(R->m0 - mlo, R->base2) : 0.0;
}

/* The last row's statistics as the memo's hit path assembled them (attn_online_common.h,
 * AT_KEEP: the shadow pass only), and a copy of the parts of one at_st a row uses. */
static _Thread_local SPEC(at_st) SPEC(at_kst);
static inline void SPEC(at_st_copy)(const at_row *R, SPEC(at_st) *d, const SPEC(at_st) *s) {
    memcpy(d->a, s->a, (size_t)R->nblk * sizeof d->a[0]);
    memcpy(d->one, s->one, sizeof d->one);
    memcpy(d->p, s->p, (size_t)R->nkeys * sizeof d->p[0]);
    memcpy(d->pm, s->pm, (size_t)R->nkeys * sizeof d->pm[0]);
    d->l = s->l, d->m = s->m, d->pm_seed = s->pm_seed, d->any = s->any;
}

/* The row's statistics (memoised in the shadow pass). */
static inline void SPEC(at_stats)(NCX *cx, const td_case *c, const at_row *R, const uint8_t *kind, SPEC(at_st) *S) {
    NUM t;
    memset(S->one, 0, sizeof S->one);
    S->any = R->seeded;
    for (int b = 0; b < R->nblk; b++) S->any |= kind[b] == AT_B_FIRST;
    if (N(memo_get)(cx, at_mkey(R, AT_T_DONE, 0), &t)) {
        if (AT_KEEP(hit, cx)(cx, at_mkey(R, AT_T_KEEP, 0))) {
            SPEC(at_st_copy)(R, S, &SPEC(at_kst));
            return;
        }
        for (int b = 0; b < R->nblk; b++) {
            if (kind[b] == AT_B_NEXT || kind[b] == AT_B_RATIO) {
                S->one[b] = (uint8_t)N(memo_get)(cx, at_mkey(R, AT_T_ONE, b), &t);
                if (!S->one[b]) N(memo_get)(cx, at_mkey(R, AT_T_ALPHA, b), &S->a[b]);
            }
            if (kind[b] == AT_B_FIRST || kind[b] == AT_B_NEXT)
                for (int k = 0; k < R->bn; k++)
                    if (at_kept(R, R->blk_lo[b] + k)) N(memo_get)(cx, at_mkey(R, AT_T_P, R->blk_lo[b] + k), &S->p[R->blk_lo[b] + k]);
        }
        N(memo_get)(cx, at_mkey(R, AT_T_L, 0), &S->l);
        N(memo_get)(cx, at_mkey(R, AT_T_M, 0), &S->m);
        for (int j = 0; j < R->nkeys; j++)
            if (at_kept(R, j) && N(memo_get)(cx, at_mkey(R, AT_T_PMAG, j), &t)) S->pm[j] = N(up)(cx, t);
        S->pm_seed = R->seeded && N(memo_get)(cx, at_mkey(R, AT_T_PMAG, AT_MAXK), &t) ? N(up)(cx, t) : 0.0;
        if (AT_KEEP(begin, cx)(cx)) {
            SPEC(at_st_copy)(R, &SPEC(at_kst), S);
            AT_KEEP(seal, cx)(cx, at_mkey(R, AT_T_KEEP, 0), at_mkey(R, AT_T_DONE, 0));
        }
        return;
    }
    NUM q16[AT_MAXD];
    NUM scale = N(exact)(cx, 1.0);
    if (R->score == AT_SC_FLASH) {
        NUM qk_scale = N(mul)(cx, N(exact)(cx, R->sm_scale), N(lit_dec)(cx, R->lit));
        for (int e = 0; e < R->nd; e++)
            q16[e] = N(cast)(cx, N(mul)(cx, N(in)(cx, c, R->q_reg, (size_t)R->q_off[e]), qk_scale), R->c_q);
    } else if (R->score == AT_SC_SCALE) {
        scale = R->lit ? N(mul)(cx, N(exact)(cx, R->sm_scale), N(lit_dec)(cx, R->lit)) : N(exact)(cx, R->sm_scale);
    }
    NUM m = N(exact)(cx, R->seeded ? R->m0 : 0.0), l = N(exact)(cx, R->seeded ? R->l0 : 0.0);
    NUM s[AT_MAXK];
    for (int b = 0; b < R->nblk; b++) {
        int lo = R->blk_lo[b];
        if (kind[b] == AT_B_SKIP) continue;
        if (kind[b] == AT_B_RATIO) {
            /* no kept key: l_curr = 0 + l_prev, acc *= l_prev * (1 / l_curr) */
            NUM rcp = N(div)(cx, N(exact)(cx, 1.0), l);
            S->a[b] = N(mul)(cx, l, rcp);
            continue;
        }
        NUM mt = m;
        int first = 1;
        for (int k = 0; k < R->bn; k++) {
            int j = lo + k;
            if (!at_kept(R, j)) continue;
            s[j] = SPEC(at_score)(cx, c, R, q16, scale, j);
            mt = first ? s[j] : N(max)(cx, mt, s[j]);
            first = 0;
        }
        NUM mnew, alpha = m;
        if (kind[b] == AT_B_FIRST) mnew = mt;
        else {
            NB gt = N(cmp)(cx, mt, m, '>');
            if (AT_SURE_NOT(gt)) {
                mnew = m;
                S->one[b] = 1;
            } else {
                mnew = N(max)(cx, m, mt);
                alpha = SPEC(at_expb)(cx, R, N(sub)(cx, m, mnew));
            }
        }
        NUM p[AT_MAXK];
        NACC rs;
        N(acc_init)(cx, &rs, TD_ORDER_TREE, 0);
        for (int k = 0; k < R->bn; k++) {
            int j = lo + k;
            if (at_kept(R, j)) {
                p[j] = SPEC(at_expb)(cx, R, N(sub)(cx, s[j], mnew));
                N(acc_add)(cx, &rs, p[j]);
            } else
                N(acc_add)(cx, &rs, N(exact)(cx, 0.0));
        }
        NUM rowsum = N(acc_end)(cx, &rs);
        if (R->norm == AT_NORM_END) {
            if (kind[b] == AT_B_FIRST) l = rowsum;
            else {
                l = N(add)(cx, S->one[b] ? l : N(mul)(cx, l, alpha), rowsum);
                if (!S->one[b]) S->a[b] = alpha;
            }
            for (int k = 0; k < R->bn; k++)
                if (at_kept(R, lo + k)) S->p[lo + k] = R->c_p >= 0 ? N(kround)(cx, p[lo + k], R->c_p) : p[lo + k];
        } else {
            /* l_prev *= e^(m_prev - m); l_curr = tl.sum(p) + l_prev; l_rcp = 1 / l_curr;
             * p *= l_rcp; acc *= l_prev * l_rcp */
            NUM lcur, rcp;
            if (kind[b] == AT_B_FIRST) {
                lcur = rowsum;
                rcp = N(div)(cx, N(exact)(cx, 1.0), lcur);
            } else {
                NUM lp = S->one[b] ? l : N(mul)(cx, l, alpha);
                lcur = N(add)(cx, rowsum, lp);
                rcp = N(div)(cx, N(exact)(cx, 1.0), lcur);
                S->a[b] = N(mul)(cx, lp, rcp);
                S->one[b] = 0;
            }
            for (int k = 0; k < R->bn; k++)
                if (at_kept(R, lo + k)) {
                    NUM w = N(mul)(cx, p[lo + k], rcp);
                    S->p[lo + k] = R->c_p >= 0 ? N(kround)(cx, w, R->c_p) : w;
                }
            l = lcur;
        }
        m = mnew;
    }
    S->l = l;
    S->m = m;
    SPEC(at_pmag)(cx, R, kind, s, S);
    /* memoise (a no-op in the MPFR pass) */
    for (int b = 0; b < R->nblk; b++) {
        if (kind[b] == AT_B_NEXT || kind[b] == AT_B_RATIO) {
            if (S->one[b]) N(memo_put)(cx, at_mkey(R, AT_T_ONE, b), N(exact)(cx, 1.0));
            else N(memo_put)(cx, at_mkey(R, AT_T_ALPHA, b), S->a[b]);
        }
        if (kind[b] == AT_B_FIRST || kind[b] == AT_B_NEXT)
            for (int k = 0; k < R->bn; k++)
                if (at_kept(R, R->blk_lo[b] + k)) N(memo_put)(cx, at_mkey(R, AT_T_P, R->blk_lo[b] + k), S->p[R->blk_lo[b] + k]);
    }
    N(memo_put)(cx, at_mkey(R, AT_T_L, 0), S->l);
    N(memo_put)(cx, at_mkey(R, AT_T_M, 0), S->m);
    for (int j = 0; j < R->nkeys; j++)
        if (at_kept(R, j)) N(memo_put)(cx, at_mkey(R, AT_T_PMAG, j), N(exact)(cx, S->pm[j]));
    if (R->seeded) N(memo_put)(cx, at_mkey(R, AT_T_PMAG, AT_MAXK), N(exact)(cx, S->pm_seed));
    N(memo_put)(cx, at_mkey(R, AT_T_DONE, 0), S->l);
}

/* The accumulator of output column d as any blocking leaves it (td_sh_reblock), and
 * the subnormal parts of the kernel-side roundings at the final scale:
 *   terms     w_j = |v_j| (|v_j| (1 + 2^-10) after a V cast: one fp16 rounding of a
 *             bfloat16 value), at weight pm_j; normalised every step (AT_NORM_STEP):
 *             weights pm_j / l (l >= down(l) > 0), and each step makes 4 roundings (l
 *             alpha, p rcp, l_prev rcp, acc a) and one reciprocal besides its exp; the
 *             steps are counted over every key (a block without a kept key still
 *             multiplies acc by l (1/l)), not only the kept ones;
 *   P cast    each p_j rounded at a scale c >= 1 of the final one: at most eta_f per
 *             key at the final scale (normalised: the weights are already at it),
 *             sum_j |v_j| in all;
 *   P.V cast  one rounding per block of at most one key each: nkept subnormal parts,
 *             and relative parts on partial products whose magnitudes add up to at
 *             most sum_j pm_j |v_j| (the spec's own per-block charge covers its
 *             partials only, which may cancel where another blocking's do not). */
static inline NUM SPEC(at_reblock_acc)(NCX *cx, const td_case *c, const at_row *R, const SPEC(at_st) *S, NUM acc) {
    double smag = 0, vsum = 0, wmax = 0;
    long nkept = 0;
    double norm = 1.0;
    if (R->norm == AT_NORM_STEP) {
        double llo = N(down)(cx, S->l);
        norm = llo > 0 ? 1.0 / llo : INFINITY;
    }
    for (int j = 0; j < R->nkeys; j++) {
        if (!at_kept(R, j)) continue;
        double v = R->zero[j] ? 0.0 : fabs(td_spec_load(c, R->v_reg, (size_t)R->v_off[j])); /* td_get's value, inline */
        if (R->c_v >= 0) v *= 1 + 0x1p-10;
        double w = S->pm[j] * norm;
        smag += (w < 1 ? w : 1) * v;
        vsum += v;
        wmax = v > wmax ? v : wmax;
        nkept++;
    }
    long n = nkept;
    if (R->seeded) {
        double a0 = fabs(td_get(c, R->o_reg, (size_t)R->acc0_off));
        smag += S->pm_seed * norm * a0;
        wmax = a0 > wmax ? a0 : wmax;
        n++;
    }
    if (R->norm == AT_NORM_STEP) acc = N(reblock)(cx, acc, R->nkeys + R->seeded, smag, wmax, R->base2, 4, 1);
    else acc = N(reblock)(cx, acc, n, smag, wmax, R->base2, 1, 0);
    if (R->c_p >= 0) acc = N(kround_abs)(cx, acc, R->c_p, vsum, 0.0);
    if (R->c_pv >= 0) acc = N(kround_abs)(cx, acc, R->c_pv, (double)nkept, smag);
    return acc;
}

/* Block b's P . V partial of the lane's column.  flatten, as at_score: the multiply and
 * add rules inlined into the loop, the same operations in the same order. */
static __attribute__((flatten)) NUM SPEC(at_pv)(NCX *cx, const td_case *c, const at_row *R, const SPEC(at_st) *S, int b) {
    NACC dot;
    N(acc_init)(cx, &dot, TD_ORDER_ANY, 0);
    for (int k = 0; k < R->bn; k++) {
        int j = R->blk_lo[b] + k;
        if (!at_kept(R, j)) continue;
        NUM v = R->zero[j] ? N(exact)(cx, 0.0) : N(in)(cx, c, R->v_reg, (size_t)R->v_off[j]);
        if (R->c_v >= 0) v = N(cast)(cx, v, R->c_v);
        N(acc_add)(cx, &dot, N(mul)(cx, S->p[j], v));
    }
    NUM pv = N(acc_end)(cx, &dot);
    if (R->c_pv >= 0) pv = N(kround)(cx, pv, R->c_pv);
    return pv;
}

/* The lane: an output column d of the row, or the row statistic m + log2(l). */
static inline NUM SPEC(at_lane)(NCX *cx, const td_case *c, const at_row *R) {
    uint8_t kind[AT_MAXB];
    at_plan(R, kind);
    SPEC(at_st) S;
    SPEC(at_stats)(cx, c, R, kind, &S);
    /* The spec follows ONE blocking (the port's BLOCK_N and order); a kernel may take
     * another one (td_sh_reblock): l is a sum of the nl kept weights (and a seed's l0). */
    long nl = R->seeded;
    double lmag = R->seeded ? S.pm_seed * fabs(R->l0) : 0.0;
    for (int j = 0; j < R->nkeys; j++)
        if (at_kept(R, j)) nl++, lmag += S.pm[j];
    S.l = N(reblock)(cx, S.l, nl, lmag, R->seeded && fabs(R->l0) > 1 ? fabs(R->l0) : 1.0, R->base2, 1, 0);
    /* A kernel may also sum the fp16 P it feeds the dot (l_ij = tl.sum(p) after p =
     * p.to(fp16), as FlashAttention-style kernels that cast P once write it): the same
     * rounding of the same weights at the same scale as the P operand's, which the
     * contract (hfp16: R.round .fp16 = id) does not distinguish from the binary32 sum:
     * u16 of each weight plus one subnormal part each (N(kround_abs)). */
    if (R->c_p >= 0) S.l = N(kround_abs)(cx, S.l, R->c_p, (double)nl, lmag);
    if (R->out == AT_OUT_L) return S.l; /* the row's final l (every key a kernel's blocking may take) */
    if (R->out == AT_OUT_M) return S.m; /* the running max: the max of the kept scores, in any blocking */
    if (R->out == AT_OUT_LSE) {
        /* no kept key and no seed: m = -inf, l = 1 in the kernel; m + log2(1) = -inf */
        if (!S.any) return N(exact)(cx, -INFINITY);
        return N(add)(cx, S.m, N(log2)(cx, S.l));
    }
    if (!S.any) return N(exact)(cx, 0.0); /* acc = 0, 0 / l = 0 */
    NUM acc = R->seeded ? N(in)(cx, c, R->o_reg, (size_t)R->acc0_off) : N(exact)(cx, 0.0);
    for (int b = 0; b < R->nblk; b++) {
        if (kind[b] == AT_B_SKIP) continue;
        if (kind[b] == AT_B_RATIO) {
            acc = N(mul)(cx, acc, S.a[b]);
            continue;
        }
        NUM pv = SPEC(at_pv)(cx, c, R, &S, b);
        if (kind[b] == AT_B_FIRST) acc = pv;
        else acc = N(add)(cx, S.one[b] ? acc : N(mul)(cx, acc, S.a[b]), pv);
    }
    acc = SPEC(at_reblock_acc)(cx, c, R, &S, acc);
    NUM o = R->norm == AT_NORM_END ? N(div)(cx, acc, S.l) : acc;
    return R->c_store >= 0 ? N(cast)(cx, o, R->c_store) : o;
}


/* ---- intents (docs/intent.md) ----
 * One lane of torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask,
 * scale) (PyTorch documentation: softmax(q k^T * scale + mask) v) for the row R
 * describes, over its kept keys (at_kept: the causal mask j <= i, a window, or every
 * key, as the caller's row states the operation's mask), every value exact: no fp16
 * cast of q, of the weights P or of a P.V partial (a kernel's choice, not the
 * operation's), the natural base.  The scale of each score, in natural units:
 *   AT_SC_FLASH, AT_SC_SCALE with a log2(e) literal: sm_scale (the literal only moves
 *     the kernel to base 2: 2^(x * log2 e) = e^x);
 *   AT_SC_SCALE without one: sm_scale, times ln 2 on a base-2 row (the caller folded
 *     log2 e into the scale);
 *   AT_SC_SAGE: the dequantised scores of SageAttention (Zhang et al. 2024,
 *     "SageAttention: accurate 8-bit attention", Algorithm 1: S = (Q / delta_Q)(K /
 *     delta_K)^T * delta_Q delta_K), q_scale * k_scale of the key's block, times ln 2:
 *     its quantiser folds sm_scale * log2 e into q_scale and the kernel takes exp2.
 * The AT_OUT_LSE lane is the row's log-sum-exp in base 2 (log2 sum_j e^(t_j), as the
 * kernels store m + log2 l).  A row resumed from a stored state (R->seeded) is not an
 * operation of its own: callers declare such cases partial. */
static inline NUM SPEC(at_intent_score)(NCX *cx, const td_case *c, const at_row *R, int j) {
    if (R->zero[j]) return N(exact)(cx, 0.0);
    NACC dot;
    N(acc_init)(cx, &dot, TD_ORDER_ANY, 0);
    for (int e = 0; e < R->nd; e++)
        N(acc_add)(cx, &dot, N(mul)(cx, N(in)(cx, c, R->q_reg, (size_t)R->q_off[e]),
                                    N(in)(cx, c, R->k_reg, (size_t)(R->k_off[j] + e * R->k_es))));
    NUM d = N(acc_end)(cx, &dot);
    NUM ln2 = N(log)(cx, N(exact)(cx, 2.0));
    if (R->score == AT_SC_SAGE)
        return N(mul)(cx, N(mul)(cx, N(mul)(cx, d, N(exact)(cx, R->qscale)), N(exact)(cx, R->kscale[j / R->bn])), ln2);
    NUM t = N(mul)(cx, d, N(exact)(cx, R->sm_scale));
    return R->score == AT_SC_SCALE && !R->lit && R->base2 ? N(mul)(cx, t, ln2) : t;
}

/* The row's max m and sum l of the weights, and each kept key's weight p_j = e^(t_j - m),
 * memoised per row under the intent's own tags (AT_T_IM ..: apart from the contract's):
 * a lane then costs its P.V sum.  Without a memo hit everything is recomputed. */
static inline void SPEC(at_intent_row)(NCX *cx, const td_case *c, const at_row *R, NUM *m, NUM *ls) {
    if (N(memo_get)(cx, at_mkey(R, AT_T_IM, 0), m) && N(memo_get)(cx, at_mkey(R, AT_T_IL, 0), ls)) return;
    NUM t[AT_MAXK];
    int first = 1;
    *m = N(exact)(cx, 0.0);
    for (int j = 0; j < R->nkeys; j++) {
        if (!at_kept(R, j)) continue;
        t[j] = SPEC(at_intent_score)(cx, c, R, j);
        *m = first ? t[j] : N(max)(cx, *m, t[j]);
        first = 0;
    }
    NACC l;
    N(acc_init)(cx, &l, TD_ORDER_ANY, 0);
    for (int j = 0; j < R->nkeys; j++) {
        if (!at_kept(R, j)) continue;
        NUM p = N(exp)(cx, N(sub)(cx, t[j], *m));
        N(acc_add)(cx, &l, p);
        N(memo_put)(cx, at_mkey(R, AT_T_IP, j), p);
    }
    *ls = N(acc_end)(cx, &l);
    N(memo_put)(cx, at_mkey(R, AT_T_IM, 0), *m);
    N(memo_put)(cx, at_mkey(R, AT_T_IL, 0), *ls);
}

static inline NUM SPEC(at_intent)(NCX *cx, const td_case *c, const at_row *R) {
    NUM m, ls;
    SPEC(at_intent_row)(cx, c, R, &m, &ls);
    if (R->out == AT_OUT_L) return ls; /* the softmax denominator at the row's max */
    if (R->out == AT_OUT_M) return m;
    if (R->out == AT_OUT_LSE) return N(div)(cx, N(add)(cx, m, N(log)(cx, ls)), N(log)(cx, N(exact)(cx, 2.0)));
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int j = 0; j < R->nkeys; j++) {
        if (!at_kept(R, j) || R->zero[j]) continue; /* a zero key's value is 0 */
        NUM p;
        if (!N(memo_get)(cx, at_mkey(R, AT_T_IP, j), &p)) p = N(exp)(cx, N(sub)(cx, SPEC(at_intent_score)(cx, c, R, j), m));
        N(acc_add)(cx, &acc, N(mul)(cx, p, N(in)(cx, c, R->v_reg, (size_t)R->v_off[j])));
    }
    return N(div)(cx, N(acc_end)(cx, &acc), ls);
}
