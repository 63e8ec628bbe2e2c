/* pow_scalar_tensor: pow_func_scalar_tensor_kernel_rank_1, program by program.
 * Parameters: val0, in0_stride0, out0_stride0, s0, num_tasks, tiles_per_cta, tile_size0
 * (+ one_tile_per_cta for the summary contract).  Regions: in0_ptr, out0_ptr.
 * The one-tile contract is the kernel with its constexpr one_tile_per_cta = true.
 * libdevice pow is the C library's powf on the host. */
#include "tl.h"

enum { P_VAL0, P_IN_STRIDE, P_OUT_STRIDE, P_S0, P_NUM_TASKS, P_TILES_PER_CTA, P_TILE, P_ONE_TILE };
enum { R_IN, R_OUT };

/* One tile: block pointers over (s0,) at offset tile_id * tile_size0, boundary-checked
 * load of the exponents, pow(val0.to(fp32), in0), boundary-checked store. */
static void per_tile(const td_abi_launch *L, float *in0, int64_t tile_id) {
    int64_t in_st = TL_I(L, P_IN_STRIDE), out_st = TL_I(L, P_OUT_STRIDE), s0 = TL_I(L, P_S0);
    int64_t ts = TL_I(L, P_TILE), offset0 = tile_id * ts;
    float val0 = (float)TL_R(L, P_VAL0);
    for (int64_t i = 0; i < ts; i++) in0[i] = offset0 + i < s0 ? tl_load(L, R_IN, (offset0 + i) * in_st) : 0.0f;
    for (int64_t i = 0; i < ts; i++) in0[i] = powf(val0, in0[i]);
    for (int64_t i = 0; i < ts; i++)
        if (offset0 + i < s0) tl_store(L, R_OUT, (offset0 + i) * out_st, in0[i], tl_f32());
}

static int pow_kernel_rank_1(const td_abi_launch *L, int one_tile_per_cta) {
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

static int one_tile(const td_abi_launch *L) { return pow_kernel_rank_1(L, 1); }
static int either(const td_abi_launch *L) { return pow_kernel_rank_1(L, TL_I(L, P_ONE_TILE) != 0); }

TD_KERNEL(td_k_pow_scalar_tensor_one_tile) = {"pow_scalar_tensor.pow_scalar_tensor_one_tile_io_correctness", "triton",
                                              TD_ABI_HOST, NULL, NULL, NULL, 7, 2, one_tile, NULL};
TD_KERNEL(td_k_pow_scalar_tensor_summary) = {"pow_scalar_tensor.pow_scalar_tensor_output_summary_general", "triton",
                                             TD_ABI_HOST, NULL, NULL, NULL, 8, 2, either, NULL};
