/* lightning_attention: _fwd_kernel on every program (off_bh, off_e) of the grid
 * (b*h, cdiv(e, BLOCK_MODEL)), in binary32: kv [d, BM] = 0; per block i the row-masked
 * tiles q [BLOCK, d], k_trans [d, BLOCK], v [BLOCK, BM]; qk = q k_trans with index =
 * r - j < 0 zeroed; o = qk v + q kv (each tl.dot a pairwise tree per output); the
 * row-masked store; then kv += k_trans v.  The summary's staged tiles at block m:
 * KVPrev, KTrans, VTile (scratch) before the block, OInter = q kv, KVOut after the kv
 * update, each at the program's tile (off_bh * NE + off_e).
 * gradStore: _bwd's masked tile copy GradPre -> Out over (b*h, cdiv(n, BLOCK)). */
#include "lightning_attention_tl.h"

typedef struct la_prog {
    const td_abi_launch *L;
    const la_bug *bug;
    int64_t n, d, e, B, BM, m, bh, pe, g;
    float *q, *kt, *v, *kv, *qk, *row; /* [B, d], [d, B], [B, BM], [d, BM], [B, B], a row of products */
} la_prog;

static float dot(la_prog *P, const float *x, int64_t xs, const float *y, int64_t ys, int64_t k) {
    for (int64_t i = 0; i < k; i++) P->row[i] = x[i * xs] * y[i * ys];
    return tl_sum(P->row, k);
}

static void load_block(la_prog *P, int64_t i) {
    const td_abi_launch *L = P->L;
    for (int64_t r = 0; r < P->B; r++) {
        int64_t row = i * P->B + r, act = row < P->n;
        for (int64_t a = 0; a < P->d; a++) {
            P->q[r * P->d + a] = act ? tl_load(L, LA_R_Q, P->bh * P->n * P->d + row * P->d + a) : 0.0f;
            P->kt[a * P->B + r] = act ? tl_load(L, LA_R_K, P->bh * P->n * P->d + row * P->d + a) : 0.0f;
        }
        for (int64_t c = 0; c < P->BM; c++)
            P->v[r * P->BM + c] = act ? tl_load(L, LA_R_V, P->bh * P->n * P->e + row * P->e + P->pe * P->BM + c) : 0.0f;
    }
}
static void stage(la_prog *P, int reg, const float *x, int64_t len) {
    for (int64_t i = 0; i < len; i++) tl_store(P->L, reg, P->g * len + i, x[i], tl_f32());
}
static void kv_update(la_prog *P) {
    for (int64_t a = 0; a < P->d; a++)
        for (int64_t c = 0; c < P->BM; c++) P->kv[a * P->BM + c] += dot(P, P->kt + a * P->B, 1, P->v + c, P->BM, P->B);
}

static void block(la_prog *P, int64_t i) {
    int64_t B = P->B, BM = P->BM, d = P->d, staged = i == P->m;
    load_block(P, i);
    if (P->bug->kv_reset)
        for (int64_t x = 0; x < d * BM; x++) P->kv[x] = 0.0f;
    if (staged) stage(P, LA_R_KVPREV, P->kv, d * BM), stage(P, LA_R_KTRANS, P->kt, d * B), stage(P, LA_R_VTILE, P->v, B * BM);
    if (P->bug->kv_first) kv_update(P);
    for (int64_t r = 0; r < B; r++)
        for (int64_t j = 0; j < B; j++) {
            int64_t index = r - j;
            float s = dot(P, P->q + r * d, 1, P->kt + j, B, d);
            P->qk[r * B + j] = (P->bug->strict_mask ? index > 0 : index >= 0) ? s : 0.0f;
        }
    for (int64_t r = 0; r < B; r++)
        for (int64_t c = 0; c < BM; c++) {
            float intra = dot(P, P->qk + r * B, 1, P->v + c, BM, B), inter = dot(P, P->q + r * d, 1, P->kv + c, BM, d);
            int64_t row = i * B + r;
            if (row < P->n) tl_store(P->L, LA_R_OUT, P->bh * P->n * P->e + row * P->e + P->pe * BM + c, intra + inter, tl_f32());
            if (staged) tl_store(P->L, LA_R_OINTER, P->g * B * BM + r * BM + c, inter, tl_f32());
        }
    if (!P->bug->kv_first) kv_update(P);
    if (staged) stage(P, LA_R_KVOUT, P->kv, d * BM);
}

int td_la_run(const td_abi_launch *L, const la_bug *bug) {
    la_prog P = {.L = L, .bug = bug};
    P.n = TL_I(L, LA_P_N), P.d = TL_I(L, LA_P_D), P.e = TL_I(L, LA_P_E), P.B = TL_I(L, LA_P_BLOCK);
    P.BM = TL_I(L, LA_P_BM), P.m = TL_I(L, LA_P_M);
    int64_t nb = TL_I(L, LA_P_NUMBLOCK), sz = P.B * P.d * 2 + P.B * P.BM + P.d * P.BM + P.B * P.B;
    TL_ALLOC(L, P.q, sz + P.B + P.d);
    P.kt = P.q + P.B * P.d, P.v = P.kt + P.B * P.d, P.kv = P.v + P.B * P.BM, P.qk = P.kv + P.d * P.BM;
    P.row = P.qk + P.B * P.B;
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
            P.bh = p0, P.pe = p1, P.g = (int64_t)p0 * L->grid[1] + p1;
            for (int64_t x = 0; x < P.d * P.BM; x++) P.kv[x] = 0.0f;
            for (int64_t i = 0; i < nb; i++) block(&P, i);
        }
    free(P.q);
    return 0;
}

/* the gradient store: Out[p0*n*width + row*width + c] = GradPre[same] for row < n */
static int la_grad(const td_abi_launch *L) {
    int64_t n = TL_I(L, 0), width = TL_I(L, 1), BLOCK = TL_I(L, 2), WIDTH = TL_I(L, 3);
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t r = 0; r < BLOCK; r++)
                for (int64_t c = 0; c < WIDTH; c++) {
                    int64_t row = p1 * BLOCK + r, off = p0 * n * width + row * width + c;
                    if (row < n) tl_store(L, 1, off, tl_load(L, 0, off), tl_f32());
                }
    return 0;
}

static const la_bug la_none = {0};
static int la_kernel(const td_abi_launch *L) { return td_la_run(L, &la_none); }

TD_KERNEL(td_k_la_summary) = {LA_SUM, "triton", TD_ABI_HOST, NULL, NULL, NULL, 9, 13, la_kernel, NULL};
TD_KERNEL(td_k_la_grad) = {LA_GRAD, "triton", TD_ABI_HOST, NULL, NULL, NULL, 4, 2, la_grad, NULL};
TD_KERNEL(td_k_la_grad_r) = {LA_GRAD_R, "triton", TD_ABI_HOST, NULL, NULL, NULL, 4, 2, la_grad, NULL};
