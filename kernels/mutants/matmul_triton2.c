/* matmul_triton2 mutants. */
#include "../host/matmul_tl.h"

enum { P_M, P_N, P_BM, P_BN, P_GM, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BK, P_NKB };
enum { R_A, R_B, R_C };

static mmh_2d program(const td_abi_launch *L) {
    mmh_2d g = {.M = TL_I(L, P_M), .N = TL_I(L, P_N), .BM = TL_I(L, P_BM), .BN = TL_I(L, P_BN),
                .BK = TL_I(L, P_BK), .T = TL_I(L, P_NKB), .GM = TL_I(L, P_GM), .sam = TL_I(L, P_SAM),
                .sak = TL_I(L, P_SAK), .sbk = TL_I(L, P_SBK), .sbn = TL_I(L, P_SBN), .scm = TL_I(L, P_SCM),
                .scn = TL_I(L, P_SCN), .swz = MMH_SWZ_SIMPLE, .rowmode = MMH_IDX_RAW, .colmode = MMH_IDX_RAW,
                .ra = R_A, .rb = R_B, .rc = R_C, .store = tl_f32()};
    g.K = g.BK * g.T;
    return g;
}

/* b_ptrs advance along K by N: B assumed a contiguous [K, N] array */
static int mut_ld_b(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.sbk = g.N;
    return mmh_reads_fit(L, &g) ? mmh_gemm_2d(L, &g) : 1;
}
/* c_mask = offs_cm[:, None] < M only */
static int mut_col_mask(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.mask_rows_only = 1;
    return mmh_gemm_2d(L, &g);
}

#define MT2_SUM "matmul_triton2.matmul_triton2_output_summary_general"
#define MT2_IO "matmul_triton2.matmul_triton2_io_correctness"
#define LD_B "B's K step taken as N (B assumed contiguous [K, N]): wrong leading dimension"
#define COLM "store mask keeps offs_cm < M only: columns past N of a partial tile are written"
TD_KERNEL(td_m_matmul_triton2_sum_ldb) = {MT2_SUM, "mut_wrong_ld_b", TD_ABI_HOST, NULL, NULL, LD_B, 13, 3, mut_ld_b, NULL};
TD_KERNEL(td_m_matmul_triton2_io_ldb) = {MT2_IO, "mut_wrong_ld_b", TD_ABI_HOST, NULL, NULL, LD_B, 13, 3, mut_ld_b, NULL};
TD_KERNEL(td_m_matmul_triton2_sum_colm) = {MT2_SUM, "mut_no_col_mask", TD_ABI_HOST, NULL, NULL, COLM, 13, 3,
                                           mut_col_mask, NULL};
TD_KERNEL(td_m_matmul_triton2_io_colm) = {MT2_IO, "mut_no_col_mask", TD_ABI_HOST, NULL, NULL, COLM, 13, 3,
                                          mut_col_mask, NULL};
/* offs_am[:, None] * stride_am in int32 (Triton's type for an int32 stride times the
 * int32 offs_am): A's row offsets wrap beyond 2^31 elements */
static int mut_a_i32(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.a_off_i32 = 1;
    return mmh_gemm_2d(L, &g);
}
#define AI32 "offs_am[:, None] * stride_am formed in int32 (A's row offsets wrap beyond 2^31 elements)"
TD_KERNEL(td_m_matmul_triton2_sum_i32) = {MT2_SUM, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, AI32, 13, 3,
                                          mut_a_i32, NULL};
TD_KERNEL(td_m_matmul_triton2_io_i32) = {MT2_IO, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, AI32, 13, 3,
                                         mut_a_i32, NULL};
