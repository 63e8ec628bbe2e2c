/* relu_strided_buffer mutants. */
#include "../host/tl.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_S0, P_NUM_TASKS, P_TILES_PER_CTA, P_TILE, P_ONE_TILE };
enum { R_IN, R_OUT };

typedef struct relu_mut {
    int wrong_out_stride; /* the output block pointer built with in0_stride0 */
    int loop_stride_tpc;  /* tile_id = pid + j * tiles_per_cta instead of j * num_programs */
    int bf16_store;       /* out0.to(tl.bfloat16) before the fp32 store */
    int force_one_tile;   /* the constexpr ignored: always the one-tile body */
} relu_mut;

static void per_tile(const td_abi_launch *L, float *in0, int64_t tile_id, const relu_mut *m) {
    int64_t in_st = TL_I(L, P_IN_STRIDE), out_st = m->wrong_out_stride ? in_st : TL_I(L, P_OUT_STRIDE);
    int64_t s0 = TL_I(L, P_S0), ts = TL_I(L, P_TILE), offset0 = tile_id * ts, len = (int64_t)TL_LEN(L, R_OUT);
    for (int64_t i = 0; i < ts; i++) in0[i] = offset0 + i < s0 ? tl_load(L, R_IN, (offset0 + i) * in_st) : 0.0f;
    for (int64_t i = 0; i < ts; i++) {
        in0[i] = in0[i] > 0 ? in0[i] : 0.0f;
        if (m->bf16_store) {
            td_profile bf = {TD_BF16, TD_RNE, TD_OVF_INF, false};
            in0[i] = (float)td_decode(TD_BF16, td_encode_f32(bf, in0[i]));
        }
    }
    for (int64_t i = 0; i < ts; i++) {
        int64_t o = (offset0 + i) * out_st;
        if (offset0 + i < s0 && o < len) tl_store(L, R_OUT, o, in0[i], tl_f32()); /* (inside the allocation) */
    }
}

static int run(const td_abi_launch *L, int one_tile_per_cta, relu_mut m) {
    float *tile;
    TL_ALLOC(L, tile, TL_I(L, P_TILE));
    int64_t num_ctas = L->grid[0], tpc = TL_I(L, P_TILES_PER_CTA);
    if (m.force_one_tile) one_tile_per_cta = 1;
    for (int64_t pid = 0; pid < num_ctas; pid++) {
        if (one_tile_per_cta) per_tile(L, tile, pid, &m);
        else
            for (int64_t j = 0; j < tpc; j++) per_tile(L, tile, pid + j * (m.loop_stride_tpc ? tpc : num_ctas), &m);
    }
    free(tile);
    return 0;
}

static int one_tile_wrong_stride(const td_abi_launch *L) { return run(L, 1, (relu_mut){.wrong_out_stride = 1}); }
static int grid_stride_loop_stride(const td_abi_launch *L) { return run(L, 0, (relu_mut){.loop_stride_tpc = 1}); }
static int grid_stride_bf16(const td_abi_launch *L) { return run(L, 0, (relu_mut){.bf16_store = 1}); }
static int summary_always_one_tile(const td_abi_launch *L) {
    return run(L, TL_I(L, P_ONE_TILE) != 0, (relu_mut){.force_one_tile = 1});
}

TD_KERNEL(td_m_relu_strided_stride) = {"relu_strided_buffer.relu_strided_buffer_one_tile_io_correctness",
                                       "mut_out_block_ptr_in_stride", TD_ABI_HOST, NULL, NULL,
                                       "the output block pointer is built with in0_stride0", 6, 2,
                                       one_tile_wrong_stride, NULL};
TD_KERNEL(td_m_relu_strided_loop) = {"relu_strided_buffer.relu_strided_buffer_grid_stride_io_correctnessR",
                                     "mut_loop_stride_tiles_per_cta", TD_ABI_HOST, NULL, NULL,
                                     "tile_id = pid + j * tiles_per_cta (the loop strides by the wrong count)", 6, 2,
                                     grid_stride_loop_stride, NULL};
TD_KERNEL(td_m_relu_strided_bf16) = {"relu_strided_buffer.relu_strided_buffer_grid_stride_io_correctnessR",
                                     "mut_store_rounded_bf16", TD_ABI_HOST, NULL, NULL,
                                     "out0.to(tl.bfloat16) before the store: R is bf16, not the fp32 store", 6, 2,
                                     grid_stride_bf16, NULL};
TD_KERNEL(td_m_relu_strided_one_tile_only) = {"relu_strided_buffer.relu_strided_buffer_output_summary_general",
                                              "mut_constexpr_ignored", TD_ABI_HOST, NULL, NULL,
                                              "one_tile_per_cta ignored: the grid-stride launch runs one tile per "
                                              "program",
                                              7, 2, summary_always_one_tile, NULL};
