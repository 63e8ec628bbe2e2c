/* chunk_gla_fwd: chunk_gla_fwd_kernel_o on every program (i_v, i_t, i_bh) of the grid
 * (cdiv(V, BV), cdiv(T, BT), B*H), in binary32: for each K block, b_q = q * scale,
 * b_qg = b_q * exp(g), b_o += b_qg h (tl.dot: a sequential sum over the block here);
 * then b_A = where(i >= j, A, 0), b_o += b_A v; stored where t < T and p < V.  Loads
 * past T, K or V read 0 (boundary_check).  Parameters: s_k_h s_k_t s_v_h s_v_t s_h_h
 * s_h_t scale T K V BT BK BV.  Regions: q v g h o A. */
#include "chunk_gla_fwd_tl.h"

typedef struct cgf_prog {
    int64_t T, K, V, BT, BK, BV, skh, skt, svh, svt, shh, sht, i_v, i_t, bh;
    float scale, *o; /* b_o [BT * BV] */
} cgf_prog;

static float ld2(const td_abi_launch *L, int reg, int64_t base, int64_t r, int64_t rows, int64_t rs, int64_t c,
                 int64_t cols) {
    return r < rows && c < cols ? tl_load(L, reg, base + r * rs + c) : 0.0f;
}

/* b_o += (q * scale * exp(g)) h over K block i_k */
static void key_block(const td_abi_launch *L, cgf_prog *P, const cgf_bug *bug, int64_t i_k) {
    int64_t t0 = P->i_t * P->BT, v0 = P->i_v * P->BV, k0 = i_k * P->BK;
    int64_t hb = P->bh * P->shh + (bug->state_chunk0 ? 0 : P->i_t * P->K * P->V);
    for (int64_t i = 0; i < P->BT; i++)
        for (int64_t c = 0; c < P->BV; c++) {
            float a = 0.0f;
            for (int64_t e = 0; e < P->BK; e++) {
                float q = ld2(L, CGF_R_Q, P->bh * P->skh, t0 + i, P->T, P->skt, k0 + e, P->K) * P->scale;
                float qg = q * expf(ld2(L, CGF_R_G, P->bh * P->skh, t0 + i, P->T, P->skt, k0 + e, P->K));
                a += qg * ld2(L, CGF_R_H, hb, k0 + e, P->K, P->sht, v0 + c, P->V);
            }
            P->o[i * P->BV + c] += a;
        }
}

static void program(const td_abi_launch *L, cgf_prog *P, const cgf_bug *bug) {
    int64_t t0 = P->i_t * P->BT, v0 = P->i_v * P->BV;
    memset(P->o, 0, sizeof(float) * (size_t)(P->BT * P->BV));
    for (int64_t i_k = 0; i_k < (P->K + P->BK - 1) / P->BK; i_k++) key_block(L, P, bug, i_k);
    for (int64_t i = 0; i < P->BT; i++)
        for (int64_t c = 0; c < P->BV; c++) {
            float a = 0.0f;
            for (int64_t j = 0; j < P->BT; j++) {
                int keep = bug->strict_mask ? i > j : i >= j;
                float A = keep ? ld2(L, CGF_R_A, P->bh * P->T * P->BT, t0 + i, P->T, P->BT, j, P->BT) : 0.0f;
                a += A * ld2(L, CGF_R_V, P->bh * P->svh, t0 + j, P->T, P->svt, v0 + c, P->V);
            }
            float r = P->o[i * P->BV + c] + a;
            if (bug->scale_twice) r = (P->o[i * P->BV + c] + a) * P->scale;
            if (t0 + i < P->T && v0 + c < P->V) tl_store(L, CGF_R_O, P->bh * P->svh + (t0 + i) * P->svt + v0 + c, r, tl_f32());
        }
}

int td_cgf_run(const td_abi_launch *L, const cgf_bug *bug) {
    cgf_prog P = {.T = TL_I(L, CGF_P_T), .K = TL_I(L, CGF_P_K), .V = TL_I(L, CGF_P_V), .BT = TL_I(L, CGF_P_BT),
                  .BK = TL_I(L, CGF_P_BK), .BV = TL_I(L, CGF_P_BV), .skh = TL_I(L, CGF_P_SKH),
                  .skt = TL_I(L, CGF_P_SKT), .svh = TL_I(L, CGF_P_SVH), .svt = TL_I(L, CGF_P_SVT),
                  .shh = TL_I(L, CGF_P_SHH), .sht = TL_I(L, CGF_P_SHT), .scale = TL_R(L, CGF_P_SCALE)};
    TL_ALLOC(L, P.o, P.BT * P.BV);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
                P.i_v = p0, P.i_t = p1, P.bh = p2;
                program(L, &P, bug);
            }
    free(P.o);
    return 0;
}

static const cgf_bug cgf_none = {0};
static int cgf_kernel(const td_abi_launch *L) { return td_cgf_run(L, &cgf_none); }

TD_KERNEL(td_k_cgf_o) = {CGF_ID, "triton", TD_ABI_HOST, NULL, NULL, NULL, 13, 6, cgf_kernel, NULL};
