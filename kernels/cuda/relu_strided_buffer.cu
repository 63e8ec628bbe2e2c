/* relu_strided_buffer on CUDA: relu_forward_kernel_rank_1, one block per program; the
 * grid-stride branch walks tile pid + j * gridDim.x for j < tiles_per_cta. */
#include "elementwise_tlc.cuh"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_S0, P_NUM_TASKS, P_TILES_PER_CTA, P_TILE, P_ONE_TILE };
enum { R_IN, R_OUT };

__global__ void relu_strided_buffer_kernel(const float *in0_ptr, float *out0_ptr, int64_t in0_stride0,
                                           int64_t out0_stride0, int64_t s0, int64_t tiles_per_cta,
                                           int64_t tile_size0, bool one_tile_per_cta) {
    int64_t pid = blockIdx.x, num_ctas = gridDim.x;
    int64_t steps = one_tile_per_cta ? 1 : tiles_per_cta;
    for (int64_t j = 0; j < steps; j++) {
        int64_t offset0 = (pid + j * num_ctas) * tile_size0;
        for (int64_t i = threadIdx.x; i < tile_size0; i += blockDim.x) {
            int64_t t = offset0 + i;
            float x = t < s0 ? in0_ptr[t * in0_stride0] : 0.0f; /* boundary_check, padding 0 */
            float out0 = x > 0 ? x : 0.0f;
            if (t < s0) out0_ptr[t * out0_stride0] = out0;
        }
    }
}

static int launch_branch(const td_abi_launch *L, bool one_tile_per_cta) {
    if (ew_grid_empty(L)) return 0;
    int64_t ts = TLC_I(L, P_TILE);
    relu_strided_buffer_kernel<<<tlc_grid(L), tlc_threads(ts), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_IN, const float), TLC_PTR(L, R_OUT, float), TLC_I(L, P_IN_STRIDE), TLC_I(L, P_OUT_STRIDE),
        TLC_I(L, P_S0), TLC_I(L, P_TILES_PER_CTA), ts, one_tile_per_cta);
    return tlc_check(L, "relu_forward_kernel_rank_1");
}
static int one_tile(const td_abi_launch *L) { return launch_branch(L, true); }
static int grid_stride(const td_abi_launch *L) { return launch_branch(L, false); }
static int either(const td_abi_launch *L) { return launch_branch(L, TLC_I(L, P_ONE_TILE) != 0); }

TD_KERNEL(td_kc_relu_strided_one_tile) = {"relu_strided_buffer.relu_strided_buffer_one_tile_io_correctness", "triton",
                                          TD_ABI_CUDA, NULL, NULL, NULL, 6, 2, one_tile, NULL};
TD_KERNEL(td_kc_relu_strided_grid_stride) = {"relu_strided_buffer.relu_strided_buffer_grid_stride_io_correctnessR",
                                             "triton", TD_ABI_CUDA, NULL, NULL, NULL, 6, 2, grid_stride, NULL};
TD_KERNEL(td_kc_relu_strided_summary) = {"relu_strided_buffer.relu_strided_buffer_output_summary_general", "triton",
                                         TD_ABI_CUDA, NULL, NULL, NULL, 7, 2, either, NULL};
