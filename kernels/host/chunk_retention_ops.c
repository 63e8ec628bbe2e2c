/* chunk_retention_ops: chunk_retention_fwd_kernel_h (the same program as chunk_retention's:
 * td_crt_fwd_run in chunk_retention.c) and chunk_retention_bwd_kernel_dh on every program
 * (i_k, i_v, i_bh) of (cdiv(K, BK), cdiv(V, BV), B*H), in binary32:
 *   bwd_dh: b_b = log2(1 - exp2(-5 - i_h)), d_b = exp2(BT b_b), d_i[c] = exp2((c + 1) b_b);
 *     the [BK, BV] dh from 0; for i_t from NT - 1 down: store dh[i_t], load the q [BK, BT]
 *     tile (masked 0) and b_q = q * scale, the do [BT, BV] tile, dh = d_b dh +
 *     dot(b_q, do * d_i). */
#include "chunk_retention_tl.h"

enum { PO_SQK_H, PO_SQK_T, PO_SQK_D, PO_SVO_H, PO_SVO_T, PO_SVO_D, PO_SH_H, PO_SH_T, PO_SCALE, PO_H, PO_T, PO_K,
       PO_V, PO_BT, PO_BK, PO_BV, PO_NT };
enum { RO_Q, RO_DO, RO_DH };

/* bug: 0 the port, 1 dh[i_t] stored after chunk i_t's update, 2 the loop ascending
 * (dh accumulated in the forward direction), 3 no decay between chunks (d_b = 1) */
int td_cro_bwd_run(const td_abi_launch *L, int bug);

static void cro_program(const td_abi_launch *L, int bug, uint32_t ik, uint32_t iv, uint32_t bh, float *dh, float *qt,
                        float *dt, float *di) {
    int64_t T = TL_I(L, PO_T), K = TL_I(L, PO_K), V = TL_I(L, PO_V), BT = TL_I(L, PO_BT), BK = TL_I(L, PO_BK);
    int64_t BV = TL_I(L, PO_BV), NT = TL_I(L, PO_NT);
    float scale = TL_R(L, PO_SCALE), bb = log2f(1.0f - exp2f(-5.0f - (float)(bh % TL_I(L, PO_H)) * 1.0f));
    float db = bug == 3 ? 1.0f : exp2f((float)BT * bb);
    for (int64_t c = 0; c < BT; c++) di[c] = exp2f((float)(c + 1) * bb);
    for (int64_t i = 0; i < BK * BV; i++) dh[i] = 0.0f;
    for (int64_t j = 0; j < NT; j++) {
        int64_t it = bug == 2 ? j : NT - 1 - j, base = bh * TL_I(L, PO_SH_H) + it * K * V;
        for (int pass = 0; pass < 2; pass++) {
            if (pass == (bug == 1)) /* the store: before the update (pass 0), the bug after */
                for (int64_t e = 0; e < BK; e++)
                    for (int64_t p = 0; p < BV; p++) {
                        int64_t k = ik * BK + e, v = iv * BV + p;
                        if (k < K && v < V) tl_store(L, RO_DH, base + k * TL_I(L, PO_SH_T) + v, dh[e * BV + p], tl_f32());
                    }
            if (pass == 1) break;
            for (int64_t c = 0; c < BT; c++) {
                int64_t s = it * BT + c;
                for (int64_t e = 0; e < BK; e++) {
                    int64_t k = ik * BK + e;
                    float q = k < K && s < T ? tl_load(L, RO_Q, bh * TL_I(L, PO_SQK_H) + s * TL_I(L, PO_SQK_T) + k * TL_I(L, PO_SQK_D)) : 0.0f;
                    qt[e * BT + c] = q * scale;
                }
                for (int64_t p = 0; p < BV; p++) {
                    int64_t v = iv * BV + p;
                    float d = v < V && s < T ? tl_load(L, RO_DO, bh * TL_I(L, PO_SVO_H) + s * TL_I(L, PO_SVO_T) + v * TL_I(L, PO_SVO_D)) : 0.0f;
                    dt[c * BV + p] = d * di[c];
                }
            }
            for (int64_t e = 0; e < BK; e++)
                for (int64_t p = 0; p < BV; p++) {
                    float dot = 0.0f;
                    for (int64_t c = 0; c < BT; c++) dot += qt[e * BT + c] * dt[c * BV + p];
                    dh[e * BV + p] = db * dh[e * BV + p] + dot;
                }
        }
    }
}

int td_cro_bwd_run(const td_abi_launch *L, int bug) {
    int64_t BT = TL_I(L, PO_BT), BK = TL_I(L, PO_BK), BV = TL_I(L, PO_BV);
    float *dh, *qt, *dt, *di;
    TL_ALLOC(L, dh, BK * BV);
    TL_ALLOC(L, qt, BK * BT);
    TL_ALLOC(L, dt, BT * BV);
    TL_ALLOC(L, di, BT);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) cro_program(L, bug, p0, p1, p2, dh, qt, dt, di);
    free(dh), free(qt), free(dt), free(di);
    return 0;
}

static const crt_bug cro_none = {0};
static int cro_fwd(const td_abi_launch *L) { return td_crt_fwd_run(L, &cro_none); }
static int cro_bwd(const td_abi_launch *L) { return td_cro_bwd_run(L, 0); }

TD_KERNEL(td_k_cro_fwd) = {CRO_FWD, "triton", TD_ABI_HOST, NULL, NULL, NULL, 18, 5, cro_fwd, NULL};
TD_KERNEL(td_k_cro_bwd) = {CRO_BWD, "triton", TD_ABI_HOST, NULL, NULL, NULL, 17, 3, cro_bwd, NULL};
