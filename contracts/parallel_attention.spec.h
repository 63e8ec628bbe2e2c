/* The spec of contracts/parallel_attention.c (vocabulary: contracts/spec.h).  Every lane is
 * a sum over the kept keys of a product of a squared (or two) score(s), each score an
 * any-order dot product, and one more input.  The spec mirrors the kernel's association
 * (score first, then the square, then the product); pa_term charges another
 * association's roundings (the spec's may be exact where a kernel's is not: 2u |term|,
 * u = 2^-24) and an intermediate's underflow amplified by the later factors (2 eta
 * prod max(1, |f|), eta = 2^-150). */

#ifndef PA_SPEC_HELPERS
#define PA_SPEC_HELPERS
static double pa_m1(double x) { return x > 1 ? x : 1; }
#endif

static NUM SPEC(pa_term)(NCX *cx, NUM x, NUM f1, NUM f2, NUM f3) {
    double m = pa_m1(N(hi)(cx, f1)) * pa_m1(N(hi)(cx, f2)) * pa_m1(N(hi)(cx, f3));
    double e = 2 * 0x1p-150 * m + 2 * 0x1p-24 * (1 + 0x1p-23) * N(hi)(cx, x);
    return N(widen)(cx, x, e, "any association: 2 product roundings (2u |x|) and an intermediate's underflow (2 eta prod max(1, |f|))");
}

/* the forward score (sum_x (q[i, x] scale) k[t, x]) over the K window of program i_k */
static NUM SPEC(pa_score)(NCX *cx, const td_case *c, int64_t bh, int64_t ik, int64_t i, int64_t t) {
    int64_t K = c->p[PF_K].i, BK = c->p[PF_BK].i, sqh = c->p[PF_SQK_H].i, sqt = c->p[PF_SQK_T].i, sqd = c->p[PF_SQK_D].i;
    NUM sc = N(exact)(cx, c->p[PF_SCALE].r);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t x = ik * BK; x < (ik + 1) * BK && x < K; x++)
        N(acc_add)(cx, &acc, N(mul)(cx, N(mul)(cx, N(in)(cx, c, RF_Q, (size_t)(bh * sqh + i * sqt + x * sqd)), sc),
                                    N(in)(cx, c, RF_K, (size_t)(bh * sqh + t * sqt + x * sqd))));
    return N(acc_end)(cx, &acc);
}

/* o[i, p] = sum_{t <= i} score^2 v[t, p] (l->o == 0); z[i] = sum_{t <= i} score^2 (1) */
static NUM SPEC(pa_oz)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t T = c->p[PF_T].i, bh = l->idx[0], ik = l->idx[1], i = l->idx[2], p = l->idx[3];
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t t = 0; t <= i && t < T; t++) {
        NUM s = SPEC(pa_score)(cx, c, bh, ik, i, t), s2 = N(mul)(cx, s, s);
        if (l->o == 1) {
            N(acc_add)(cx, &acc, s2);
            continue;
        }
        NUM vv = N(in)(cx, c, RF_V, (size_t)(bh * c->p[PF_SVO_H].i + t * c->p[PF_SVO_T].i + p * c->p[PF_SVO_D].i));
        N(acc_add)(cx, &acc, SPEC(pa_term)(cx, N(mul)(cx, s2, vv), s, s, vv));
    }
    return N(acc_end)(cx, &acc);
}

/* dv[i, p] = sum_{t >= i} s^2 do[t, p] (l->o == 1); dk[i, e] = sum_{t >= i} 2 ds s q[t, e] (0) */
static NUM SPEC(pa_dkv)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t T = c->p[PB_T].i, bh = c->p[PB_IBH].i, i = l->idx[0], col = l->idx[1];
    int64_t K = c->p[PB_K].i, V = c->p[PB_V].i, BK = c->p[PB_BK].i, BV = c->p[PB_BV].i, ik = c->p[PB_IK].i, iv = c->p[PB_IV].i;
    int64_t qb = bh * c->p[PB_SQK_H].i, vb = bh * c->p[PB_SVO_H].i, sqt = c->p[PB_SQK_T].i, svt = c->p[PB_SVO_T].i;
    NUM sc = N(exact)(cx, c->p[PB_SCALE].r);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t t = i; t < T; t++) {
        NACC sa;
        N(acc_init)(cx, &sa, TD_ORDER_ANY, 0);
        for (int64_t x = ik * BK; x < (ik + 1) * BK && x < K; x++)
            N(acc_add)(cx, &sa, N(mul)(cx, N(in)(cx, c, RB_K, (size_t)(qb + i * sqt + x)), N(in)(cx, c, RB_Q, (size_t)(qb + t * sqt + x))));
        NUM s = N(mul)(cx, N(acc_end)(cx, &sa), sc);
        if (l->o == 1) {
            NUM d = N(in)(cx, c, RB_DO, (size_t)(vb + t * svt + col));
            N(acc_add)(cx, &acc, SPEC(pa_term)(cx, N(mul)(cx, N(mul)(cx, s, s), d), s, s, d));
            continue;
        }
        NACC da;
        N(acc_init)(cx, &da, TD_ORDER_ANY, 0);
        for (int64_t x = iv * BV; x < (iv + 1) * BV && x < V; x++)
            N(acc_add)(cx, &da, N(mul)(cx, N(in)(cx, c, RB_V, (size_t)(vb + i * svt + x)), N(in)(cx, c, RB_DO, (size_t)(vb + t * svt + x))));
        NUM dot = N(acc_end)(cx, &da), ds;
        if (iv == 0) {
            NUM dz = N(in)(cx, c, RB_DZ, (size_t)(bh * T + t));
            ds = N(either)(cx, N(mul)(cx, N(add)(cx, dot, dz), sc), N(add)(cx, N(mul)(cx, dot, sc), N(mul)(cx, dz, sc)));
        } else {
            ds = N(mul)(cx, dot, sc);
        }
        NUM q = N(in)(cx, c, RB_Q, (size_t)(qb + t * sqt + col));
        NUM term = N(mul)(cx, N(mul)(cx, N(mul)(cx, N(exact)(cx, 2.0), ds), s), q);
        N(acc_add)(cx, &acc, SPEC(pa_term)(cx, term, ds, s, q));
    }
    return N(acc_end)(cx, &acc);
}
