/* matrix_transpose on CUDA: one block moves the SIZE_M x D_HEAD tile, transposed.
 * Both regions are float16; a transpose moves the 16-bit patterns unchanged. */
#include "elementwise_tlc.cuh"

enum { P_MSX, P_MSY, P_OSX, P_OSY, P_SIZE_M, P_D_HEAD };
enum { R_M, R_OUT };

__global__ void matrix_transpose_kernel(const __half *M, __half *Out, int64_t msx, int64_t msy, int64_t osx,
                                        int64_t osy, int64_t SIZE_M, int64_t D_HEAD) {
    for (int64_t j = threadIdx.x; j < SIZE_M * D_HEAD; j += blockDim.x) {
        int64_t d = j / SIZE_M, m = j % SIZE_M;
        Out[d * osx + m * osy] = M[m * msx + d * msy];
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t SM = TLC_I(L, P_SIZE_M), DH = TLC_I(L, P_D_HEAD);
    matrix_transpose_kernel<<<tlc_grid(L), tlc_threads(SM * DH), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_M, const __half), TLC_PTR(L, R_OUT, __half), TLC_I(L, P_MSX), TLC_I(L, P_MSY), TLC_I(L, P_OSX),
        TLC_I(L, P_OSY), SM, DH);
    return tlc_check(L, "kernel");
}

TD_KERNEL(td_kc_matrix_transpose) = {"matrix_transpose.kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 6,
                                     2, launch, NULL};
