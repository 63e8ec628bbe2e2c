/* iv_dependent_matmul mutants. */
#include "../host/matmul_tl.h"

enum { P_M, P_N, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, P_NKB };
enum { R_A, R_B, R_C };

static mmh_2d program(const td_abi_launch *L) {
    mmh_2d g = {.M = TL_I(L, P_M), .N = TL_I(L, P_N), .BM = TL_I(L, P_BM), .BN = TL_I(L, P_BN),
                .BK = TL_I(L, P_BK), .T = TL_I(L, P_NKB), .GM = 1, .sam = TL_I(L, P_SAM), .sak = TL_I(L, P_SAK),
                .sbk = TL_I(L, P_SBK), .sbn = TL_I(L, P_SBN), .scm = TL_I(L, P_SCM), .scn = TL_I(L, P_SCN),
                .swz = MMH_SWZ_ROWMAJOR, .rowmode = MMH_IDX_WRAP, .colmode = MMH_IDX_WRAP, .ra = R_A, .rb = R_B,
                .rc = R_C, .store = mmh_f16_store()};
    g.K = g.BK * g.T;
    return g;
}

/* a_ptrs = a_ptr + k * BLOCK_SIZE_K * stride_bk: the pre-load pointer of A recomputed with
 * B's K stride (copied from the b_ptrs line) */
static int a_uses_sbk(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.sak = g.sbk;
    return mmh_reads_fit(L, &g) ? mmh_gemm_2d(L, &g) : 1;
}
/* num_pid_n = tl.cdiv(M, BLOCK_SIZE_M): the program id split by the wrong extent */
static int pid_split_by_m(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.rowmajor_by_m = 1;
    return mmh_gemm_2d(L, &g);
}

/* offs_am[:, None] * stride_am in int32: A's row offsets wrap beyond 2^31 elements (the
 * far tier's strides near 2^31 reach it) */
static int a_offset_i32(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.a_off_i32 = 1;
    return mmh_gemm_2d(L, &g);
}

#define IV_CF "iv_dependent_matmul.iv_dependent_matmul_closed_form_correct"
#define IV_IO "iv_dependent_matmul.iv_dependent_matmul_io_correctness"
#define ASBK "A's pre-load pointer advanced with stride_bk instead of stride_ak"
#define SPLIT "pid split into (pid_m, pid_n) with cdiv(M, BM) instead of cdiv(N, BN)"
TD_KERNEL(td_m_iv_dependent_matmul_cf_asbk) = {IV_CF, "mut_a_stride_bk", TD_ABI_HOST, "store=fp16:rne:inf", NULL, ASBK,
                                               12, 3, a_uses_sbk, NULL};
TD_KERNEL(td_m_iv_dependent_matmul_io_asbk) = {IV_IO, "mut_a_stride_bk", TD_ABI_HOST, "store=fp16:rne:inf", NULL, ASBK,
                                               12, 3, a_uses_sbk, NULL};
TD_KERNEL(td_m_iv_dependent_matmul_cf_split) = {IV_CF, "mut_pid_split_by_m", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                                SPLIT, 12, 3, pid_split_by_m, NULL};
TD_KERNEL(td_m_iv_dependent_matmul_io_split) = {IV_IO, "mut_pid_split_by_m", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                                SPLIT, 12, 3, pid_split_by_m, NULL};
TD_KERNEL(td_m_iv_dependent_matmul_io_i32) = {IV_IO, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                              "A's row offset offs_am * stride_am formed in int32", 12, 3,
                                              a_offset_i32, NULL};
TD_KERNEL(td_m_iv_dependent_matmul_cf_i32) = {IV_CF, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                              "A's row offset offs_am * stride_am formed in int32", 12, 3,
                                              a_offset_i32, NULL};
