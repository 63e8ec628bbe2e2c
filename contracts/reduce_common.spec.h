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

