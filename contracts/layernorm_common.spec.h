/* The spec half of contracts/layernorm_common.h: helpers written once against the vocabulary of
 * contracts/spec.h.  A contract's spec file includes it, so it is compiled once per number
 * type with that spec (no include guard on purpose). */

/* ---- spec helpers (compiled once per number type) ---- */

/* Memo keys: the row in the low 40 bits, a tag above. */
#define LN_KEY(tag, row) (((uint64_t)(tag) << 40) | (uint64_t)(row))

/* The statistics of one row of a single-tile kernel (fast_layernorm, layer_norm_liger,
 * layer_norm_welfold's reduce slice), in the kernel's order:
 *   mean = tl.sum(x over the BLOCK lanes, masked lanes 0) / n            (tree)
 *   var  = tl.sum(d * d over the BLOCK lanes) / n, d = x - mean          (tree)
 *   rstd = rsqrt(var + eps)   (rsqrt_fn; else 1 / sqrt(var + eps)); eps_floor is the
 *          binary32 eps the kernel adds (a lower bound of its argument, see ln_rsqrt_floor)
 * The row holds the n_active = min(n, B) values base .. base + n_active - 1.  With
 * pad_var the masked lanes enter the variance as d = 0 - mean = -mean (the kernels
 * that do not zero them: the contract's spec keeps them too); without it they are 0.
 * The mean's tree sums only the active prefix: a tree over B lanes whose non-zero
 * leaves are a prefix of n_active lanes rounds at most ceil(log2 n_active) times on
 * any leaf's path (additions of a zero subtree are exact).  Memoised per row. */
static inline void SPEC(ln_tile_stats)(NCX *cx, const td_case *c, int reg, uint64_t base, int64_t n, int64_t B,
                                       int pad_var, int rsqrt_fn, NUM eps, double eps_floor, uint64_t row, NUM *mean,
                                       NUM *rstd) {
    if (N(memo_get)(cx, LN_KEY(1, row), mean) && N(memo_get)(cx, LN_KEY(2, row), rstd)) return;
    int64_t m = n < B ? n : B;
    NUM nn = N(exact)(cx, (double)n), sum, sumsq;
    if (m == 1) {
        sum = N(in)(cx, c, reg, base); /* one non-zero leaf: the tree adds only zeros, exactly */
    } else {
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_TREE, 0);
        for (int64_t j = 0; j < m; j++) N(acc_add)(cx, &acc, N(in)(cx, c, reg, base + (uint64_t)j));
        sum = N(acc_end)(cx, &acc);
    }
    NUM mu = N(mean)(cx, sum, (long)n); /* any algorithm: sum/n, sum(x/n), Welford */
    int64_t terms = pad_var ? B : m;
    if (terms == 1) {
        NUM d = N(sub)(cx, N(in)(cx, c, reg, base), mu);
        sumsq = N(mul)(cx, d, d);
    } else {
        NACC av;
        N(acc_init)(cx, &av, TD_ORDER_TREE, 0);
        for (int64_t j = 0; j < m; j++) {
            NUM d = N(sub)(cx, N(in)(cx, c, reg, base + (uint64_t)j), mu);
            N(acc_add)(cx, &av, N(mul)(cx, d, d));
        }
        if (terms > m) {
            NUM d = N(neg)(cx, mu); /* 0 - mean: exact */
            NUM sq = N(mul)(cx, d, d);
            for (int64_t j = m; j < terms; j++) N(acc_add)(cx, &av, sq);
        }
        sumsq = N(acc_end)(cx, &av);
    }
    NUM arg = N(add)(cx, N(div)(cx, sumsq, nn), eps);
    NUM r = N(ln_rsqrt_floor)(cx, arg, eps_floor, !rsqrt_fn);
    N(memo_put)(cx, LN_KEY(1, row), mu);
    N(memo_put)(cx, LN_KEY(2, row), r);
    *mean = mu;
    *rstd = r;
}

/* ((x - mean) * rstd) * w + b, the affine output as the kernels evaluate it (the
 * normalize slices: tmp13 = x - mean, tmp14 = tmp13 * rstd, tmp17 = tmp14 * w, + b). */
static inline NUM SPEC(ln_affine)(NCX *cx, NUM x, NUM mean, NUM rstd, NUM w, NUM b) {
    return N(add)(cx, N(mul)(cx, N(mul)(cx, N(sub)(cx, x, mean), rstd), w), b);
}


/* ---- the intent: layer norm as PyTorch documents torch.nn.functional.layer_norm over
 * the last dimension (and Ba, Kiros & Hinton 2016): for the n values x_j of a row,
 *   mean = (1/n) sum x_j,  var = (1/n) sum (x_j - mean)^2 (biased),
 *   y_j = (x_j - mean) / sqrt(var + eps) * w_j + b_j.
 * The shadow's bound is that of any admissible evaluation: sums in any order, the mean by
 * any algorithm, rsqrt or 1/sqrt.  Memo tags 9 and 10: never a contract's. */
static inline void SPEC(ln_intent_stats)(NCX *cx, const td_case *c, int reg, uint64_t base, int64_t n, NUM eps,
                                         double eps_floor, uint64_t row, NUM *mean, NUM *rstd) {
    if (N(memo_get)(cx, LN_KEY(9, row), mean) && N(memo_get)(cx, LN_KEY(10, row), rstd)) return;
    NACC acc, av;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t j = 0; j < n; j++) N(acc_add)(cx, &acc, N(in)(cx, c, reg, base + (uint64_t)j));
    NUM mu = N(mean)(cx, N(acc_end)(cx, &acc), (long)n);
    N(acc_init)(cx, &av, TD_ORDER_ANY, 0);
    for (int64_t j = 0; j < n; j++) {
        NUM d = N(sub)(cx, N(in)(cx, c, reg, base + (uint64_t)j), mu);
        N(acc_add)(cx, &av, N(mul)(cx, d, d));
    }
    NUM arg = N(add)(cx, N(div)(cx, N(acc_end)(cx, &av), N(exact)(cx, (double)n)), eps);
    NUM r = N(either)(cx, N(ln_rsqrt_floor)(cx, arg, eps_floor, 0), N(ln_rsqrt_floor)(cx, arg, eps_floor, 1));
    N(memo_put)(cx, LN_KEY(9, row), mu);
    N(memo_put)(cx, LN_KEY(10, row), r);
    *mean = mu;
    *rstd = r;
}

/* The intent at an Inductor summary kernel's lane (fused_layernorm_triton,
 * layer_norm_welfold): outputs mean (o = 0), rstd (1) and y (2) of row pid over its
 * rnumel columns, eps = 1e-5 (torch.nn.LayerNorm's default, which the kernels hard-code). */
static inline NUM SPEC(ln_inductor_intent)(NCX *cx, const td_case *c, const td_olane *l, int rx, int rw, int rb,
                                          int64_t rn) {
    uint64_t row = l->pid[0];
    NUM mean, rstd;
    SPEC(ln_intent_stats)(cx, c, rx, row * (uint64_t)rn, rn, N(lit_dec)(cx, "1e-05"), (double)1e-05f, row, &mean, &rstd);
    if (l->o == 0) return mean;
    if (l->o == 1) return rstd;
    return SPEC(ln_affine)(cx, N(in)(cx, c, rx, l->off), mean, rstd, N(in)(cx, c, rw, l->j), N(in)(cx, c, rb, l->j));
}
