/* rms_matmul_rbe's body (rms_matmul_rbe, its QKV wrapper, rms_rbe_matmul), shared by the
 * host kernels (bug 0) and the mutants (one RMR_BUG_* on).  Per program (pid_batch, pid):
 * pid_m = pid / cdiv(N, BN), pid_n = pid % cdiv(N, BN); for each K block: x = X tile (rows
 * % M), x_sum += x*x in binary32 (pow(x, 2)), x = x * rms_w in fp16 (fp16 tiles), acc +=
 * tl.dot(x, w) (exact fp16 products summed in binary32 along k); then x_mean =
 * tl.sum(x_sum, axis=1) / K + EPS, x_norm = rsqrt(x_mean), acc * x_norm stored to fp16
 * where row < M and col < N.  The QKV wrapper runs the body once per output. */
#ifndef TD_RMS_MATMUL_RBE_TL_H
#define TD_RMS_MATMUL_RBE_TL_H

#include <math.h>

#include "attn2_tl.h"

typedef struct rmrk_layout {
    int nout;
    int p_m, p_n, p_sxb, p_sxm, p_sxk, p_srms, p_bm, p_bn, p_bk, p_nkb, p_k, p_eps;
    int p_swk[3], p_swn[3], p_sob[3], p_som[3], p_son[3];
    int r_x, r_rms, r_w[3], r_out[3];
} rmrk_layout;
enum { RMR_BUG_MEAN_BK = 1, RMR_BUG_RMS_NO_ADVANCE, RMR_BUG_SQUARE_SCALED, RMR_BUG_EPS_OUTSIDE,
       RMR_BUG_OFFSET_I32 /* pid_batch * stride_x_batch + offs_m * stride_x_m formed in int32 */ };

/* sum of the squares of row i's x_sum lanes (tl.sum's tree) / K + EPS, rsqrt */
static inline float rmrk_norm(const float *xs, int64_t BK, int64_t K, float eps, int bug) {
    float mean = tl_sum(xs, BK) / (float)(bug == RMR_BUG_MEAN_BK ? BK : K);
    if (bug == RMR_BUG_EPS_OUTSIDE) return 1.0f / sqrtf(mean) + eps;
    return 1.0f / sqrtf(mean + eps);
}

/* one program of one output o: acc (BM*BN) and x_sum (BM*BK) are scratch; 0, or 1 when
 * the program faults (an int32 offset outside X: RMR_BUG_OFFSET_I32) */
static inline int rmrk_program(const td_abi_launch *L, const rmrk_layout *k, int o, uint32_t b, uint32_t pid,
                                float *acc, float *xs, float *xr, int bug) {
#define KP(f) TL_I(L, k->f)
    int64_t M = KP(p_m), N = KP(p_n), K = KP(p_k), BM = KP(p_bm), BN = KP(p_bn), BK = KP(p_bk);
    int64_t gn = (N + BN - 1) / BN, pm = pid / gn, pn = pid % gn;
    for (int64_t i = 0; i < BM * BN; i++) acc[i] = 0.0f;
    for (int64_t i = 0; i < BM * BK; i++) xs[i] = 0.0f;
    for (int64_t t = 0; t < (K + BK - 1) / BK; t++) {
        for (int64_t i = 0; i < BM; i++)
            for (int64_t e = 0; e < BK; e++) {
                int64_t row = (pm * BM + i) % M, kk = t * BK + e, xo = b * KP(p_sxb) + row * KP(p_sxm);
                if (bug == RMR_BUG_OFFSET_I32) {
                    xo = tl_i32(tl_i32((int64_t)b * tl_i32(KP(p_sxb))) + row * KP(p_sxm));
                    if (tl_fault(L, k->r_x, xo + kk * KP(p_sxk), 1, 1, pid)) return 1;
                }
                float x = tl_load(L, k->r_x, xo + kk * KP(p_sxk));
                float r = tl_load(L, k->r_rms, (bug == RMR_BUG_RMS_NO_ADVANCE ? e : kk) * KP(p_srms));
                xr[i * BK + e] = attn2_hmul(x, r);
                float sq = bug == RMR_BUG_SQUARE_SCALED ? xr[i * BK + e] : x;
                xs[i * BK + e] += sq * sq;
            }
        for (int64_t i = 0; i < BM; i++)
            for (int64_t j = 0; j < BN; j++) {
                float d = 0.0f; /* tl.dot's binary32 sum along k */
                for (int64_t e = 0; e < BK; e++) {
                    int64_t col = (pn * BN + j) % N;
                    d += xr[i * BK + e] * tl_load(L, k->r_w[o], (t * BK + e) * KP(p_swk[o]) + col * KP(p_swn[o]));
                }
                acc[i * BN + j] += d;
            }
    }
    for (int64_t i = 0; i < BM; i++) {
        float nrm = rmrk_norm(xs + i * BK, BK, K, TL_R(L, k->p_eps), bug);
        for (int64_t j = 0; j < BN; j++) {
            int64_t m = pm * BM + i, n = pn * BN + j;
            if (m < M && n < N)
                tl_store(L, k->r_out[o], b * KP(p_sob[o]) + m * KP(p_som[o]) + n * KP(p_son[o]), acc[i * BN + j] * nrm,
                         attn2_store_prof(L, k->r_out[o]));
        }
    }
    return 0;
#undef KP
}

static inline int rmrk_run(const td_abi_launch *L, const rmrk_layout *k, int bug) {
    int64_t BM = TL_I(L, k->p_bm), BN = TL_I(L, k->p_bn), BK = TL_I(L, k->p_bk);
    float *acc, *xs, *xr;
    TL_ALLOC(L, acc, BM * BN);
    TL_ALLOC(L, xs, BM * BK);
    TL_ALLOC(L, xr, BM * BK);
    int rc = 0;
    for (int o = 0; o < k->nout && !rc; o++)
        for (uint32_t b = 0; b < L->grid[0] && !rc; b++)
            for (uint32_t pid = 0; pid < L->grid[1] && !rc; pid++) rc = rmrk_program(L, k, o, b, pid, acc, xs, xr, bug);
    free(acc);
    free(xs);
    free(xr);
    return rc;
}

/* the statements' parameter / region layouts (contracts/rms_matmul_rbe.c) */
static const rmrk_layout rmrk_one = {1, 0, 1, 2, 3, 4, 7, 11, 12, 13, 14, 15, 16,
                                     {5}, {6}, {8}, {9}, {10}, 0, 2, {1}, {3}};
static const rmrk_layout rmrk_qkv = {3, 0, 1, 2, 3, 4, 11, 21, 22, 23, 24, 25, 26,
                                     {5, 7, 9}, {6, 8, 10}, {12, 15, 18}, {13, 16, 19}, {14, 17, 20},
                                     0, 4, {1, 2, 3}, {5, 6, 7}};

#endif
