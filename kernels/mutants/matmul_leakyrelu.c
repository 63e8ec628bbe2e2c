/* matmul_leakyrelu mutants. */
#include "../host/matmul_tl.h"

enum { P_M, P_N, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, P_GROUP, P_NKB };
enum { R_A, R_B, R_C };

static mmh_2d program(const td_abi_launch *L) {
    mmh_2d g = {.M = TL_I(L, P_M), .N = TL_I(L, P_N), .BM = TL_I(L, P_BM), .BN = TL_I(L, P_BN),
                .BK = TL_I(L, P_BK), .T = TL_I(L, P_NKB), .GM = TL_I(L, P_GROUP), .sam = TL_I(L, P_SAM),
                .sak = TL_I(L, P_SAK), .sbk = TL_I(L, P_SBK), .sbn = TL_I(L, P_SBN), .scm = TL_I(L, P_SCM),
                .scn = TL_I(L, P_SCN), .swz = MMH_SWZ_TUTORIAL, .rowmode = MMH_IDX_WRAP, .colmode = MMH_IDX_WRAP,
                .ra = R_A, .rb = R_B, .rc = R_C, .leaky = 1, .store = mmh_f16_store()};
    g.K = g.BK * g.T;
    return g;
}

/* b_ptrs += BLOCK_SIZE_K * stride_bn: the K step of B along the wrong axis */
static int k_step_bn(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.sbk = g.sbn;
    return mmh_reads_fit(L, &g) ? mmh_gemm_2d(L, &g) : 1;
}
/* c = accumulator.to(tl.float16, fp_downcast_rounding="rtz") */
static int store_rtz(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.store.rnd = TD_RTZ;
    return mmh_gemm_2d(L, &g);
}

#define LR_CF "matmul_leakyrelu.matmul_leakyrelu_closed_form_correct"
#define LR_IO "matmul_leakyrelu.matmul_leakyrelu_io_correctness"
#define KSTEP "b_ptrs advance by BLOCK_SIZE_K * stride_bn: B walked along N instead of K"
#define RTZ "the fp16 store truncates (rtz) while the kernel declares round-to-nearest"
TD_KERNEL(td_m_matmul_leakyrelu_cf_kstep) = {LR_CF, "mut_b_k_step_bn", TD_ABI_HOST, "store=fp16:rne:inf", NULL, KSTEP,
                                             13, 3, k_step_bn, NULL};
TD_KERNEL(td_m_matmul_leakyrelu_io_kstep) = {LR_IO, "mut_b_k_step_bn", TD_ABI_HOST, "store=fp16:rne:inf", NULL, KSTEP,
                                             13, 3, k_step_bn, NULL};
TD_KERNEL(td_m_matmul_leakyrelu_cf_rtz) = {LR_CF, "mut_store_rtz", TD_ABI_HOST, "store=fp16:rne:inf", NULL, RTZ, 13,
                                           3, store_rtz, NULL};
TD_KERNEL(td_m_matmul_leakyrelu_io_rtz) = {LR_IO, "mut_store_rtz", TD_ABI_HOST, "store=fp16:rne:inf", NULL, RTZ, 13,
                                           3, store_rtz, NULL};
/* offs_am[:, None] * stride_am in int32: A's row offsets wrap beyond 2^31 elements */
static int a_i32(const td_abi_launch *L) {
    mmh_2d g = program(L);
    g.a_off_i32 = 1;
    return mmh_gemm_2d(L, &g);
}
TD_KERNEL(td_m_matmul_leakyrelu_io_i32) = {LR_IO, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                        "offs_am[:, None] * stride_am formed in int32 (A's row offsets wrap beyond 2^31 elements)", 13,
                        3, a_i32, NULL};
TD_KERNEL(td_m_matmul_leakyrelu_cf_i32) = {LR_CF, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                        "offs_am[:, None] * stride_am formed in int32 (A's row offsets wrap beyond 2^31 elements)", 13,
                        3, a_i32, NULL};
