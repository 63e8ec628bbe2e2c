/* chunk_delta_fwd on the CPU: the Triton program chunk_delta_rule_fwd_kernel_h,
 * program by program.
 *
 * Exec: program (i_k = 0, i_v, i_bh) seeds b_h [BK, BV] from initial_state (or 0); per
 * chunk i_t < NT stores b_h to h[i_t] (boundary-checked), then per inner chunk i_c <
 * cdiv(BT, BC) loads k [BK, BC], d [BC, BK], v [BC, BV] (rows past T, columns past V as
 * 0), b_v -= d @ b_h, stores b_v to v_new, b_h_cumsum += k @ b_v; then b_h += b_h_cumsum;
 * finally b_h to final_state if STORE_FINAL_STATE.  The dots are tl_sum over the
 * contraction axis.
 * Parameters: USE_INITIAL_STATE STORE_FINAL_STATE s_qk_h s_qk_t s_qk_d s_vo_h s_vo_t
 * s_vo_d s_h_h s_h_t H T K V BT BC BK BV NT.  Regions: k v d v_new h initial_state
 * final_state.
 * State store (the slice of the i_t loop's first statement): program (i_k, i_v, i_bh)
 * stores its [BK, BV] tile of the register b_h (the fiction region HPre, read at the
 * store's own offsets) through p_h = make_block_ptr(h + i_bh*s_h_h + i_t*K*V, (K, V),
 * (s_h_t, 1), (i_k*BK, i_v*BV), (BK, BV)), boundary_check=(0, 1): rows k < K and
 * columns v < V only.
 * Parameters: i_t s_h_h s_h_t K V BK BV.  Regions: HPre h. */
#include <stdlib.h>

#include "chunk_delta_fwd_tl.h"

static float cdf_f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(td_profile_default(TD_F16), x)); }

typedef struct cdf_prog {
    const td_abi_launch *L;
    const cdf_bug *bug;
    int64_t T, K, V, BT, BC, BK, BV, NT, iv, bh;
    float *h, *cum, *bv, *tmp; /* b_h, b_h_cumsum [BK * BV], b_v [BC * BV], a contraction row */
} cdf_prog;

static int64_t col(const cdf_prog *P, int64_t q) { return P->iv * P->BV + q; }
static float ld_qk(const cdf_prog *P, int reg, int64_t t, int64_t e) { /* k[e, t], d[t, e] */
    const td_abi_launch *L = P->L;
    if (t >= P->T || e >= P->K) return 0.0f;
    return tl_load(L, reg, P->bh * TL_I(L, CDF_P_SQKH) + t * TL_I(L, CDF_P_SQKT) + e * TL_I(L, CDF_P_SQKD));
}
static int64_t vo_off(const cdf_prog *P, int64_t t, int64_t q) {
    return P->bh * TL_I(P->L, CDF_P_SVOH) + t * TL_I(P->L, CDF_P_SVOT) + col(P, q) * TL_I(P->L, CDF_P_SVOD);
}
static void store_state(const cdf_prog *P, int reg, int64_t base, int64_t rowstride) {
    for (int64_t e = 0; e < P->BK; e++)
        for (int64_t q = 0; q < P->BV; q++)
            if (e < P->K && col(P, q) < P->V)
                tl_store(P->L, reg, base + e * rowstride + col(P, q), P->h[e * P->BV + q], tl_f32());
}

/* one inner chunk starting at time t0: b_v = v - d @ b_h, v_new, b_h_cumsum += k @ b_v */
static void inner(cdf_prog *P, int64_t t0) {
    for (int64_t r = 0; r < P->BC; r++)
        for (int64_t q = 0; q < P->BV; q++) {
            int act = t0 + r < P->T && col(P, q) < P->V;
            for (int64_t e = 0; e < P->BK; e++) {
                float he = P->h[e * P->BV + q];
                P->tmp[e] = ld_qk(P, CDF_R_D, t0 + r, e) * (P->bug->fp16_dot ? cdf_f16(he) : he);
            }
            float v = act ? tl_load(P->L, CDF_R_V, vo_off(P, t0 + r, q)) : 0.0f;
            P->bv[r * P->BV + q] = v - tl_sum(P->tmp, P->BK);
            if (act) tl_store(P->L, CDF_R_VNEW, vo_off(P, t0 + r, q), P->bv[r * P->BV + q], tl_f32());
            if (P->bug->raw_v) P->bv[r * P->BV + q] = v;
        }
    for (int64_t e = 0; e < P->BK; e++)
        for (int64_t q = 0; q < P->BV; q++) {
            for (int64_t r = 0; r < P->BC; r++) P->tmp[r] = ld_qk(P, CDF_R_K, t0 + r, e) * P->bv[r * P->BV + q];
            P->cum[e * P->BV + q] += tl_sum(P->tmp, P->BC);
        }
}

static void program(cdf_prog *P) {
    const td_abi_launch *L = P->L;
    int64_t KV = P->K * P->V, n = P->BK * P->BV;
    for (int64_t e = 0; e < P->BK; e++)
        for (int64_t q = 0; q < P->BV; q++)
            P->h[e * P->BV + q] = TL_I(L, CDF_P_USE_INIT) && e < P->K && col(P, q) < P->V
                                      ? tl_load(L, CDF_R_H0, P->bh * KV + e * P->V + col(P, q)) : 0.0f;
    int64_t hbase = P->bh * TL_I(L, CDF_P_SHH), sht = TL_I(L, CDF_P_SHT);
    for (int64_t it = 0; it < P->NT; it++) {
        if (!P->bug->store_after) store_state(P, CDF_R_H, hbase + it * KV, sht);
        for (int64_t i = 0; i < n; i++) P->cum[i] = 0.0f;
        for (int64_t ic = 0; ic < (P->BT + P->BC - 1) / P->BC; ic++) inner(P, it * P->BT + ic * P->BC);
        if (!P->bug->no_carry)
            for (int64_t i = 0; i < n; i++) P->h[i] += P->cum[i];
        if (P->bug->store_after) store_state(P, CDF_R_H, hbase + it * KV, sht);
    }
    if (TL_I(L, CDF_P_STORE_FINAL)) store_state(P, CDF_R_HT, P->bh * KV, P->V);
}

int td_cdf_run(const td_abi_launch *L, const cdf_bug *bug) {
    cdf_prog P = {.L = L, .bug = bug, .T = TL_I(L, CDF_P_T), .K = TL_I(L, CDF_P_K), .V = TL_I(L, CDF_P_V),
                  .BT = TL_I(L, CDF_P_BT), .BC = TL_I(L, CDF_P_BC), .BK = TL_I(L, CDF_P_BK), .BV = TL_I(L, CDF_P_BV),
                  .NT = TL_I(L, CDF_P_NT)};
    int64_t w = P.BK > P.BC ? P.BK : P.BC;
    P.h = malloc((size_t)(P.BK * P.BV) * sizeof(float)), P.cum = malloc((size_t)(P.BK * P.BV) * sizeof(float));
    P.bv = malloc((size_t)(P.BC * P.BV) * sizeof(float)), P.tmp = malloc((size_t)w * sizeof(float));
    int rc = !P.h || !P.cum || !P.bv || !P.tmp;
    for (uint32_t bh = 0; bh < L->grid[2] && !rc; bh++)
        for (uint32_t iv = 0; iv < L->grid[1]; iv++) {
            P.bh = bh, P.iv = iv;
            program(&P);
        }
    free(P.h), free(P.cum), free(P.bv), free(P.tmp);
    return rc;
}

int td_cdf_store_run(const td_abi_launch *L, const cdf_store_bug *bug) {
    int64_t K = TL_I(L, CDF_PS_K), V = TL_I(L, CDF_PS_V), BK = TL_I(L, CDF_PS_BK), BV = TL_I(L, CDF_PS_BV);
    int64_t sht = TL_I(L, CDF_PS_SHT), shh = TL_I(L, CDF_PS_SHH), it = TL_I(L, CDF_PS_IT);
    int64_t slot = it * K * (bug->slot_stride ? sht : V);
    for (uint32_t bh = 0; bh < L->grid[2]; bh++)
        for (uint32_t iv = 0; iv < L->grid[1]; iv++)
            for (uint32_t ik = 0; ik < L->grid[0]; ik++)
                for (int64_t r = 0; r < BK; r++)
                    for (int64_t c = 0; c < BV; c++) {
                        int64_t k = ik * BK + r, v = iv * BV + c, off = bh * shh + slot + k * sht + v;
                        if (k >= K || (v >= V && !bug->no_vcheck)) continue;
                        /* a mutant's offset may leave the regions: a device fault */
                        if (tl_fault(L, 0, off, 1, 1, iv) || tl_fault(L, 1, off, 1, 1, iv)) return 1;
                        float x = tl_load(L, 0, off);
                        tl_store(L, 1, off, bug->fp16 ? cdf_f16(x) : x, tl_f32());
                    }
    return 0;
}

static const cdf_bug cdf_none = {0};
static int cdf_kernel(const td_abi_launch *L) { return td_cdf_run(L, &cdf_none); }
static const cdf_store_bug cdf_store_none = {0};
static int cdf_store(const td_abi_launch *L) { return td_cdf_store_run(L, &cdf_store_none); }

TD_KERNEL(td_k_cdf_exec) = {CDF_EXEC, "triton", TD_ABI_HOST, NULL, NULL, NULL, 19, 7, cdf_kernel, NULL};
TD_KERNEL(td_k_cdf_store) = {CDF_STORE, "triton", TD_ABI_HOST, NULL, NULL, NULL, 7, 2, cdf_store, NULL};
TD_KERNEL(td_k_cdf_store_r) = {CDF_STORE_R, "triton", TD_ABI_HOST, NULL, NULL, NULL, 7, 2, cdf_store, NULL};
