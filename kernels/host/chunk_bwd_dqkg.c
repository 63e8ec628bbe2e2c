/* chunk_bwd_dqkg: chunk_simple_gla_bwd_kernel_dqkg on every program (i_k, i_t, i_bh)
 * of the grid (cdiv(K, BK), cdiv(T, BT), B*H), in binary32: over the value blocks,
 * b_dg_last += sum(h * dh), b_ds += do v^T, b_dq += do h, b_dk += v dh (tl.dot /
 * tl.sum: sequential sums here); then b_dg_last *= exp(g_last), b_dq *= exp(g) scale,
 * b_dk *= exp(-g + g_last), b_dg_last += sum(b_dk * b_k), b_ds masked (i >= j) and
 * scaled by scale exp(g_i - g_j), b_dq += b_ds k, b_dk += b_ds^T q, b_dg = sum(q dq -
 * k dk) plus b_dg_last at the last in-range row; stores where t < T, kk < K.  Loads
 * past T, V read 0; h and dh columns past NT*K read 0 (the block pointer's shape). */
#include "chunk_bwd_dqkg_tl.h"

typedef struct cbd_prog {
    int64_t T, K, V, BT, BK, BV, NT, skh, skt, svh, svt, shh, sht, i_k, i_t, bh, nbh;
    float scale, *ds, *dq, *dk, *g, *q, *k; /* [BT*BT], [BT*BK] x 4, [BT] */
} cbd_prog;

static float ld2(const td_abi_launch *L, int reg, int64_t base, int64_t r, int64_t rows, int64_t rs, int64_t c,
                 int64_t cols) {
    return r < rows && c < cols ? tl_load(L, reg, base + r * rs + c) : 0.0f;
}
/* b_h[a, e] of the (V, NT*K) view, strides (1, s_h_t) */
static float ldh(const td_abi_launch *L, const cbd_prog *P, int reg, int64_t a, int64_t e) {
    int64_t col = P->i_t * P->K + P->i_k * P->BK + e;
    return a < P->V && col < P->NT * P->K ? tl_load(L, reg, P->bh * P->shh + a + col * P->sht) : 0.0f;
}

/* one value block i_v: the four accumulators */
static float value_block(const td_abi_launch *L, cbd_prog *P, int64_t i_v) {
    int64_t t0 = P->i_t * P->BT, v0 = i_v * P->BV, BT = P->BT, BK = P->BK;
    float hdh = 0.0f;
    for (int64_t a = 0; a < P->BV; a++)
        for (int64_t e = 0; e < BK; e++) hdh += ldh(L, P, CBD_R_H, v0 + a, e) * ldh(L, P, CBD_R_DH, v0 + a, e);
    for (int64_t i = 0; i < BT; i++) {
        for (int64_t j = 0; j < BT; j++) {
            float s = 0.0f;
            for (int64_t a = 0; a < P->BV; a++)
                s += ld2(L, CBD_R_DO, P->bh * P->svh, t0 + i, P->T, P->svt, v0 + a, P->V) *
                     ld2(L, CBD_R_V, P->bh * P->svh, t0 + j, P->T, P->svt, v0 + a, P->V);
            P->ds[i * BT + j] += s;
        }
        for (int64_t e = 0; e < BK; e++) {
            float sq = 0.0f, sk = 0.0f;
            for (int64_t a = 0; a < P->BV; a++) {
                sq += ld2(L, CBD_R_DO, P->bh * P->svh, t0 + i, P->T, P->svt, v0 + a, P->V) * ldh(L, P, CBD_R_H, v0 + a, e);
                sk += ld2(L, CBD_R_V, P->bh * P->svh, t0 + i, P->T, P->svt, v0 + a, P->V) * ldh(L, P, CBD_R_DH, v0 + a, e);
            }
            P->dq[i * BK + e] += sq, P->dk[i * BK + e] += sk;
        }
    }
    return hdh;
}

static float dk_k(const cbd_prog *P) {
    float s = 0.0f;
    for (int64_t x = 0; x < P->BT * P->BK; x++) s += P->dk[x] * P->k[x];
    return s;
}

/* gates, mask, the ds contractions and dg's row sums; stores */
static void post(const td_abi_launch *L, cbd_prog *P, const cbd_bug *bug, float dgl) {
    int64_t t0 = P->i_t * P->BT, k0 = P->i_k * P->BK, BT = P->BT, BK = P->BK, rows = P->T - t0;
    float gl = tl_load(L, CBD_R_G, P->bh * P->T + (t0 + BT < P->T ? t0 + BT : P->T) - 1);
    dgl *= expf(gl);
    for (int64_t i = 0; i < BT; i++)
        for (int64_t e = 0; e < BK; e++) {
            P->q[i * BK + e] = ld2(L, CBD_R_Q, P->bh * P->skh, t0 + i, P->T, P->skt, k0 + e, P->K);
            P->k[i * BK + e] = ld2(L, CBD_R_K, P->bh * P->skh, t0 + i, P->T, P->skt, k0 + e, P->K);
            P->dq[i * BK + e] = P->dq[i * BK + e] * expf(P->g[i]) * P->scale;
            P->dk[i * BK + e] = P->dk[i * BK + e] * expf(-P->g[i] + gl);
        }
    if (!bug->dglast_late) dgl += dk_k(P);
    for (int64_t i = 0; i < BT; i++)
        for (int64_t j = 0; j < BT; j++) {
            int keep = bug->strict_mask ? i > j : i >= j;
            P->ds[i * BT + j] = keep ? P->ds[i * BT + j] * P->scale * expf(P->g[i] - P->g[j]) : 0.0f;
        }
    for (int64_t i = 0; i < BT; i++)
        for (int64_t e = 0; e < BK; e++) {
            float a = 0.0f, b = 0.0f;
            for (int64_t j = 0; j < BT; j++) a += P->ds[i * BT + j] * P->k[j * BK + e], b += P->ds[j * BT + i] * P->q[j * BK + e];
            P->dq[i * BK + e] += a, P->dk[i * BK + e] += b;
        }
    if (bug->dglast_late) dgl += dk_k(P);
    int64_t last = (bug->dglast_blkrow ? BT : (BT < rows ? BT : rows)) - 1;
    for (int64_t i = 0; i < BT && t0 + i < P->T; i++) {
        float s = 0.0f;
        for (int64_t e = 0; e < BK; e++) {
            s += P->q[i * BK + e] * P->dq[i * BK + e] - P->k[i * BK + e] * P->dk[i * BK + e];
            if (k0 + e >= P->K) continue;
            int64_t o = P->bh * P->skh + (t0 + i) * P->skt + k0 + e;
            tl_store(L, CBD_R_DQ, o, P->dq[i * BK + e], tl_f32());
            tl_store(L, CBD_R_DK, o, P->dk[i * BK + e], tl_f32());
        }
        tl_store(L, CBD_R_DG, (P->i_k * P->nbh + P->bh) * P->T + t0 + i, i < last ? s : s + dgl, tl_f32());
    }
}

static void program(const td_abi_launch *L, cbd_prog *P, const cbd_bug *bug) {
    int64_t BT = P->BT, t0 = P->i_t * BT;
    memset(P->ds, 0, sizeof(float) * (size_t)(BT * BT));
    memset(P->dq, 0, sizeof(float) * (size_t)(BT * P->BK));
    memset(P->dk, 0, sizeof(float) * (size_t)(BT * P->BK));
    for (int64_t i = 0; i < BT; i++) P->g[i] = t0 + i < P->T ? tl_load(L, CBD_R_G, P->bh * P->T + t0 + i) : 0.0f;
    float dgl = 0.0f;
    for (int64_t i_v = 0; i_v < (P->V + P->BV - 1) / P->BV; i_v++) dgl += value_block(L, P, i_v);
    post(L, P, bug, dgl);
}

int td_cbd_run(const td_abi_launch *L, const cbd_bug *bug) {
    cbd_prog P = {.T = TL_I(L, CBD_P_T), .K = TL_I(L, CBD_P_K), .V = TL_I(L, CBD_P_V), .BT = TL_I(L, CBD_P_BT),
                  .BK = TL_I(L, CBD_P_BK), .BV = TL_I(L, CBD_P_BV), .NT = TL_I(L, CBD_P_NT),
                  .skh = TL_I(L, CBD_P_SKH), .skt = TL_I(L, CBD_P_SKT), .svh = TL_I(L, CBD_P_SVH),
                  .svt = TL_I(L, CBD_P_SVT), .shh = TL_I(L, CBD_P_SHH), .sht = TL_I(L, CBD_P_SHT),
                  .scale = TL_R(L, CBD_P_SCALE), .nbh = L->grid[2]};
    TL_ALLOC(L, P.ds, P.BT * P.BT);
    TL_ALLOC(L, P.dq, P.BT * P.BK);
    TL_ALLOC(L, P.dk, P.BT * P.BK);
    TL_ALLOC(L, P.q, P.BT * P.BK);
    TL_ALLOC(L, P.k, P.BT * P.BK);
    TL_ALLOC(L, P.g, P.BT);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
                P.i_k = p0, P.i_t = p1, P.bh = p2;
                program(L, &P, bug);
            }
    free(P.ds), free(P.dq), free(P.dk), free(P.q), free(P.k), free(P.g);
    return 0;
}

static const cbd_bug cbd_none = {0};
static int cbd_kernel(const td_abi_launch *L) { return td_cbd_run(L, &cbd_none); }

TD_KERNEL(td_k_cbd) = {CBD_ID, "triton", TD_ABI_HOST, NULL, NULL, NULL, 14, 10, cbd_kernel, NULL};
