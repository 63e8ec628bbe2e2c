/* chunk_retention: chunk_retention_fwd_kernel_h and chunk_retention_bwd_kernel_dh on every
 * program of their grids, in binary32, as the Triton programs do it.
 *   fwd_h, program (i_k, i_v, i_bh) of (cdiv(K, BK), cdiv(V, BV), B*H): b_b =
 *     log2(1 - exp2(-5 - i_h)), d_b = exp2(BT b_b), d_i[c] = exp2((BT - c - 1) b_b); the
 *     [BK, BV] state from h0 (or 0); per chunk: store h[t], load the k [BK, BT] and v
 *     [BT, BV] tiles (masked 0), on the ragged last chunk rebind d_b, d_i to T % BT (the
 *     integer tile (T%BT - c - 1) may go negative), h = d_b h + dot(k, v * d_i); ht.
 *   bwd_dh, program (i_k, i_v, i_bh) of (cdiv(K, BT), cdiv(V, BT), B*H): d_b = exp2(BT b_b),
 *     d_i[x] = exp2((x + 1) b_b); for i_t from NT-1 down: dh += dot(do_tile * d_i[:, None],
 *     v_tile) over [BT, BT] tiles at (i_t BT, i_v BT); dh *= d_b; one store at
 *     i_bh s_h_h + i_k K V, offsets (i_v BT, 0).  The dead dh loads are left out. */
#include "chunk_retention_tl.h"

static float crt_f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(td_profile_default(TD_F16), x)); }

typedef struct crt_prog {
    const td_abi_launch *L;
    const crt_bug *bug;
    int64_t T, K, V, BT, BK, BV, NT, ik, iv, bh;
    float *h, *kt, *vt, *di; /* h[e*BV + p], k tile [BK*BT], v tile [BT*BV], d_i [BT] */
} crt_prog;

static float ld_k(const crt_prog *P, int64_t e, int64_t s) {
    const td_abi_launch *L = P->L;
    int64_t k = P->ik * P->BK + e;
    if (k >= P->K || s >= P->T) return 0.0f;
    return tl_load(L, CRT_R_K, P->bh * TL_I(L, CRT_P_SQK_H) + s * TL_I(L, CRT_P_SQK_T) + k * TL_I(L, CRT_P_SQK_D));
}
static float ld_v(const crt_prog *P, int64_t s, int64_t q) {
    const td_abi_launch *L = P->L;
    int64_t v = P->iv * P->BV + q;
    if (v >= P->V || s >= P->T) return 0.0f;
    return tl_load(L, CRT_R_V, P->bh * TL_I(L, CRT_P_SVO_H) + s * TL_I(L, CRT_P_SVO_T) + v * TL_I(L, CRT_P_SVO_D));
}
static void store_h(const crt_prog *P, int reg, int64_t base, int64_t row) {
    for (int64_t e = 0; e < P->BK; e++)
        for (int64_t q = 0; q < P->BV; q++) {
            int64_t k = P->ik * P->BK + e, v = P->iv * P->BV + q;
            if (k < P->K && v < P->V) tl_store(P->L, reg, base + k * row + v, P->h[e * P->BV + q], tl_f32());
        }
}

/* one chunk: h = d_b h + dot(k, v * d_i), the dot's sum in c order */
static void chunk(crt_prog *P, int64_t it, float db) {
    for (int64_t c = 0; c < P->BT; c++) {
        for (int64_t e = 0; e < P->BK; e++) P->kt[e * P->BT + c] = ld_k(P, e, it * P->BT + c);
        for (int64_t q = 0; q < P->BV; q++) P->vt[c * P->BV + q] = ld_v(P, it * P->BT + c, q) * P->di[c];
    }
    for (int64_t e = 0; e < P->BK; e++)
        for (int64_t q = 0; q < P->BV; q++) {
            float dot = 0.0f;
            for (int64_t c = 0; c < P->BT; c++) dot += P->kt[e * P->BT + c] * P->vt[c * P->BV + q];
            float *h = &P->h[e * P->BV + q];
            *h = (P->bug->no_carry ? 0.0f : db * *h) + dot;
            if (P->bug->fp16_state) *h = crt_f16(*h);
        }
}

static void fwd_program(crt_prog *P) {
    const td_abi_launch *L = P->L;
    float bb = log2f(1.0f - exp2f(-5.0f - (float)(P->bh % TL_I(L, CRT_P_H)) * 1.0f));
    float db = exp2f((float)P->BT * bb);
    for (int64_t c = 0; c < P->BT; c++) P->di[c] = exp2f((float)(P->BT - c - 1) * bb);
    for (int64_t e = 0; e < P->BK; e++)
        for (int64_t q = 0; q < P->BV; q++) {
            int64_t k = P->ik * P->BK + e, v = P->iv * P->BV + q;
            P->h[e * P->BV + q] = 0.0f;
            if (TL_I(L, CRT_P_USE_INIT) && k < P->K && v < P->V)
                P->h[e * P->BV + q] = tl_load(L, CRT_R_H0, P->bh * P->K * P->V + k * P->V + v);
        }
    int64_t hb = P->bh * TL_I(L, CRT_P_SH_H), sht = TL_I(L, CRT_P_SH_T), len = P->T % P->BT;
    for (int64_t it = 0; it < P->NT; it++) {
        if (!P->bug->store_after) store_h(P, CRT_R_H, hb + it * P->K * P->V, sht);
        if (it == P->NT - 1 && len != 0 && !P->bug->no_ragged) {
            db = exp2f((float)len * bb);
            for (int64_t c = 0; c < P->BT; c++) P->di[c] = exp2f((float)(len - c - 1) * bb);
        }
        chunk(P, it, db);
        if (P->bug->store_after) store_h(P, CRT_R_H, hb + it * P->K * P->V, sht);
    }
    if (TL_I(L, CRT_P_STORE_FINAL)) store_h(P, CRT_R_HT, P->bh * P->K * P->V, P->V);
}

int td_crt_fwd_run(const td_abi_launch *L, const crt_bug *bug) {
    crt_prog P = {.L = L, .bug = bug};
    P.T = TL_I(L, CRT_P_T), P.K = TL_I(L, CRT_P_K), P.V = TL_I(L, CRT_P_V), P.BT = TL_I(L, CRT_P_BT);
    P.BK = TL_I(L, CRT_P_BK), P.BV = TL_I(L, CRT_P_BV), P.NT = TL_I(L, CRT_P_NT);
    TL_ALLOC(L, P.h, P.BK * P.BV);
    TL_ALLOC(L, P.kt, P.BK * P.BT);
    TL_ALLOC(L, P.vt, P.BT * P.BV);
    TL_ALLOC(L, P.di, P.BT);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
                P.ik = p0, P.iv = p1, P.bh = p2;
                fwd_program(&P);
            }
    free(P.h), free(P.kt), free(P.vt), free(P.di);
    return 0;
}

/* ---- chunk_retention_bwd_kernel_dh ---- */
enum { PB_SVO_H, PB_SVO_T, PB_SVO_D, PB_SH_H, PB_SH_T, PB_H, PB_T, PB_K, PB_V, PB_BT, PB_NT };
enum { RB_V, RB_DO, RB_DH };

/* the masked [BT, BT] tile of a (T, V) parent at (i_t BT, i_v BT) */
static void ld_tile(const td_abi_launch *L, int reg, int64_t bh, int64_t it, int64_t iv, float *t) {
    int64_t BT = TL_I(L, PB_BT), T = TL_I(L, PB_T), V = TL_I(L, PB_V);
    for (int64_t a = 0; a < BT; a++)
        for (int64_t b = 0; b < BT; b++) {
            int64_t s = it * BT + a, v = iv * BT + b;
            t[a * BT + b] = s < T && v < V ? tl_load(L, reg, bh * TL_I(L, PB_SVO_H) + s * TL_I(L, PB_SVO_T) +
                                                                 v * TL_I(L, PB_SVO_D))
                                           : 0.0f;
        }
}

/* bug: 0 the port, 1 d_i broadcast along the contraction (d_i[r], not d_i[x]), 2 no final
 * d_b, 3 the loop stops before chunk 0 (range(NT - 1, 0, -1)) */
int td_crh_bwd_run(const td_abi_launch *L, int bug);
int td_crh_bwd_run(const td_abi_launch *L, int bug) {
    int64_t BT = TL_I(L, PB_BT), K = TL_I(L, PB_K), V = TL_I(L, PB_V), NT = TL_I(L, PB_NT);
    float *o, *w, *acc, *di;
    TL_ALLOC(L, o, BT * BT);
    TL_ALLOC(L, w, BT * BT);
    TL_ALLOC(L, acc, BT * BT);
    TL_ALLOC(L, di, BT);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
                float bb = log2f(1.0f - exp2f(-5.0f - (float)(p2 % TL_I(L, PB_H)) * 1.0f));
                float db = exp2f((float)BT * bb);
                for (int64_t x = 0; x < BT; x++) di[x] = exp2f((float)(x + 1) * bb);
                for (int64_t i = 0; i < BT * BT; i++) acc[i] = 0.0f;
                for (int64_t it = NT - 1; it >= (bug == 3 ? 1 : 0); it--) {
                    ld_tile(L, RB_DO, p2, it, p1, o);
                    ld_tile(L, RB_V, p2, it, p1, w);
                    for (int64_t x = 0; x < BT; x++)
                        for (int64_t y = 0; y < BT; y++) {
                            float dot = 0.0f;
                            for (int64_t r = 0; r < BT; r++) dot += o[x * BT + r] * di[bug == 1 ? r : x] * w[r * BT + y];
                            acc[x * BT + y] += dot;
                        }
                }
                for (int64_t x = 0; x < BT; x++)
                    for (int64_t y = 0; y < BT; y++) {
                        int64_t row = p1 * BT + x;
                        if (row >= K || y >= V) continue;
                        float val = bug == 2 ? acc[x * BT + y] : acc[x * BT + y] * db;
                        tl_store(L, RB_DH, p2 * TL_I(L, PB_SH_H) + p0 * K * V + row * TL_I(L, PB_SH_T) + y, val, tl_f32());
                    }
            }
    free(o), free(w), free(acc), free(di);
    return 0;
}

static const crt_bug crt_none = {0};
static int crh_fwd(const td_abi_launch *L) { return td_crt_fwd_run(L, &crt_none); }
static int crh_bwd(const td_abi_launch *L) { return td_crh_bwd_run(L, 0); }

TD_KERNEL(td_k_crh_fwd) = {CRH_FWD, "triton", TD_ABI_HOST, NULL, NULL, NULL, 18, 5, crh_fwd, NULL};
TD_KERNEL(td_k_crh_bwd) = {CRH_BWD, "triton", TD_ABI_HOST, NULL, NULL, NULL, 11, 3, crh_bwd, NULL};
