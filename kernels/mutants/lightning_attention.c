/* lightning_attention mutants (the program itself is in ../host/lightning_attention.c):
 * the bugs chunked linear-attention kernels ship. */
#include "../host/lightning_attention_tl.h"

static int run(const td_abi_launch *L, la_bug b) { return td_la_run(L, &b); }
static int kv_first(const td_abi_launch *L) { return run(L, (la_bug){.kv_first = 1}); }
static int strict_mask(const td_abi_launch *L) { return run(L, (la_bug){.strict_mask = 1}); }
static int kv_reset(const td_abi_launch *L) { return run(L, (la_bug){.kv_reset = 1}); }

TD_KERNEL(td_m_la_kv_first) = {LA_SUM, "mut_kv_before_output", TD_ABI_HOST, NULL, NULL,
                               "kv += k^T v before the block's output: the block's own keys counted twice", 9, 13,
                               kv_first, NULL};
TD_KERNEL(td_m_la_strict_mask) = {LA_SUM, "mut_mask_strict", TD_ABI_HOST, NULL, NULL,
                                  "causal mask index > 0 instead of >= 0: the diagonal key dropped", 9, 13,
                                  strict_mask, NULL};
TD_KERNEL(td_m_la_kv_reset) = {LA_SUM, "mut_state_reset_per_block", TD_ABI_HOST, NULL, NULL,
                               "kv not carried across blocks (reset at every block)", 9, 13, kv_reset, NULL};

/* gradStore: NUM_BLOCK = n // BLOCK (the tail block never launched), or rows WIDTH apart */
static int grad_bug(const td_abi_launch *L, int floor_grid) {
    int64_t n = TL_I(L, 0), width = TL_I(L, 1), BLOCK = TL_I(L, 2), WIDTH = TL_I(L, 3);
    int64_t rs = floor_grid ? width : WIDTH;
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1] && (!floor_grid || p1 < (uint32_t)(n / BLOCK)); p1++)
            for (int64_t r = 0; r < BLOCK; r++)
                for (int64_t c = 0; c < WIDTH; c++) {
                    int64_t row = p1 * BLOCK + r, off = p0 * n * width + row * rs + c;
                    if (row < n) tl_store(L, 1, off, tl_load(L, 0, off), tl_f32());
                }
    return 0;
}
static int floor_grid(const td_abi_launch *L) { return grad_bug(L, 1); }
static int width_stride(const td_abi_launch *L) { return grad_bug(L, 0); }
#define FLOOR "NUM_BLOCK = n // BLOCK: the tail block's rows never stored"
#define WSTRIDE "rows addressed WIDTH apart (the tile width) instead of width"
TD_KERNEL(td_m_la_grad_floor) = {LA_GRAD, "mut_floor_grid", TD_ABI_HOST, NULL, NULL, FLOOR, 4, 2, floor_grid, NULL};
TD_KERNEL(td_m_la_grad_r_floor) = {LA_GRAD_R, "mut_floor_grid", TD_ABI_HOST, NULL, NULL, FLOOR, 4, 2, floor_grid, NULL};
TD_KERNEL(td_m_la_grad_ws) = {LA_GRAD, "mut_width_stride", TD_ABI_HOST, NULL, NULL, WSTRIDE, 4, 2, width_stride, NULL};
TD_KERNEL(td_m_la_grad_r_ws) = {LA_GRAD_R, "mut_width_stride", TD_ABI_HOST, NULL, NULL, WSTRIDE, 4, 2, width_stride, NULL};
