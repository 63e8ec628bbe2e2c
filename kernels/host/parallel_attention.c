/* parallel_attention: parallel_rebased_fwd_kernel on every program (i_kv, i_c, i_bh) of
 * (NK*NV, cdiv(T, BTL), B*H), and the backward helper _parallel_rebased_bwd_dkv once with
 * the case's scalars, in binary32 as the Triton programs do it:
 *   fwd: b_q = q * scale; for the key blocks below the diagonal: b_s = dot(b_q, b_k),
 *     b_s = b_s * b_s, b_z += sum_j b_s, b_o += dot(b_s, b_v); the diagonal blocks the
 *     same with b_s masked to 0 where o_q < o_k (after the square); store o, and z
 *     (rows < T).
 *   bwd: from the top block down to (i_c+1) BTL: b_s = dot(b_k, b_q) scale, b_dv +=
 *     dot(b_s^2, do^T), b_ds = dot(b_v, b_do) scale (+ dz scale when i_v = 0), b_dk +=
 *     dot(2 b_ds b_s, q^T); the diagonal blocks with the mask o_k <= o_q and b_ds =
 *     (dot(b_v, b_do) + dz) scale there. */
#include "parallel_attention_tl.h"

enum { PF_SQK_H, PF_SQK_T, PF_SQK_D, PF_SVO_H, PF_SVO_T, PF_SVO_D, PF_SCALE, PF_B, PF_H, PF_T, PF_K, PF_V, PF_BTL,
       PF_BTS, PF_BK, PF_BV };
enum { RF_Q, RF_K, RF_V, RF_O, RF_Z };

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

typedef struct pf {
    const td_abi_launch *L;
    int64_t T, K, V, BTL, BTS, BK, BV, ik, iv, ic, bh;
} pf;
static float lq(const pf *P, int reg, int64_t t, int64_t e) {
    int64_t x = P->ik * P->BK + e;
    if (t >= P->T || x >= P->K) return 0.0f;
    const td_abi_launch *L = P->L;
    return tl_load(L, reg, P->bh * TL_I(L, PF_SQK_H) + t * TL_I(L, PF_SQK_T) + x * TL_I(L, PF_SQK_D));
}
static float lv(const pf *P, int64_t t, int64_t p) {
    int64_t x = P->iv * P->BV + p;
    if (t >= P->T || x >= P->V) return 0.0f;
    const td_abi_launch *L = P->L;
    return tl_load(L, RF_V, P->bh * TL_I(L, PF_SVO_H) + t * TL_I(L, PF_SVO_T) + x * TL_I(L, PF_SVO_D));
}
static void block(const pf *P, const float *bq, float *bo, float *bz, float *bs, int64_t s0, int diag, const pa_bug *bug) {
    for (int64_t a = 0; a < P->BTL; a++) {
        for (int64_t j = 0; j < P->BTS; j++) {
            float s = 0.0f;
            for (int64_t e = 0; e < P->BK; e++) s += bq[a * P->BK + e] * lq(P, RF_K, s0 + j, e);
            s = bug->no_square ? s : s * s;
            int64_t ok = s0 - P->ic * P->BTL + j;
            if (diag && !(bug->mask_strict ? a > ok : a >= ok)) s = 0.0f;
            bs[a * P->BTS + j] = s;
        }
        bz[a] += tl_sum(&bs[a * P->BTS], P->BTS);
    }
    for (int64_t a = 0; a < P->BTL; a++)
        for (int64_t p = 0; p < P->BV; p++) {
            float dot = 0.0f;
            for (int64_t j = 0; j < P->BTS; j++) dot += bs[a * P->BTS + j] * lv(P, s0 + j, p);
            bo[a * P->BV + p] += dot;
        }
}
static void fwd_program(pf *P, float *bq, float *bo, float *bz, float *bs, const pa_bug *bug) {
    const td_abi_launch *L = P->L;
    float scale = TL_R(L, PF_SCALE);
    for (int64_t a = 0; a < P->BTL; a++) {
        for (int64_t e = 0; e < P->BK; e++) bq[a * P->BK + e] = lq(P, RF_Q, P->ic * P->BTL + a, e) * scale;
        for (int64_t p = 0; p < P->BV; p++) bo[a * P->BV + p] = 0.0f;
        bz[a] = 0.0f;
    }
    for (int64_t s0 = 0; s0 < P->ic * P->BTL; s0 += P->BTS) block(P, bq, bo, bz, bs, s0, 0, bug);
    for (int64_t s0 = P->ic * P->BTL; s0 < (P->ic + 1) * P->BTL; s0 += P->BTS) block(P, bq, bo, bz, bs, s0, 1, bug);
    int64_t blk = P->bh + (int64_t)L->grid[2] * P->ik;
    for (int64_t a = 0; a < P->BTL; a++) {
        int64_t row = P->ic * P->BTL + a;
        if (row >= P->T) continue;
        for (int64_t p = 0; p < P->BV; p++)
            if (P->iv * P->BV + p < P->V)
                tl_store(L, RF_O, blk * TL_I(L, PF_SVO_H) + row * TL_I(L, PF_SVO_T) + (P->iv * P->BV + p) * TL_I(L, PF_SVO_D),
                         bo[a * P->BV + p], tl_f32());
        tl_store(L, RF_Z, blk * P->T + row, bz[a], tl_f32());
    }
}
int td_pa_fwd_run(const td_abi_launch *L, const pa_bug *bug) {
    pf P = {.L = L};
    P.T = TL_I(L, PF_T), P.K = TL_I(L, PF_K), P.V = TL_I(L, PF_V), P.BTL = TL_I(L, PF_BTL), P.BTS = TL_I(L, PF_BTS);
    P.BK = TL_I(L, PF_BK), P.BV = TL_I(L, PF_BV);
    int64_t NV = cdiv(P.V, P.BV);
    float *bq, *bo, *bz, *bs;
    TL_ALLOC(L, bq, P.BTL * P.BK);
    TL_ALLOC(L, bo, P.BTL * P.BV);
    TL_ALLOC(L, bz, P.BTL);
    TL_ALLOC(L, bs, P.BTL * P.BTS);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
                P.ik = p0 / NV, P.iv = p0 % NV, P.ic = p1, P.bh = p2;
                /* Triton's i32 pid times a stride that fits i32: the first q load faults once it wraps */
                if (bug->offset_i32 && tl_fault(L, RF_Q, tl_i32((int64_t)p2 * tl_i32(TL_I(L, PF_SQK_H))), 1, 1, p0)) {
                    free(bq), free(bo), free(bz), free(bs);
                    return 1;
                }
                fwd_program(&P, bq, bo, bz, bs, bug);
            }
    free(bq), free(bo), free(bz), free(bs);
    return 0;
}

/* ---- _parallel_rebased_bwd_dkv, one invocation ---- */
enum { PB_IBH, PB_IC, PB_IK, PB_IV, PB_IH, PB_SQK_H, PB_SQK_T, PB_SQK_D, PB_SVO_H, PB_SVO_T, PB_SVO_D, PB_SCALE, PB_B,
       PB_H, PB_T, PB_K, PB_V, PB_BTL, PB_BTS, PB_BK, PB_BV };
enum { RB_Q, RB_K, RB_V, RB_DO, RB_DZ, RB_DK, RB_DV };

typedef struct pb {
    const td_abi_launch *L;
    int64_t T, K, V, BTL, BTS, BK, BV, ik, iv, ic, bh;
    float scale;
    float *bk, *bv, *dk, *dv, *bq, *bdo, *bdz;
} pb;
static void pb_tiles(pb *P, int64_t i) {
    const td_abi_launch *L = P->L;
    for (int64_t j = 0; j < P->BTS; j++) {
        int64_t t = i + j;
        for (int64_t e = 0; e < P->BK; e++) {
            int64_t x = P->ik * P->BK + e;
            P->bq[e * P->BTS + j] = t < P->T && x < P->K ? tl_load(L, RB_Q, P->bh * TL_I(L, PB_SQK_H) + t * TL_I(L, PB_SQK_T) + x) : 0.0f;
        }
        for (int64_t p = 0; p < P->BV; p++) {
            int64_t x = P->iv * P->BV + p;
            P->bdo[p * P->BTS + j] = t < P->T && x < P->V ? tl_load(L, RB_DO, P->bh * TL_I(L, PB_SVO_H) + t * TL_I(L, PB_SVO_T) + x) : 0.0f;
        }
        P->bdz[j] = t < P->T ? tl_load(L, RB_DZ, P->bh * P->T + t) : 0.0f;
    }
}
/* one key block at i: diag = the masked diagonal form */
static void pb_block(pb *P, int64_t i, int diag, const pa_bug *bug, float *s2, float *g) {
    int dz = P->iv == 0 || bug->dz_all;
    for (int64_t r = 0; r < P->BTL; r++)
        for (int64_t j = 0; j < P->BTS; j++) {
            float s = 0.0f, ds = 0.0f;
            for (int64_t e = 0; e < P->BK; e++) s += P->bk[r * P->BK + e] * P->bq[e * P->BTS + j];
            for (int64_t p = 0; p < P->BV; p++) ds += P->bv[r * P->BV + p] * P->bdo[p * P->BTS + j];
            s *= P->scale;
            float sq = s * s;
            int64_t oq = i - P->ic * P->BTL + j;
            int keep = !diag || (bug->mask_strict ? r < oq : r <= oq);
            if (diag) ds = (dz ? ds + P->bdz[j] : ds) * P->scale;
            else ds = dz ? ds * P->scale + P->bdz[j] * P->scale : ds * P->scale;
            s2[r * P->BTS + j] = keep ? sq : 0.0f;
            g[r * P->BTS + j] = keep ? 2.0f * ds * s : 0.0f;
        }
    for (int64_t r = 0; r < P->BTL; r++) {
        for (int64_t p = 0; p < P->BV; p++) {
            float dot = 0.0f;
            for (int64_t j = 0; j < P->BTS; j++) dot += s2[r * P->BTS + j] * P->bdo[p * P->BTS + j];
            P->dv[r * P->BV + p] += dot;
        }
        for (int64_t e = 0; e < P->BK; e++) {
            float dot = 0.0f;
            for (int64_t j = 0; j < P->BTS; j++) dot += g[r * P->BTS + j] * P->bq[e * P->BTS + j];
            P->dk[r * P->BK + e] += dot;
        }
    }
}
static void pb_store(const pb *P, int reg, const float *x, int64_t Bc, int64_t D, int64_t ib, int64_t base, int64_t st) {
    for (int64_t r = 0; r < P->BTL; r++)
        for (int64_t c = 0; c < Bc; c++) {
            int64_t row = P->ic * P->BTL + r, col = ib * Bc + c;
            if (row < P->T && col < D) tl_store(P->L, reg, base + row * st + col, x[r * Bc + c], tl_f32());
        }
}
static void pb_run(pb *P, const pa_bug *bug, float *s2, float *g) {
    const td_abi_launch *L = P->L;
    for (int64_t r = 0; r < P->BTL; r++) {
        int64_t row = P->ic * P->BTL + r;
        for (int64_t e = 0; e < P->BK; e++) {
            int64_t x = P->ik * P->BK + e;
            P->bk[r * P->BK + e] = row < P->T && x < P->K ? tl_load(L, RB_K, P->bh * TL_I(L, PB_SQK_H) + row * TL_I(L, PB_SQK_T) + x) : 0.0f;
            P->dk[r * P->BK + e] = 0.0f;
        }
        for (int64_t p = 0; p < P->BV; p++) {
            int64_t x = P->iv * P->BV + p;
            P->bv[r * P->BV + p] = row < P->T && x < P->V ? tl_load(L, RB_V, P->bh * TL_I(L, PB_SVO_H) + row * TL_I(L, PB_SVO_T) + x) : 0.0f;
            P->dv[r * P->BV + p] = 0.0f;
        }
    }
    int64_t NB = cdiv(P->T, P->BTS) * P->BTS, stop = (P->ic + 1) * P->BTL - P->BTS;
    for (int64_t i = NB - P->BTS - (bug->skip_far ? P->BTS : 0); i > stop; i -= P->BTS) {
        pb_tiles(P, i);
        pb_block(P, i, 0, bug, s2, g);
    }
    for (int64_t i = P->ic * P->BTL; i < (P->ic + 1) * P->BTL; i += P->BTS) {
        pb_tiles(P, i);
        pb_block(P, i, 1, bug, s2, g);
    }
    int64_t BH = TL_I(L, PB_B) * TL_I(L, PB_H);
    pb_store(P, RB_DK, P->dk, P->BK, P->K, P->ik, (P->bh + BH * P->iv) * TL_I(L, PB_SQK_H), TL_I(L, PB_SQK_T));
    pb_store(P, RB_DV, P->dv, P->BV, P->V, P->iv, (P->bh + BH * P->ik) * TL_I(L, PB_SVO_H), TL_I(L, PB_SVO_T));
}
int td_pa_bwd_run(const td_abi_launch *L, const pa_bug *bug) {
    pb P = {.L = L};
    P.T = TL_I(L, PB_T), P.K = TL_I(L, PB_K), P.V = TL_I(L, PB_V), P.BTL = TL_I(L, PB_BTL), P.BTS = TL_I(L, PB_BTS);
    P.BK = TL_I(L, PB_BK), P.BV = TL_I(L, PB_BV), P.ik = TL_I(L, PB_IK), P.iv = TL_I(L, PB_IV), P.ic = TL_I(L, PB_IC);
    P.bh = TL_I(L, PB_IBH), P.scale = TL_R(L, PB_SCALE);
    float *s2, *g;
    TL_ALLOC(L, P.bk, P.BTL * P.BK);
    TL_ALLOC(L, P.dk, P.BTL * P.BK);
    TL_ALLOC(L, P.bv, P.BTL * P.BV);
    TL_ALLOC(L, P.dv, P.BTL * P.BV);
    TL_ALLOC(L, P.bq, P.BK * P.BTS);
    TL_ALLOC(L, P.bdo, P.BV * P.BTS);
    TL_ALLOC(L, P.bdz, P.BTS);
    TL_ALLOC(L, s2, P.BTL * P.BTS);
    TL_ALLOC(L, g, P.BTL * P.BTS);
    pb_run(&P, bug, s2, g);
    free(P.bk), free(P.dk), free(P.bv), free(P.dv), free(P.bq), free(P.bdo), free(P.bdz), free(s2), free(g);
    return 0;
}

static const pa_bug pa_none = {0};
static int pa_fwd(const td_abi_launch *L) { return td_pa_fwd_run(L, &pa_none); }
static int pa_bwd(const td_abi_launch *L) { return td_pa_bwd_run(L, &pa_none); }

TD_KERNEL(td_k_pa_fwd) = {PA_FWD, "triton", TD_ABI_HOST, NULL, NULL, NULL, 16, 5, pa_fwd, NULL};
TD_KERNEL(td_k_pa_bwd) = {PA_BWD, "triton", TD_ABI_HOST, NULL, NULL, NULL, 21, 7, pa_bwd, NULL};
