/* Alternative for rmsnorm_implementation.rmsnorm_implementation_output_summary (the
 * division form: std = sqrt(sum_k x_k^2 / N + eps), out = (x / std) * w, rows (batch, m)
 * of a strided [batch, M, K] tensor).
 *
 *   alt_rcp_seq   the squares summed left to right, and x / std as x * (1/std) (one
 *                 reciprocal per row, what fast code does).  Admissible: any sum order,
 *                 a/b as a*(1/b).
 * Parameters: sxb, sxm, sxk, srw, sob, som, sok, N, BLOCK_SIZE, eps.  Regions: x, w, out. */
#include "alt_a_norm.h"
#include "alt_common.h"

/* the squares left to right; 1/std once a row, x / std as x * (1/std) */
static float rni_rcp_stat(const float *x, float *scratch, int64_t n, float eps) {
    (void)scratch;
    float s = 0.0f;
    for (int64_t k = 0; k < n; k++) s = s + x[k] * x[k];
    return 1.0f / sqrtf(s / (float)n + eps);
}
static float rni_mul_inv(float x, float inv_std, float w) { return (x * inv_std) * w; }
static int rni_rcp_seq(const td_abi_launch *L) { return aa_rms_rows(L, rni_rcp_stat, rni_mul_inv); }

TD_KERNEL(td_a_rmsnorm_implementation_rcp_seq) = {"rmsnorm_implementation.rmsnorm_implementation_output_summary",
                                                  "alt_rcp_seq", TD_ABI_HOST, NULL, NULL, NULL, 10, 3, rni_rcp_seq,
                                                  NULL};

/* Alternative for rmsnorm_implementation.rmsnorm_implementation_io_correctness (the same
 * division form, bfloat16 x, w and out, stored through out's bfloat16 format):
 *
 *   alt_lanes8_divfull  the squares folded into 8 interleaved lanes (column k into lane
 *                 k % 8, each lane left to right; 8 is not the port's BLOCK_N_SIZE), the
 *                 lanes then added left to right (not a tree); x / std as div.full.f32
 *                 at the edge of its documented 2-ulp error (alt_div_full), then * w.
 *                 Admissible: any order and blocking, a/b as div.full.f32.  The store
 *                 rounds to nearest even (the contract's "store" cast). */
static float rni_lanes8_stat(const float *x, float *scratch, int64_t n, float eps) {
    (void)scratch;
    float lane[8] = {0}, s = 0.0f;
    for (int64_t k = 0; k < n; k++) lane[k % 8] = lane[k % 8] + x[k] * x[k];
    for (int j = 0; j < 8; j++) s = s + lane[j];
    return sqrtf(s / (float)n + eps);
}
static float rni_divfull(float x, float std, float w) { return alt_div_full(x, std) * w; }
static int rni_lanes8(const td_abi_launch *L) { return aa_rms_rows(L, rni_lanes8_stat, rni_divfull); }

TD_KERNEL(td_a_rmsnorm_implementation_io_lanes8) = {"rmsnorm_implementation.rmsnorm_implementation_io_correctness",
                                                    "alt_lanes8_divfull", TD_ABI_HOST, NULL, NULL, NULL, 10, 3,
                                                    rni_lanes8, NULL};
