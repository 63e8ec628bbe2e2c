/* matmul_triton_autotune on CUDA: the 2-D program of matmul_tlc.cuh (tutorial order,
 * % M / % N wrapped loads, fp16 operands, binary32 accumulator, leaky_relu when
 * ACTIVATION, fp16 store by __float2half_rn), no tensor cores. */
#include "matmul_tlc.cuh"

enum { PC_M, PC_N, PC_BM, PC_BN, PC_GM, PC_SAM, PC_SAK, PC_SBK, PC_SBN, PC_SCM, PC_SCN, PC_BK, PC_NKB, PC_K, PC_ACT };
enum { PI_M, PI_N, PI_K, PI_SAM, PI_SAK, PI_SBK, PI_SBN, PI_SCM, PI_SCN, PI_BM, PI_BN, PI_BK, PI_GM, PI_NKB, PI_ACT };
enum { R_A, R_B, R_C };

static int launch_cf(const td_abi_launch *L) {
    mmc_2d g = {TLC_I(L, PC_M),   TLC_I(L, PC_N),   TLC_I(L, PC_K),   TLC_I(L, PC_BM),  TLC_I(L, PC_BN),
                TLC_I(L, PC_BK),  TLC_I(L, PC_NKB), TLC_I(L, PC_GM),  TLC_I(L, PC_SAM), TLC_I(L, PC_SAK),
                TLC_I(L, PC_SBK), TLC_I(L, PC_SBN), TLC_I(L, PC_SCM), TLC_I(L, PC_SCN), MMC_SWZ_TUTORIAL,
                MMC_IDX_WRAP,     MMC_IDX_WRAP,     TLC_I(L, PC_ACT) != 0};
    return mmc_launch_2d<__half, __half, __half>(L, R_A, R_B, R_C, g, "matmul_kernel");
}
static int launch_io(const td_abi_launch *L) {
    mmc_2d g = {TLC_I(L, PI_M),   TLC_I(L, PI_N),   TLC_I(L, PI_K),   TLC_I(L, PI_BM),  TLC_I(L, PI_BN),
                TLC_I(L, PI_BK),  TLC_I(L, PI_NKB), TLC_I(L, PI_GM),  TLC_I(L, PI_SAM), TLC_I(L, PI_SAK),
                TLC_I(L, PI_SBK), TLC_I(L, PI_SBN), TLC_I(L, PI_SCM), TLC_I(L, PI_SCN), MMC_SWZ_TUTORIAL,
                MMC_IDX_WRAP,     MMC_IDX_WRAP,     TLC_I(L, PI_ACT) != 0};
    return mmc_launch_2d<__half, __half, __half>(L, R_A, R_B, R_C, g, "matmul_kernel");
}

TD_KERNEL(td_kc_matmul_autotune_cf) = {"matmul_triton_autotune.matmul_autotune_closed_form_correct", "triton",
                                       TD_ABI_CUDA, "store=fp16:rne:inf", NULL, NULL, 15, 3, launch_cf, NULL};
TD_KERNEL(td_kc_matmul_autotune_io) = {"matmul_triton_autotune.matmul_autotune_io_correctness", "triton", TD_ABI_CUDA,
                                       "store=fp16:rne:inf", NULL, NULL, 15, 3, launch_io, NULL};
