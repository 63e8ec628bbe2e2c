/* Alternative for layernorm_fwd_triton.layernorm_fwd_triton_output_summary (the Triton
 * tutorial's layer norm without bias, grid (Seq, H): y = (x - mean) * rstd * w).
 *
 *   alt_chan_split  the row split into 4 contiguous parts (split-row), each part's
 *                 (mean, M2) by Welford, the parts merged right to left with Chan's
 *                 update; rstd by the rsqrt.approx.f32 model (relative error <= 2^-22.9).
 *                 Admissible: split-row partial statistics combined in another order,
 *                 Welford, the approximate rsqrt.  Also for the io contract, whose
 *                 tensors are bfloat16 (the store rounds to nearest even, as the port's).
 * Parameters: stride_x_N, stride_x_hn, stride_x_hd, stride_y_N, stride_y_hn,
 * stride_y_hd, stride_w_hn, stride_w_hd, N, BLOCK_SIZE, eps.  Regions: X, W, Y. */
#include "alt_a_norm.h"

enum { P_SXN, P_SXH, P_SXD, P_SYN, P_SYH, P_SYD, P_SWH, P_SWD, P_N, P_BLOCK, P_EPS };
enum { R_X, R_W, R_Y };

/* Welford over 4 parts, merged from the last part to the first. */
static void lnf_split_stats(const float *x, int64_t n, float *mean, float *m2) {
    int64_t len = (n + 3) / 4;
    float ma = 0.0f, Ma = 0.0f, na = 0.0f;
    for (int64_t p = 3; p >= 0; p--) {
        int64_t lo = p * len, hi = lo + len < n ? lo + len : n;
        if (lo >= hi) continue;
        float mb, Mb, nb = (float)(hi - lo);
        aa_welford_seq(x + lo, hi - lo, &mb, &Mb);
        float nn = na + nb, delta = mb - ma, f = nb / nn;
        ma = ma + delta * f;
        Ma = Ma + Mb + delta * delta * na * f;
        na = nn;
    }
    *mean = ma;
    *m2 = Ma;
}

static int lnf_split(const td_abi_launch *L) {
    int64_t sxN = TL_I(L, P_SXN), sxH = TL_I(L, P_SXH), syN = TL_I(L, P_SYN), syH = TL_I(L, P_SYH);
    int64_t swH = TL_I(L, P_SWH), n = TL_I(L, P_N);
    float eps = TL_R(L, P_EPS);
    td_profile store = {TL_FMT(L, R_Y), TD_RNE, TD_OVF_INF, false};
    float *x;
    TL_ALLOC(L, x, n);
    for (uint32_t seq = 0; seq < L->grid[0]; seq++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t X = seq * sxN + h * sxH, Y = seq * syN + h * syH, W = h * swH;
            for (int64_t j = 0; j < n; j++) x[j] = tl_load(L, R_X, X + j);
            float mean, m2;
            lnf_split_stats(x, n, &mean, &m2);
            float rstd = aa_rsqrt_approx(m2 / (float)n + eps);
            for (int64_t j = 0; j < n; j++) tl_store(L, R_Y, Y + j, ((x[j] - mean) * rstd) * tl_load(L, R_W, W + j), store);
        }
    free(x);
    return 0;
}

TD_KERNEL(td_a_layernorm_fwd_chan_split) = {"layernorm_fwd_triton.layernorm_fwd_triton_output_summary",
                                            "alt_chan_split", TD_ABI_HOST, NULL, NULL, NULL, 11, 3, lnf_split, NULL};
TD_KERNEL(td_a_layernorm_fwd_io_chan_split) = {"layernorm_fwd_triton.layernorm_fwd_triton_io_correctness",
                                               "alt_chan_split", TD_ABI_HOST, "store=bf16:rne:inf", NULL, NULL, 11, 3,
                                               lnf_split, NULL};
