/* The spec of contracts/diag_ssm_triton.c (vocabulary: contracts/spec.h; the scans:
 * oracle/lrec.h).  The forward states y_t and backward states g_t of a lane are
 * memoised per case by (step, lane); explained lanes replay every step. */
#include "lrec.h"

#ifndef DSSM_SPEC_KEYS
#define DSSM_SPEC_KEYS
static uint64_t dssm_key(const td_case *c, int tag, int64_t t, int64_t col) {
    int64_t n = c->p[P_BATCH].i * c->p[P_DIM].i;
    return ((uint64_t)tag << 56) | (uint64_t)((t + 1) * n + col);
}
#endif

/* y_m = lambda y_{m-1} + x_m, y_{-1} = s (m = -1 .. length-1); regions by the caller */
static NUM SPEC(dssm_y)(NCX *cx, const td_case *c, int rs, int rl, int rx, int64_t col, int64_t m) {
    int64_t n = c->p[P_BATCH].i * c->p[P_DIM].i, s = m;
    NUM h;
    double mag[2] = {0, 0};
    while (s >= 0 && !N(lrec_memo_get)(cx, dssm_key(c, 1, s, col), &h, mag)) s--;
    if (s < 0) {
        h = N(in)(cx, c, rs, (size_t)col);
        N(lrec_init)(cx, h, mag);
    }
    NUM lam = N(in)(cx, c, rl, (size_t)(col % c->p[P_DIM].i));
    for (int64_t t = s + 1; t <= m; t++) {
        h = N(lrec_step)(cx, h, lam, N(in)(cx, c, rx, (size_t)(t * n + col)), mag);
        N(lrec_memo_put)(cx, dssm_key(c, 1, t, col), h, mag);
    }
    return h;
}

static NUM SPEC(dssm_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(dssm_y)(cx, c, R_S, R_LAMBDA, R_X, l->idx[0], l->idx[1]);
}

/* g_t = grad_y[t] + lambda g_{t+1}, g_length = 0 */
static NUM SPEC(dssm_g)(NCX *cx, const td_case *c, int64_t col, int64_t t0) {
    int64_t T = c->p[P_LEN].i, n = c->p[P_BATCH].i * c->p[P_DIM].i, s = t0;
    NUM h;
    double mag[2] = {0, 0};
    while (s < T && !N(lrec_memo_get)(cx, dssm_key(c, 2, s, col), &h, mag)) s++;
    if (s == T) {
        h = N(exact)(cx, 0.0);
        N(lrec_init)(cx, h, mag);
    }
    NUM lam = N(in)(cx, c, RB_LAMBDA, (size_t)(col % c->p[P_DIM].i));
    for (int64_t t = s - 1; t >= t0; t--) {
        h = N(lrec_step)(cx, h, lam, N(in)(cx, c, RB_GY, (size_t)(t * n + col)), mag);
        N(lrec_memo_put)(cx, dssm_key(c, 2, t, col), h, mag);
    }
    return h;
}

static NUM SPEC(dssm_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t col = l->idx[0], T = c->p[P_LEN].i, n = c->p[P_BATCH].i * c->p[P_DIM].i;
    if (l->o == 0) return SPEC(dssm_g)(cx, c, col, l->idx[1]);
    if (l->o == 1) return N(mul)(cx, SPEC(dssm_g)(cx, c, col, 0), N(in)(cx, c, RB_LAMBDA, (size_t)(col % c->p[P_DIM].i)));
    NACC acc; /* grad_lambda = sum_t g_t * y[t-1], y[-1] = s */
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t t = T - 1; t >= 0; t--) {
        NUM prev = t > 0 ? N(in)(cx, c, RB_Y, (size_t)((t - 1) * n + col)) : N(in)(cx, c, RB_S, (size_t)col);
        N(acc_add)(cx, &acc, N(mul)(cx, SPEC(dssm_g)(cx, c, col, t), prev));
    }
    return N(acc_end)(cx, &acc);
}

/* ---- the intent: a diagonal linear SSM (S4D / LRU's real diagonal recurrence with
 * identity readout, y_t = h_t), h_t = lambda (.) h_{t-1} + x_t, h_{-1} = s, and the
 * gradient of sum_t <grad_y_t, y_t> by reverse-mode (autograd) through it.  Written
 * from the definition with memo keys of its own (tags 3, 4; the contract's are 1, 2). */
static NUM SPEC(dssm_intent_h)(NCX *cx, const td_case *c, int64_t col, int64_t m) {
    int64_t n = c->p[P_BATCH].i * c->p[P_DIM].i, s = m;
    NUM h;
    double mag[2] = {0, 0};
    while (s >= 0 && !N(lrec_memo_get)(cx, dssm_key(c, 3, s, col), &h, mag)) s--;
    if (s < 0) { /* h_{-1} = s */
        h = N(in)(cx, c, R_S, (size_t)col);
        N(lrec_init)(cx, h, mag);
    }
    for (int64_t t = s + 1; t <= m; t++) {
        NUM lam = N(in)(cx, c, R_LAMBDA, (size_t)(col % c->p[P_DIM].i)); /* lambda broadcast over the batch */
        h = N(lrec_step)(cx, h, lam, N(in)(cx, c, R_X, (size_t)(t * n + col)), mag);
        N(lrec_memo_put)(cx, dssm_key(c, 3, t, col), h, mag);
    }
    return h;
}
static NUM SPEC(dssm_intent_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(dssm_intent_h)(cx, c, l->idx[0], l->idx[1]);
}
/* dL/dh_t = grad_y_t + lambda dL/dh_{t+1} (h_t feeds y_t and h_{t+1}); dL/dh_length = 0 */
static NUM SPEC(dssm_intent_adj)(NCX *cx, const td_case *c, int64_t col, int64_t t0) {
    int64_t T = c->p[P_LEN].i, n = c->p[P_BATCH].i * c->p[P_DIM].i, s = t0;
    NUM a;
    double mag[2] = {0, 0};
    while (s < T && !N(lrec_memo_get)(cx, dssm_key(c, 4, s, col), &a, mag)) s++;
    if (s == T) {
        a = N(exact)(cx, 0.0);
        N(lrec_init)(cx, a, mag);
    }
    for (int64_t t = s - 1; t >= t0; t--) {
        NUM lam = N(in)(cx, c, RB_LAMBDA, (size_t)(col % c->p[P_DIM].i));
        a = N(lrec_step)(cx, a, lam, N(in)(cx, c, RB_GY, (size_t)(t * n + col)), mag);
        N(lrec_memo_put)(cx, dssm_key(c, 4, t, col), a, mag);
    }
    return a;
}
/* grad_x_t = dL/dh_t; grad_s = dL/dh_{-1} = lambda dL/dh_0; the gradient of lambda's
 * element for this (batch, dim) lane: sum_t dL/dh_t h_{t-1}, h the saved forward output y
 * (y_{-1} = s); autograd sums it over the batch (partial when batch_size > 1). */
static NUM SPEC(dssm_intent_bwd)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t col = l->idx[0], T = c->p[P_LEN].i, n = c->p[P_BATCH].i * c->p[P_DIM].i;
    if (l->o == 0) return SPEC(dssm_intent_adj)(cx, c, col, l->idx[1]);
    NUM lam = N(in)(cx, c, RB_LAMBDA, (size_t)(col % c->p[P_DIM].i));
    if (l->o == 1) return N(mul)(cx, lam, SPEC(dssm_intent_adj)(cx, c, col, 0));
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t t = 0; t < T; t++) {
        NUM prev = t == 0 ? N(in)(cx, c, RB_S, (size_t)col) : N(in)(cx, c, RB_Y, (size_t)((t - 1) * n + col));
        N(acc_add)(cx, &acc, N(mul)(cx, SPEC(dssm_intent_adj)(cx, c, col, t), prev));
    }
    return N(acc_end)(cx, &acc);
}
