/* The spec half of contracts/softmax_common.h: helpers written once against the vocabulary of
 * contracts/spec.h.  A contract's spec file includes it, so it is compiled once per number
 * type with that spec (no include guard on purpose). */

/* x_j as the kernel holds it: the loaded value, times the scale when it has one. */
static inline NUM SPEC(sm_elem)(NCX *cx, const td_case *c, const sm_row *r, int64_t j) {
    NUM x = N(in)(cx, c, r->reg, r->base + (uint64_t)(j * r->stride));
    if (r->has_scale) x = N(mul)(cx, x, N(exact)(cx, r->scale));
    return x;
}

/* m = tl.max over the row (exact: a max of the values the kernel holds).
 * With a scale the kernel holds y_j = RN32(x_j * scale), and its max is the binary32
 * number max_j RN32(x_j * scale), computed here exactly (x_j * scale is exact in
 * binary64).  The spec uses that number as the shift: the softmax and the log-sum-exp
 * are shift invariant, so the reals are unchanged, and the kernel's m is exactly this
 * constant, while the model knows each y_j's rounding error exactly; so y_j - m
 * carries y_j's own rounding only (0 for the argmax lane, as in the kernel), not also
 * an independent error of the max. */
static inline NUM SPEC(sm_max)(NCX *cx, const td_case *c, const sm_row *r) {
    NUM m;
    if (N(memo_get)(cx, r->key | SM_TAG_MAX, &m)) return m;
    if (r->has_scale) {
        double mv = -INFINITY;
        for (int64_t j = 0; j < r->n; j++) {
            double y = (double)(float)(td_get(c, r->reg, r->base + (uint64_t)(j * r->stride)) * r->scale);
            if (y > mv) mv = y;
        }
        m = N(exact)(cx, mv);
    } else if (!SM_MAX_EXACT(cx)(cx, c, r, &m)) {
        m = SPEC(sm_elem)(cx, c, r, 0);
        for (int64_t j = 1; j < r->n; j++) m = N(max)(cx, m, SPEC(sm_elem)(cx, c, r, j));
    }
    N(memo_put)(cx, r->key | SM_TAG_MAX, m);
    return m;
}

/* d_j = x_j - m, then + mask_j when the row has an additive mask. */
static inline NUM SPEC(sm_shift)(NCX *cx, const td_case *c, const sm_row *r, NUM m, int64_t j) {
    NUM d = N(sub)(cx, SPEC(sm_elem)(cx, c, r, j), m);
    if (r->mreg >= 0) d = N(add)(cx, d, N(in)(cx, c, r->mreg, r->mbase + (uint64_t)(j * r->stride)));
    return d;
}

/* s = sum_j exp(d_j), d_j = x_j - max: in any order, in one pass with a running
 * maximum (online softmax) or in two (td_sh_rescaled). */
static inline NUM SPEC(sm_sum)(NCX *cx, const td_case *c, const sm_row *r, NUM m) {
    NUM s;
    if (N(memo_get)(cx, r->key | SM_TAG_SUM, &s)) return s;
    NACC acc;
    NUM spread = N(exact)(cx, 0);
    N(acc_init)(cx, &acc, r->order, r->block);
    void *terms = SM_TERMS(begin, cx)(cx, r->n); /* the terms, kept for the row's lanes */
    for (int64_t j = 0; j < r->n; j++) {
        NUM d = SPEC(sm_shift)(cx, c, r, m, j);
        NUM e = N(exp)(cx, d);
        if (terms) SM_TERMS(set, cx)(terms, j, e);
        N(acc_add)(cx, &acc, e);
        spread = N(max)(cx, spread, N(neg)(cx, d));
    }
    s = N(rescaled)(cx, N(acc_end)(cx, &acc), (long)r->n, spread, 0, 1.0);
    N(memo_put)(cx, r->key | SM_TAG_SUM, s);
    if (terms) SM_TERMS(seal, cx)(cx, r->key);
    return s;
}

/* out_i = exp(d_i) / s: the tile softmax at column i. */
static inline NUM SPEC(sm_softmax)(NCX *cx, const td_case *c, const sm_row *r, int64_t i) {
    NUM m = SPEC(sm_max)(cx, c, r);
    NUM s = SPEC(sm_sum)(cx, c, r, m);
    NUM e;
    if (!SM_TERMS(get, cx)(cx, r->key, i, &e)) e = N(exp)(cx, SPEC(sm_shift)(cx, c, r, m, i));
    return N(div)(cx, e, s);
}

/* tl.sum_j a_j * b_j (a in r->reg, b in region breg at the same offsets), a tree. */
static inline NUM SPEC(sm_dot)(NCX *cx, const td_case *c, const sm_row *r, int breg) {
    NUM s;
    if (N(memo_get)(cx, r->key | SM_TAG_DOT, &s)) return s;
    NACC acc;
    N(acc_init)(cx, &acc, r->order, r->block);
    for (int64_t j = 0; j < r->n; j++) {
        uint64_t off = r->base + (uint64_t)(j * r->stride);
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, r->reg, off), N(in)(cx, c, breg, off)));
    }
    s = N(acc_end)(cx, &acc);
    N(memo_put)(cx, r->key | SM_TAG_DOT, s);
    return s;
}

/* tl.sum_j a_j (the row's own values), a tree. */
static inline NUM SPEC(sm_rowsum)(NCX *cx, const td_case *c, const sm_row *r) {
    NUM s;
    if (N(memo_get)(cx, r->key | SM_TAG_SUM, &s)) return s;
    NACC acc;
    N(acc_init)(cx, &acc, r->order, r->block);
    for (int64_t j = 0; j < r->n; j++) N(acc_add)(cx, &acc, N(in)(cx, c, r->reg, r->base + (uint64_t)(j * r->stride)));
    s = N(acc_end)(cx, &acc);
    N(memo_put)(cx, r->key | SM_TAG_SUM, s);
    return s;
}


/* ---- intents (docs/intent.md) ----
 * The softmax of a row as torch.softmax(x, dim) documents it: exp(x_i) / sum_j exp(x_j)
 * over ALL the row's entries (r->n: the caller passes the operation's row, not the
 * kernel's tile).  The shadow's bound is any admissible evaluation's (any order, online
 * or two-pass).  Bit 58 of the memo key keeps the intent's row quantities apart from the
 * contract's (row ids stay below 2^50). */
static inline NUM SPEC(sm_intent_softmax)(NCX *cx, const td_case *c, sm_row r, int64_t i) {
    r.order = TD_ORDER_ANY;
    r.block = 0;
    r.key |= 1ull << 58;
    return SPEC(sm_softmax)(cx, c, &r, i);
}
