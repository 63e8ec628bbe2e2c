/* fused_rwkv6_kernel: fused_recurrent_rwkv6_fwd_kernel (REVERSE = false) on every
 * program (i_v, i_k, i_bh) of the grid (cdiv(V, BV), cdiv(K, BK), B*H), in binary32:
 * b_h [BV, BK] = 0 + h0 (mask_kv); per step b_q = q * scale, b_w = exp(w),
 * b_kv = k v^T, b_o = sum_k (b_h + b_kv * u) * b_q (tl.sum's pairwise tree over BK),
 * b_h = b_h * b_w + b_kv, then the store of o (mask_bv).  The summary's carry regions:
 * BHPrev the state before step m (scratch), BHOut after step m, C after all T steps
 * (the in-place fold); ht when STORE_FINAL_STATE.
 * State-step IO: BHOut = BHPrev * exp(w) + k v on the active lanes. */
#include "fused_rwkv6_kernel_tl.h"

static float rw6_f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(td_profile_default(TD_F16), x)); }

typedef struct rw6_prog {
    const td_abi_launch *L;
    const rw6_bug *bug;
    int64_t K, V, BK, BV, T, skh, svh, BH, m, i_v, i_k, bh;
    float scale;
    float *h, *kk, *q, *w, *u, *row; /* h[r * BK + c] ([BV, BK]); k, q, w, u rows [BK]; a row of products */
} rw6_prog;

static int kact(const rw6_prog *P, int64_t c) { return P->i_k * P->BK + c < P->K; }
static int vact(const rw6_prog *P, int64_t r) { return P->i_v * P->BV + r < P->V; }
static int64_t soff(const rw6_prog *P, int64_t r, int64_t c) {
    return P->bh * P->K * P->V + (P->i_k * P->BK + c) * P->V + P->i_v * P->BV + r;
}
static void store_state(const rw6_prog *P, int reg) {
    for (int64_t r = 0; r < P->BV; r++)
        for (int64_t c = 0; c < P->BK; c++)
            if (kact(P, c) && vact(P, r)) tl_store(P->L, reg, soff(P, r, c), P->h[r * P->BK + c], tl_f32());
}

/* b_o = sum over BK of (b_h + b_kv * b_u) * b_q for every value lane, then stored */
static void output(rw6_prog *P, int64_t t) {
    for (int64_t r = 0; r < P->BV; r++) {
        float vr = vact(P, r) ? tl_load(P->L, RW6_R_V, P->bh * P->svh + P->i_v * P->BV + r + t * P->V) : 0.0f;
        for (int64_t c = 0; c < P->BK; c++) P->row[c] = (P->h[r * P->BK + c] + P->kk[c] * vr * P->u[c]) * P->q[c];
        if (vact(P, r))
            tl_store(P->L, RW6_R_O, (P->bh + P->i_k * P->BH) * P->svh + P->i_v * P->BV + r + t * P->V,
                     tl_sum(P->row, P->BK), tl_f32());
    }
}
/* b_h = b_h * exp(w) + b_kv */
static void update(rw6_prog *P, int64_t t) {
    for (int64_t r = 0; r < P->BV; r++) {
        float vr = vact(P, r) ? tl_load(P->L, RW6_R_V, P->bh * P->svh + P->i_v * P->BV + r + t * P->V) : 0.0f;
        for (int64_t c = 0; c < P->BK; c++) {
            float *h = &P->h[r * P->BK + c], d = P->bug->decay_linear ? P->w[c] : expf(P->w[c]);
            *h = *h * d + P->kk[c] * vr;
            if (P->bug->fp16_state) *h = rw6_f16(*h);
        }
    }
}

static void program(rw6_prog *P) {
    const td_abi_launch *L = P->L;
    int64_t kb = P->bh * P->skh + P->i_k * P->BK, H = TL_I(L, RW6_P_H);
    for (int64_t i = 0; i < P->BK * P->BV; i++) {
        int64_t r = i / P->BK, c = i % P->BK;
        P->h[i] = 0.0f;
        if (TL_I(L, RW6_P_USE_INIT) && kact(P, c) && vact(P, r)) P->h[i] += tl_load(L, RW6_R_H0, soff(P, r, c));
    }
    for (int64_t c = 0; c < P->BK; c++) P->u[c] = kact(P, c) ? tl_load(L, RW6_R_U, (P->bh % H) * P->K + P->i_k * P->BK + c) : 0.0f;
    for (int64_t t = 0; t < P->T; t++) {
        for (int64_t c = 0; c < P->BK; c++) {
            int a = kact(P, c);
            P->kk[c] = a ? tl_load(L, RW6_R_K, kb + c + t * P->K) : 0.0f;
            P->q[c] = (a ? tl_load(L, RW6_R_Q, kb + c + t * P->K) : 0.0f) * P->scale;
            P->w[c] = a ? tl_load(L, RW6_R_W, kb + c + t * P->K) : 0.0f;
        }
        if (t == P->m) store_state(P, RW6_R_BHPREV);
        if (!P->bug->post_update) output(P, t);
        update(P, t);
        if (P->bug->post_update) output(P, t);
        if (t == P->m) store_state(P, RW6_R_BHOUT);
    }
    store_state(P, RW6_R_C);
    if (TL_I(L, RW6_P_STORE_FINAL)) store_state(P, RW6_R_HT);
}

int td_rw6_run(const td_abi_launch *L, const rw6_bug *bug) {
    rw6_prog P = {.L = L, .bug = bug};
    P.K = TL_I(L, RW6_P_K), P.V = TL_I(L, RW6_P_V), P.BK = TL_I(L, RW6_P_BK), P.BV = TL_I(L, RW6_P_BV);
    P.T = TL_I(L, RW6_P_T), P.skh = TL_I(L, RW6_P_SKH), P.svh = TL_I(L, RW6_P_SVH), P.m = TL_I(L, RW6_P_M);
    P.BH = TL_I(L, RW6_P_B) * TL_I(L, RW6_P_H), P.scale = TL_R(L, RW6_P_SCALE);
    TL_ALLOC(L, P.h, P.BK * P.BV);
    TL_ALLOC(L, P.kk, 5 * P.BK);
    P.q = P.kk + P.BK, P.w = P.q + P.BK, P.u = P.w + P.BK, P.row = P.u + P.BK;
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
                P.i_v = p0, P.i_k = p1, P.bh = p2;
                program(&P);
            }
    free(P.h);
    free(P.kk);
    return 0;
}

/* the state-step slice: prev (mask_kv) * exp(w) + k v, stored on mask_kv */
static int rw6_step(const td_abi_launch *L) {
    int64_t t = TL_I(L, 0), skh = TL_I(L, 1), svh = TL_I(L, 2), K = TL_I(L, 3), V = TL_I(L, 4);
    int64_t BK = TL_I(L, 5), BV = TL_I(L, 6);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
                for (int64_t r = 0; r < BV; r++)
                    for (int64_t c = 0; c < BK; c++) {
                        int64_t k = p1 * BK + c, v = p0 * BV + r, off = p2 * K * V + k * V + v;
                        if (k >= K || v >= V) continue;
                        float bw = expf(tl_load(L, 3, p2 * skh + k + t * K));
                        float kv = tl_load(L, 1, p2 * skh + k + t * K) * tl_load(L, 2, p2 * svh + v + t * V);
                        tl_store(L, 4, off, tl_load(L, 0, off) * bw + kv, tl_f32());
                    }
    return 0;
}

static const rw6_bug rw6_none = {0};
static int rw6_kernel(const td_abi_launch *L) { return td_rw6_run(L, &rw6_none); }

TD_KERNEL(td_k_rw6_summary) = {RW6_SUM, "triton", TD_ABI_HOST, NULL, NULL, NULL, 13, 11, rw6_kernel, NULL};
TD_KERNEL(td_k_rw6_step) = {RW6_STEP, "triton", TD_ABI_HOST, NULL, NULL, NULL, 7, 5, rw6_step, NULL};
