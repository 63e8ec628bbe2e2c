/* chunked_cumsum_fwd, alternatives.
 *
 * DtOut = DtPrepared; DACumsum[b, c, h, col] = sum_{k <= col} dt[b, c*cs + k, h] * A[h]
 * (col < min(chunk_size, BSC)).  The port rounds each product dt * A, then scans by the
 * Kogge-Stone network.
 *   alt_fma_seq:    s = fma(dt_k, A, s) from k = 0 (FMA contraction of a sequential scan);
 *   alt_factored:   A * (sequential cumsum of dt): A factored out of the sum.
 * Admissible: any association of the sum; FMA contraction; the algebraically equal
 * factored form (its error gamma_col sum|dt||A| + u |A cumsum dt| is within the contract's
 * bound, see contracts/chunked_cumsum_fwd.c).
 */
#include <math.h>

#include "../host/chunked_cumsum_fwd_tl.h"

static int ccf_alt(const td_abi_launch *L, int factored) {
    ccf_geo g = ccf_geo_of(L);
    int64_t BSC = g.p[CCF_BSC], nh = g.p[CCF_NH], cs = g.p[CCF_CS], n = cs < BSC ? cs : BSC;
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t ck = 0; ck < L->grid[1]; ck++)
            for (int64_t h = 0; h < nh; h++) {
                float a = tl_load(L, g.r[CCF_A], h * g.p[CCF_SAH]), s = 0.0f;
                for (int64_t col = 0; col < n; col++) {
                    float dt = tl_load(L, g.r[CCF_DT], ccf_rd(&g, b, ck, h, col));
                    tl_store(L, g.r[CCF_DTOUT], ccf_wr(&g, 0, b, ck, h, col), dt, tl_f32());
                    s = factored ? s + dt : fmaf(dt, a, s);
                    tl_store(L, g.r[CCF_DACS], ccf_wr(&g, 1, b, ck, h, col), factored ? a * s : s, tl_f32());
                }
            }
    return 0;
}
static int ccf_fma_seq(const td_abi_launch *L) { return ccf_alt(L, 0); }
static int ccf_factored(const td_abi_launch *L) { return ccf_alt(L, 1); }

TD_KERNEL(td_a_ccf_corr_fma) = {CCF_CORR, "alt_fma_seq", TD_ABI_HOST, NULL, NULL, NULL, 16, 4, ccf_fma_seq, NULL};
TD_KERNEL(td_a_ccf_sum_fma) = {CCF_SUM, "alt_fma_seq", TD_ABI_HOST, NULL, NULL, NULL, 23, 9, ccf_fma_seq, NULL};
TD_KERNEL(td_a_ccf_corr_fact) = {CCF_CORR, "alt_factored", TD_ABI_HOST, NULL, NULL, NULL, 16, 4, ccf_factored, NULL};
TD_KERNEL(td_a_ccf_sum_fact) = {CCF_SUM, "alt_factored", TD_ABI_HOST, NULL, NULL, NULL, 23, 9, ccf_factored, NULL};
