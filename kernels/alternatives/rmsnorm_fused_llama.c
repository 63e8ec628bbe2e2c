/* Alternative for rmsnorm_fused_llama.rms_norm_fwd_fused_llama_output_summary
 * (_rms_norm_fwd_fused: y = ((x * rstd) * w).to(float16), rstd = 1/sqrt(mean(x^2) + eps)).
 *
 *   alt_lanes64_fma  the sum of squares accumulated in 64 per-lane FMA accumulators
 *                 (acc[c % 64] = fmaf(x_c, x_c, acc[c % 64]): a BLOCK of 64 whatever the
 *                 port's BLOCK_SIZE, the column tiles in order), the lanes then summed by
 *                 a neighbour-pair tree; y = (x * rstd) * w rounded to binary16.
 *                 Admissible: another block size and tree shape, FMA contraction.
 * Parameters: stride, N, BLOCK_SIZE, eps.  Regions: X, Y, W. */
#include "alt_a_norm.h"
#include "alt_common.h"

enum { P_STRIDE, P_N, P_B, P_EPS };
enum { R_X, R_Y, R_W };

static int rnl_lanes64(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), N = TL_I(L, P_N);
    float eps = TL_R(L, P_EPS), acc[64], tmp[64];
    td_profile store = {TL_FMT(L, R_Y), TD_RNE, TD_OVF_INF, false};
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t base = (int64_t)row * stride;
        memset(acc, 0, sizeof acc);
        for (int64_t c = 0; c < N; c++) {
            float x = tl_load(L, R_X, base + c);
            acc[c % 64] = fmaf(x, x, acc[c % 64]);
        }
        float rstd = 1.0f / sqrtf(aa_sum_pairs(acc, 64, tmp) / (float)N + eps);
        for (int64_t c = 0; c < N; c++)
            tl_store(L, R_Y, base + c, aa_f16((tl_load(L, R_X, base + c) * rstd) * tl_load(L, R_W, c)), store);
    }
    return 0;
}

TD_KERNEL(td_a_rmsnorm_fused_llama_lanes64) = {"rmsnorm_fused_llama.rms_norm_fwd_fused_llama_output_summary",
                                               "alt_lanes64_fma", TD_ABI_HOST, NULL, NULL, NULL, 4, 3, rnl_lanes64,
                                               NULL};

/* Alternative for rmsnorm_fused_llama.rms_norm_fwd_fused_llama_io_correctness (the same
 * program, binary16 X, W and Y):
 *
 *   alt_tiles16_divfull  the squares RN(x*x) of a row in tiles of 16 columns, each tile
 *                 summed by a pairwise tree (larger half first), the tile sums
 *                 accumulated left to right (blocked:16, not the port's one tl.sum tree);
 *                 rstd = 1 / sqrt(...) with the division as div.full.f32 at the edge of
 *                 its 2-ulp error (alt_div_full); y = (x * rstd) * w, then
 *                 y.to(float16) (the contract's y_to_fp16 cast, RNE) before the store.
 *                 Admissible: any order and blocking, div.full.f32. */
static int rnl_tiles16(const td_abi_launch *L) {
    int64_t stride = TL_I(L, P_STRIDE), N = TL_I(L, P_N);
    float eps = TL_R(L, P_EPS), tile[16];
    td_profile store = {TL_FMT(L, R_Y), TD_RNE, TD_OVF_INF, false};
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t base = (int64_t)row * stride;
        float s = 0.0f;
        for (int64_t c0 = 0; c0 < N; c0 += 16) {
            int64_t n = N - c0 < 16 ? N - c0 : 16;
            for (int64_t e = 0; e < n; e++) {
                float x = tl_load(L, R_X, base + c0 + e);
                tile[e] = x * x;
            }
            s = s + alt_tree(tile, n);
        }
        float rstd = alt_div_full(1.0f, sqrtf(s / (float)N + eps));
        for (int64_t c = 0; c < N; c++)
            tl_store(L, R_Y, base + c, aa_f16((tl_load(L, R_X, base + c) * rstd) * tl_load(L, R_W, c)), store);
    }
    return 0;
}

TD_KERNEL(td_a_rmsnorm_fused_llama_io_tiles16) = {"rmsnorm_fused_llama.rms_norm_fwd_fused_llama_io_correctness",
                                                  "alt_tiles16_divfull", TD_ABI_HOST, NULL, NULL, NULL, 4, 3,
                                                  rnl_tiles16, NULL};
