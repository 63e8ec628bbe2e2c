/* Alternative for rmsnorm_triton.rmsnorm_full_output_summary (the rsqrt form:
 * rstd = rsqrt(sum_k x_k^2 / N + eps), out = (x * rstd) * w, rows (batch, m) of a strided
 * [batch, M, K] tensor whose elements may be binary16 / bfloat16).
 *
 *   alt_rev_fma_rsqrtapprox  the squares accumulated in binary32 from the last column to
 *                 the first as an FMA chain (s = fmaf(x_k, x_k, s)): the fp32 accumulation
 *                 of (possibly fp16) inputs in another order; rstd by the rsqrt.approx.f32
 *                 model (relative error <= 2^-22.9, PTX ISA).  Admissible: any order,
 *                 FMA, the GPU approximate rsqrt.
 * Parameters: sxb, sxm, sxk, srw, sob, som, sok, N, BLOCK_SIZE, eps.  Regions: x, w, out. */
#include <stdlib.h>

#include "alt_a_norm.h"

enum { P_SXB, P_SXM, P_SXK, P_SRW, P_SOB, P_SOM, P_SOK, P_N, P_B, P_EPS };
enum { R_X, R_W, R_O };

static int rnt_rev(const td_abi_launch *L) {
    int64_t sxb = TL_I(L, P_SXB), sxm = TL_I(L, P_SXM), sxk = TL_I(L, P_SXK), srw = TL_I(L, P_SRW);
    int64_t sob = TL_I(L, P_SOB), som = TL_I(L, P_SOM), sok = TL_I(L, P_SOK), N = TL_I(L, P_N);
    float eps = TL_R(L, P_EPS);
    td_profile store = {TL_FMT(L, R_O), TD_RNE, TD_OVF_INF, false};
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
            int64_t xb = (int64_t)p0 * sxb + (int64_t)p1 * sxm, ob = (int64_t)p0 * sob + (int64_t)p1 * som;
            float s = 0.0f;
            for (int64_t k = N - 1; k >= 0; k--) {
                float x = tl_load(L, R_X, xb + k * sxk);
                s = fmaf(x, x, s);
            }
            float rstd = aa_rsqrt_approx(s / (float)N + eps);
            for (int64_t k = 0; k < N; k++)
                tl_store(L, R_O, ob + k * sok, (tl_load(L, R_X, xb + k * sxk) * rstd) * tl_load(L, R_W, k * srw),
                         store);
        }
    return 0;
}

TD_KERNEL(td_a_rmsnorm_triton_rev_fma) = {"rmsnorm_triton.rmsnorm_full_output_summary", "alt_rev_fma_rsqrtapprox",
                                          TD_ABI_HOST, NULL, NULL, NULL, 10, 3, rnt_rev, NULL};

/* Alternative for rmsnorm_triton.rmsnorm_full_io_correctness (the same rsqrt form, binary16
 * x, w and out, the binary32 value stored through out's binary16 format):
 *
 *   alt_split4_rcpn  the binary32 squares RN(x*x) of the row summed in 4 contiguous
 *                 pieces, each left to right, the partials combined last piece first
 *                 (split-row); the mean as s * (1/N) (reciprocal-multiply: 1/N is not
 *                 exact for N not a power of two, one more rounding than the port's
 *                 exact-operand division); rstd by the rsqrt.approx.f32 model.
 *                 Admissible: any order, a/b as a*(1/b), the GPU approximate rsqrt.
 *                 The store rounds to nearest even (the contract's "store" cast). */
static int rnt_split4(const td_abi_launch *L) {
    int64_t sxb = TL_I(L, P_SXB), sxm = TL_I(L, P_SXM), sxk = TL_I(L, P_SXK), srw = TL_I(L, P_SRW);
    int64_t sob = TL_I(L, P_SOB), som = TL_I(L, P_SOM), sok = TL_I(L, P_SOK), N = TL_I(L, P_N);
    float eps = TL_R(L, P_EPS);
    if (N <= 0) return 0; /* nothing to write */
    td_profile store = {TL_FMT(L, R_O), TD_RNE, TD_OVF_INF, false};
    float *sq = malloc((size_t)N * sizeof *sq);
    if (!sq) return 1;
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
            int64_t xb = (int64_t)p0 * sxb + (int64_t)p1 * sxm, ob = (int64_t)p0 * sob + (int64_t)p1 * som;
            for (int64_t k = 0; k < N; k++) {
                float x = tl_load(L, R_X, xb + k * sxk);
                sq[k] = x * x;
            }
            float rstd = aa_rsqrt_approx(aa_sum_split(sq, N, 4) * (1.0f / (float)N) + eps);
            for (int64_t k = 0; k < N; k++)
                tl_store(L, R_O, ob + k * sok, (tl_load(L, R_X, xb + k * sxk) * rstd) * tl_load(L, R_W, k * srw),
                         store);
        }
    free(sq);
    return 0;
}

TD_KERNEL(td_a_rmsnorm_triton_io_split4) = {"rmsnorm_triton.rmsnorm_full_io_correctness", "alt_split4_rcpn",
                                            TD_ABI_HOST, NULL, NULL, NULL, 10, 3, rnt_split4, NULL};
