/* triton_matmul on CUDA: the 2-D program of matmul_tlc.cuh (pid % group_size_m order,
 * clamped operand rows/columns, binary32 accumulator, no tensor cores) with fp16
 * operands and an fp16 store (__float2half_rn), or e4m3fn operands and the saturating
 * e4m3 store (__nv_cvt_float_to_fp8 with __NV_SATFINITE). */
#include "matmul_tlc.cuh"

enum { PC_M, PC_N, PC_BM, PC_BN, PC_GM, PC_SAM, PC_SAK, PC_SBK, PC_SBN, PC_SCM, PC_SCN, PC_BK, PC_NKB, PC_K };
enum { PI_M, PI_N, PI_K, PI_SAM, PI_SAK, PI_SBK, PI_SBN, PI_SCM, PI_SCN, PI_BM, PI_BN, PI_BK, PI_GM, PI_NKB };
enum { R_A, R_B, R_C };

static mmc_2d program(const td_abi_launch *L, int io) {
    if (io)
        return mmc_2d{TLC_I(L, PI_M),   TLC_I(L, PI_N),   TLC_I(L, PI_K),   TLC_I(L, PI_BM),  TLC_I(L, PI_BN),
                      TLC_I(L, PI_BK),  TLC_I(L, PI_NKB), TLC_I(L, PI_GM),  TLC_I(L, PI_SAM), TLC_I(L, PI_SAK),
                      TLC_I(L, PI_SBK), TLC_I(L, PI_SBN), TLC_I(L, PI_SCM), TLC_I(L, PI_SCN), MMC_SWZ_SIMPLE,
                      MMC_IDX_CLAMP,    MMC_IDX_CLAMP,    0};
    return mmc_2d{TLC_I(L, PC_M),   TLC_I(L, PC_N),   TLC_I(L, PC_K),   TLC_I(L, PC_BM),  TLC_I(L, PC_BN),
                  TLC_I(L, PC_BK),  TLC_I(L, PC_NKB), TLC_I(L, PC_GM),  TLC_I(L, PC_SAM), TLC_I(L, PC_SAK),
                  TLC_I(L, PC_SBK), TLC_I(L, PC_SBN), TLC_I(L, PC_SCM), TLC_I(L, PC_SCN), MMC_SWZ_SIMPLE,
                  MMC_IDX_CLAMP,    MMC_IDX_CLAMP,    0};
}

static int launch_f16_cf(const td_abi_launch *L) {
    return mmc_launch_2d<__half, __half, __half>(L, R_A, R_B, R_C, program(L, 0), "matmul_kernel");
}
static int launch_f16_io(const td_abi_launch *L) {
    return mmc_launch_2d<__half, __half, __half>(L, R_A, R_B, R_C, program(L, 1), "matmul_kernel");
}
static int launch_f8_cf(const td_abi_launch *L) {
    return mmc_launch_2d<mmc_e4m3, mmc_e4m3, mmc_e4m3>(L, R_A, R_B, R_C, program(L, 0), "matmul_kernel");
}
static int launch_f8_io(const td_abi_launch *L) {
    return mmc_launch_2d<mmc_e4m3, mmc_e4m3, mmc_e4m3>(L, R_A, R_B, R_C, program(L, 1), "matmul_kernel");
}

TD_KERNEL(td_kc_triton_matmul_f16_cf) = {"triton_matmul.triton_matmul_f16_closed_form_correct", "triton",
                                         TD_ABI_CUDA, "store=fp16:rne:inf", NULL, NULL, 14, 3, launch_f16_cf, NULL};
TD_KERNEL(td_kc_triton_matmul_f8_cf) = {"triton_matmul.triton_matmul_f8_closed_form_correct", "triton", TD_ABI_CUDA,
                                        "store=e4m3fn:rne:sat", NULL, NULL, 14, 3, launch_f8_cf, NULL};
TD_KERNEL(td_kc_triton_matmul_f16_io) = {"triton_matmul.triton_matmul_f16_io_correctness", "triton", TD_ABI_CUDA,
                                         "store=fp16:rne:inf", NULL, NULL, 14, 3, launch_f16_io, NULL};
TD_KERNEL(td_kc_triton_matmul_f8_io) = {"triton_matmul.triton_matmul_f8_io_correctness", "triton", TD_ABI_CUDA,
                                        "store=e4m3fn:rne:sat", NULL, NULL, 14, 3, launch_f8_io, NULL};
