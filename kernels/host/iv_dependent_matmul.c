/* iv_dependent_matmul: iv_dependent_matmul_kernel at type = "pre_load": pid_m = pid //
 * num_pid_n, pid_n = pid % num_pid_n, loads wrapped with % M / % N, a_ptrs / b_ptrs
 * recomputed from the loop variable (a_ptr + k*BLOCK_K*stride_ak), `accumulator +=
 * tl.dot(a, b)`, `.to(tl.float16)`, masked store.
 * Parameters: M N SAM SAK SBK SBN SCM SCN BM BN BK numKBlocks.  Regions: A, B, C (fp16). */
#include "matmul_tl.h"

enum { P_M, P_N, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, P_NKB };
enum { R_A, R_B, R_C };

static int iv_dependent_matmul_kernel(const td_abi_launch *L) {
    mmh_2d g = {.M = TL_I(L, P_M), .N = TL_I(L, P_N), .BM = TL_I(L, P_BM), .BN = TL_I(L, P_BN),
                .BK = TL_I(L, P_BK), .T = TL_I(L, P_NKB), .GM = 1, .sam = TL_I(L, P_SAM), .sak = TL_I(L, P_SAK),
                .sbk = TL_I(L, P_SBK), .sbn = TL_I(L, P_SBN), .scm = TL_I(L, P_SCM), .scn = TL_I(L, P_SCN),
                .swz = MMH_SWZ_ROWMAJOR, .rowmode = MMH_IDX_WRAP, .colmode = MMH_IDX_WRAP, .ra = R_A, .rb = R_B,
                .rc = R_C, .store = mmh_f16_store()};
    g.K = g.BK * g.T; /* the surface's K = BK * numKBlocks */
    return mmh_gemm_2d(L, &g);
}

TD_KERNEL(td_k_iv_dependent_matmul_cf) = {"iv_dependent_matmul.iv_dependent_matmul_closed_form_correct", "triton",
                                          TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 12, 3,
                                          iv_dependent_matmul_kernel, NULL};
TD_KERNEL(td_k_iv_dependent_matmul_io) = {"iv_dependent_matmul.iv_dependent_matmul_io_correctness", "triton",
                                          TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 12, 3,
                                          iv_dependent_matmul_kernel, NULL};
