/* relu_strided_buffer, alternative: one flat strided loop, relu as a maximum.
 *
 * alt_flat_fmax: the kernel's programs cover tiles 0 .. T-1 (T = num_ctas for one tile
 * per CTA, num_ctas * tiles_per_cta for the grid-stride loop: the tiles pid + j*num_ctas
 * are exactly those), i.e. the elements e < min(s0, T * tile_size); here one loop over
 * those e stores fmax(in[e * in_stride], 0) to out[e * out_stride].  The port walks
 * tile by tile with where(x > 0, x, 0).  Same values on every x but -0 (fmax may give
 * +0, where gives +0 too: x > 0 is false); same cells.  Admissible.
 */
#include "alt_common.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_S0, P_NUM_TASKS, P_TILES_PER_CTA, P_TILE, P_ONE_TILE };
enum { R_IN, R_OUT };

static int flat(const td_abi_launch *L, int one_tile) {
    int64_t tiles = (int64_t)L->grid[0] * (one_tile ? 1 : TL_I(L, P_TILES_PER_CTA));
    int64_t n = tiles * TL_I(L, P_TILE) < TL_I(L, P_S0) ? tiles * TL_I(L, P_TILE) : TL_I(L, P_S0);
    for (int64_t e = 0; e < n; e++)
        tl_store(L, R_OUT, e * TL_I(L, P_OUT_STRIDE), fmaxf(tl_load(L, R_IN, e * TL_I(L, P_IN_STRIDE)), 0.0f),
                 tl_f32());
    return 0;
}
static int one_tile(const td_abi_launch *L) { return flat(L, 1); }
static int grid_stride(const td_abi_launch *L) { return flat(L, 0); }
static int either(const td_abi_launch *L) { return flat(L, TL_I(L, P_ONE_TILE) != 0); }

TD_KERNEL(td_a_relu_strided_one_tile) = {"relu_strided_buffer.relu_strided_buffer_one_tile_io_correctness",
                                         "alt_flat_fmax", TD_ABI_HOST, NULL, NULL, NULL, 6, 2, one_tile, NULL};
TD_KERNEL(td_a_relu_strided_grid_stride) = {"relu_strided_buffer.relu_strided_buffer_grid_stride_io_correctnessR",
                                            "alt_flat_fmax", TD_ABI_HOST, NULL, NULL, NULL, 6, 2, grid_stride, NULL};
TD_KERNEL(td_a_relu_strided_summary) = {"relu_strided_buffer.relu_strided_buffer_output_summary_general",
                                        "alt_flat_fmax", TD_ABI_HOST, NULL, NULL, NULL, 7, 2, either, NULL};
