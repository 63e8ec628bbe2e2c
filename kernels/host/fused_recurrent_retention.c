/* fused_recurrent_retention: fused_recurrent_retention_fwd_kernel then
 * fused_recurrent_retention_bwd_kernel on every program (i_v, i_k, i_bh) of the grid
 * (cdiv(DV, BV), cdiv(DK, BK), B*H), in binary32: b_b = 1 - exp2(-5 - i_h); the forward
 * h[BV, BK] seeded from initial_state, h = b_b h + k v^T per step, o = sum_k h * (q
 * scale); the backward rebuilds h (as [BK, BV]) for dq = sum_v h * do * scale, then
 * runs d_h += (q scale) do^T, dk = sum_v d_h v, dv = sum_k d_h k, d_h *= b_b from T-1
 * down to 0.  The fiction carry regions of the summary are stored where the Lean
 * slices put them: HSeed after the seed, HOut after step m's update, DHOut after step
 * m's decay (active lanes).  Seeds: the seed prologue alone (h = 0 + load, store).
 * Parameters: USE_INITIAL_STATE STORE_FINAL_STATE s_qk_h s_vo_h B H T DK DV BK BV m
 * scale.  Regions: q k v o do_ dq dk dv initial_state final_state HSeed HPrev HOut
 * DHPrev DHOut. */
#include "fused_recurrent_retention_tl.h"

static float frr_f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(td_profile_default(TD_F16), x)); }

typedef struct frr_prog {
    const td_abi_launch *L;
    const frr_bug *bug;
    int64_t DK, DV, BK, BV, T, sqk, svo, BH, m, i_v, i_k, bh;
    float b, scale;
    float *h, *t1, *t2; /* h / d_h [BK * BV] as h[c * BV + r], and two rows */
} frr_prog;

static int kact(const frr_prog *P, int64_t c) { return P->i_k * P->BK + c < P->DK; }
static int vact(const frr_prog *P, int64_t r) { return P->i_v * P->BV + r < P->DV; }
static int64_t soff(const frr_prog *P, int64_t c, int64_t r) {
    return P->bh * P->DK * P->DV + (P->i_k * P->BK + c) * P->DV + P->i_v * P->BV + r;
}
static float ld_k(const frr_prog *P, int reg, int64_t t, int64_t c) { /* q, k rows */
    return kact(P, c) ? tl_load(P->L, reg, P->bh * P->sqk + P->i_k * P->BK + c + t * P->DK) : 0.0f;
}
static float ld_v(const frr_prog *P, int reg, int64_t t, int64_t r) { /* v, do rows */
    return vact(P, r) ? tl_load(P->L, reg, P->bh * P->svo + P->i_v * P->BV + r + t * P->DV) : 0.0f;
}
static void seed(frr_prog *P, int use_init) {
    for (int64_t c = 0; c < P->BK; c++)
        for (int64_t r = 0; r < P->BV; r++) {
            P->h[c * P->BV + r] = 0.0f;
            if (use_init && kact(P, c) && vact(P, r)) P->h[c * P->BV + r] += tl_load(P->L, FRR_R_H0, soff(P, c, r));
        }
}
static void store_state(const frr_prog *P, int reg, float mul) {
    for (int64_t c = 0; c < P->BK; c++)
        for (int64_t r = 0; r < P->BV; r++)
            if (kact(P, c) && vact(P, r)) tl_store(P->L, reg, soff(P, c, r), mul * P->h[c * P->BV + r], tl_f32());
}
/* h = b_b * h + k v^T for step t (the mutants: the decay twice, an fp16 state) */
static void update(frr_prog *P, int64_t t, int fwd) {
    for (int64_t c = 0; c < P->BK; c++) {
        float kc = ld_k(P, FRR_R_K, t, c);
        for (int64_t r = 0; r < P->BV; r++) {
            float *h = &P->h[c * P->BV + r], kv = kc * ld_v(P, FRR_R_V, t, r);
            *h = (fwd && P->bug->decay_twice ? P->b * (P->b * *h) : P->b * *h) + kv;
            if (fwd && P->bug->fp16_state) *h = frr_f16(*h);
        }
    }
}

static void forward(frr_prog *P) {
    const td_abi_launch *L = P->L;
    seed(P, (int)TL_I(L, FRR_P_USE_INIT));
    store_state(P, FRR_R_HSEED, 1.0f);
    for (int64_t t = 0; t < P->T; t++) {
        update(P, t, 1);
        for (int64_t c = 0; c < P->BK; c++) P->t1[c] = ld_k(P, FRR_R_Q, t, c) * P->scale;
        for (int64_t r = 0; r < P->BV; r++) {
            for (int64_t c = 0; c < P->BK; c++) P->t2[c] = P->h[c * P->BV + r] * P->t1[c];
            if (vact(P, r))
                tl_store(L, FRR_R_O, (P->bh + P->i_k * P->BH) * P->svo + P->i_v * P->BV + r + t * P->DV,
                         tl_sum(P->t2, P->BK), tl_f32());
        }
        if (t == P->m) store_state(P, FRR_R_HOUT, 1.0f);
    }
    if (TL_I(L, FRR_P_STORE_FINAL)) store_state(P, FRR_R_HT, 1.0f);
}

/* the reverse loop's step t: d_h += (q scale) do^T; dk, dv; d_h *= b_b */
static void bwd_step(frr_prog *P, int64_t t) {
    const td_abi_launch *L = P->L;
    for (int64_t c = 0; c < P->BK; c++) {
        float qs = ld_k(P, FRR_R_Q, t, c) * P->scale;
        for (int64_t r = 0; r < P->BV; r++) P->h[c * P->BV + r] += qs * ld_v(P, FRR_R_DO, t, r);
    }
    if (P->bug->decay_early)
        for (int64_t i = 0; i < P->BK * P->BV; i++) P->h[i] *= P->b;
    for (int64_t c = 0; c < P->BK; c++) { /* dk[c] = sum_r d_h[c, r] v[r] */
        for (int64_t r = 0; r < P->BV; r++) P->t2[r] = P->h[c * P->BV + r] * ld_v(P, FRR_R_V, t, r);
        if (kact(P, c))
            tl_store(L, FRR_R_DK, (P->bh + P->i_v * P->BH) * P->sqk + P->i_k * P->BK + c + t * P->DK,
                     tl_sum(P->t2, P->BV), tl_f32());
    }
    for (int64_t r = 0; r < P->BV; r++) { /* dv[r] = sum_c d_h[c, r] k[c] */
        for (int64_t c = 0; c < P->BK; c++) P->t2[c] = P->h[c * P->BV + r] * ld_k(P, FRR_R_K, t, c);
        if (vact(P, r))
            tl_store(L, FRR_R_DV, (P->bh + P->i_k * P->BH) * P->svo + P->i_v * P->BV + r + t * P->DV,
                     tl_sum(P->t2, P->BK), tl_f32());
    }
    if (!P->bug->decay_early)
        for (int64_t i = 0; i < P->BK * P->BV; i++) P->h[i] *= P->b;
    if (t == P->m) store_state(P, FRR_R_DHOUT, 1.0f);
}

static void backward(frr_prog *P) {
    const td_abi_launch *L = P->L;
    seed(P, (int)TL_I(L, FRR_P_USE_INIT) && !P->bug->bwd_no_init);
    for (int64_t t = 0; t < P->T; t++) {
        update(P, t, 0);
        for (int64_t c = 0; c < P->BK; c++) {
            for (int64_t r = 0; r < P->BV; r++) P->t2[r] = P->h[c * P->BV + r] * ld_v(P, FRR_R_DO, t, r);
            if (kact(P, c))
                tl_store(L, FRR_R_DQ, (P->bh + P->i_v * P->BH) * P->sqk + P->i_k * P->BK + c + t * P->DK,
                         tl_sum(P->t2, P->BV) * P->scale, tl_f32());
        }
    }
    for (int64_t i = 0; i < P->BK * P->BV; i++) P->h[i] = 0.0f;
    for (int64_t s = 0; s < P->T; s++) bwd_step(P, P->bug->bwd_forward ? s : P->T - 1 - s);
}

/* The int32-offset mutant (bug->off_i32): the head bases i_bh * s_qk_h, i_bh * s_vo_h,
 * (i_bh + i_v*B*H) * s_qk_h and (i_bh + i_k*B*H) * s_vo_h formed in int32 as the original
 * forms them (program ids and strides int32; the rows then advance by 64-bit pointer
 * steps).  A wrapped base fails the launch whole (as on a device), checked first. */
static int frr_fault_i32(const frr_prog *P) {
    const td_abi_launch *L = P->L;
    int64_t nq = P->T * P->DK, nv = P->T * P->DV;
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++) {
        int64_t bh = p2;
        if (tl_fault(L, FRR_R_Q, tl_i32(bh * P->sqk), nq, 1, p2) || tl_fault(L, FRR_R_K, tl_i32(bh * P->sqk), nq, 1, p2) ||
            tl_fault(L, FRR_R_V, tl_i32(bh * P->svo), nv, 1, p2) || tl_fault(L, FRR_R_DO, tl_i32(bh * P->svo), nv, 1, p2))
            return 1;
        for (uint32_t iv = 0; iv < L->grid[0]; iv++)
            if (tl_fault(L, FRR_R_DQ, tl_i32((bh + iv * P->BH) * P->sqk), nq, 1, p2) ||
                tl_fault(L, FRR_R_DK, tl_i32((bh + iv * P->BH) * P->sqk), nq, 1, p2))
                return 1;
        for (uint32_t ik = 0; ik < L->grid[1]; ik++)
            if (tl_fault(L, FRR_R_O, tl_i32((bh + ik * P->BH) * P->svo), nv, 1, p2) ||
                tl_fault(L, FRR_R_DV, tl_i32((bh + ik * P->BH) * P->svo), nv, 1, p2))
                return 1;
    }
    return 0;
}

int td_frr_run(const td_abi_launch *L, const frr_bug *bug) {
    frr_prog P = {.L = L, .bug = bug};
    P.DK = TL_I(L, FRR_P_DK), P.DV = TL_I(L, FRR_P_DV), P.BK = TL_I(L, FRR_P_BK), P.BV = TL_I(L, FRR_P_BV);
    P.T = TL_I(L, FRR_P_T), P.sqk = TL_I(L, FRR_P_SQK), P.svo = TL_I(L, FRR_P_SVO), P.m = TL_I(L, FRR_P_M);
    P.BH = TL_I(L, FRR_P_B) * TL_I(L, FRR_P_H), P.scale = TL_R(L, FRR_P_SCALE);
    if (bug->off_i32 && frr_fault_i32(&P)) return 1;
    TL_ALLOC(L, P.h, P.BK * P.BV);
    TL_ALLOC(L, P.t1, P.BK + P.BV);
    TL_ALLOC(L, P.t2, P.BK + P.BV);
    for (int pass = 0; pass < 2; pass++) /* the forward launch, then the backward launch */
        for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
            for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
                for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
                    P.i_v = p0, P.i_k = p1, P.bh = p2;
                    P.b = 1.0f - exp2f(-5.0f - (float)(p2 % TL_I(L, FRR_P_H)));
                    if (pass == 0) forward(&P);
                    else backward(&P);
                }
    free(P.h);
    free(P.t1);
    free(P.t2);
    return 0;
}

/* the seed prologue alone: h = zeros + load(initial_state, mask_kv), stored to HSeed */
static int frr_seed(const td_abi_launch *L) {
    int64_t DK = TL_I(L, 0), DV = TL_I(L, 1), BK = TL_I(L, 2), BV = TL_I(L, 3);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
                for (int64_t r = 0; r < BV; r++)
                    for (int64_t c = 0; c < BK; c++) {
                        int64_t k = p1 * BK + c, v = p0 * BV + r, off = p2 * DK * DV + k * DV + v;
                        if (k < DK && v < DV) tl_store(L, 1, off, 0.0f + tl_load(L, 0, off), tl_f32());
                    }
    return 0;
}

static const frr_bug frr_none = {0};
static int frr_kernel(const td_abi_launch *L) { return td_frr_run(L, &frr_none); }

TD_KERNEL(td_k_frr_summary) = {FRR_SUM, "triton", TD_ABI_HOST, NULL, NULL, NULL, 13, 15, frr_kernel, NULL};
TD_KERNEL(td_k_frr_seed) = {FRR_SEED, "triton", TD_ABI_HOST, NULL, NULL, NULL, 4, 2, frr_seed, NULL};
TD_KERNEL(td_k_frr_seed_r) = {FRR_SEED_R, "triton", TD_ABI_HOST, NULL, NULL, NULL, 4, 2, frr_seed, NULL};
