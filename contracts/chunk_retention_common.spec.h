/* The spec half shared by chunk_retention and chunk_retention_ops (vocabulary:
 * contracts/spec.h; recurrences: oracle/lrec.h): the retention decay powers and the
 * forward chunk state of chunk_retention_fwd_kernel_h.  No include guard on purpose
 * (compiled once per number type); the key helper is guarded.
 *
 * Decay powers.  The kernel's gamma^n is exp2(n * b_b), b_b = log2(1 - exp2(-5 - i_h))
 * (crhBeta / crhDb / crhDi: real gamma^n exactly, gamma = 1 - 2^(-5-i_h)); an admissible
 * kernel may also form gamma^n by repeated multiplication of the binary32 g = 1 -
 * exp2(-5 - i_h) (n - 1 roundings; square-and-multiply rounds fewer times on every path).
 * crt_decay gives both forms to N(either): exp2's and log2's budgets from the math model,
 * one rounding of n * b_b (exact for n = 1), of 1 - exp2(..) (a rounding even where the
 * binary32 subtraction is exact: h <= 19) and of each product.  At i_h >= 20 the binary32
 * g is 1 (1 - 2^-25 rounds to 1, log2 gives 0): the error |g - gamma| is the
 * subtraction's, propagated. */
#include "lrec.h"

#ifndef CRT_SPEC_KEYS
#define CRT_SPEC_KEYS
enum { CRT_TAG_H = 1, CRT_TAG_DH = 2, CRT_TAG_IH = 3, CRT_TAG_IDH = 4 };
static uint64_t crt_key(int tag, int64_t bh, int64_t j, int64_t k, int64_t v, int64_t T, int64_t K, int64_t V) {
    return ((uint64_t)tag << 56) | (uint64_t)(((bh * (T + 1) + j) * K + k) * V + v);
}
#endif

static NUM SPEC(crt_decay)(NCX *cx, int64_t ih, int64_t n) {
    if (n == 0) return N(exact)(cx, 1.0);
    NUM g = N(sub)(cx, N(exact)(cx, 1.0), N(exp2)(cx, N(exact)(cx, (double)(-5 - ih))));
    NUM bb = N(log2)(cx, g);
    NUM viaexp = N(exp2)(cx, n == 1 ? bb : N(mul)(cx, N(exact)(cx, (double)n), bb));
    NUM pw = g;
    for (int64_t i = 1; i < n; i++) pw = N(mul)(cx, pw, g);
    return N(either)(cx, viaexp, pw);
}

/* A term of three or more factors (two inputs, the decay power <= 1, a scale) that an
 * admissible kernel may associate in any order (the port: k (v d_i), q (do d_i); an
 * alternative: (k v) d_i).  Each intermediate product that underflows costs an absolute
 * eta = 2^-150 (half binary32's smallest subnormal), which the later factors multiply:
 * by at most prod max(1, |f|) over the term's inputs (decays <= 1).  The spec's own
 * products charge one eta each at their own scale; the other associations' at most
 * two intermediates cost 2 eta prod max(1, |f|) more (x's bound widened by it). */
static NUM SPEC(crt_uf)(NCX *cx, NUM x, NUM f1, NUM f2, double f3) {
    double m1 = N(hi)(cx, f1), m2 = N(hi)(cx, f2);
    double m = (m1 > 1 ? m1 : 1) * (m2 > 1 ? m2 : 1) * (f3 > 1 ? f3 : 1);
    return N(widen)(cx, x, 2 * 0x1p-150 * m, "underflow of an intermediate product, any association: 2 eta prod max(1, |f|)");
}

/* The forward state the kernel stores as h[t] (crhState / croState): the recurrence
 * h_{s+1} = gamma h_s + k[s, k] v[s, v] over the steps s of the chunks before t (chunk
 * t' spans steps t'BT .. t'BT + len(t') - 1, len = T % BT on a ragged last chunk, BT
 * otherwise; a step s >= T (the surplus chunk) adds 0), so h[t] is the state after
 * n(t) = t*BT steps (t < NT) and ht after (NT-1)*BT + len(NT-1).  Chunk t's
 * gamma^len H_t + sum_c k_c (v_c gamma^(len-c-1)) is exactly len steps of it.
 * Error model: td_sh_lrec_step per step (3u M_t: the sequential scan, FMA, the chunked
 * scan carrying the state), the per-step decay crt_decay(1) whose error propagates over
 * the n steps a power spans (covers exp2(n b_b): n ek_gamma >= exp2's budget + n |b_b|
 * ln2 (log2's budget), and the rounding of n * b_b, n |b_b| ln2 u <= 2^-5 u per step,
 * lies in lrec's spare rounding per later step), and td_sh_lrec_any(n): the chunk's
 * tl.dot in any order with any chunk size up to n.  Memoised per (head, step, k, v). */
static NUM SPEC(crt_state)(NCX *cx, const td_case *c, int64_t bh, int64_t k, int64_t v, int64_t t, int intent) {
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, BT = c->p[P_BT].i, NT = c->p[P_NT].i;
    int64_t n = t < NT ? t * BT : (NT - 1) * BT + (T % BT ? T % BT : BT), s = n;
    NUM h;
    double mag[2] = {0, 0};
    int tag = intent ? CRT_TAG_IH : CRT_TAG_H;
    while (s > 0 && !N(lrec_memo_get)(cx, crt_key(tag, bh, s, k, v, NT * BT, K, V), &h, mag)) s--;
    if (s == 0) {
        h = c->p[P_USE_INIT].i ? N(in)(cx, c, R_H0, (size_t)(bh * K * V + k * V + v)) : N(exact)(cx, 0.0);
        N(lrec_init)(cx, h, mag);
    }
    /* the intent: RetNet's gamma = 1 - 2^(-5-h), exact in binary64 (h < 48) */
    NUM a = intent ? N(exact)(cx, 1.0 - ldexp(1.0, (int)(-5 - bh % c->p[P_H].i))) : SPEC(crt_decay)(cx, bh % c->p[P_H].i, 1);
    for (int64_t j = s; j < n; j++) {
        NUM x = N(exact)(cx, 0.0);
        if (j < T) {
            NUM kk = N(in)(cx, c, R_K, (size_t)(bh * c->p[P_SQK_H].i + j * c->p[P_SQK_T].i + k * c->p[P_SQK_D].i));
            NUM vv = N(in)(cx, c, R_V, (size_t)(bh * c->p[P_SVO_H].i + j * c->p[P_SVO_T].i + v * c->p[P_SVO_D].i));
            x = SPEC(crt_uf)(cx, N(mul)(cx, kk, vv), kk, vv, 1.0);
        }
        h = N(lrec_step)(cx, h, a, x, mag);
        N(lrec_memo_put)(cx, crt_key(tag, bh, j + 1, k, v, NT * BT, K, V), h, mag);
    }
    return N(lrec_any)(cx, h, mag, n);
}

static NUM SPEC(crt_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(crt_state)(cx, c, l->idx[0], l->idx[1], l->idx[2], l->t, 0);
}
/* the intent: RetNet's chunkwise recurrent representation (Sun et al. 2023, sec. 2.3):
 * R_i = K_[i]^T (V_[i] * zeta) + gamma^B R_{i-1}, the state entering chunk i, with the
 * exact gamma = 1 - 2^(-5-h); the same steps with the exact decay */
static NUM SPEC(crt_fwd_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(crt_state)(cx, c, l->idx[0], l->idx[1], l->idx[2], l->t, 1);
}
