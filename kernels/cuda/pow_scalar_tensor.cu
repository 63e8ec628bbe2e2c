/* pow_scalar_tensor on CUDA: pow_func_scalar_tensor_kernel_rank_1, one block per
 * program; the grid-stride branch walks tile pid + j * gridDim.x for j < tiles_per_cta.
 * libdevice pow is CUDA's powf. */
#include "elementwise_tlc.cuh"

enum { P_VAL0, P_IN_STRIDE, P_OUT_STRIDE, P_S0, P_NUM_TASKS, P_TILES_PER_CTA, P_TILE, P_ONE_TILE };
enum { R_IN, R_OUT };

static __global__ void pow_scalar_tensor_kernel(float val0, const float *in0_ptr, float *out0_ptr,
                                                int64_t in0_stride0, int64_t out0_stride0, int64_t s0,
                                                int64_t tiles_per_cta, int64_t tile_size0, bool one_tile_per_cta) {
    int64_t pid = blockIdx.x, num_ctas = gridDim.x;
    int64_t steps = one_tile_per_cta ? 1 : tiles_per_cta;
    for (int64_t j = 0; j < steps; j++) {
        int64_t offset0 = (pid + j * num_ctas) * tile_size0;
        for (int64_t i = threadIdx.x; i < tile_size0; i += blockDim.x) {
            int64_t t = offset0 + i;
            float x = t < s0 ? in0_ptr[t * in0_stride0] : 0.0f; /* boundary_check, padding 0 */
            float out0 = powf(val0, x);
            if (t < s0) out0_ptr[t * out0_stride0] = out0;
        }
    }
}

static int launch_branch(const td_abi_launch *L, bool one_tile_per_cta) {
    if (ew_grid_empty(L)) return 0;
    int64_t ts = TLC_I(L, P_TILE);
    pow_scalar_tensor_kernel<<<tlc_grid(L), tlc_threads(ts), 0, (cudaStream_t)L->stream>>>(
        TLC_R(L, P_VAL0), TLC_PTR(L, R_IN, const float), TLC_PTR(L, R_OUT, float), TLC_I(L, P_IN_STRIDE),
        TLC_I(L, P_OUT_STRIDE), TLC_I(L, P_S0), TLC_I(L, P_TILES_PER_CTA), ts, one_tile_per_cta);
    return tlc_check(L, "pow_func_scalar_tensor_kernel_rank_1");
}
static int one_tile(const td_abi_launch *L) { return launch_branch(L, true); }
static int either(const td_abi_launch *L) { return launch_branch(L, TLC_I(L, P_ONE_TILE) != 0); }

TD_KERNEL(td_kc_pow_scalar_tensor_one_tile) = {"pow_scalar_tensor.pow_scalar_tensor_one_tile_io_correctness",
                                               "triton", TD_ABI_CUDA, NULL, NULL, NULL, 7, 2, one_tile, NULL};
TD_KERNEL(td_kc_pow_scalar_tensor_summary) = {"pow_scalar_tensor.pow_scalar_tensor_output_summary_general", "triton",
                                              TD_ABI_CUDA, NULL, NULL, NULL, 8, 2, either, NULL};
