/* swiglu_fwd on CUDA: grid (rows, column blocks), out = (x * sigmoid(x)) * y. */
#include "elementwise_tlc.cuh"

enum { P_SX, P_SY, P_SOUT, P_NCOLS, P_BLOCK };
enum { R_X, R_Y, R_OUT };

__global__ void swiglu_fwd_kernel(const float *X, const float *Y, float *OUT, int64_t sx, int64_t sy, int64_t so,
                                  int64_t ncols, int64_t BN) {
    int64_t row = blockIdx.x, start_col = (int64_t)blockIdx.y * BN;
    for (int64_t j = threadIdx.x; j < BN; j += blockDim.x) {
        int64_t col = start_col + j;
        if (col < ncols) {
            float x = X[row * sx + col], y = Y[row * sy + col];
            OUT[row * so + col] = __fmul_rn(__fmul_rn(x, ew_sigmoid(x)), y);
        }
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t BN = TLC_I(L, P_BLOCK);
    swiglu_fwd_kernel<<<tlc_grid(L), tlc_threads(BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_Y, const float), TLC_PTR(L, R_OUT, float), TLC_I(L, P_SX),
        TLC_I(L, P_SY), TLC_I(L, P_SOUT), TLC_I(L, P_NCOLS), BN);
    return tlc_check(L, "_swiglu_fwd_kernel");
}

TD_KERNEL(td_kc_swiglu_fwd) = {"swiglu_fwd.swiglu_fwd_kernel_correctness", "triton", TD_ABI_CUDA, NULL, "cuda", NULL, 5,
                               3, launch, NULL};
