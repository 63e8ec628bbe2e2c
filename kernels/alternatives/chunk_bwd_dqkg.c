/* chunk_bwd_dqkg, alternative: lane by lane from the formulas, other orders.
 *
 * alt_lanes_exp2: each dq, dk lane on its own (no tiles): its dots summed from the last
 * term down with FMA, the score weights as (dot * exp2((g_t - g_s) log2 e)) * scale
 * (another association of the three-factor product, exp through exp2 as compiled
 * tl.exp does), the gated term added LAST; dg from the stored dq, dk (FMA for the
 * difference), the chunk's dg_last with the k dkg terms first and the h dh sum last.
 * Admissible: any order and FMA for every sum, the product's association and exp2
 * (contracts/chunk_bwd_dqkg.c). */
#include "tl.h"

static const float LOG2E = 1.44269504088896340736f;

typedef struct alt {
    const td_abi_launch *L;
    int64_t skh, skt, svh, svt, shh, sht, T, K, V, BT, BK, NT, bh;
    float scale;
} alt;

static float ex(float x) { return exp2f(x * LOG2E); }
static float qk(const alt *A, int reg, int64_t t, int64_t kk) { return tl_load(A->L, reg, A->bh * A->skh + t * A->skt + kk); }
static float vo(const alt *A, int reg, int64_t t, int64_t a) { return tl_load(A->L, reg, A->bh * A->svh + t * A->svt + a); }
static float hh(const alt *A, int reg, int64_t col, int64_t a) {
    return col < A->NT * A->K ? tl_load(A->L, reg, A->bh * A->shh + a + col * A->sht) : 0.0f;
}
static float g(const alt *A, int64_t t) { return tl_load(A->L, 4, A->bh * A->T + t); }
static int64_t cend(const alt *A, int64_t t) { return t / A->BT * A->BT + A->BT < A->T ? t / A->BT * A->BT + A->BT : A->T; }

static float dot(const alt *A, int ra, int64_t ta, int rb, int64_t tb, int hb) {
    float s = 0.0f;
    for (int64_t a = A->V - 1; a >= 0; a--) s = fmaf(vo(A, ra, ta, a), hb ? hh(A, rb, tb, a) : vo(A, rb, tb, a), s);
    return s;
}
static float ds(const alt *A, int64_t t, int64_t s) { return dot(A, 5, t, 2, s, 0) * ex(g(A, t) - g(A, s)) * A->scale; }
static float dkg(const alt *A, int64_t t, int64_t kk) {
    return dot(A, 2, t, 6, t / A->BT * A->K + kk, 1) * ex(-g(A, t) + g(A, cend(A, t) - 1));
}
static float dq(const alt *A, int64_t t, int64_t kk) {
    float s = 0.0f;
    for (int64_t u = t; u >= t / A->BT * A->BT; u--) s = fmaf(ds(A, t, u), qk(A, 1, u, kk), s);
    return s + dot(A, 5, t, 3, t / A->BT * A->K + kk, 1) * ex(g(A, t)) * A->scale;
}
static float dk(const alt *A, int64_t t, int64_t kk) {
    float s = 0.0f;
    for (int64_t u = cend(A, t) - 1; u >= t; u--) s = fmaf(ds(A, u, t), qk(A, 0, u, kk), s);
    return s + dkg(A, t, kk);
}
static float dglast(const alt *A, int64_t i_t, int64_t i_k) {
    float s = 0.0f, hd = 0.0f;
    for (int64_t t = cend(A, i_t * A->BT) - 1; t >= i_t * A->BT; t--)
        for (int64_t kk = i_k * A->BK; kk < i_k * A->BK + A->BK && kk < A->K; kk++) s = fmaf(dkg(A, t, kk), qk(A, 1, t, kk), s);
    for (int64_t e = A->BK - 1; e >= 0; e--)
        for (int64_t a = 0; a < A->V; a++) {
            int64_t col = i_t * A->K + i_k * A->BK + e;
            hd = fmaf(hh(A, 3, col, a), hh(A, 6, col, a), hd);
        }
    return s + hd * ex(g(A, cend(A, i_t * A->BT) - 1));
}

static int lanes(const td_abi_launch *L) {
    alt A = {L, TL_I(L, 0), TL_I(L, 1), TL_I(L, 2), TL_I(L, 3), TL_I(L, 4), TL_I(L, 5), TL_I(L, 7), TL_I(L, 8),
             TL_I(L, 9), TL_I(L, 10), TL_I(L, 11), TL_I(L, 13), 0, TL_R(L, 6)};
    float *rows; /* dg of one row, per key block */
    TL_ALLOC(L, rows, (int64_t)L->grid[0]);
    for (A.bh = 0; A.bh < (int64_t)L->grid[2]; A.bh++)
        for (int64_t t = 0; t < A.T; t++) {
            memset(rows, 0, sizeof(float) * L->grid[0]);
            for (int64_t kk = A.K - 1; kk >= 0; kk--) {
                float q = dq(&A, t, kk), k = dk(&A, t, kk), m = qk(&A, 1, t, kk) * k;
                tl_store(L, 7, A.bh * A.skh + t * A.skt + kk, q, tl_f32());
                tl_store(L, 8, A.bh * A.skh + t * A.skt + kk, k, tl_f32());
                rows[kk / A.BK] = fmaf(qk(&A, 0, t, kk), q, -m) + rows[kk / A.BK];
            }
            for (int64_t ik = 0; ik < (int64_t)L->grid[0]; ik++) {
                float r = t == cend(&A, t) - 1 ? dglast(&A, t / A.BT, ik) + rows[ik] : rows[ik];
                tl_store(L, 9, (ik * (int64_t)L->grid[2] + A.bh) * A.T + t, r, tl_f32());
            }
        }
    free(rows);
    return 0;
}

TD_KERNEL(td_a_cbd) = {"chunk_bwd_dqkg.chunk_bwd_dqkg_exec_genuine", "alt_lanes_exp2", TD_ABI_HOST, NULL, NULL, NULL,
                       14, 10, lanes, NULL};
