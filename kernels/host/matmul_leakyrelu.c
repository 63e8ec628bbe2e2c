/* matmul_leakyrelu: matmul_kernel at ACTIVATION = "leaky_relu": tutorial grouped order, loads
 * wrapped with % M / % N, `accumulator += tl.dot(a, b)` (the tile sum added to the
 * binary32 accumulator), tl.where(acc >= 0, acc, 0.01*acc), `.to(tl.float16)`, masked
 * store.  Parameters: M N SAM SAK SBK SBN SCM SCN BM BN BK GROUP numKBlocks.
 * Regions: A, B, C (fp16). */
#include "matmul_tl.h"

enum { P_M, P_N, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, P_GROUP, P_NKB };
enum { R_A, R_B, R_C };

static int matmul_kernel(const td_abi_launch *L) {
    mmh_2d g = {.M = TL_I(L, P_M), .N = TL_I(L, P_N), .BM = TL_I(L, P_BM), .BN = TL_I(L, P_BN),
                .BK = TL_I(L, P_BK), .T = TL_I(L, P_NKB), .GM = TL_I(L, P_GROUP), .sam = TL_I(L, P_SAM),
                .sak = TL_I(L, P_SAK), .sbk = TL_I(L, P_SBK), .sbn = TL_I(L, P_SBN), .scm = TL_I(L, P_SCM),
                .scn = TL_I(L, P_SCN), .swz = MMH_SWZ_TUTORIAL, .rowmode = MMH_IDX_WRAP, .colmode = MMH_IDX_WRAP,
                .ra = R_A, .rb = R_B, .rc = R_C, .leaky = 1, .store = mmh_f16_store()};
    g.K = g.BK * g.T; /* the kernel's K = BK * numKBlocks */
    return mmh_gemm_2d(L, &g);
}

TD_KERNEL(td_k_matmul_leakyrelu_cf) = {"matmul_leakyrelu.matmul_leakyrelu_closed_form_correct", "triton", TD_ABI_HOST,
                            "store=fp16:rne:inf", NULL, NULL, 13, 3, matmul_kernel, NULL};
TD_KERNEL(td_k_matmul_leakyrelu_io) = {"matmul_leakyrelu.matmul_leakyrelu_io_correctness", "triton", TD_ABI_HOST,
                            "store=fp16:rne:inf", NULL, NULL, 13, 3, matmul_kernel, NULL};
