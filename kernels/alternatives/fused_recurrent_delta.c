/* fused_recurrent_delta, alternative: the output step as an FMA chain from the last key.
 *
 * alt_fma_rev: o[v] = sum over the active k of HNext[k, v] * q[k], one fmaf chain from
 * k = K-block end down to its start (the port: products rounded, tl_sum's tree).
 * Admissible: any order and FMA contraction of the dot product.
 */
#include "tl.h"

static int fma_rev(const td_abi_launch *L) {
    int64_t t = TL_I(L, 0), sqk = TL_I(L, 1), svo = TL_I(L, 2), K = TL_I(L, 5), V = TL_I(L, 6);
    int64_t BK = TL_I(L, 7), BV = TL_I(L, 8), BH = L->grid[2];
    for (int64_t bh = 0; bh < BH; bh++)
        for (int64_t ik = 0; ik * BK < K; ik++)
            for (int64_t v = 0; v < V; v++) {
                float acc = 0.0f;
                int64_t k1 = (ik + 1) * BK < K ? (ik + 1) * BK : K;
                for (int64_t k = k1 - 1; k >= ik * BK; k--)
                    acc = fmaf(tl_load(L, 0, bh * K * V + k * V + v), tl_load(L, 1, bh * sqk + k + t * K), acc);
                tl_store(L, 2, (bh + ik * BH) * svo + v + t * V, acc, tl_f32());
            }
    (void)BV;
    return 0;
}
TD_KERNEL(td_a_frd_out) = {"fused_recurrent_delta.fused_recurrent_delta_output_step_io_correctness", "alt_fma_rev",
                           TD_ABI_HOST, NULL, NULL, NULL, 9, 3, fma_rev, NULL};
