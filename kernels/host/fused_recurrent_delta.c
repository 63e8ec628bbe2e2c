/* fused_recurrent_delta, output step: per program (i_v, i_k, i_bh) the [BV, BK] state
 * tile loaded from HNext (mask_kv, other 0), q's K block (mask_bk, other 0),
 * _o = tl.sum(h * q[None, :], axis=1), stored at row t (mask_bv).
 * Parameters: t s_qk_h s_vo_h B H K V BK BV.  Regions: HNext q o. */
#include "tl.h"

int td_frd_out(const td_abi_launch *L, int no_row, int transposed);
int td_frd_out(const td_abi_launch *L, int no_row, int transposed) {
    int64_t t = TL_I(L, 0), sqk = TL_I(L, 1), svo = TL_I(L, 2), K = TL_I(L, 5), V = TL_I(L, 6);
    int64_t BK = TL_I(L, 7), BV = TL_I(L, 8), BH = L->grid[2];
    float *row;
    TL_ALLOC(L, row, BK);
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
                for (int64_t jv = 0; jv < BV; jv++) {
                    int64_t v = p0 * BV + jv;
                    for (int64_t jk = 0; jk < BK; jk++) {
                        int64_t k = p1 * BK + jk;
                        float h = 0.0f, q = 0.0f;
                        if (k < K && v < V) h = tl_load(L, 0, p2 * K * V + (transposed ? v * K + k : k * V + v));
                        if (k < K) q = tl_load(L, 1, p2 * sqk + k + t * K);
                        row[jk] = h * q;
                    }
                    if (v < V) tl_store(L, 2, (p2 + p1 * BH) * svo + v + (no_row ? 0 : t * V), tl_sum(row, BK), tl_f32());
                }
    free(row);
    return 0;
}
static int frd_out(const td_abi_launch *L) { return td_frd_out(L, 0, 0); }
TD_KERNEL(td_k_frd_out) = {"fused_recurrent_delta.fused_recurrent_delta_output_step_io_correctness", "triton",
                           TD_ABI_HOST, NULL, NULL, NULL, 9, 3, frd_out, NULL};
