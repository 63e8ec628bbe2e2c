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

/* _fwd_kernel's head bases off_bh * n * d and off_bh * n * e in int32, as Triton forms them
 * (an int32 program id times constexprs): past 2^31 elements a head's base wraps
 * negative, an illegal address (the launch-wide check, tl_fault_rows_i32); only the large
 * tier (`--large`, td_rows_large) has b*h*n*e > 2^31: ordinary cases hold 2 10^4 values
 * at most, where it is the port. */
static int off_i32(const td_abi_launch *L) {
    int64_t n = TL_I(L, LA_P_N), d = TL_I(L, LA_P_D), e = TL_I(L, LA_P_E);
    if (tl_fault_rows_i32(L, LA_R_Q, n * d, n * d) || tl_fault_rows_i32(L, LA_R_V, n * e, n * e)) return 1;
    return run(L, (la_bug){0});
}
TD_KERNEL(td_m_la_i32) = {LA_SUM, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL,
                          "off_bh * n * d, off_bh * n * e in int32: a head base wraps past 2^31", 9, 13, off_i32, NULL};

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

/* gradStore with its offsets in int32, as the original forms them: off_bh * n * d and
 * block_offset * d are int32 products (an int32 program id or arange times constexprs),
 * added to the pointer in 64 bits.  Past 2^31 a head's base wraps to an illegal address
 * (a device fault); only far cases (gen_far.h: a head stride past 2^31 / (b*h - 1)) pass
 * it */
static int grad_i32(const td_abi_launch *L) {
    int64_t n = TL_I(L, 0), width = TL_I(L, 1), BLOCK = TL_I(L, 2), WIDTH = TL_I(L, 3);
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
            for (int64_t r = 0; r < BLOCK; r++) {
                int64_t row = p1 * BLOCK + r, off = tl_i32(p0 * n * width) + tl_i32(row * width);
                if (row >= n) continue;
                if (tl_fault(L, 0, off, WIDTH, 1, p0) || tl_fault(L, 1, off, WIDTH, 1, p0)) return 1;
                for (int64_t c = 0; c < WIDTH; c++) tl_store(L, 1, off + c, tl_load(L, 0, off + c), tl_f32());
            }
    return 0;
}
#define GI32 "off_bh * n * width and row * width in int32: a head base wraps past 2^31"
TD_KERNEL(td_m_la_grad_i32) = {LA_GRAD, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, GI32, 4, 2, grad_i32, NULL};
TD_KERNEL(td_m_la_grad_r_i32) = {LA_GRAD_R, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, GI32, 4, 2, grad_i32, NULL};
