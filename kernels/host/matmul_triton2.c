/* matmul_triton2: matmul_kernel with the grouped program order (pid_m = first_pid_m +
 * pid % group_size_m), unwrapped rows/columns, `accumulator += tl.dot(a, b)` over
 * cdiv(K, BK) steps with the K-tail masks, and the (row < M) & (col < N) binary32
 * store.  Parameters (contract order): M N BM BN GM SAM SAK SBK SBN SCM SCN BK
 * numKBlocks.  Regions: A (fp16), B (fp16), C (binary32). */
#include "matmul_tl.h"

enum { P_M, P_N, P_BM, P_BN, P_GM, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BK, P_NKB };
enum { R_A, R_B, R_C };

static mmh_2d program(const td_abi_launch *L) {
    mmh_2d g = {.M = TL_I(L, P_M), .N = TL_I(L, P_N), .BM = TL_I(L, P_BM), .BN = TL_I(L, P_BN),
                .BK = TL_I(L, P_BK), .T = TL_I(L, P_NKB), .GM = TL_I(L, P_GM), .sam = TL_I(L, P_SAM),
                .sak = TL_I(L, P_SAK), .sbk = TL_I(L, P_SBK), .sbn = TL_I(L, P_SBN), .scm = TL_I(L, P_SCM),
                .scn = TL_I(L, P_SCN), .swz = MMH_SWZ_SIMPLE, .rowmode = MMH_IDX_RAW, .colmode = MMH_IDX_RAW,
                .ra = R_A, .rb = R_B, .rc = R_C, .store = tl_f32()};
    g.K = g.BK * g.T; /* K = BK * numKBlocks; the loop runs cdiv(K, BK) = numKBlocks times */
    return g;
}

static int matmul_kernel(const td_abi_launch *L) {
    mmh_2d g = program(L);
    return mmh_gemm_2d(L, &g);
}

TD_KERNEL(td_k_matmul_triton2_summary) = {"matmul_triton2.matmul_triton2_output_summary_general", "triton",
                                          TD_ABI_HOST, NULL, NULL, NULL, 13, 3, matmul_kernel, NULL};
TD_KERNEL(td_k_matmul_triton2_io) = {"matmul_triton2.matmul_triton2_io_correctness", "triton", TD_ABI_HOST, NULL,
                                     NULL, NULL, 13, 3, matmul_kernel, NULL};
