/* matmul_triton_autotune mutants. */
#include "../host/matmul_tl.h"

enum { PC_M, PC_N, PC_BM, PC_BN, PC_GM, PC_SAM, PC_SAK, PC_SBK, PC_SBN, PC_SCM, PC_SCN, PC_BK, PC_NKB, PC_K, PC_ACT };
enum { PI_M, PI_N, PI_K, PI_SAM, PI_SAK, PI_SBK, PI_SBN, PI_SCM, PI_SCN, PI_BM, PI_BN, PI_BK, PI_GM, PI_NKB, PI_ACT };
enum { R_A, R_B, R_C };

static mmh_2d program(const td_abi_launch *L, int io) {
    mmh_2d g = {.swz = MMH_SWZ_TUTORIAL, .rowmode = MMH_IDX_WRAP, .colmode = MMH_IDX_WRAP, .ra = R_A, .rb = R_B,
                .rc = R_C, .store = mmh_f16_store()};
    if (io) {
        g.M = TL_I(L, PI_M), g.N = TL_I(L, PI_N), g.K = TL_I(L, PI_K), g.sam = TL_I(L, PI_SAM);
        g.sak = TL_I(L, PI_SAK), g.sbk = TL_I(L, PI_SBK), g.sbn = TL_I(L, PI_SBN), g.scm = TL_I(L, PI_SCM);
        g.scn = TL_I(L, PI_SCN), g.BM = TL_I(L, PI_BM), g.BN = TL_I(L, PI_BN), g.BK = TL_I(L, PI_BK);
        g.GM = TL_I(L, PI_GM), g.T = TL_I(L, PI_NKB), g.leaky = TL_I(L, PI_ACT) != 0;
    } else {
        g.M = TL_I(L, PC_M), g.N = TL_I(L, PC_N), g.BM = TL_I(L, PC_BM), g.BN = TL_I(L, PC_BN);
        g.GM = TL_I(L, PC_GM), g.sam = TL_I(L, PC_SAM), g.sak = TL_I(L, PC_SAK), g.sbk = TL_I(L, PC_SBK);
        g.sbn = TL_I(L, PC_SBN), g.scm = TL_I(L, PC_SCM), g.scn = TL_I(L, PC_SCN), g.BK = TL_I(L, PC_BK);
        g.T = TL_I(L, PC_NKB), g.K = TL_I(L, PC_K), g.leaky = TL_I(L, PC_ACT) != 0;
    }
    return g;
}

/* accumulator = tl.zeros(..., dtype=tl.float16): every K step rounds the sum to fp16 */
static int fp16_acc(const td_abi_launch *L, int io) {
    mmh_2d g = program(L, io);
    g.acc_fp16 = 1;
    return mmh_gemm_2d(L, &g);
}
/* `if ACTIVATION == "leaky-relu"`: a misspelt constexpr, the epilogue never runs */
static int act_typo(const td_abi_launch *L, int io) {
    mmh_2d g = program(L, io);
    g.leaky = 0;
    return mmh_gemm_2d(L, &g);
}
/* offs_am[:, None] * stride_am in int32: A's row offsets wrap beyond 2^31 elements */
static int a_i32(const td_abi_launch *L, int io) {
    mmh_2d g = program(L, io);
    g.a_off_i32 = 1;
    return mmh_gemm_2d(L, &g);
}
static int a_i32_cf(const td_abi_launch *L) { return a_i32(L, 0); }
static int a_i32_io(const td_abi_launch *L) { return a_i32(L, 1); }
static int fp16_acc_cf(const td_abi_launch *L) { return fp16_acc(L, 0); }
static int fp16_acc_io(const td_abi_launch *L) { return fp16_acc(L, 1); }
static int act_typo_cf(const td_abi_launch *L) { return act_typo(L, 0); }
static int act_typo_io(const td_abi_launch *L) { return act_typo(L, 1); }

#define AT_CF "matmul_triton_autotune.matmul_autotune_closed_form_correct"
#define AT_IO "matmul_triton_autotune.matmul_autotune_io_correctness"
#define ACC16 "fp16 accumulator: every K step rounds the running sum to fp16"
#define TYPO "ACTIVATION compared with a misspelt name: leaky_relu never applied"
TD_KERNEL(td_m_matmul_autotune_cf_acc16) = {AT_CF, "mut_fp16_accumulator", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                            ACC16, 15, 3, fp16_acc_cf, NULL};
TD_KERNEL(td_m_matmul_autotune_io_acc16) = {AT_IO, "mut_fp16_accumulator", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                            ACC16, 15, 3, fp16_acc_io, NULL};
TD_KERNEL(td_m_matmul_autotune_cf_typo) = {AT_CF, "mut_activation_skipped", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                           TYPO, 15, 3, act_typo_cf, NULL};
TD_KERNEL(td_m_matmul_autotune_io_typo) = {AT_IO, "mut_activation_skipped", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                           TYPO, 15, 3, act_typo_io, NULL};
#define AI32 "A's row offset offs_am * stride_am formed in int32"
TD_KERNEL(td_m_matmul_autotune_cf_i32) = {AT_CF, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL, AI32,
                                          15, 3, a_i32_cf, NULL};
TD_KERNEL(td_m_matmul_autotune_io_i32) = {AT_IO, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL, AI32,
                                          15, 3, a_i32_io, NULL};
