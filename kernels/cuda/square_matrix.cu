/* square_matrix on CUDA: one block per row, x*x in binary32. */
#include "elementwise_tlc.cuh"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN };

__global__ void square_matrix_square_kernel(float *output_ptr, const float *input_ptr, int64_t in_st, int64_t out_st,
                                            int64_t n_cols, int64_t B) {
    int64_t row_idx = blockIdx.x;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        float x = j < n_cols ? input_ptr[row_idx * in_st + j] : -INFINITY;
        if (j < n_cols) output_ptr[row_idx * out_st + j] = __fmul_rn(x, x);
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    square_matrix_square_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_OUT, float), TLC_PTR(L, R_IN, const float), TLC_I(L, P_IN_STRIDE), TLC_I(L, P_OUT_STRIDE),
        TLC_I(L, P_NCOLS), B);
    return tlc_check(L, "square_kernel");
}

TD_KERNEL(td_kc_square_matrix) = {"square_matrix.square_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 4,
                                  2, launch, NULL};
