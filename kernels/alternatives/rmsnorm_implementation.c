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

enum { P_SXB, P_SXM, P_SXK, P_SRW, P_SOB, P_SOM, P_SOK, P_N, P_B, P_EPS };
enum { R_X, R_W, R_O };

static int rni_rcp_seq(const td_abi_launch *L) {
    int64_t sxb = TL_I(L, P_SXB), sxm = TL_I(L, P_SXM), sxk = TL_I(L, P_SXK), srw = TL_I(L, P_SRW);
    int64_t sob = TL_I(L, P_SOB), som = TL_I(L, P_SOM), sok = TL_I(L, P_SOK), N = TL_I(L, P_N);
    float eps = TL_R(L, P_EPS);
    td_profile store = {TL_FMT(L, R_O), TD_RNE, TD_OVF_INF, false};
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
            int64_t xb = (int64_t)p0 * sxb + (int64_t)p1 * sxm, ob = (int64_t)p0 * sob + (int64_t)p1 * som;
            float s = 0.0f;
            for (int64_t k = 0; k < N; k++) {
                float x = tl_load(L, R_X, xb + k * sxk);
                s = s + x * x;
            }
            float inv_std = 1.0f / sqrtf(s / (float)N + eps);
            for (int64_t k = 0; k < N; k++)
                tl_store(L, R_O, ob + k * sok, (tl_load(L, R_X, xb + k * sxk) * inv_std) * tl_load(L, R_W, k * srw),
                         store);
        }
    return 0;
}

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
static int rni_lanes8(const td_abi_launch *L) {
    int64_t sxb = TL_I(L, P_SXB), sxm = TL_I(L, P_SXM), sxk = TL_I(L, P_SXK), srw = TL_I(L, P_SRW);
    int64_t sob = TL_I(L, P_SOB), som = TL_I(L, P_SOM), sok = TL_I(L, P_SOK), N = TL_I(L, P_N);
    float eps = TL_R(L, P_EPS);
    td_profile store = {TL_FMT(L, R_O), TD_RNE, TD_OVF_INF, false};
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
            int64_t xb = (int64_t)p0 * sxb + (int64_t)p1 * sxm, ob = (int64_t)p0 * sob + (int64_t)p1 * som;
            float lane[8] = {0}, s = 0.0f;
            for (int64_t k = 0; k < N; k++) {
                float x = tl_load(L, R_X, xb + k * sxk);
                lane[k % 8] = lane[k % 8] + x * x;
            }
            for (int j = 0; j < 8; j++) s = s + lane[j];
            float std = sqrtf(s / (float)N + eps);
            for (int64_t k = 0; k < N; k++)
                tl_store(L, R_O, ob + k * sok,
                         alt_div_full(tl_load(L, R_X, xb + k * sxk), std) * tl_load(L, R_W, k * srw), store);
        }
    return 0;
}

TD_KERNEL(td_a_rmsnorm_implementation_io_lanes8) = {"rmsnorm_implementation.rmsnorm_implementation_io_correctness",
                                                    "alt_lanes8_divfull", TD_ABI_HOST, NULL, NULL, NULL, 10, 3,
                                                    rni_lanes8, NULL};
