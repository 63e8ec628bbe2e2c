/* fused_recurrent_delta, alternative: the output step as an FMA chain from the last key.
 *
 * alt_fma_rev: o[v] = sum over the active k of HNext[k, v] * q[k], one fmaf chain from
 * k = K-block end down to its start (the port: products rounded, tl_sum's tree).
 * Admissible: any order and FMA contraction of the dot product.
 */
#include "tl.h"

static int fma_rev(const td_abi_launch *L) {
    int64_t t = TL_I(L, 0), sqk = TL_I(L, 1), svo = TL_I(L, 2), K = TL_I(L, 5), V = TL_I(L, 6);
    int64_t BK = TL_I(L, 7), BV = TL_I(L, 8), BH = L->grid[2];
    for (int64_t bh = 0; bh < BH; bh++)
        for (int64_t ik = 0; ik * BK < K; ik++)
            for (int64_t v = 0; v < V; v++) {
                float acc = 0.0f;
                int64_t k1 = (ik + 1) * BK < K ? (ik + 1) * BK : K;
                for (int64_t k = k1 - 1; k >= ik * BK; k--)
                    acc = fmaf(tl_load(L, 0, bh * K * V + k * V + v), tl_load(L, 1, bh * sqk + k + t * K), acc);
                tl_store(L, 2, (bh + ik * BH) * svo + v + t * V, acc, tl_f32());
            }
    (void)BV;
    return 0;
}
TD_KERNEL(td_a_frd_out) = {"fused_recurrent_delta.fused_recurrent_delta_output_step_io_correctness", "alt_fma_rev",
                           TD_ABI_HOST, NULL, NULL, NULL, 9, 3, fma_rev, NULL};

/* alt_rowwise_fma (summary bundle): one value lane at a time instead of a [BV, BK]
 * tile, every dot product an fmaf chain from the last key down, the state updates
 * fmaf(k, u, S); the backward's dk and dq gathered over the value block in three
 * passes (loop 1's partial D (v beta), then - sum dv S_t, then sum S_{t+1} do) with
 * ascending-lane fmaf accumulators.  Admissible: any order and FMA contraction of
 * every sum; the carried values and stores are the port's. */
#include "../host/fused_recurrent_delta_tl.h"

typedef struct frd_alt {
    const td_abi_launch *L;
    int64_t K, V, T, sqk, svo, BH, bh, hw;
    float scale;
} frd_alt;
static float ak(const frd_alt *A, int reg, int64_t t, int64_t k) { return tl_load(A->L, reg, A->bh * A->sqk + k + t * A->K); }
static float av(const frd_alt *A, int reg, int64_t t, int64_t v) { return tl_load(A->L, reg, A->bh * A->svo + v + t * A->V); }
static float abeta(const frd_alt *A, int64_t t, int64_t v) {
    return A->hw ? av(A, FRD_R_BETA, t, v) : tl_load(A->L, FRD_R_BETA, A->bh * A->T + t);
}
static void a_seed(const frd_alt *A, float *S, int reg, int use, int64_t v) {
    for (int64_t k = 0; k < A->K; k++) S[k] = use ? tl_load(A->L, reg, (A->bh * A->K + k) * A->V + v) : 0.0f;
}
static void a_store(const frd_alt *A, const float *S, int reg, int64_t v) {
    for (int64_t k = 0; k < A->K; k++) tl_store(A->L, reg, (A->bh * A->K + k) * A->V + v, S[k], tl_f32());
}
/* one forward step of row v (reads v_t, or the stored v_new when stored = 1) */
static float a_fwd_step(const frd_alt *A, float *S, int64_t t, int64_t v, int stored) {
    float vm = 0.0f;
    for (int64_t k = A->K - 1; k >= 0; k--) vm = fmaf(S[k], ak(A, FRD_R_K, t, k), vm);
    float vn = stored ? av(A, FRD_R_V, t, v) : av(A, FRD_R_V, t, v) - vm, u = vn * abeta(A, t, v);
    for (int64_t k = 0; k < A->K; k++) S[k] = fmaf(ak(A, FRD_R_K, t, k), u, S[k]);
    return vn;
}
static void a_forward(const frd_alt *A, float *S, int64_t v, int64_t m, int64_t obase) {
    a_seed(A, S, FRD_R_H0, (int)TL_I(A->L, FRD_P_USE_INIT), v);
    for (int64_t t = 0; t < A->T; t++) {
        float vn = a_fwd_step(A, S, t, v, 0), o = 0.0f;
        tl_store(A->L, FRD_R_V, A->bh * A->svo + v + t * A->V, vn, tl_f32());
        for (int64_t k = A->K - 1; k >= 0; k--) o = fmaf(S[k], ak(A, FRD_R_Q, t, k) * A->scale, o);
        tl_store(A->L, FRD_R_O, obase + v + t * A->V, o, tl_f32());
        if (t == m) a_store(A, S, FRD_R_HOUT, v);
    }
    if (TL_I(A->L, FRD_P_STORE_FINAL)) a_store(A, S, FRD_R_HT, v);
}
/* loop 1 for column v: dv stored, dk partials and dbeta terms gathered */
static void a_backward(const frd_alt *A, float *C, int64_t v, int64_t r, float *dkp, float *dbs, int64_t dvbase,
                       int64_t dbbase) {
    a_seed(A, C, FRD_R_DHT, (int)TL_I(A->L, FRD_P_USE_DHT), v);
    for (int64_t t = A->T - 1; t >= 0; t--) {
        float dov = av(A, FRD_R_DO, t, v), vn = av(A, FRD_R_V, t, v), b = abeta(A, t, v), dvr = 0.0f;
        for (int64_t k = 0; k < A->K; k++) C[k] = fmaf(ak(A, FRD_R_Q, t, k) * A->scale, dov, C[k]);
        for (int64_t k = A->K - 1; k >= 0; k--) dvr = fmaf(C[k], ak(A, FRD_R_K, t, k), dvr);
        for (int64_t k = 0; k < A->K; k++) dkp[t * A->K + k] = fmaf(C[k], vn * b, dkp[t * A->K + k]);
        if (A->hw)
            tl_store(A->L, FRD_R_DBETA, dbbase + r + t * A->V, dvr * vn, tl_f32());
        else
            dbs[t] = fmaf(dvr, vn, dbs[t]);
        float dv = dvr * b;
        tl_store(A->L, FRD_R_DV, dvbase + v + t * A->V, dv, tl_f32());
        for (int64_t k = 0; k < A->K; k++) C[k] = fmaf(-ak(A, FRD_R_K, t, k), dv, C[k]);
    }
    if (TL_I(A->L, FRD_P_USE_DH0)) a_store(A, C, FRD_R_DH0, v);
}
/* loop 2 for column v: - dv S_t into corr, S_{t+1} do into dqa */
static void a_loop2(const frd_alt *A, float *S, int64_t v, float *corr, float *dqa, int64_t dvbase) {
    a_seed(A, S, FRD_R_H0, (int)TL_I(A->L, FRD_P_USE_INIT), v);
    for (int64_t t = 0; t < A->T; t++) {
        float dv = tl_load(A->L, FRD_R_DV, dvbase + v + t * A->V);
        for (int64_t k = 0; k < A->K; k++) corr[t * A->K + k] = fmaf(dv, S[k], corr[t * A->K + k]);
        a_fwd_step(A, S, t, v, 1);
        float dov = av(A, FRD_R_DO, t, v);
        for (int64_t k = 0; k < A->K; k++) dqa[t * A->K + k] = fmaf(S[k], dov, dqa[t * A->K + k]);
    }
}
static void a_block(const frd_alt *A, int64_t iv, int64_t BV, float *S, float *acc) {
    int64_t T = A->T, K = A->K, BH = A->BH, v0 = iv * BV;
    float *dkp = acc, *corr = acc + T * K, *dqa = acc + 2 * T * K, *dbs = acc + 3 * T * K;
    memset(acc, 0, (size_t)(3 * T * K + T) * sizeof(float));
    int64_t vbase = A->bh * A->svo, dbbase = (A->bh + iv * BH) * A->svo;
    for (int64_t r = 0; r < BV && v0 + r < A->V; r++) a_forward(A, S, v0 + r, TL_I(A->L, FRD_P_M), vbase);
    for (int64_t r = 0; r < BV && v0 + r < A->V; r++) a_backward(A, S, v0 + r, r, dkp, dbs, vbase, dbbase);
    for (int64_t r = 0; r < BV && v0 + r < A->V; r++) a_loop2(A, S, v0 + r, corr, dqa, vbase);
    int64_t kbase = (A->bh + iv * BH) * A->sqk;
    for (int64_t t = 0; t < T; t++) {
        for (int64_t k = 0; k < K; k++) {
            tl_store(A->L, FRD_R_DK, kbase + k + t * K, dkp[t * K + k] - corr[t * K + k], tl_f32());
            tl_store(A->L, FRD_R_DQ, kbase + k + t * K, dqa[t * K + k] * A->scale, tl_f32());
        }
        if (!A->hw) tl_store(A->L, FRD_R_DBETA, (A->bh + iv * BH) * T + t, dbs[t], tl_f32());
    }
}
static int rowwise_fma(const td_abi_launch *L) {
    frd_alt A = {.L = L, .K = TL_I(L, FRD_P_K), .V = TL_I(L, FRD_P_V), .T = TL_I(L, FRD_P_T), .sqk = TL_I(L, FRD_P_SQK),
                 .svo = TL_I(L, FRD_P_SVO), .BH = L->grid[2], .hw = TL_I(L, FRD_P_HEADWISE), .scale = TL_R(L, FRD_P_SCALE)};
    int64_t BV = TL_I(L, FRD_P_BV);
    float *S, *acc;
    TL_ALLOC(L, S, A.K);
    TL_ALLOC(L, acc, 3 * A.T * A.K + A.T);
    for (A.bh = 0; A.bh < A.BH; A.bh++)
        for (int64_t iv = 0; iv < (int64_t)L->grid[0]; iv++) a_block(&A, iv, BV, S, acc);
    free(S);
    free(acc);
    return 0;
}
TD_KERNEL(td_a_frd_sum) = {FRD_SUM, "alt_rowwise_fma", TD_ABI_HOST, NULL, NULL, NULL, 17, 18, rowwise_fma, NULL};
