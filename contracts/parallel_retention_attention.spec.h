/* The spec of contracts/parallel_retention_attention.c (vocabulary: contracts/spec.h).
 *
 * Every stored lane is a sum, over the kept keys t and the head window's lanes x, of a
 * product of five factors: an input, scale, an input, the decay power gamma^n (n = the
 * distance of the two positions) and an input.  The kernel evaluates it blocked (score
 * dot products, decayed block accumulators, the diagonal block masked); any other
 * implementation regroups the same products.  The spec writes the flattened sum:
 *   - each product: 4 roundings (any association gives 4); the spec's own association may
 *     be exact (integer inputs, a power-of-two scale) where the kernel's is not (it
 *     multiplies rounded partial sums: dot(q, k) * d_h, then * v), so pra_term charges
 *     4u |product| (u = 2^-24, binary32) on top of what the spec's N(mul)s charge;
 *   - the sum of all N products in any order: gamma_{N-1} sum |products| (N(acc_*), Higham
 *     4.2); the kernel's nested sums (over x, then over keys and blocks) are one tree of
 *     them, and a product of a partial sum by a decay (b_o *= 2^(b_b BTS), d_q, d_h) is,
 *     by distributivity, a rounding of each product it holds, counted next;
 *   - gamma^n: pra_w, the chain a^n of the per-step decay a = either(exp2(b_b), g), g =
 *     1 - exp2(-5 - i_h): n - 1 roundings and n times a's error (exp2's / log2's budgets
 *     from the math model).  Covers exp2(n b_b) (one exp2 budget + n |b_b| ln2 log2's
 *     budget + the rounding of n b_b), the kernel's factorization of gamma^n into at most
 *     n powers (d_h, one 2^(BTS b_b) per later block, d_q: each factor's exponent >= 1 or
 *     the factor is exp2(0) = 1 exactly, so at most n factors, n - 1 products, and every
 *     factor's exp2 budget within a's), and repeated products of g;
 *   - underflow: pra_uf, an intermediate product's eta (2^-150) amplified by the later
 *     factors (<= prod max(1, |f|), decays <= 1): 3 intermediates per product; and pra_ufs,
 *     a partial sum rescaled (by a decay or scale) at most once per key block and once at
 *     the end: eta (T + 2) on the lane.
 * The reference (MPFR) is the exact sum with the exact gamma^n = 2^(n b_b). */

#ifndef PRA_SPEC_KEYS
#define PRA_SPEC_KEYS
static uint64_t pra_key(int64_t ih, int64_t n) { return (7ull << 56) | ((uint64_t)ih << 32) | (uint64_t)n; }
static double pra_m1(double x) { return x > 1 ? x : 1; }
#endif

/* the per-step decay gamma as a kernel may hold it: exp2(log2(1 - exp2(-5 - i_h))) or
 * the binary32 g = 1 - exp2(-5 - i_h) itself */
static NUM SPEC(pra_a)(NCX *cx, int64_t ih) {
    NUM g = N(sub)(cx, N(exact)(cx, 1.0), N(exp2)(cx, N(exact)(cx, (double)(-5 - ih))));
    return N(either)(cx, N(exp2)(cx, N(log2)(cx, g)), g);
}
/* gamma^n = a^n, memoised per (head, n) */
static NUM SPEC(pra_w)(NCX *cx, int64_t ih, int64_t n) {
    if (n <= 0) return N(exact)(cx, 1.0);
    NUM w;
    int64_t m = n;
    while (m > 1 && !N(memo_get)(cx, pra_key(ih, m), &w)) m--;
    if (m == 1) w = SPEC(pra_a)(cx, ih);
    NUM a = m < n ? SPEC(pra_a)(cx, ih) : w;
    for (int64_t j = m + 1; j <= n; j++) {
        w = N(mul)(cx, w, a);
        N(memo_put)(cx, pra_key(ih, j), w);
    }
    return w;
}
/* f1 f2 f3 scale gamma^n: 3 intermediates, each eta times <= prod max(1, |f|) */
static NUM SPEC(pra_term)(NCX *cx, NUM f1, NUM f2, NUM f3, NUM sc, NUM w) {
    NUM x = N(mul)(cx, N(mul)(cx, N(mul)(cx, N(mul)(cx, f1, sc), f2), w), f3);
    double m = pra_m1(N(hi)(cx, f1)) * pra_m1(N(hi)(cx, f2)) * pra_m1(N(hi)(cx, f3)) * pra_m1(N(hi)(cx, sc));
    double e = 3 * 0x1p-150 * m + 4 * 0x1p-24 * (1 + 0x1p-23) * N(hi)(cx, x);
    return N(widen)(cx, x, e, "any association: 4 product roundings at partial sums (4u |x|, u = 2^-24) and an "
                              "intermediate's underflow (3 eta prod max(1, |f|))");
}
static NUM SPEC(pra_ufs)(NCX *cx, NUM x, int64_t T) {
    return N(widen)(cx, x, (double)(T + 2) * 0x1p-150, "partial sums rescaled once per key and once at the end: eta (T + 2)");
}

/* o[a, p] = sum_{t <= i, t < T} sum_x (q[i, x] scale) k[t, x] gamma^(i-t) v[t, p], i =
 * i_c BTL + a, x over the program's K window (i_k = i_kv / NV) */
static NUM SPEC(pra_o)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t T = c->p[PF_T].i, K = c->p[PF_K].i, BK = c->p[PF_BK].i, bh = l->pid[2], ik = l->idx[1];
    int64_t i = l->idx[2], p = l->idx[3], ih = bh % c->p[PF_H].i;
    int64_t sqh = c->p[PF_SQK_H].i, sqt = c->p[PF_SQK_T].i, sqd = c->p[PF_SQK_D].i;
    NUM sc = N(exact)(cx, c->p[PF_SCALE].r);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t t = 0; t <= i && t < T; t++) {
        NUM w = SPEC(pra_w)(cx, ih, i - t);
        NUM vv = N(in)(cx, c, RF_V, (size_t)(bh * c->p[PF_SVO_H].i + t * c->p[PF_SVO_T].i + p * c->p[PF_SVO_D].i));
        for (int64_t x = ik * BK; x < (ik + 1) * BK && x < K; x++) {
            NUM q = N(in)(cx, c, RF_Q, (size_t)(bh * sqh + i * sqt + x * sqd));
            NUM kk = N(in)(cx, c, RF_K, (size_t)(bh * sqh + t * sqt + x * sqd));
            N(acc_add)(cx, &acc, SPEC(pra_term)(cx, q, kk, vv, sc, w));
        }
    }
    return SPEC(pra_ufs)(cx, N(acc_end)(cx, &acc), T);
}

/* dk[r, e] = sum_{t >= i, t < T} sum_p v[i, p] do[t, p] scale gamma^(t-i) q[t, e];
 * dv[r, p] = sum_{t >= i, t < T} sum_e k[i, e] q[t, e] scale gamma^(t-i) do[t, p];
 * i = i_c BTL + r, e / p the column, the contraction over the program's V (dk) or K
 * (dv) window */
static NUM SPEC(pra_dkv)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t T = c->p[PB_T].i, ih = c->p[PB_IH].i, bh = c->p[PB_IBH].i, i = l->idx[0], col = l->idx[1];
    int dk = l->o == 0;
    int64_t lo = dk ? c->p[PB_IV].i * c->p[PB_BV].i : c->p[PB_IK].i * c->p[PB_BK].i;
    int64_t hi = lo + (dk ? c->p[PB_BV].i : c->p[PB_BK].i), D = dk ? c->p[PB_V].i : c->p[PB_K].i;
    int64_t qb = bh * c->p[PB_SQK_H].i, vb = bh * c->p[PB_SVO_H].i, sqt = c->p[PB_SQK_T].i, svt = c->p[PB_SVO_T].i;
    NUM sc = N(exact)(cx, c->p[PB_SCALE].r);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t t = i; t < T; t++) {
        NUM w = SPEC(pra_w)(cx, ih, t - i);
        for (int64_t x = lo; x < hi && x < D; x++) {
            NUM term;
            if (dk) /* v[i, x] do[t, x] q[t, col] */
                term = SPEC(pra_term)(cx, N(in)(cx, c, RB_V, (size_t)(vb + i * svt + x)),
                                      N(in)(cx, c, RB_DO, (size_t)(vb + t * svt + x)),
                                      N(in)(cx, c, RB_Q, (size_t)(qb + t * sqt + col)), sc, w);
            else /* k[i, x] q[t, x] do[t, col] */
                term = SPEC(pra_term)(cx, N(in)(cx, c, RB_K, (size_t)(qb + i * sqt + x)),
                                      N(in)(cx, c, RB_Q, (size_t)(qb + t * sqt + x)),
                                      N(in)(cx, c, RB_DO, (size_t)(vb + t * svt + col)), sc, w);
            N(acc_add)(cx, &acc, term);
        }
    }
    return SPEC(pra_ufs)(cx, N(acc_end)(cx, &acc), T);
}
