/* chunk_gated_attention, alternative: the state stores as flat copies.
 *
 * alt_flat: no tiles: one loop over the whole [B*H, KSize, VSize] state (v outer, k
 * inner: the transposed traversal), each element copied once through memcpy (bits
 * kept).  Admissible: a copy has one correct value per lane, whatever the traversal. */
#include "tl.h"

static int flat(const td_abi_launch *L) {
    int64_t it = TL_I(L, 0), shh = TL_I(L, 1), sht = TL_I(L, 2), shd = TL_I(L, 3), K = TL_I(L, 4), V = TL_I(L, 5);
    const float *bh = TL_BASE(L, 0), *bhf = TL_BASE(L, 2);
    float *h = TL_BASE(L, 1), *ht = TL_BASE(L, 3);
    for (int64_t b = 0; b < (int64_t)L->grid[2]; b++)
        for (int64_t v = 0; v < V; v++)
            for (int64_t k = 0; k < K; k++) {
                int64_t off = b * shh + it * K * V + k * sht + v * shd, fo = (b * K + k) * V + v;
                memcpy(h + off, bh + off, sizeof(float));
                memcpy(ht + fo, bhf + fo, sizeof(float));
            }
    return 0;
}

TD_KERNEL(td_a_cga_stores) = {"chunk_gated_attention.chunk_gated_attention_state_stores_io_correctness", "alt_flat",
                              TD_ABI_HOST, NULL, NULL, NULL, 8, 4, flat, NULL};
TD_KERNEL(td_a_cga_stores_r) = {"chunk_gated_attention.chunk_gated_attention_state_stores_io_correctnessR",
                                "alt_flat", TD_ABI_HOST, NULL, NULL, NULL, 8, 4, flat, NULL};
