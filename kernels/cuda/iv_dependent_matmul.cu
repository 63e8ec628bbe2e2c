/* iv_dependent_matmul on CUDA: the 2-D program of matmul_tlc.cuh at type = "pre_load"
 * (row-major program order, % M / % N wrapped loads, fp16 operands, binary32
 * accumulator, fp16 store by __float2half_rn), no tensor cores. */
#include "matmul_tlc.cuh"

enum { P_M, P_N, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, P_NKB };
enum { R_A, R_B, R_C };

static int launch(const td_abi_launch *L) {
    mmc_2d g = {TLC_I(L, P_M),   TLC_I(L, P_N),   TLC_I(L, P_BK) * TLC_I(L, P_NKB),
                TLC_I(L, P_BM),  TLC_I(L, P_BN),  TLC_I(L, P_BK),
                TLC_I(L, P_NKB), 1,               TLC_I(L, P_SAM),
                TLC_I(L, P_SAK), TLC_I(L, P_SBK), TLC_I(L, P_SBN),
                TLC_I(L, P_SCM), TLC_I(L, P_SCN), MMC_SWZ_ROWMAJOR,
                MMC_IDX_WRAP,    MMC_IDX_WRAP,    0};
    return mmc_launch_2d<__half, __half, __half>(L, R_A, R_B, R_C, g, "iv_dependent_matmul_kernel");
}

TD_KERNEL(td_kc_iv_dependent_matmul_cf) = {"iv_dependent_matmul.iv_dependent_matmul_closed_form_correct", "triton",
                                           TD_ABI_CUDA, "store=fp16:rne:inf", NULL, NULL, 12, 3, launch, NULL};
TD_KERNEL(td_kc_iv_dependent_matmul_io) = {"iv_dependent_matmul.iv_dependent_matmul_io_correctness", "triton",
                                           TD_ABI_CUDA, "store=fp16:rne:inf", NULL, NULL, 12, 3, launch, NULL};
