/* The spec of contracts/fused_rwkv6_kernel.c (vocabulary: contracts/spec.h; the
 * recurrence steps: oracle/lrec.h).  The states h_t[k, v] of a head are memoised per case
 * by (head, step, k, v), so T steps cost O(T) per state, not per lane; while a lane is
 * explained the memo is off and every step of its chain is traced. */
#include "lrec.h"

#ifndef RWKV6_SPEC_ONCE
#define RWKV6_SPEC_ONCE
/* the longest chunk an implementation may run in log space (fla's chunk_rwkv6: BT = 64) */
#define RWKV6_CHUNK 64
static uint64_t rwkv6_key(const td_case *c, int64_t bh, int64_t t, int64_t k, int64_t v) {
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i;
    return (1ull << 56) | (uint64_t)(((bh * (T + 1) + t) * K + k) * V + v);
}
/* W_t: sum of |w_j[k]| over the RWKV6_CHUNK steps ending at step t (>= |G| of every
 * cumulative log decay of a chunk holding step t) */
static double rwkv6_window(const td_case *c, int64_t bh, int64_t k, int64_t t) {
    double W = 0;
    for (int64_t j = t - RWKV6_CHUNK + 1 < 0 ? 0 : t - RWKV6_CHUNK + 1; j <= t; j++)
        W += fabs(td_spec_load(c, R_W, (size_t)(bh * c->p[P_SKH].i + k + j * c->p[P_K].i)));
    return W;
}
/* The widening of one step for the decays taken as exp of a chunk's cumulative log decay
 * and the chunk's matrix form (the derivation is in fused_rwkv6_kernel.c's header):
 * L M_t + (C + 1) exp_abs max M, L = gamma_{C+3} + (e^delta - 1) + rel_exp(W), delta =
 * (2 gamma_C + u) W the error of a decay's argument (the product by log2 e of exp2's form
 * is the math model's: its budget grows with |x|, taken at W). */
static inline td_sh td_sh_rwkv6_chunk(td_shcx *cx, td_sh h, double W, double mag[2]) {
    const td_fn_budget *b = &cx->math->fn[TD_FN_EXP];
    double u = cx->u, C = RWKV6_CHUNK;
    double rel = b->correctly_rounded ? u : td_up((b->ulps + b->ulps_per_absx * W) * 2 * u + b->rel);
    double eabs = b->correctly_rounded ? cx->eta : td_up((b->ulps + b->ulps_per_absx * W) * cx->ulp_min + b->abs);
    if (b->ftz) eabs = fmax(eabs, 0x1p-126);
    double L = td_up(td_gamma(RWKV6_CHUNK + 3, u) + expm1((2 * td_gamma(RWKV6_CHUNK, u) + u) * W) + rel);
    double e = td_up(L * mag[0] + (C + 1) * eabs * mag[1]);
    mag[0] = td_up(mag[0] + e);
    mag[1] = fmax(mag[1], mag[0]);
    return td_sh_widen(cx, h, e, "chunked form: exp of cumulative log decays, chunk sums in any order (C <= 64)");
}
static inline td_mp td_mp_rwkv6_chunk(td_mpcx *cx, td_mp h, double W, double mag[2]) {
    (void)mag, (void)W;
    return td_mp_widen(cx, h, 0, "");
}
#endif

/* h_m[k, v] (the state after m steps): h_{t+1} = h_t exp(w_t[k]) + k_t[k] v_t[v] */
static NUM SPEC(rwkv6_h)(NCX *cx, const td_case *c, int64_t bh, int64_t k, int64_t v, int64_t m) {
    int64_t K = c->p[P_K].i, V = c->p[P_V].i, skh = c->p[P_SKH].i, svh = c->p[P_SVH].i, s = m;
    NUM h;
    double mag[2] = {0, 0};
    while (s > 0 && !N(lrec_memo_get)(cx, rwkv6_key(c, bh, s, k, v), &h, mag)) s--;
    if (s == 0) {
        h = c->p[P_USE_INIT].i ? N(in)(cx, c, R_H0, (size_t)(bh * K * V + k * V + v)) : N(exact)(cx, 0.0);
        N(lrec_init)(cx, h, mag);
    }
    for (int64_t t = s; t < m; t++) {
        NUM a = N(exp)(cx, N(in)(cx, c, R_W, (size_t)(bh * skh + k + t * K)));
        NUM kv = N(mul)(cx, N(in)(cx, c, R_K, (size_t)(bh * skh + k + t * K)),
                        N(in)(cx, c, R_V, (size_t)(bh * svh + v + t * V)));
        h = N(lrec_step)(cx, h, a, kv, mag);
        h = N(rwkv6_chunk)(cx, h, rwkv6_window(c, bh, k, t), mag);
        N(lrec_memo_put)(cx, rwkv6_key(c, bh, t + 1, k, v), h, mag);
    }
    return h;
}

/* the bonus k_t[k] v_t[v] u[k]: (k v) u, or (k u) v */
static NUM SPEC(rwkv6_bonus)(NCX *cx, NUM kk, NUM vv, NUM uu) {
    return N(either)(cx, N(mul)(cx, N(mul)(cx, kk, vv), uu), N(mul)(cx, N(mul)(cx, kk, uu), vv));
}

/* o_t[v] = sum over k in [k0, k1) of (h_t[k, v] + bonus) (scale q_t[k]) in any order;
 * scale on q (the kernel) or on the sum */
static NUM SPEC(rwkv6_o)(NCX *cx, const td_case *c, int64_t bh, int64_t v, int64_t t, int64_t k0, int64_t k1) {
    int64_t K = c->p[P_K].i, skh = c->p[P_SKH].i, svh = c->p[P_SVH].i;
    NUM scale = N(exact)(cx, c->p[P_SCALE].r), vv = N(in)(cx, c, R_V, (size_t)(bh * svh + v + t * c->p[P_V].i));
    NACC a1, a2;
    N(acc_init)(cx, &a1, TD_ORDER_TREE, 0);
    N(acc_init)(cx, &a2, TD_ORDER_TREE, 0);
    for (int64_t k = k0; k < k1; k++) {
        NUM q = N(in)(cx, c, R_Q, (size_t)(bh * skh + k + t * K)), kk = N(in)(cx, c, R_K, (size_t)(bh * skh + k + t * K));
        NUM uu = N(in)(cx, c, R_U, (size_t)((bh % c->p[P_H].i) * K + k));
        NUM x = N(add)(cx, SPEC(rwkv6_h)(cx, c, bh, k, v, t), SPEC(rwkv6_bonus)(cx, kk, vv, uu));
        N(acc_add)(cx, &a1, N(mul)(cx, x, N(mul)(cx, q, scale)));
        N(acc_add)(cx, &a2, N(mul)(cx, x, q));
    }
    return N(either)(cx, N(acc_end)(cx, &a1), N(mul)(cx, N(acc_end)(cx, &a2), scale));
}

static NUM SPEC(rwkv6_summary)(NCX *cx, const td_case *c, const td_olane *l) {
    if (l->o != O_O) return SPEC(rwkv6_h)(cx, c, (int64_t)l->idx[0], (int64_t)l->idx[1], (int64_t)l->idx[2], l->t);
    int64_t BK = c->p[P_BK].i, k0 = (int64_t)l->pid[1] * BK, k1 = k0 + BK < c->p[P_K].i ? k0 + BK : c->p[P_K].i;
    return SPEC(rwkv6_o)(cx, c, (int64_t)l->pid[2], (int64_t)l->idx[2], l->t, k0, k1); /* masked k: 0 terms */
}

/* the state-step IO: BHPrev * exp(w) + k * v */
static NUM SPEC(rwkv6_step)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t K = c->p[PS_K].i, t = c->p[PS_T].i, bh = (int64_t)l->idx[0], k = (int64_t)l->idx[1], v = (int64_t)l->idx[2];
    size_t kw = (size_t)(bh * c->p[PS_SKH].i + k + t * K), vo = (size_t)(bh * c->p[PS_SVH].i + v + t * c->p[PS_V].i);
    NUM a = N(exp)(cx, N(in)(cx, c, RS_W, kw));
    return N(add)(cx, N(mul)(cx, N(in)(cx, c, RS_BHPREV, l->off), a),
                  N(mul)(cx, N(in)(cx, c, RS_K, kw), N(in)(cx, c, RS_V, vo)));
}

/* ---- the intent: RWKV-6's WKV (Peng et al. 2024, Finch), written from the paper's form
 * independently of the contract's state function: the state S_t = sum_{i<t} diag(prod_{j=i+1}^{t-1}
 * w_j) k_i^T v_i (+ the decayed h0), here by its recurrence S_{i+1} = diag(e^{w_i}) S_i + k_i^T v_i
 * (memo tag 2); o_t = r_t (S_t + diag(u) k_t^T v_t) scale over ALL K key channels (the
 * host's o.sum(0) of the partials); the state lanes are the states themselves. */
static NUM SPEC(rwkv6_intent_S)(NCX *cx, const td_case *c, int64_t bh, int64_t k, int64_t v, int64_t m) {
    int64_t K = c->p[P_K].i, V = c->p[P_V].i, s = m;
    uint64_t key = rwkv6_key(c, bh, 0, k, v) ^ (3ull << 56); /* tag 2 */
    int64_t stride = (c->p[P_K].i) * (c->p[P_V].i);
    NUM S;
    while (s > 0 && !N(memo_get)(cx, key + (uint64_t)(s * stride), &S)) s--;
    if (s == 0) S = c->p[P_USE_INIT].i ? N(in)(cx, c, R_H0, (size_t)(bh * K * V + k * V + v)) : N(exact)(cx, 0.0);
    for (int64_t i = s; i < m; i++) {
        NUM decay = N(exp)(cx, N(in)(cx, c, R_W, (size_t)(bh * c->p[P_SKH].i + i * K + k)));
        NUM kv = N(mul)(cx, N(in)(cx, c, R_K, (size_t)(bh * c->p[P_SKH].i + i * K + k)),
                        N(in)(cx, c, R_V, (size_t)(bh * c->p[P_SVH].i + i * V + v)));
        S = N(add)(cx, N(mul)(cx, decay, S), kv);
        N(memo_put)(cx, key + (uint64_t)((i + 1) * stride), S);
    }
    return S;
}
static NUM SPEC(rwkv6_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    if (l->o != O_O) return SPEC(rwkv6_intent_S)(cx, c, (int64_t)l->idx[0], (int64_t)l->idx[1], (int64_t)l->idx[2], l->t);
    int64_t bh = (int64_t)l->pid[2], v = (int64_t)l->idx[2], t = l->t, K = c->p[P_K].i, V = c->p[P_V].i;
    size_t kq = (size_t)(bh * c->p[P_SKH].i + t * K);
    NUM vt = N(in)(cx, c, R_V, (size_t)(bh * c->p[P_SVH].i + t * V + v));
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t k = 0; k < K; k++) {
        NUM bonus = N(mul)(cx, N(in)(cx, c, R_U, (size_t)((bh % c->p[P_H].i) * K + k)),
                           N(mul)(cx, N(in)(cx, c, R_K, kq + (size_t)k), vt));
        NUM wkv = N(add)(cx, SPEC(rwkv6_intent_S)(cx, c, bh, k, v, t), bonus);
        N(acc_add)(cx, &acc, N(mul)(cx, N(in)(cx, c, R_Q, kq + (size_t)k), wkv));
    }
    return N(mul)(cx, N(exact)(cx, c->p[P_SCALE].r), N(acc_end)(cx, &acc));
}
