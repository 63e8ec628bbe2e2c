/* dequantize_matmul on CUDA: dequantize_kernel, one block per program (k_block, n_block)
 * of the 2-D grid, the threads over the [BSK, BSN] tile: the masked int8 load, the
 * column scale, one binary32 product (__fmul_rn) and the masked store. */
#include "tlc.cuh"

enum { P_K, P_N, P_SBK, P_SBN, P_SFK, P_SFN, P_BSN, P_BSK };
enum { R_B, R_S, R_F };

struct dqm_args {
    int64_t K, N, sbk, sbn, sfk, sfn, BSN, BSK;
};

static __global__ void dqm_kernel(const int8_t *b, const float *scale, float *fpb, dqm_args g) {
    for (int64_t l = threadIdx.x; l < g.BSK * g.BSN; l += blockDim.x) {
        int64_t k = (int64_t)blockIdx.x * g.BSK + l / g.BSN, n = (int64_t)blockIdx.y * g.BSN + l % g.BSN;
        if (!(k < g.K && n < g.N)) continue;
        fpb[k * g.sfk + n * g.sfn] = __fmul_rn((float)b[k * g.sbk + n * g.sbn], scale[n]);
    }
}

static int launch(const td_abi_launch *L) {
    dqm_args g = {TLC_I(L, P_K),   TLC_I(L, P_N),   TLC_I(L, P_SBK), TLC_I(L, P_SBN),
                  TLC_I(L, P_SFK), TLC_I(L, P_SFN), TLC_I(L, P_BSN), TLC_I(L, P_BSK)};
    dqm_kernel<<<tlc_grid(L), tlc_threads(g.BSK * g.BSN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_B, const int8_t), TLC_PTR(L, R_S, const float), TLC_PTR(L, R_F, float), g);
    return tlc_check(L, "dqm_kernel");
}

TD_KERNEL(td_kc_dequantize_matmul) = {"dequantize_matmul.dequantize_kernel_correctness", "triton", TD_ABI_CUDA, NULL,
                                      NULL, NULL, 8, 3, launch, NULL};
