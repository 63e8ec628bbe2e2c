/* fused_recurrent_delta, output step: per program (i_v, i_k, i_bh) the [BV, BK] state
 * tile loaded from HNext (mask_kv, other 0), q's K block (mask_bk, other 0),
 * _o = tl.sum(h * q[None, :], axis=1), stored at row t (mask_bv).
 * Parameters: t s_qk_h s_vo_h B H K V BK BV.  Regions: HNext q o. */
#include "tl.h"

int td_frd_out(const td_abi_launch *L, int no_row, int transposed);
int td_frd_out(const td_abi_launch *L, int no_row, int transposed) {
    int64_t t = TL_I(L, 0), sqk = TL_I(L, 1), svo = TL_I(L, 2), K = TL_I(L, 5), V = TL_I(L, 6);
    int64_t BK = TL_I(L, 7), BV = TL_I(L, 8), BH = L->grid[2];
    float *row;
    TL_ALLOC(L, row, BK);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
                for (int64_t jv = 0; jv < BV; jv++) {
                    int64_t v = p0 * BV + jv;
                    for (int64_t jk = 0; jk < BK; jk++) {
                        int64_t k = p1 * BK + jk;
                        float h = 0.0f, q = 0.0f;
                        if (k < K && v < V) h = tl_load(L, 0, p2 * K * V + (transposed ? v * K + k : k * V + v));
                        if (k < K) q = tl_load(L, 1, p2 * sqk + k + t * K);
                        row[jk] = h * q;
                    }
                    if (v < V) tl_store(L, 2, (p2 + p1 * BH) * svo + v + (no_row ? 0 : t * V), tl_sum(row, BK), tl_f32());
                }
    free(row);
    return 0;
}
static int frd_out(const td_abi_launch *L) { return td_frd_out(L, 0, 0); }
TD_KERNEL(td_k_frd_out) = {"fused_recurrent_delta.fused_recurrent_delta_output_step_io_correctness", "triton",
                           TD_ABI_HOST, NULL, NULL, NULL, 9, 3, frd_out, NULL};

/* ---- the summary bundle: fused_recurrent_fwd_kernel then fused_recurrent_bwd_kernel
 * on every program (i_v, i_k, i_bh) of (cdiv(V, BV), NK, B*H), in binary32.  Forward:
 * h[BV, BK] (h[r*BK + c]) seeded from h0; per step b_v -= sum_c h b_k, v_new stored
 * into v, b_v *= b_beta, h += b_k b_v, o = sum_c h (b_q scale); HOut after step m.
 * Backward loop 1 (T-1 .. 0) on d_h[BK, BV] (d_h[c*BV + r]) seeded from dht: d_h += b_q
 * b_do, dk = sum_r d_h (b_v b_beta), d_v = sum_c d_h b_k, dbeta = d_v b_v (or its sum),
 * d_v *= b_beta, stores, d_h -= b_k d_v; dh0.  Loop 2 (0 .. T-1): dk -= sum_r d_v h,
 * h += b_k (b_v b_beta), dq = sum_r h b_do * scale.
 * Parameters: IS_HEADWISE_BETA USE_INITIAL_STATE STORE_FINAL_STATE USE_DH0 USE_DHT s_qk_h
 * s_vo_h NK B H T K V BK BV m scale.  Regions: q k v beta o h0 ht dht dh0 do_ dq dk dv
 * dbeta HPrev HOut DHPrev HRec. */
#include "fused_recurrent_delta_tl.h"

typedef struct frd_prog {
    const td_abi_launch *L;
    const frd_bug *bug;
    int64_t K, V, BK, BV, T, sqk, svo, BH, NK, i_v, i_k, bh, hw;
    float scale;
    float *h, *bk, *bv, *bq, *bd, *bb, *x; /* h [BV*BK or BK*BV], rows */
} frd_prog;

static int fk(const frd_prog *P, int64_t c) { return P->i_k * P->BK + c < P->K; }
static int fv(const frd_prog *P, int64_t r) { return P->i_v * P->BV + r < P->V; }
static int64_t fsoff(const frd_prog *P, int64_t c, int64_t r) {
    return P->bh * P->K * P->V + (P->i_k * P->BK + c) * P->V + P->i_v * P->BV + r;
}
static int64_t fkoff(const frd_prog *P, int64_t t, int64_t c) { return P->bh * P->sqk + P->i_k * P->BK + c + t * P->K; }
static int64_t fvoff(const frd_prog *P, int64_t t, int64_t r) { return P->bh * P->svo + P->i_v * P->BV + r + t * P->V; }
/* the step's rows: b_k, b_q * scale, b_v, b_do, b_beta (masked loads, other 0) */
static void frd_rows(frd_prog *P, int64_t t) {
    for (int64_t c = 0; c < P->BK; c++) {
        P->bk[c] = fk(P, c) ? tl_load(P->L, FRD_R_K, fkoff(P, t, c)) : 0.0f;
        P->bq[c] = (fk(P, c) ? tl_load(P->L, FRD_R_Q, fkoff(P, t, c)) : 0.0f) * P->scale;
    }
    for (int64_t r = 0; r < P->BV; r++) {
        P->bv[r] = fv(P, r) ? tl_load(P->L, FRD_R_V, fvoff(P, t, r)) : 0.0f;
        P->bd[r] = fv(P, r) ? tl_load(P->L, FRD_R_DO, fvoff(P, t, r)) : 0.0f;
        if (P->hw)
            P->bb[r] = fv(P, r) ? tl_load(P->L, FRD_R_BETA, fvoff(P, t, r)) : 0.0f;
        else
            P->bb[r] = tl_load(P->L, FRD_R_BETA, P->bh * P->T + t);
    }
}
static void frd_seed(frd_prog *P, int reg, int use, int kv_layout) { /* kv_layout: h[c*BV + r] */
    for (int64_t c = 0; c < P->BK; c++)
        for (int64_t r = 0; r < P->BV; r++) {
            float x = 0.0f;
            if (use && fk(P, c) && fv(P, r)) x += tl_load(P->L, reg, fsoff(P, c, r));
            P->h[kv_layout ? c * P->BV + r : r * P->BK + c] = x;
        }
}
static void frd_store_state(frd_prog *P, int reg, int kv_layout) {
    for (int64_t c = 0; c < P->BK; c++)
        for (int64_t r = 0; r < P->BV; r++)
            if (fk(P, c) && fv(P, r))
                tl_store(P->L, reg, fsoff(P, c, r), P->h[kv_layout ? c * P->BV + r : r * P->BK + c], tl_f32());
}

static void frd_forward(frd_prog *P, int64_t m) {
    frd_seed(P, FRD_R_H0, (int)TL_I(P->L, FRD_P_USE_INIT), 0);
    for (int64_t t = 0; t < P->T; t++) {
        frd_rows(P, t);
        for (int64_t r = 0; r < P->BV; r++) {
            for (int64_t c = 0; c < P->BK; c++) P->x[c] = P->h[r * P->BK + c] * P->bk[c];
            P->bv[r] -= tl_sum(P->x, P->BK);
            if (P->bug->vnew_scaled) P->bv[r] *= P->bb[r];
            if (fv(P, r)) tl_store(P->L, FRD_R_V, fvoff(P, t, r), P->bv[r], tl_f32());
            if (!P->bug->vnew_scaled) P->bv[r] *= P->bb[r];
            for (int64_t c = 0; c < P->BK; c++) P->h[r * P->BK + c] += P->bk[c] * P->bv[r];
            for (int64_t c = 0; c < P->BK; c++) P->x[c] = P->h[r * P->BK + c] * P->bq[c];
            if (fv(P, r)) tl_store(P->L, FRD_R_O, (P->bh + P->i_k * P->BH) * P->svo + P->i_v * P->BV + r + t * P->V,
                                   tl_sum(P->x, P->BK), tl_f32());
        }
        if (t == m) frd_store_state(P, FRD_R_HOUT, 0);
    }
    if (TL_I(P->L, FRD_P_STORE_FINAL)) frd_store_state(P, FRD_R_HT, 0);
}

static int64_t frd_dkoff(const frd_prog *P, int64_t t, int64_t c) {
    return (P->bh + P->i_v * P->BH) * P->sqk + P->i_k * P->BK + c + t * P->K;
}
static int64_t frd_dvoff(const frd_prog *P, int64_t t, int64_t r) {
    return (P->bh + P->i_k * P->BH) * P->svo + P->i_v * P->BV + r + t * P->V;
}
static void frd_bwd_step(frd_prog *P, int64_t t, float *dvv) {
    int64_t BK = P->BK, BV = P->BV;
    frd_rows(P, t);
    for (int64_t c = 0; c < BK; c++)
        for (int64_t r = 0; r < BV; r++) P->h[c * BV + r] += P->bq[c] * P->bd[r];
    for (int64_t c = 0; c < BK; c++) {
        for (int64_t r = 0; r < BV; r++) P->x[r] = P->h[c * BV + r] * (P->bv[r] * P->bb[r]);
        if (fk(P, c)) tl_store(P->L, FRD_R_DK, frd_dkoff(P, t, c), tl_sum(P->x, BV), tl_f32());
    }
    for (int64_t r = 0; r < BV; r++) {
        for (int64_t c = 0; c < BK; c++) P->x[c] = P->h[c * BV + r] * P->bk[c];
        dvv[r] = tl_sum(P->x, BK);
    }
    for (int64_t r = 0; r < BV; r++) P->x[r] = dvv[r] * P->bv[r];
    if (P->hw) {
        for (int64_t r = 0; r < BV; r++)
            if (fv(P, r))
                tl_store(P->L, FRD_R_DBETA, (P->bh + P->i_k * P->BH + P->i_v * P->BH * P->NK) * P->svo + r + t * P->V,
                         P->x[r], tl_f32());
    } else
        tl_store(P->L, FRD_R_DBETA, (P->bh + P->i_v * P->BH) * P->T + t, tl_sum(P->x, BV), tl_f32());
    for (int64_t r = 0; r < BV; r++) {
        dvv[r] *= P->bb[r];
        if (fv(P, r)) tl_store(P->L, FRD_R_DV, frd_dvoff(P, t, r), dvv[r], tl_f32());
    }
    for (int64_t c = 0; c < BK; c++)
        for (int64_t r = 0; r < BV; r++) P->h[c * BV + r] -= P->bk[c] * dvv[r];
}

static void frd_backward(frd_prog *P, float *dvv) {
    int64_t BK = P->BK, BV = P->BV;
    frd_seed(P, FRD_R_DHT, (int)TL_I(P->L, FRD_P_USE_DHT), 1);
    for (int64_t t = P->T - 1; t >= 0; t--) frd_bwd_step(P, t, dvv);
    if (TL_I(P->L, FRD_P_USE_DH0)) frd_store_state(P, FRD_R_DH0, 1);
    frd_seed(P, FRD_R_H0, (int)TL_I(P->L, FRD_P_USE_INIT) && !P->bug->bwd_no_init, 1);
    for (int64_t t = 0; t < P->T; t++) {
        for (int64_t r = 0; r < BV; r++) dvv[r] = fv(P, r) ? tl_load(P->L, FRD_R_DV, frd_dvoff(P, t, r)) : 0.0f;
        for (int64_t c = 0; c < BK; c++) {
            float dk = fk(P, c) ? tl_load(P->L, FRD_R_DK, frd_dkoff(P, t, c)) : 0.0f;
            for (int64_t r = 0; r < BV; r++) P->x[r] = dvv[r] * P->h[c * BV + r];
            if (!P->bug->no_dk_corr) dk -= tl_sum(P->x, BV);
            if (fk(P, c)) tl_store(P->L, FRD_R_DK, frd_dkoff(P, t, c), dk, tl_f32());
        }
        frd_rows(P, t);
        for (int64_t r = 0; r < BV; r++) P->bv[r] *= P->bb[r];
        for (int64_t c = 0; c < BK; c++)
            for (int64_t r = 0; r < BV; r++) P->h[c * BV + r] += P->bk[c] * P->bv[r];
        for (int64_t c = 0; c < BK; c++) {
            for (int64_t r = 0; r < BV; r++) P->x[r] = P->h[c * BV + r] * P->bd[r];
            if (fk(P, c)) tl_store(P->L, FRD_R_DQ, frd_dkoff(P, t, c), tl_sum(P->x, BV) * P->scale, tl_f32());
        }
    }
}

int td_frd_run(const td_abi_launch *L, const frd_bug *bug) {
    frd_prog P = {.L = L, .bug = bug, .K = TL_I(L, FRD_P_K), .V = TL_I(L, FRD_P_V), .BK = TL_I(L, FRD_P_BK),
                  .BV = TL_I(L, FRD_P_BV), .T = TL_I(L, FRD_P_T), .sqk = TL_I(L, FRD_P_SQK), .svo = TL_I(L, FRD_P_SVO),
                  .BH = L->grid[2], .NK = TL_I(L, FRD_P_NK), .hw = TL_I(L, FRD_P_HEADWISE), .scale = TL_R(L, FRD_P_SCALE)};
    int64_t n = P.BK * P.BV, w = P.BK > P.BV ? P.BK : P.BV;
    float *buf, *dvv;
    TL_ALLOC(L, buf, n + 6 * w);
    dvv = buf + n + 5 * w;
    P.h = buf, P.bk = buf + n, P.bv = P.bk + w, P.bq = P.bv + w, P.bd = P.bq + w, P.bb = P.bd + w;
    float *xs;
    TL_ALLOC(L, xs, w);
    P.x = xs;
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
                P.i_v = p0, P.i_k = p1, P.bh = p2;
                frd_forward(&P, TL_I(L, FRD_P_M));
                frd_backward(&P, dvv);
            }
    free(xs);
    free(buf);
    return 0;
}
static const frd_bug frd_port = {0};
static int frd_sum(const td_abi_launch *L) { return td_frd_run(L, &frd_port); }
TD_KERNEL(td_k_frd_sum) = {FRD_SUM, "triton", TD_ABI_HOST, NULL, NULL, NULL, 17, 18, frd_sum, NULL};
