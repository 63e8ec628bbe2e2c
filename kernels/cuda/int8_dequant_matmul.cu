/* int8_dequant_matmul on CUDA: _int8_matmul_rowwise_dequantize (SPLIT_K = 1, EVEN_K),
 * one block per program id (grouped order pid_m = group_id*GROUP_M + pid % group_size),
 * one thread per output lane: int32 accumulation of int8 products (unsigned: wraps),
 * `w * (x * (acc * divfactor))` in binary32 (explicit _rn intrinsics: no contraction),
 * `.to(fp16)`, `+ bias[rn]` and the fp16 store. */
#include <cuda_fp16.h>

#include "tlc.cuh"

enum { P_M, P_N, P_K, P_DIV, P_HASB, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, P_GM };
enum { R_A, R_B, R_C, R_BIAS, R_SX, R_SW };

struct idm_args {
    int64_t M, N, K, sam, sak, sbk, sbn, scm, scn, BM, BN, GM;
    float div;
    int has_bias;
};

static __global__ void idm_kernel(const int8_t *A, const int8_t *B, __half *C, const __half *bias, const float *sx,
                                  const float *sw, idm_args g) {
    int64_t nm = (g.M + g.BM - 1) / g.BM, nn = (g.N + g.BN - 1) / g.BN, width = g.GM * nn, pid = blockIdx.x;
    int64_t gid = pid / width, gsz = nm - gid * g.GM < g.GM ? nm - gid * g.GM : g.GM;
    int64_t pm = gid * g.GM + pid % gsz, pn = (pid % width) / gsz;
    for (int64_t l = threadIdx.x; l < g.BM * g.BN; l += blockDim.x) {
        int64_t row = pm * g.BM + l / g.BN, col = pn * g.BN + l % g.BN;
        if (!(row < g.M && col < g.N)) continue;
        uint32_t acc = 0;
        for (int64_t k = 0; k < g.K; k++)
            acc += (uint32_t)((int32_t)A[row * g.sam + k * g.sak] * (int32_t)B[k * g.sbk + col * g.sbn]);
        float v = __fmul_rn(sw[col], __fmul_rn(sx[row], __fmul_rn((float)(int32_t)acc, g.div)));
        __half h = __float2half_rn(v);
        if (g.has_bias) h = __float2half_rn(__fadd_rn(__half2float(h), __half2float(bias[col])));
        C[row * g.scm + col * g.scn] = h;
    }
}

static int launch(const td_abi_launch *L) {
    idm_args g = {TLC_I(L, P_M),   TLC_I(L, P_N),   TLC_I(L, P_K),   TLC_I(L, P_SAM), TLC_I(L, P_SAK),
                  TLC_I(L, P_SBK), TLC_I(L, P_SBN), TLC_I(L, P_SCM), TLC_I(L, P_SCN), TLC_I(L, P_BM),
                  TLC_I(L, P_BN),  TLC_I(L, P_GM),  TLC_R(L, P_DIV), (int)TLC_I(L, P_HASB)};
    idm_kernel<<<tlc_grid(L), tlc_threads(g.BM * g.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const int8_t), TLC_PTR(L, R_B, const int8_t), TLC_PTR(L, R_C, __half),
        TLC_PTR(L, R_BIAS, const __half), TLC_PTR(L, R_SX, const float), TLC_PTR(L, R_SW, const float), g);
    return tlc_check(L, "idm_kernel");
}

TD_KERNEL(td_kc_int8_dequant_matmul) = {"int8_dequant_matmul.int8_dequant_matmul_exec_genuine", "triton",
                                        TD_ABI_CUDA, "store=fp16:rne:inf", NULL, NULL, 16, 6, launch, NULL};
