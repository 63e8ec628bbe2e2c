/* fifth_order_sph_harmonics mutants: layout bugs of a multi-channel store. */
#include "../host/tl.h"
#include "../host/fifth_order_sph_harmonics.h"

enum { P_B, P_COORD_NUMEL, P_OUT_NUMEL, P_COL_OFFSET, P_OUT_STRIDE };
enum { R_COORD, R_OUT };

/* all_mask: every channel stored under Y00's mask; swap_yz: y loaded from +2 and z from
 * +1; no_col: the output row offset without col_offset; i32: the output offset
 * j*os + B*os*pid + col_offset (and each channel's + o) formed in int32, as Triton does
 * for an int32 block_id and a constexpr os below 2^31 (tl_i32; a wrapped offset outside
 * output_ptr fails the launch, tl_fault). */
static int sph_run(const td_abi_launch *L, int all_mask, int swap_yz, int no_col, int i32) {
    int64_t B = TL_I(L, P_B), cn = TL_I(L, P_COORD_NUMEL), on = TL_I(L, P_OUT_NUMEL);
    int64_t col = no_col ? 0 : TL_I(L, P_COL_OFFSET), os = TL_I(L, P_OUT_STRIDE);
    for (int64_t pid = 0; pid < (int64_t)L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t ci = j * 3 + B * 3 * pid, oi = j * os + B * os * pid + col;
            if (i32) oi = tl_i32(oi); /* int32 arithmetic wraps modulo 2^32 at every step alike */
            int64_t iy = ci + (swap_yz ? 2 : 1), iz = ci + (swap_yz ? 1 : 2);
            float x = ci < cn ? tl_load(L, R_COORD, ci) : 0.0f;
            float y = iy < cn ? tl_load(L, R_COORD, iy) : 0.0f;
            float z = iz < cn ? tl_load(L, R_COORD, iz) : 0.0f;
            float Y[11];
            sph5_eval(x, y, z, Y);
            for (int64_t o = 0; o < 11; o++) {
                int64_t off = i32 ? tl_i32(oi + o) : oi + o;
                int active = all_mask ? oi < on : off < on;
                if (i32 && active && tl_fault(L, R_OUT, off, 1, 1, (uint32_t)pid)) return 1;
                if (active && off < (int64_t)TL_LEN(L, R_OUT)) tl_store(L, R_OUT, off, Y[o], tl_f32());
            }
        }
    return 0;
}
static int all_mask(const td_abi_launch *L) { return sph_run(L, 1, 0, 0, 0); }
static int swap_yz(const td_abi_launch *L) { return sph_run(L, 0, 1, 0, 0); }
static int no_col(const td_abi_launch *L) { return sph_run(L, 0, 0, 1, 0); }
static int offset_i32(const td_abi_launch *L) { return sph_run(L, 0, 0, 0, 1); }

#define SPH_ID "fifth_order_sph_harmonics.fifth_order_fwd_correctness"
TD_KERNEL(td_m_sph_all_mask) = {SPH_ID, "mut_channel_mask_y00", TD_ABI_HOST, NULL, NULL,
                                "every channel stored under Y00's mask (row cut by output_numel)", 5, 2, all_mask,
                                NULL};
TD_KERNEL(td_m_sph_swap_yz) = {SPH_ID, "mut_yz_swapped", TD_ABI_HOST, NULL, NULL,
                               "y loaded from column 2 and z from column 1", 5, 2, swap_yz, NULL};
TD_KERNEL(td_m_sph_no_col) = {SPH_ID, "mut_no_col_offset", TD_ABI_HOST, NULL, NULL,
                              "output row offset without col_offset", 5, 2, no_col, NULL};
TD_KERNEL(td_m_sph_offset_i32) = {SPH_ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                  "j*os + B*os*pid + col_offset formed in int32 (wraps beyond 2^31 elements)", 5, 2,
                                  offset_i32, NULL};
