/* matmul_dequant_int4 on CUDA: dequantize_kernel, one block per program (k_block,
 * n_block), the threads over the [BK, BN] tile: the packed int32 words of b and b_zp,
 * nibbles by arithmetic shift and mask, (q - zp) * scale with __fmul_rn, the masked
 * store. */
#include "tlc.cuh"

enum { P_K, P_N, P_GS, P_SBK, P_SBN, P_SBSK, P_SBSN, P_SBZK, P_SBZN, P_SFK, P_SFN, P_BK, P_BN };
enum { R_B, R_S, R_ZP, R_F };

struct mdi4_args {
    int64_t K, N, gs, sbk, sbn, sbsk, sbsn, sbzk, sbzn, sfk, sfn, BK, BN;
};

static __global__ void mdi4_kernel(const int32_t *b, const float *scale, const int32_t *zp, float *fpb, mdi4_args g) {
    for (int64_t l = threadIdx.x; l < g.BK * g.BN; l += blockDim.x) {
        int64_t k = (int64_t)blockIdx.x * g.BK + l / g.BN, n = (int64_t)blockIdx.y * g.BN + l % g.BN;
        if (!(k < g.K && n < g.N)) continue;
        int32_t w = b[k / 8 * g.sbk + n * g.sbn], z = zp[k / g.gs * g.sbzk + n / 8 * g.sbzn];
        int32_t q = ((w >> ((k % 8) * 4)) & 0xF) - ((z >> ((n % 8) * 4)) & 0xF);
        fpb[k * g.sfk + n * g.sfn] = __fmul_rn((float)q, scale[k / g.gs * g.sbsk + n * g.sbsn]);
    }
}

static int launch(const td_abi_launch *L) {
    mdi4_args g = {TLC_I(L, P_K),    TLC_I(L, P_N),    TLC_I(L, P_GS),   TLC_I(L, P_SBK),  TLC_I(L, P_SBN),
                   TLC_I(L, P_SBSK), TLC_I(L, P_SBSN), TLC_I(L, P_SBZK), TLC_I(L, P_SBZN), TLC_I(L, P_SFK),
                   TLC_I(L, P_SFN),  TLC_I(L, P_BK),   TLC_I(L, P_BN)};
    mdi4_kernel<<<tlc_grid(L), tlc_threads(g.BK * g.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_B, const int32_t), TLC_PTR(L, R_S, const float), TLC_PTR(L, R_ZP, const int32_t),
        TLC_PTR(L, R_F, float), g);
    return tlc_check(L, "mdi4_kernel");
}

TD_KERNEL(td_kc_matmul_dequant_int4) = {"matmul_dequant_int4.matmul_dequant_int4_exec_genuine", "triton",
                                        TD_ABI_CUDA, NULL, NULL, NULL, 13, 4, launch, NULL};
