/* chunk_gated_attention: the two state-store slices of chunk_gated_abc_fwd_kernel_h on
 * every program (i_v, i_k, i_bh) of the grid (cdiv(VSize, BV), cdiv(KSize, BK), B*H):
 * the [BK, BV] tile loaded with mask k < KSize && v < VSize (other = 0) and stored
 * with the same mask, from BH to H at i_bh*s_h_h + i_t*KSize*VSize + k*s_h_t +
 * v*s_h_d, and from BHFinal to Ht at i_bh*KSize*VSize + k*VSize + v.
 * Parameters: i_t s_h_h s_h_t s_h_d KSize VSize BK BV.  Regions: BH H BHFinal Ht. */
#include "chunk_gated_attention_tl.h"

int td_cga_stores_run(const td_abi_launch *L, const cga_bug *bug) {
    int64_t it = TL_I(L, 0), shh = TL_I(L, 1), sht = TL_I(L, 2), shd = TL_I(L, 3), K = TL_I(L, 4), V = TL_I(L, 5);
    int64_t BK = TL_I(L, 6), BV = TL_I(L, 7);
    uint32_t nk = bug->floor_grid ? (uint32_t)(K / BK) : L->grid[1];
    for (uint32_t p2 = 0; p2 < L->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < nk && p1 < L->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
                for (int64_t r = 0; r < BK; r++)
                    for (int64_t c = 0; c < BV; c++) {
                        int64_t k = p1 * BK + r, v = p0 * BV + c;
                        if (k >= K || v >= V) continue;
                        int64_t off = p2 * shh + (bug->no_chunk_offset ? 0 : it * K * V) +
                                      (bug->strides_swapped ? k * shd + v * sht : k * sht + v * shd);
                        /* a swapped-stride address may leave the buffer: the device's illegal access */
                        if (tl_fault(L, 1, off, 1, 1, p0)) return 1;
                        tl_store(L, 1, off, tl_load(L, 0, off), tl_f32());
                        int64_t fo = p2 * K * V + k * V + v;
                        tl_store(L, 3, fo, tl_load(L, 2, fo), tl_f32());
                    }
    return 0;
}

static const cga_bug cga_none = {0};
static int cga_stores(const td_abi_launch *L) { return td_cga_stores_run(L, &cga_none); }

TD_KERNEL(td_k_cga_stores) = {CGA_ST, "triton", TD_ABI_HOST, NULL, NULL, NULL, 8, 4, cga_stores, NULL};
TD_KERNEL(td_k_cga_stores_r) = {CGA_ST_R, "triton", TD_ABI_HOST, NULL, NULL, NULL, 8, 4, cga_stores, NULL};
