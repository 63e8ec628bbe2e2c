/* The spec half of contracts/rmsnorm_common.h: helpers written once against the vocabulary of
 * contracts/spec.h.  A contract's spec file includes it, so it is compiled once per number
 * type with that spec (no include guard on purpose). */

/* sum over the columns col < n of a[col] * b[col] (a[col] = region ra at a0 + col*as,
 * b likewise), in the kernel's order (see the header comment): lane j < B folds the
 * products of columns j, j + B, ... sequentially from 0.0; tl.sum's tree over the
 * non-empty lanes j < min(n, B).  squares: b is a (x * x). */
static inline NUM SPEC(rn_sumprod)(NCX *cx, const td_case *c, int ra, uint64_t a0, int64_t as, int rb, uint64_t b0,
                                   int64_t bs, int squares, int64_t n, int64_t B) {
    NACC tree;
    N(acc_init)(cx, &tree, TD_ORDER_TREE, 0);
    int64_t lanes = n < B ? n : B;
    for (int64_t j = 0; j < lanes; j++) {
        NACC lane;
        N(acc_init)(cx, &lane, TD_ORDER_SEQ, 0);
        for (int64_t col = j; col < n; col += B) {
            NUM a = N(in)(cx, c, ra, (uint64_t)((int64_t)a0 + col * as));
            NUM b = squares ? a : N(in)(cx, c, rb, (uint64_t)((int64_t)b0 + col * bs));
            N(acc_add)(cx, &lane, N(mul)(cx, a, b));
        }
        N(acc_add)(cx, &tree, N(acc_end)(cx, &lane));
    }
    return N(acc_end)(cx, &tree);
}

/* The streamed kernels' lane (p0, p1, k): rmsnorm_triton (rsqrt form)
 *     out = (x * rsqrt(S / N + eps)) * w
 * or rmsnorm_implementation (division form)
 *     out = (x / sqrt(S / N + eps)) * w,
 * S the blocked sum of squares of the row; optionally the store cast (slot 0). */
static inline NUM SPEC(rn_stream)(NCX *cx, const td_case *c, const td_olane *l, const rn_stream_layout *y,
                                  int div_form, int cast) {
    int64_t p0 = l->idx[0], p1 = l->idx[1], k = l->idx[2];
    int64_t N = c->p[y->p_n].i, B = c->p[y->p_block].i;
    int64_t sxk = c->p[y->p_sxk].i;
    uint64_t xrow = (uint64_t)(p0 * c->p[y->p_sxb].i + p1 * c->p[y->p_sxm].i);
    uint64_t row = (uint64_t)p0 * c->grid[1] + (uint64_t)p1;
    NUM inv;
    if (!N(memo_get)(cx, rn_key(RN_TAG_RSTD, row), &inv)) {
        NUM S = SPEC(rn_sumprod)(cx, c, y->r_x, xrow, sxk, y->r_x, xrow, sxk, 1, N, B);
        NUM var = N(div)(cx, S, N(exact)(cx, (double)N));
        NUM ve = N(add)(cx, var, N(exact)(cx, c->p[y->p_eps].r));
        inv = div_form ? N(sqrt)(cx, ve) : N(rsqrt)(cx, ve);
        N(memo_put)(cx, rn_key(RN_TAG_RSTD, row), inv);
    }
    NUM x = N(in)(cx, c, y->r_x, (uint64_t)((int64_t)xrow + k * sxk));
    NUM w = N(in)(cx, c, y->r_w, (uint64_t)(k * c->p[y->p_srw].i));
    NUM xn = div_form ? N(div)(cx, x, inv) : N(mul)(cx, x, inv);
    NUM out = N(mul)(cx, xn, w);
    return cast ? N(cast)(cx, out, 0) : out;
}

/* rmsnorm_fused[_llama], lane (row, i): rstd = 1 / sqrt(S / N + eps) with S the tree sum
 * of the N squares of the row, y = (x * rstd) * w; then the cast of slot 0 (the Llama
 * kernel's y.to(tl.float16), or the io twin's store). */
static inline NUM SPEC(rn_fused)(NCX *cx, const td_case *c, const td_olane *l, const rn_fused_layout *y, int cast) {
    int64_t row = l->idx[0], i = l->idx[1];
    int64_t N = c->p[y->p_n].i, B = c->p[y->p_block].i;
    uint64_t base = (uint64_t)(row * c->p[y->p_stride].i);
    NUM rstd;
    if (!N(memo_get)(cx, rn_key(RN_TAG_RSTD, (uint64_t)row), &rstd)) {
        NUM S = SPEC(rn_sumprod)(cx, c, y->r_x, base, 1, y->r_x, base, 1, 1, N, B);
        NUM var = N(div)(cx, S, N(exact)(cx, (double)N));
        rstd = N(div)(cx, N(exact)(cx, 1.0), N(sqrt)(cx, N(add)(cx, var, N(exact)(cx, c->p[y->p_eps].r))));
        N(memo_put)(cx, rn_key(RN_TAG_RSTD, (uint64_t)row), rstd);
    }
    NUM x = N(in)(cx, c, y->r_x, base + (uint64_t)i), w = N(in)(cx, c, y->r_w, (uint64_t)i);
    NUM out = N(mul)(cx, N(mul)(cx, x, rstd), w);
    return cast ? N(cast)(cx, out, 0) : out;
}

/* The L2 forward, lane (row, j): y = x * (1 / sqrt(S + eps)), S the tree sum of the
 * min(N, B) squares of the row (no division: an L2 norm, not a mean). */
static inline NUM SPEC(rn_l2_rstd)(NCX *cx, const td_case *c, int64_t row, const rn_l2_layout *y) {
    NUM rstd;
    if (N(memo_get)(cx, rn_key(RN_TAG_RSTD, (uint64_t)row), &rstd)) return rstd;
    int64_t N = c->p[y->p_n].i, B = c->p[y->p_block].i, L = N < B ? N : B;
    uint64_t base = (uint64_t)(row * c->p[y->p_stride].i);
    NUM S = SPEC(rn_sumprod)(cx, c, y->r_x, base, 1, y->r_x, base, 1, 1, L, B);
    NUM ve = N(add)(cx, S, N(exact)(cx, c->p[y->p_eps].r));
    rstd = N(div)(cx, N(exact)(cx, 1.0), N(sqrt)(cx, ve));
    N(memo_put)(cx, rn_key(RN_TAG_RSTD, (uint64_t)row), rstd);
    /* var + eps, for the backward's 1 / (var + eps) (the same binary32 value) */
    N(memo_put)(cx, rn_key(RN_TAG_SUM, (uint64_t)row), ve);
    return rstd;
}

static inline NUM SPEC(rn_l2_fwd)(NCX *cx, const td_case *c, const td_olane *l, const rn_l2_layout *y) {
    int64_t row = l->idx[0], j = l->idx[1];
    NUM rstd = SPEC(rn_l2_rstd)(cx, c, row, y);
    return N(mul)(cx, N(in)(cx, c, y->r_x, (uint64_t)(row * c->p[y->p_stride].i + j)), rstd);
}

/* The L2 backward, lane (row, j), in the kernel's order and grouping:
 *     dx = dy * rstd - ((D * (1 / (var + eps))) * rstd) * x,   D = tl.sum(dy * x)
 * (D the tree sum of the min(N, B) products RN(dy*x): it may cancel, and its bound keeps
 * gamma * sum |dy*x|). */
static inline NUM SPEC(rn_l2_bwd)(NCX *cx, const td_case *c, const td_olane *l, const rn_l2_layout *y) {
    int64_t row = l->idx[0], j = l->idx[1];
    uint64_t base = (uint64_t)(row * c->p[y->p_stride].i);
    NUM rstd = SPEC(rn_l2_rstd)(cx, c, row, y);
    NUM cc;
    if (!N(memo_get)(cx, rn_key(RN_TAG_DOT, (uint64_t)row), &cc)) {
        int64_t N = c->p[y->p_n].i, B = c->p[y->p_block].i, L = N < B ? N : B;
        NUM ve;
        if (!N(memo_get)(cx, rn_key(RN_TAG_SUM, (uint64_t)row), &ve)) { /* the MPFR pass: recomputed */
            NUM S = SPEC(rn_sumprod)(cx, c, y->r_x, base, 1, y->r_x, base, 1, 1, L, B);
            ve = N(add)(cx, S, N(exact)(cx, c->p[y->p_eps].r));
        }
        NUM D = SPEC(rn_sumprod)(cx, c, y->r_dy, base, 1, y->r_x, base, 1, 0, L, B);
        NUM q = N(div)(cx, N(exact)(cx, 1.0), ve);
        cc = N(mul)(cx, N(mul)(cx, D, q), rstd);
        N(memo_put)(cx, rn_key(RN_TAG_DOT, (uint64_t)row), cc);
    }
    NUM x = N(in)(cx, c, y->r_x, base + (uint64_t)j), dy = N(in)(cx, c, y->r_dy, base + (uint64_t)j);
    return N(sub)(cx, N(mul)(cx, dy, rstd), N(mul)(cx, cc, x));
}


/* ---- the intent: RMS norm as torch.nn.RMSNorm documents it (Zhang & Sennrich 2019):
 * for the n values x_k of a row, y_k = x_k / sqrt(mean(x^2) + eps) * w_k.  The shadow's
 * bound is that of any admissible evaluation: the squares summed in any order, 1/sqrt or
 * rsqrt, x * r * w in either association.  Memo tag RN_TAG_INTENT: never a contract's. */
#define RN_TAG_INTENT 15u
static inline NUM SPEC(rn_intent)(NCX *cx, const td_case *c, int rx, uint64_t xrow, int64_t sx, int64_t n, NUM x,
                                  NUM w, double eps, uint64_t row) {
    NUM r;
    if (!N(memo_get)(cx, rn_key(RN_TAG_INTENT, row), &r)) {
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
        for (int64_t k = 0; k < n; k++) {
            NUM a = N(in)(cx, c, rx, (uint64_t)((int64_t)xrow + k * sx));
            N(acc_add)(cx, &acc, N(mul)(cx, a, a));
        }
        NUM arg = N(add)(cx, N(div)(cx, N(acc_end)(cx, &acc), N(exact)(cx, (double)n)), N(exact)(cx, eps));
        r = N(either)(cx, N(rsqrt)(cx, arg), N(div)(cx, N(exact)(cx, 1.0), N(sqrt)(cx, arg)));
        N(memo_put)(cx, rn_key(RN_TAG_INTENT, row), r);
    }
    return N(either)(cx, N(mul)(cx, N(mul)(cx, x, r), w), N(mul)(cx, x, N(mul)(cx, r, w)));
}

/* The intent of the L2-norm kernels, from the library they come from
 * (flash-linear-attention, fla/modules/l2norm.py: y = x / sqrt(sum_k x_k^2 + eps) over
 * the row's N entries; eps inside the root, the sum not divided by N, unlike
 * torch.nn.functional.normalize's x / max(||x||, eps)).  r = 1/sqrt(S + eps) by rsqrt or
 * 1/sqrt, S summed in any order.  Memo tags 14 and 13: never a contract's. */
#define RN_TAG_L2_INTENT 14u
#define RN_TAG_L2_DOT_INTENT 13u
static inline NUM SPEC(rn_l2_intent_r)(NCX *cx, const td_case *c, int64_t row, const rn_l2_layout *y) {
    NUM r;
    if (N(memo_get)(cx, rn_key(RN_TAG_L2_INTENT, (uint64_t)row), &r)) return r;
    uint64_t base = (uint64_t)(row * c->p[y->p_stride].i);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t k = 0; k < c->p[y->p_n].i; k++) {
        NUM a = N(in)(cx, c, y->r_x, base + (uint64_t)k);
        N(acc_add)(cx, &acc, N(mul)(cx, a, a));
    }
    NUM arg = N(add)(cx, N(acc_end)(cx, &acc), N(exact)(cx, c->p[y->p_eps].r));
    r = N(either)(cx, N(rsqrt)(cx, arg), N(div)(cx, N(exact)(cx, 1.0), N(sqrt)(cx, arg)));
    N(memo_put)(cx, rn_key(RN_TAG_L2_INTENT, (uint64_t)row), r);
    return r;
}
static inline NUM SPEC(rn_l2_intent_fwd)(NCX *cx, const td_case *c, const td_olane *l, const rn_l2_layout *y) {
    int64_t row = l->idx[0], j = l->idx[1];
    NUM x = N(in)(cx, c, y->r_x, (uint64_t)(row * c->p[y->p_stride].i + j));
    return N(mul)(cx, x, SPEC(rn_l2_intent_r)(cx, c, row, y));
}
/* Its gradient: y_j = x_j r, dr/dx_i = -x_i r^3, so dx_i = dy_i r - x_i r^3 sum_j dy_j x_j
 * (the derivative of the definition above, over all N entries). */
static inline NUM SPEC(rn_l2_intent_bwd)(NCX *cx, const td_case *c, const td_olane *l, const rn_l2_layout *y) {
    int64_t row = l->idx[0], j = l->idx[1];
    uint64_t base = (uint64_t)(row * c->p[y->p_stride].i);
    NUM r = SPEC(rn_l2_intent_r)(cx, c, row, y), D;
    if (!N(memo_get)(cx, rn_key(RN_TAG_L2_DOT_INTENT, (uint64_t)row), &D)) {
        NACC acc;
        N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
        for (int64_t k = 0; k < c->p[y->p_n].i; k++) {
            NUM g = N(in)(cx, c, y->r_dy, base + (uint64_t)k), a = N(in)(cx, c, y->r_x, base + (uint64_t)k);
            N(acc_add)(cx, &acc, N(mul)(cx, g, a));
        }
        D = N(acc_end)(cx, &acc);
        N(memo_put)(cx, rn_key(RN_TAG_L2_DOT_INTENT, (uint64_t)row), D);
    }
    NUM x = N(in)(cx, c, y->r_x, base + (uint64_t)j), dy = N(in)(cx, c, y->r_dy, base + (uint64_t)j);
    NUM r3 = N(mul)(cx, N(mul)(cx, r, r), r);
    return N(sub)(cx, N(mul)(cx, dy, r), N(mul)(cx, x, N(mul)(cx, r3, D)));
}

/* The intent at a streamed kernel's lane (p0, p1, k) and at a fused kernel's (row, i):
 * rn_intent over the row's N entries, then the output's own rounding when the contract
 * stores to a narrower format (slot 0: a textbook kernel rounds once, at the store). */
static inline NUM SPEC(rn_stream_intent)(NCX *cx, const td_case *c, const td_olane *l, const rn_stream_layout *y,
                                         int cast) {
    int64_t p0 = l->idx[0], p1 = l->idx[1], k = l->idx[2], sxk = c->p[y->p_sxk].i;
    uint64_t xrow = (uint64_t)(p0 * c->p[y->p_sxb].i + p1 * c->p[y->p_sxm].i);
    NUM x = N(in)(cx, c, y->r_x, (uint64_t)((int64_t)xrow + k * sxk));
    NUM w = N(in)(cx, c, y->r_w, (uint64_t)(k * c->p[y->p_srw].i));
    NUM out = SPEC(rn_intent)(cx, c, y->r_x, xrow, sxk, c->p[y->p_n].i, x, w, c->p[y->p_eps].r,
                              (uint64_t)p0 * c->grid[1] + (uint64_t)p1);
    return cast ? N(cast)(cx, out, 0) : out;
}
static inline NUM SPEC(rn_fused_intent)(NCX *cx, const td_case *c, const td_olane *l, const rn_fused_layout *y,
                                        int cast) {
    int64_t row = l->idx[0], i = l->idx[1];
    uint64_t base = (uint64_t)(row * c->p[y->p_stride].i);
    NUM x = N(in)(cx, c, y->r_x, base + (uint64_t)i), w = N(in)(cx, c, y->r_w, (uint64_t)i);
    NUM out = SPEC(rn_intent)(cx, c, y->r_x, base, 1, c->p[y->p_n].i, x, w, c->p[y->p_eps].r, (uint64_t)row);
    return cast ? N(cast)(cx, out, 0) : out;
}
