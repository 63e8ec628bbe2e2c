/* matrix_reduction on CUDA: load_reduce_kernel, one block; each row of the tile reduced by
 * the shared-memory max tree (reduce_tlc.cuh); stride_y unused as in the source. */
#include "reduce_tlc.cuh"

enum { P_SXM, P_SXN, P_SY, P_BM, P_BN };
enum { R_X, R_Y };

__global__ void load_reduce_kernel(const float *x_ptr, float *y_ptr, int64_t sxm, int64_t sxn, int64_t BM,
                                   int64_t BN) {
    RTLC_SMEM(smem);
    float *x = (float *)smem;
    for (int64_t i = 0; i < BM; i++) {
        for (int64_t j = threadIdx.x; j < BN; j += blockDim.x) x[j] = x_ptr[i * sxm + j * sxn];
        float v = rtlc_tree_max(x, BN);
        if (threadIdx.x == 0) y_ptr[i] = v;
    }
}

static int launch(const td_abi_launch *L) {
    int64_t BN = TLC_I(L, P_BN);
    load_reduce_kernel<<<tlc_grid(L), tlc_threads(BN), (size_t)BN * sizeof(float), (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_Y, float), TLC_I(L, P_SXM), TLC_I(L, P_SXN), TLC_I(L, P_BM), BN);
    return tlc_check(L, "load_reduce_kernel");
}

TD_KERNEL(td_kc_matrix_reduce_summary) = {"matrix_reduction.load_reduce_kernel_output_summary", "triton", TD_ABI_CUDA,
                                          NULL, NULL, NULL, 5, 2, launch, NULL};
TD_KERNEL(td_kc_matrix_reduce_io) = {"matrix_reduction.matrix_reduction_io_correctness", "triton", TD_ABI_CUDA, NULL,
                                     NULL, NULL, 5, 2, launch, NULL};
