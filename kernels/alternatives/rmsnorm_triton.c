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
#include "alt_a_norm.h"

/* the squares from the last column to the first as an FMA chain; rstd by rsqrt.approx */
static float rnt_rev_stat(const float *x, float *scratch, int64_t n, float eps) {
    (void)scratch;
    float s = 0.0f;
    for (int64_t k = n - 1; k >= 0; k--) s = fmaf(x[k], x[k], s);
    return aa_rsqrt_approx(s / (float)n + eps);
}
static float rnt_mul_rstd(float x, float rstd, float w) { return (x * rstd) * w; }
static int rnt_rev(const td_abi_launch *L) { return aa_rms_rows(L, rnt_rev_stat, rnt_mul_rstd); }

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
static float rnt_split4_stat(const float *x, float *sq, int64_t n, float eps) {
    for (int64_t k = 0; k < n; k++) sq[k] = x[k] * x[k];
    return aa_rsqrt_approx(aa_sum_split(sq, n, 4) * (1.0f / (float)n) + eps);
}
static int rnt_split4(const td_abi_launch *L) { return aa_rms_rows(L, rnt_split4_stat, rnt_mul_rstd); }

TD_KERNEL(td_a_rmsnorm_triton_io_split4) = {"rmsnorm_triton.rmsnorm_full_io_correctness", "alt_split4_rcpn",
                                            TD_ABI_HOST, NULL, NULL, NULL, 10, 3, rnt_split4, NULL};
