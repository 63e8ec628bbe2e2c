/* matmul_triton2 on CUDA: the 2-D program of matmul_tlc.cuh (grouped order with
 * pid % group_size_m, unwrapped rows/columns, fp16 operands, binary32 accumulator and
 * store, no tensor cores). */
#include "matmul_tlc.cuh"

enum { P_M, P_N, P_BM, P_BN, P_GM, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BK, P_NKB };
enum { R_A, R_B, R_C };

static int launch(const td_abi_launch *L) {
    mmc_2d g = {TLC_I(L, P_M),   TLC_I(L, P_N),   TLC_I(L, P_BK) * TLC_I(L, P_NKB),
                TLC_I(L, P_BM),  TLC_I(L, P_BN),  TLC_I(L, P_BK),
                TLC_I(L, P_NKB), TLC_I(L, P_GM),  TLC_I(L, P_SAM),
                TLC_I(L, P_SAK), TLC_I(L, P_SBK), TLC_I(L, P_SBN),
                TLC_I(L, P_SCM), TLC_I(L, P_SCN), MMC_SWZ_SIMPLE,
                MMC_IDX_RAW,     MMC_IDX_RAW,     0};
    return mmc_launch_2d<__half, __half, float>(L, R_A, R_B, R_C, g, "matmul_kernel");
}

TD_KERNEL(td_kc_matmul_triton2_summary) = {"matmul_triton2.matmul_triton2_output_summary_general", "triton",
                                           TD_ABI_CUDA, NULL, NULL, NULL, 13, 3, launch, NULL};
TD_KERNEL(td_kc_matmul_triton2_io) = {"matmul_triton2.matmul_triton2_io_correctness", "triton", TD_ABI_CUDA, NULL,
                                      NULL, NULL, 13, 3, launch, NULL};
