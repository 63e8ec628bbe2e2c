/* relu_strided_buffer: relu_forward_kernel_rank_1, program by program.
 * Parameters: in0_stride0, out0_stride0, s0, num_tasks, tiles_per_cta, tile_size0
 * (+ one_tile_per_cta for the summary contract).  Regions: in0_ptr, out0_ptr.
 * The one-tile and grid-stride contracts are the kernel with its constexpr
 * one_tile_per_cta fixed to true / false. */
#include "tl.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_S0, P_NUM_TASKS, P_TILES_PER_CTA, P_TILE, P_ONE_TILE };
enum { R_IN, R_OUT };

/* One tile: block pointers over (s0,) with the given stride at offset tile_id * tile,
 * boundary-checked load (padding 0), relu_forward = where(x > 0, x, 0), boundary-
 * checked store. */
static void per_tile(const td_abi_launch *L, float *in0, int64_t tile_id) {
    int64_t in_st = TL_I(L, P_IN_STRIDE), out_st = TL_I(L, P_OUT_STRIDE), s0 = TL_I(L, P_S0);
    int64_t ts = TL_I(L, P_TILE), offset0 = tile_id * ts;
    for (int64_t i = 0; i < ts; i++) in0[i] = offset0 + i < s0 ? tl_load(L, R_IN, (offset0 + i) * in_st) : 0.0f;
    for (int64_t i = 0; i < ts; i++) in0[i] = in0[i] > 0 ? in0[i] : 0.0f;
    for (int64_t i = 0; i < ts; i++)
        if (offset0 + i < s0) tl_store(L, R_OUT, (offset0 + i) * out_st, in0[i], tl_f32());
}

static int relu_forward_kernel_rank_1(const td_abi_launch *L, int one_tile_per_cta) {
    float *tile;
    TL_ALLOC(L, tile, TL_I(L, P_TILE));
    int64_t num_ctas = L->grid[0]; /* tl.num_programs(0) */
    for (int64_t pid = 0; pid < num_ctas; pid++) {
        if (one_tile_per_cta) per_tile(L, tile, pid);
        else
            for (int64_t j = 0; j < TL_I(L, P_TILES_PER_CTA); j++) per_tile(L, tile, pid + j * num_ctas);
    }
    free(tile);
    return 0;
}

static int one_tile(const td_abi_launch *L) { return relu_forward_kernel_rank_1(L, 1); }
static int grid_stride(const td_abi_launch *L) { return relu_forward_kernel_rank_1(L, 0); }
static int either(const td_abi_launch *L) { return relu_forward_kernel_rank_1(L, TL_I(L, P_ONE_TILE) != 0); }

TD_KERNEL(td_k_relu_strided_one_tile) = {"relu_strided_buffer.relu_strided_buffer_one_tile_io_correctness", "triton",
                                         TD_ABI_HOST, NULL, NULL, NULL, 6, 2, one_tile, NULL};
TD_KERNEL(td_k_relu_strided_grid_stride) = {"relu_strided_buffer.relu_strided_buffer_grid_stride_io_correctnessR",
                                            "triton", TD_ABI_HOST, NULL, NULL, NULL, 6, 2, grid_stride, NULL};
TD_KERNEL(td_k_relu_strided_summary) = {"relu_strided_buffer.relu_strided_buffer_output_summary_general", "triton",
                                        TD_ABI_HOST, NULL, NULL, NULL, 7, 2, either, NULL};
