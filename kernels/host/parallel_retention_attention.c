/* parallel_retention_attention: parallel_retention_fwd_kernel on every program (i_kv, i_c,
 * i_bh) of (NK*NV, cdiv(T, BTL), B*H), and the backward helper _parallel_retention_bwd_dkv
 * once with the case's scalars (i_bh, i_c, i_k, i_v, i_h), in binary32 as the Triton
 * programs do it:
 *   fwd: b_b = log2(1 - exp2(-5 - i_h)), d_h[j] = exp2((BTS - j) b_b); b_q = q * scale; for
 *     the key blocks below the diagonal: b_s = dot(b_q, b_k) * d_h, b_o = b_o * exp2(b_b
 *     BTS) + dot(b_s, b_v); b_o *= d_q[a] = exp2(a b_b); the diagonal blocks with d_s =
 *     exp2((a - j) b_b) where a >= j else 0; store (row < T, column < V).
 *   bwd: b_kd = k * d_h[r] (d_h = exp2((BTL - r) b_b)); from the top block down to
 *     (i_c+1) BTL: do *= d_q[j] (exp2(j b_b)), b_dv = b_dv d_b + dot(dot(b_kd, q), do^T),
 *     b_dk = b_dk d_b + dot(dot(v, do), q^T); b_dk *= d_h * scale, b_dv *= scale; the
 *     diagonal blocks with d_s = exp2((j - r) b_b) scale where r <= j. */
#include "parallel_retention_attention_tl.h"

enum { PF_SQK_H, PF_SQK_T, PF_SQK_D, PF_SVO_H, PF_SVO_T, PF_SVO_D, PF_SCALE, PF_B, PF_H, PF_T, PF_K, PF_V, PF_BTL,
       PF_BTS, PF_BK, PF_BV };
enum { RF_Q, RF_K, RF_V, RF_O };

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

typedef struct pf {
    const td_abi_launch *L;
    int64_t T, K, V, BTL, BTS, BK, BV, ik, iv, ic, bh;
    float bb;
} pf;
static float lq(const pf *P, int reg, int64_t t, int64_t e) { /* q / k[t, i_k BK + e], masked 0 */
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
/* one key block at s0: b_o[a][p] += sum_j (dot(b_q[a], k[s0 + j]) * d[a][j]) v[s0 + j][p] */
static void block(const pf *P, const float *bq, float *bo, float *bs, int64_t s0, int diag, const pra_bug *bug) {
    for (int64_t a = 0; a < P->BTL; a++)
        for (int64_t j = 0; j < P->BTS; j++) {
            float s = 0.0f;
            for (int64_t e = 0; e < P->BK; e++) s += bq[a * P->BK + e] * lq(P, RF_K, s0 + j, e);
            int64_t oq = a, ok = s0 - P->ic * P->BTL + j;
            float d = diag ? ((bug->mask_strict ? oq > ok : oq >= ok) ? exp2f((float)(oq - ok) * P->bb) : 0.0f)
                           : exp2f((float)(P->BTS - j) * P->bb);
            bs[a * P->BTS + j] = s * d;
        }
    for (int64_t a = 0; a < P->BTL; a++)
        for (int64_t p = 0; p < P->BV; p++) {
            float dot = 0.0f;
            for (int64_t j = 0; j < P->BTS; j++) dot += bs[a * P->BTS + j] * lv(P, s0 + j, p);
            bo[a * P->BV + p] += dot;
        }
}
static void fwd_program(pf *P, float *bq, float *bo, float *bs, const pra_bug *bug) {
    const td_abi_launch *L = P->L;
    float scale = TL_R(L, PF_SCALE);
    P->bb = log2f(1.0f - exp2f(-5.0f - (float)(P->bh % TL_I(L, PF_H)) * 1.0f));
    for (int64_t a = 0; a < P->BTL; a++) {
        for (int64_t e = 0; e < P->BK; e++) bq[a * P->BK + e] = lq(P, RF_Q, P->ic * P->BTL + a, e) * scale;
        for (int64_t p = 0; p < P->BV; p++) bo[a * P->BV + p] = 0.0f;
    }
    for (int64_t s0 = 0; s0 < P->ic * P->BTL; s0 += P->BTS) {
        if (!bug->no_blk_decay)
            for (int64_t i = 0; i < P->BTL * P->BV; i++) bo[i] = bo[i] * exp2f(P->bb * (float)P->BTS);
        block(P, bq, bo, bs, s0, 0, bug);
    }
    for (int64_t a = 0; a < P->BTL; a++)
        for (int64_t p = 0; p < P->BV; p++) bo[a * P->BV + p] *= exp2f((float)a * P->bb);
    for (int64_t s0 = P->ic * P->BTL; s0 < (P->ic + 1) * P->BTL; s0 += P->BTS) block(P, bq, bo, bs, s0, 1, bug);
    int64_t base = (P->bh + (int64_t)L->grid[2] * P->ik) * TL_I(L, PF_SVO_H);
    for (int64_t a = 0; a < P->BTL; a++)
        for (int64_t p = 0; p < P->BV; p++) {
            int64_t row = P->ic * P->BTL + a, col = P->iv * P->BV + p;
            if (row < P->T && col < P->V)
                tl_store(L, RF_O, base + row * TL_I(L, PF_SVO_T) + col * TL_I(L, PF_SVO_D), bo[a * P->BV + p], tl_f32());
        }
}
int td_pra_fwd_run(const td_abi_launch *L, const pra_bug *bug) {
    pf P = {.L = L};
    P.T = TL_I(L, PF_T), P.K = TL_I(L, PF_K), P.V = TL_I(L, PF_V), P.BTL = TL_I(L, PF_BTL), P.BTS = TL_I(L, PF_BTS);
    P.BK = TL_I(L, PF_BK), P.BV = TL_I(L, PF_BV);
    int64_t NV = cdiv(P.V, P.BV);
    float *bq, *bo, *bs;
    TL_ALLOC(L, bq, P.BTL * P.BK);
    TL_ALLOC(L, bo, P.BTL * P.BV);
    TL_ALLOC(L, bs, P.BTL * P.BTS);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++) {
                P.ik = p0 / NV, P.iv = p0 % NV, P.ic = p1, P.bh = p2;
                fwd_program(&P, bq, bo, bs, bug);
            }
    free(bq), free(bo), free(bs);
    return 0;
}

/* ---- _parallel_retention_bwd_dkv, one invocation ---- */
enum { PB_IBH, PB_IC, PB_IK, PB_IV, PB_IH, PB_SQK_H, PB_SQK_T, PB_SQK_D, PB_SVO_H, PB_SVO_T, PB_SVO_D, PB_SCALE, PB_B,
       PB_H, PB_T, PB_K, PB_V, PB_BTL, PB_BTS, PB_BK, PB_BV };
enum { RB_Q, RB_K, RB_V, RB_DO, RB_DK, RB_DV };

typedef struct pb {
    const td_abi_launch *L;
    int64_t T, K, V, BTL, BTS, BK, BV, ik, iv, ic, bh;
    float *bk, *bv, *bkd, *dk, *dv, *bq, *bdo, *s, *ds;
} pb;
/* the q [BK, BTS] and do [BV, BTS] tiles of the keys i .. i + BTS (masked 0), do * d[j] */
static void pb_tiles(pb *P, int64_t i, float bb, int decay) {
    const td_abi_launch *L = P->L;
    for (int64_t j = 0; j < P->BTS; j++) {
        int64_t t = i + j;
        for (int64_t e = 0; e < P->BK; e++) {
            int64_t x = P->ik * P->BK + e;
            P->bq[e * P->BTS + j] = t < P->T && x < P->K ? tl_load(L, RB_Q, P->bh * TL_I(L, PB_SQK_H) + t * TL_I(L, PB_SQK_T) + x) : 0.0f;
        }
        for (int64_t p = 0; p < P->BV; p++) {
            int64_t x = P->iv * P->BV + p;
            float d = t < P->T && x < P->V ? tl_load(L, RB_DO, P->bh * TL_I(L, PB_SVO_H) + t * TL_I(L, PB_SVO_T) + x) : 0.0f;
            P->bdo[p * P->BTS + j] = decay ? d * exp2f((float)j * bb) : d;
        }
    }
}
/* s = dot(kk, q) * w, ds = dot(v, do) * w; dk += dot(ds, q^T), dv += dot(s, do^T) */
static void pb_acc(pb *P, const float *kk, const float *w) {
    for (int64_t r = 0; r < P->BTL; r++)
        for (int64_t j = 0; j < P->BTS; j++) {
            float s = 0.0f, ds = 0.0f;
            for (int64_t e = 0; e < P->BK; e++) s += kk[r * P->BK + e] * P->bq[e * P->BTS + j];
            for (int64_t p = 0; p < P->BV; p++) ds += P->bv[r * P->BV + p] * P->bdo[p * P->BTS + j];
            P->s[r * P->BTS + j] = w ? s * w[r * P->BTS + j] : s;
            P->ds[r * P->BTS + j] = w ? ds * w[r * P->BTS + j] : ds;
        }
    for (int64_t r = 0; r < P->BTL; r++) {
        for (int64_t p = 0; p < P->BV; p++) {
            float dot = 0.0f;
            for (int64_t j = 0; j < P->BTS; j++) dot += P->s[r * P->BTS + j] * P->bdo[p * P->BTS + j];
            P->dv[r * P->BV + p] += dot;
        }
        for (int64_t e = 0; e < P->BK; e++) {
            float dot = 0.0f;
            for (int64_t j = 0; j < P->BTS; j++) dot += P->ds[r * P->BTS + j] * P->bq[e * P->BTS + j];
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
static void pb_run(pb *P, const pra_bug *bug, float *w) {
    const td_abi_launch *L = P->L;
    float bb = log2f(1.0f - exp2f(-5.0f - (float)TL_I(L, PB_IH) * 1.0f)), db = exp2f(bb * (float)P->BTS);
    float scale = TL_R(L, PB_SCALE);
    for (int64_t r = 0; r < P->BTL; r++) {
        int64_t row = P->ic * P->BTL + r;
        float dh = exp2f((float)(P->BTL - r) * bb);
        for (int64_t e = 0; e < P->BK; e++) {
            int64_t x = P->ik * P->BK + e;
            P->bk[r * P->BK + e] = row < P->T && x < P->K ? tl_load(L, RB_K, P->bh * TL_I(L, PB_SQK_H) + row * TL_I(L, PB_SQK_T) + x) : 0.0f;
            P->bkd[r * P->BK + e] = P->bk[r * P->BK + e] * dh;
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
        pb_tiles(P, i, bb, 1);
        for (int64_t x = 0; x < P->BTL * P->BV; x++) P->dv[x] *= db;
        for (int64_t x = 0; x < P->BTL * P->BK; x++) P->dk[x] *= db;
        pb_acc(P, P->bkd, NULL); /* b_s = dot(b_kd, b_q), b_ds = dot(b_v, b_do), no mask */
    }
    for (int64_t r = 0; r < P->BTL; r++) {
        float f = exp2f((float)(P->BTL - r) * bb) * scale;
        for (int64_t e = 0; e < P->BK; e++) P->dk[r * P->BK + e] *= f;
        for (int64_t p = 0; p < P->BV; p++) P->dv[r * P->BV + p] *= scale;
    }
    for (int64_t i = P->ic * P->BTL; i < (P->ic + 1) * P->BTL; i += P->BTS) {
        pb_tiles(P, i, bb, 0);
        for (int64_t r = 0; r < P->BTL; r++)
            for (int64_t j = 0; j < P->BTS; j++) {
                int64_t oq = i - P->ic * P->BTL + j, ok = r;
                int keep = bug->mask_strict ? ok < oq : ok <= oq;
                w[r * P->BTS + j] = (keep ? exp2f((float)(oq - ok) * bb) : 0.0f) * scale;
            }
        pb_acc(P, P->bk, w);
    }
    int64_t BH = TL_I(L, PB_B) * TL_I(L, PB_H);
    pb_store(P, RB_DK, P->dk, P->BK, P->K, P->ik, (P->bh + BH * P->iv) * TL_I(L, PB_SQK_H), TL_I(L, PB_SQK_T));
    pb_store(P, RB_DV, P->dv, P->BV, P->V, P->iv, (P->bh + BH * P->ik) * TL_I(L, PB_SVO_H), TL_I(L, PB_SVO_T));
}
int td_pra_bwd_run(const td_abi_launch *L, const pra_bug *bug) {
    pb P = {.L = L};
    P.T = TL_I(L, PB_T), P.K = TL_I(L, PB_K), P.V = TL_I(L, PB_V), P.BTL = TL_I(L, PB_BTL), P.BTS = TL_I(L, PB_BTS);
    P.BK = TL_I(L, PB_BK), P.BV = TL_I(L, PB_BV), P.ik = TL_I(L, PB_IK), P.iv = TL_I(L, PB_IV), P.ic = TL_I(L, PB_IC);
    P.bh = TL_I(L, PB_IBH);
    float *w;
    TL_ALLOC(L, P.bk, P.BTL * P.BK);
    TL_ALLOC(L, P.bkd, P.BTL * P.BK);
    TL_ALLOC(L, P.dk, P.BTL * P.BK);
    TL_ALLOC(L, P.bv, P.BTL * P.BV);
    TL_ALLOC(L, P.dv, P.BTL * P.BV);
    TL_ALLOC(L, P.bq, P.BK * P.BTS);
    TL_ALLOC(L, P.bdo, P.BV * P.BTS);
    TL_ALLOC(L, P.s, P.BTL * P.BTS);
    TL_ALLOC(L, P.ds, P.BTL * P.BTS);
    TL_ALLOC(L, w, P.BTL * P.BTS);
    pb_run(&P, bug, w);
    free(P.bk), free(P.bkd), free(P.dk), free(P.bv), free(P.dv), free(P.bq), free(P.bdo), free(P.s), free(P.ds), free(w);
    return 0;
}

static const pra_bug pra_none = {0};
static int pra_fwd(const td_abi_launch *L) { return td_pra_fwd_run(L, &pra_none); }
static int pra_bwd(const td_abi_launch *L) { return td_pra_bwd_run(L, &pra_none); }

TD_KERNEL(td_k_pra_fwd) = {PRA_FWD, "triton", TD_ABI_HOST, NULL, NULL, NULL, 16, 4, pra_fwd, NULL};
TD_KERNEL(td_k_pra_bwd) = {PRA_BWD, "triton", TD_ABI_HOST, NULL, NULL, NULL, 21, 6, pra_bwd, NULL};
