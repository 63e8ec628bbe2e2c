/* The spec half of contracts/reduce_common.h: helpers written once against the vocabulary of
 * contracts/spec.h.  A contract's spec file includes it, so it is compiled once per number
 * type with that spec (no include guard on purpose). */

/* z = x, or the kernel's binary32 product x * scale */
static inline NUM SPEC(rc_z)(NCX *cx, const td_case *c, int reg, uint64_t off, int scaled, double scale) {
    NUM x = N(in)(cx, c, reg, off);
    return scaled ? N(mul)(cx, x, N(exact)(cx, scale)) : x;
}

/* SPEC(rc_lse)(cx, c, reg, off0, n, scaled, scale, key): the log-sum-exp of the n >= 1
 * lanes at off0 + k, rc_lse_sh / rc_lse_mp above (written per number type: the shadow
 * splits the error of scaled inputs off by the Lipschitz bound). */

/* tl.sum of the n valid lanes of z at off0 + k (masked lanes hold 0): a tree */
static inline NUM SPEC(rc_tree_sum)(NCX *cx, const td_case *c, int reg, uint64_t off0, long n, int scaled,
                                    double scale, uint64_t key) {
    NUM r;
    if (N(memo_get)(cx, key, &r)) return r;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_TREE, 0);
    for (long k = 0; k < n; k++) N(acc_add)(cx, &acc, SPEC(rc_z)(cx, c, reg, off0 + (uint64_t)k, scaled, scale));
    r = N(acc_end)(cx, &acc);
    N(memo_put)(cx, key, r);
    return r;
}


/* cross_entropy_fwd_kernel, lane o (0 loss, 1 lse, 2 z_loss) of program (row, blk):
 * ceLossLocal / ceBlockLSE / ceZLossLocal in the kernel's operation order. */
static inline NUM SPEC(rc_ce)(NCX *cx, const td_case *c, const td_olane *l, const rc_ce_layout *y) {
    int64_t row = l->idx[0], blk = l->idx[1];
    int64_t B = c->p[y->p_block].i, n_cols = c->p[y->p_ncols].i, stride = c->p[y->p_stride].i;
    int scaled = y->p_logit_scale >= 0;
    double scale = scaled ? c->p[y->p_logit_scale].r : 1.0;
    uint64_t row0 = (uint64_t)(row * stride), off0 = row0 + (uint64_t)(blk * B);
    long n = (long)((n_cols - blk * B) < B ? (n_cols - blk * B) : B);
    NUM lse = SPEC(rc_lse)(cx, c, y->r_logits, off0, n, scaled, scale, rc_key(1, (uint64_t)row, (uint64_t)blk));
    if (l->o == 1) return lse;
    int64_t lab = td_geti(c, y->r_labels, (size_t)row);
    if (lab == c->p[y->p_ignored].i) return N(exact)(cx, 0.0); /* loss = 0.0, z_loss = 0.0 */
    /* lse_square_scale * lse * lse, left to right */
    NUM zl = N(mul)(cx, N(mul)(cx, N(exact)(cx, c->p[y->p_lss].r), lse), lse);
    if (l->o == 2) return zl;
    int split = c->p[y->p_split].i != 0, smooth = c->p[y->p_has_smoothing].i != 0;
    NUM s = N(exact)(cx, c->p[y->p_smoothing].r), tc = N(exact)(cx, (double)c->p[y->p_total].i);
    int64_t sh = lab - c->p[y->p_csi].i;
    int64_t hi = (blk + 1) * B < n_cols ? (blk + 1) * B : n_cols;
    NUM core;
    int zero = 0;
    if (sh >= blk * B && sh < hi) {
        NUM g = SPEC(rc_z)(cx, c, y->r_logits, row0 + (uint64_t)sh, scaled, scale);
        if (smooth) {
            NUM S = SPEC(rc_tree_sum)(cx, c, y->r_logits, off0, n, scaled, scale, rc_key(2, (uint64_t)row, (uint64_t)blk));
            NUM a = N(div)(cx, N(mul)(cx, s, S), tc);                      /* smoothing * sum_logits / total */
            NUM b = N(mul)(cx, N(sub)(cx, N(exact)(cx, 1.0), s), g);      /* (1 - smoothing) * logits_label */
            core = N(sub)(cx, split ? N(neg)(cx, a) : N(sub)(cx, lse, a), b); /* 0.0 - a is exact */
        } else {
            core = split ? N(neg)(cx, g) : N(sub)(cx, lse, g);
        }
    } else if (smooth) {
        NUM S = SPEC(rc_tree_sum)(cx, c, y->r_logits, off0, n, scaled, scale, rc_key(2, (uint64_t)row, (uint64_t)blk));
        NUM q = N(div)(cx, S, tc);
        core = N(mul)(cx, s, split ? N(neg)(cx, q) : N(sub)(cx, lse, q));
    } else {
        core = N(exact)(cx, 0.0);
        zero = 1;
    }
    if (split) return core;
    return zero ? zl : N(add)(cx, core, zl); /* loss += z_loss (0.0 + z_loss is exact) */
}


/* ---- intents (docs/intent.md) ----
 * The log-sum-exp of a row as torch.logsumexp documents it, log sum_j exp(z_j) over the n
 * lanes z_j at off0 + k (z_j = x_j * scale when scaled), written in the stable form
 * m + log sum exp(z_j - m) that any implementation uses (m = max_j z_j, exact; the exact
 * value is the same).  The sum is in any order (TD_ORDER_ANY): the shadow's bound is any
 * admissible evaluation's.  Bit 58 of the key keeps these memos apart from the
 * contracts' rc_key (tags 1 and 2: bits 56-57). */
static inline NUM SPEC(rc_intent_lse)(NCX *cx, const td_case *c, int reg, uint64_t off0, long n, int scaled,
                                      double scale, uint64_t key) {
    NUM r;
    key |= 1ull << 58;
    if (N(memo_get)(cx, key, &r)) return r;
    NUM m = SPEC(rc_z)(cx, c, reg, off0, scaled, scale);
    for (long k = 1; k < n; k++) m = N(max)(cx, m, SPEC(rc_z)(cx, c, reg, off0 + (uint64_t)k, scaled, scale));
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (long k = 0; k < n; k++)
        N(acc_add)(cx, &acc, N(exp)(cx, N(sub)(cx, SPEC(rc_z)(cx, c, reg, off0 + (uint64_t)k, scaled, scale), m)));
    r = N(add)(cx, m, N(log)(cx, N(acc_end)(cx, &acc)));
    N(memo_put)(cx, key, r);
    return r;
}

/* The mean of the n lanes z_j (label smoothing's uniform term), summed in any order. */
static inline NUM SPEC(rc_intent_mean)(NCX *cx, const td_case *c, int reg, uint64_t off0, long n, int scaled,
                                       double scale, uint64_t key) {
    NUM r;
    key |= 1ull << 58;
    if (N(memo_get)(cx, key, &r)) return r;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (long k = 0; k < n; k++) N(acc_add)(cx, &acc, SPEC(rc_z)(cx, c, reg, off0 + (uint64_t)k, scaled, scale));
    r = N(mean)(cx, N(acc_end)(cx, &acc), n);
    N(memo_put)(cx, key, r);
    return r;
}

/* The cross-entropy of one row of n classes as torch.nn.functional.cross_entropy(z,
 * label, label_smoothing=s, reduction='none') documents it: with the target
 * (1-s)*onehot(label) + s/n, the loss is -sum_j t_j log softmax(z)_j
 *   = (1-s)*(lse - z_label) + s*(lse - mean_j z_j) = lse - (1-s)*z_label - s*mean(z),
 * written in the second form (the exact values are equal).  The caller handles the
 * ignore_index (loss 0) and any z-loss term. */
static inline NUM SPEC(rc_intent_ce)(NCX *cx, const td_case *c, int reg, uint64_t row0, long n, int scaled,
                                     double scale, int64_t label, double s, uint64_t row) {
    NUM lse = SPEC(rc_intent_lse)(cx, c, reg, row0, n, scaled, scale, rc_key(1, row, 0));
    NUM zl = SPEC(rc_z)(cx, c, reg, row0 + (uint64_t)label, scaled, scale);
    if (s == 0) return N(sub)(cx, lse, zl);
    NUM es = N(exact)(cx, s), one_minus = N(sub)(cx, N(exact)(cx, 1.0), es);
    NUM loss = N(sub)(cx, lse, N(mul)(cx, one_minus, zl));
    NUM mean = SPEC(rc_intent_mean)(cx, c, reg, row0, n, scaled, scale, rc_key(2, row, 0));
    return N(sub)(cx, loss, N(mul)(cx, es, mean));
}

/* The intent of cross_entropy_fwd_kernel's lanes on a case that is the whole operation
 * (one block holds the row, one rank holds every class, SPLIT off: rc_ce_partial):
 * lse = torch.logsumexp(z) over the row's n_cols classes; loss = the cross-entropy of
 * rc_intent_ce plus the z-loss lse_square_scale * lse^2 (PaLM's auxiliary loss, as
 * flash-attn's CrossEntropyLoss documents it: "we add lse_square_scale * lse(logits)^2
 * to the loss"), and z_loss that term alone; an ignored label gives 0 for both
 * (ignore_index).  z = logits * logit_scale (flash-attn's logit_scale).  The label
 * smoothing is `smoothing` when HAS_SMOOTHING and 0 otherwise: the flag is the launch's
 * statement of whether smoothing applies (the host sets it to smoothing > 0). */
static inline NUM SPEC(rc_ce_intent)(NCX *cx, const td_case *c, const td_olane *l, const rc_ce_layout *y) {
    int64_t row = l->idx[0], stride = c->p[y->p_stride].i;
    long n = (long)c->p[y->p_ncols].i;
    int scaled = y->p_logit_scale >= 0;
    double scale = scaled ? c->p[y->p_logit_scale].r : 1.0;
    uint64_t row0 = (uint64_t)(row * stride);
    NUM lse = SPEC(rc_intent_lse)(cx, c, y->r_logits, row0, n, scaled, scale, rc_key(1, (uint64_t)row, 0));
    if (l->o == 1) return lse;
    int64_t lab = td_geti(c, y->r_labels, (size_t)row);
    if (lab == c->p[y->p_ignored].i) return N(exact)(cx, 0.0);
    NUM zloss = N(mul)(cx, N(mul)(cx, N(exact)(cx, c->p[y->p_lss].r), lse), lse);
    if (l->o == 2) return zloss;
    double s = c->p[y->p_has_smoothing].i ? c->p[y->p_smoothing].r : 0.0;
    NUM ce = SPEC(rc_intent_ce)(cx, c, y->r_logits, row0, n, scaled, scale, lab, s, (uint64_t)row);
    return N(add)(cx, ce, zloss);
}

/* The pointwise KL divergence as torch.nn.functional.kl_div(input, target,
 * reduction='none') documents it, input y a log-probability:
 *   log_target=False: target * (log target - y), computed by PyTorch as
 *     xlogy(target, target) - target * y, so a target of 0 gives 0 (0 log 0 = 0);
 *   log_target=True:  exp(target) * (target - y).
 * Written as gt * (log gt - y) for gt > 0 (the same exact value) and 0 - gt * y for gt = 0
 * (+0, or NaN for y = -inf, as xlogy's form gives). */
static inline NUM SPEC(rc_intent_kl)(NCX *cx, NUM y, NUM gt, int log_target) {
    if (log_target) return N(mul)(cx, N(exp)(cx, gt), N(sub)(cx, gt, y));
    NB pos = N(cmp)(cx, gt, N(exact)(cx, 0.0), '>');
    return N(sel)(cx, pos, N(mul)(cx, gt, N(sub)(cx, N(log)(cx, gt), y)), N(sub)(cx, N(exact)(cx, 0.0), N(mul)(cx, gt, y)));
}

/* Its gradient with respect to the input y (PyTorch autograd of kl_div, reduction='none',
 * upstream gradient 1): -target, or -exp(target) with log_target. */
static inline NUM SPEC(rc_intent_kl_grad)(NCX *cx, NUM gt, int log_target) {
    return N(neg)(cx, log_target ? N(exp)(cx, gt) : gt);
}
