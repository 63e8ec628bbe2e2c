/* chunk_cumsum_kernel: chunk_global_cumsum_scalar_kernel, one program per batch*head row:
 * the row in chunks of BT (boundary_check pads with 0.0), b_o = tl.cumsum(b_s) + b_z,
 * b_z += tl.sum(b_s), stored through O's format (binary32, or binary16 rounded to nearest
 * even).  tl.cumsum is a parallel-prefix network on the GPU; the port uses the
 * Kogge-Stone (Hillis-Steele) network: log2(BT) rounds, lane j adds lane j - 2^k. */
#include "tl.h"

enum { P_T, P_BT };
enum { R_S, R_O };

/* tl.cumsum(x[0..n), axis=0), in place: the Kogge-Stone network. */
static void ccs_scan(float *x, float *tmp, int64_t n) {
    for (int64_t d = 1; d < n; d *= 2) {
        memcpy(tmp, x, (size_t)n * sizeof *x);
        for (int64_t j = d; j < n; j++) x[j] = tmp[j] + tmp[j - d];
    }
}

static int chunk_global_cumsum_scalar_kernel(const td_abi_launch *L) {
    int64_t T = TL_I(L, P_T), BT = TL_I(L, P_BT);
    td_profile store = {TL_FMT(L, R_O), TD_RNE, TD_OVF_INF, false};
    float *b_s, *b_c, *tmp;
    TL_ALLOC(L, b_s, BT);
    TL_ALLOC(L, b_c, BT);
    TL_ALLOC(L, tmp, BT);
    for (uint32_t i_bh = 0; i_bh < L->grid[0]; i_bh++) {
        float b_z = 0.0f;
        for (int64_t i_t = 0; i_t < (T + BT - 1) / BT; i_t++) {
            for (int64_t j = 0; j < BT; j++) {
                int64_t t = i_t * BT + j;
                b_s[j] = t < T ? tl_load(L, R_S, (int64_t)i_bh * T + t) : 0.0f; /* boundary_check */
            }
            memcpy(b_c, b_s, (size_t)BT * sizeof *b_s);
            ccs_scan(b_c, tmp, BT);
            float b_zz = tl_sum(b_s, BT);
            for (int64_t j = 0; j < BT; j++) {
                int64_t t = i_t * BT + j;
                if (t < T) tl_store(L, R_O, (int64_t)i_bh * T + t, b_c[j] + b_z, store);
            }
            b_z += b_zz;
        }
    }
    free(b_s);
    free(b_c);
    free(tmp);
    return 0;
}

TD_KERNEL(td_k_ccs_summary) = {"chunk_cumsum_kernel.chunk_cumsum_scalar_output_summary_general", "triton",
                               TD_ABI_HOST, NULL, NULL, NULL, 2, 2, chunk_global_cumsum_scalar_kernel, NULL};
TD_KERNEL(td_k_ccs_io) = {"chunk_cumsum_kernel.chunk_cumsum_scalar_io_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                          NULL, 2, 2, chunk_global_cumsum_scalar_kernel, NULL};
