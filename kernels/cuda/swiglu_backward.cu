/* swiglu_backward on CUDA: grid (rows, column blocks); OUT only when RECOMPUTE_OUTPUT. */
#include "elementwise_tlc.cuh"

enum { P_SX, P_SY, P_SDOUT, P_SOUT, P_SDX, P_SDY, P_NCOLS, P_BLOCK, P_RECOMPUTE };
enum { R_X, R_Y, R_DOUT, R_OUT, R_DX, R_DY };

__global__ void swiglu_bwd_kernel(const float *X, const float *Y, const float *DOUT, float *OUT, float *DX, float *DY,
                                  int64_t sx, int64_t sy, int64_t sd, int64_t so, int64_t sdx, int64_t sdy,
                                  int64_t ncols, int64_t BN, bool recompute) {
    int64_t row = blockIdx.x, start_col = (int64_t)blockIdx.y * BN;
    for (int64_t j = threadIdx.x; j < BN; j += blockDim.x) {
        int64_t col = start_col + j;
        if (col >= ncols) continue;
        float x = X[row * sx + col], y = Y[row * sy + col], dout = DOUT[row * sd + col];
        float s = ew_sigmoid(x);
        float t = __fmul_rn(s, __fadd_rn(1.0f, __fmul_rn(x, __fsub_rn(1.0f, s))));
        DX[row * sdx + col] = __fmul_rn(__fmul_rn(t, y), dout);
        float xs = __fmul_rn(x, s);
        DY[row * sdy + col] = __fmul_rn(xs, dout);
        if (recompute) OUT[row * so + col] = __fmul_rn(xs, y);
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t BN = TLC_I(L, P_BLOCK);
    swiglu_bwd_kernel<<<tlc_grid(L), tlc_threads(BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_Y, const float), TLC_PTR(L, R_DOUT, const float),
        TLC_PTR(L, R_OUT, float), TLC_PTR(L, R_DX, float), TLC_PTR(L, R_DY, float), TLC_I(L, P_SX), TLC_I(L, P_SY),
        TLC_I(L, P_SDOUT), TLC_I(L, P_SOUT), TLC_I(L, P_SDX), TLC_I(L, P_SDY), TLC_I(L, P_NCOLS), BN,
        TLC_I(L, P_RECOMPUTE) != 0);
    return tlc_check(L, "_swiglu_bwd_kernel");
}

TD_KERNEL(td_kc_swiglu_backward) = {"swiglu_backward.swiglu_bwd_kernel_correctness", "triton", TD_ABI_CUDA, NULL,
                                    "cuda", NULL, 9, 6, launch, NULL};
