/* chunk_gla_simple: chunk_simple_gla_fwd_kernel_o on every program (i_v, i_t, i_bh) of
 * the grid (cdiv(V, BV), cdiv(T, BT), B*H), in binary32: for each key block (one, K =
 * BK) b_o += q h and b_s += q k^T (tl.dot: a sequential sum over the block here), then
 * b_o *= exp(g_t), b_s *= exp(g_t - g_s), b_s = where(t >= s, b_s, 0), b_o = (b_o +
 * b_s v) * scale, stored where t < T and v < V.  Loads past T (or K, V) read 0 as
 * boundary_check does.  Parameters: s_k_h s_k_t s_v_h s_v_t s_h_h s_h_t scale T K V BT
 * BK BV.  Regions: q k v h g o. */
#include "chunk_gla_simple_tl.h"

typedef struct cgs_prog {
    int64_t T, K, V, BT, BK, BV, skh, skt, svh, svt, shh, sht, i_v, i_t, bh;
    float *o, *s, *g; /* b_o [BT*BV], b_s [BT*BT], b_g [BT] */
} cgs_prog;

static float ld2(const td_abi_launch *L, int reg, int64_t base, int64_t r, int64_t rows, int64_t rs, int64_t c,
                 int64_t cols) {
    return r < rows && c < cols ? tl_load(L, reg, base + r * rs + c) : 0.0f;
}

/* b_o += q h, b_s += q k^T over key block i_k */
static void key_block(const td_abi_launch *L, const cgs_prog *P, const cgs_bug *bug, int64_t i_k) {
    int64_t t0 = P->i_t * P->BT, v0 = P->i_v * P->BV, k0 = i_k * P->BK;
    int64_t hb = P->bh * P->shh + (bug->state_chunk0 ? 0 : P->i_t * P->K * P->V);
    for (int64_t i = 0; i < P->BT; i++) {
        for (int64_t c = 0; c < P->BV; c++) {
            float a = 0.0f;
            for (int64_t e = 0; e < P->BK; e++)
                a += ld2(L, CGS_R_Q, P->bh * P->skh, t0 + i, P->T, P->skt, k0 + e, P->K) *
                     ld2(L, CGS_R_H, hb, k0 + e, P->K, P->sht, v0 + c, P->V);
            P->o[i * P->BV + c] += a;
        }
        for (int64_t j = 0; j < P->BT; j++) {
            float a = 0.0f;
            for (int64_t e = 0; e < P->BK; e++)
                a += ld2(L, CGS_R_Q, P->bh * P->skh, t0 + i, P->T, P->skt, k0 + e, P->K) *
                     ld2(L, CGS_R_K, P->bh * P->skh, t0 + j, P->T, P->skt, k0 + e, P->K);
            P->s[i * P->BT + j] += a;
        }
    }
}

static void program(const td_abi_launch *L, cgs_prog *P, const cgs_bug *bug) {
    int64_t t0 = P->i_t * P->BT, v0 = P->i_v * P->BV;
    float scale = TL_R(L, CGS_P_SCALE);
    memset(P->o, 0, sizeof(float) * (size_t)(P->BT * P->BV));
    memset(P->s, 0, sizeof(float) * (size_t)(P->BT * P->BT));
    for (int64_t i_k = 0; i_k < (P->K + P->BK - 1) / P->BK; i_k++) key_block(L, P, bug, i_k);
    for (int64_t i = 0; i < P->BT; i++) P->g[i] = t0 + i < P->T ? tl_load(L, CGS_R_G, P->bh * P->T + t0 + i) : 0.0f;
    for (int64_t i = 0; i < P->BT; i++) {
        for (int64_t c = 0; c < P->BV; c++) P->o[i * P->BV + c] *= expf(P->g[i]);
        for (int64_t j = 0; j < P->BT; j++) {
            float d = bug->decay_swapped ? P->g[j] - P->g[i] : P->g[i] - P->g[j];
            float x = P->s[i * P->BT + j] * expf(d);
            int keep = bug->strict_mask ? i > j : i >= j;
            P->s[i * P->BT + j] = keep ? x : 0.0f;
        }
    }
    for (int64_t i = 0; i < P->BT; i++)
        for (int64_t c = 0; c < P->BV; c++) {
            float a = 0.0f;
            for (int64_t j = 0; j < P->BT; j++)
                a += P->s[i * P->BT + j] * ld2(L, CGS_R_V, P->bh * P->svh, t0 + j, P->T, P->svt, v0 + c, P->V);
            float r = (P->o[i * P->BV + c] + a) * scale;
            if (t0 + i < P->T && v0 + c < P->V) tl_store(L, CGS_R_O, P->bh * P->svh + (t0 + i) * P->svt + v0 + c, r, tl_f32());
        }
}

int td_cgs_run(const td_abi_launch *L, const cgs_bug *bug) {
    cgs_prog P = {.T = TL_I(L, CGS_P_T), .K = TL_I(L, CGS_P_K), .V = TL_I(L, CGS_P_V), .BT = TL_I(L, CGS_P_BT),
                  .BK = TL_I(L, CGS_P_BK), .BV = TL_I(L, CGS_P_BV), .skh = TL_I(L, CGS_P_SKH),
                  .skt = TL_I(L, CGS_P_SKT), .svh = TL_I(L, CGS_P_SVH), .svt = TL_I(L, CGS_P_SVT),
                  .shh = TL_I(L, CGS_P_SHH), .sht = TL_I(L, CGS_P_SHT)};
    TL_ALLOC(L, P.o, P.BT * P.BV);
    TL_ALLOC(L, P.s, P.BT * P.BT);
    TL_ALLOC(L, P.g, P.BT);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
                P.i_v = p0, P.i_t = p1, P.bh = p2;
                program(L, &P, bug);
            }
    free(P.o);
    free(P.s);
    free(P.g);
    return 0;
}

static const cgs_bug cgs_none = {0};
static int cgs_kernel(const td_abi_launch *L) { return td_cgs_run(L, &cgs_none); }

TD_KERNEL(td_k_cgs_summary) = {CGS_SUM, "triton", TD_ABI_HOST, NULL, NULL, NULL, 13, 6, cgs_kernel, NULL};
TD_KERNEL(td_k_cgs_io) = {CGS_IO, "triton", TD_ABI_HOST, NULL, NULL, NULL, 13, 6, cgs_kernel, NULL};
