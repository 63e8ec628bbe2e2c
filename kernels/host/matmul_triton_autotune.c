/* matmul_triton_autotune: the tutorial's matmul_kernel: grouped order (pid % num_pid_in_group)
 * % group_size_m, loads wrapped with % M / % N, `accumulator = tl.dot(a, b, accumulator)`,
 * leaky_relu when ACTIVATION, `.to(tl.float16)` and the masked store.
 * Parameters: closed form (M N BM BN GM sam sak sbk sbn scm scn BLOCK_K numKBlocks K
 * ACTIVATION); IO (M N K sam sak sbk sbn scm scn BM BN BK GM numKBlocks ACTIVATION).
 * Regions: A, B, C (fp16). */
#include "matmul_tl.h"

enum { PC_M, PC_N, PC_BM, PC_BN, PC_GM, PC_SAM, PC_SAK, PC_SBK, PC_SBN, PC_SCM, PC_SCN, PC_BK, PC_NKB, PC_K, PC_ACT };
enum { PI_M, PI_N, PI_K, PI_SAM, PI_SAK, PI_SBK, PI_SBN, PI_SCM, PI_SCN, PI_BM, PI_BN, PI_BK, PI_GM, PI_NKB, PI_ACT };
enum { R_A, R_B, R_C };

static mmh_2d base(void) {
    mmh_2d g = {.swz = MMH_SWZ_TUTORIAL, .rowmode = MMH_IDX_WRAP, .colmode = MMH_IDX_WRAP, .ra = R_A, .rb = R_B,
                .rc = R_C, .store = mmh_f16_store()};
    return g;
}
static mmh_2d program_cf(const td_abi_launch *L) {
    mmh_2d g = base();
    g.M = TL_I(L, PC_M), g.N = TL_I(L, PC_N), g.BM = TL_I(L, PC_BM), g.BN = TL_I(L, PC_BN), g.GM = TL_I(L, PC_GM);
    g.sam = TL_I(L, PC_SAM), g.sak = TL_I(L, PC_SAK), g.sbk = TL_I(L, PC_SBK), g.sbn = TL_I(L, PC_SBN);
    g.scm = TL_I(L, PC_SCM), g.scn = TL_I(L, PC_SCN), g.BK = TL_I(L, PC_BK), g.T = TL_I(L, PC_NKB);
    g.K = TL_I(L, PC_K), g.leaky = TL_I(L, PC_ACT) != 0;
    return g;
}
static mmh_2d program_io(const td_abi_launch *L) {
    mmh_2d g = base();
    g.M = TL_I(L, PI_M), g.N = TL_I(L, PI_N), g.K = TL_I(L, PI_K), g.sam = TL_I(L, PI_SAM), g.sak = TL_I(L, PI_SAK);
    g.sbk = TL_I(L, PI_SBK), g.sbn = TL_I(L, PI_SBN), g.scm = TL_I(L, PI_SCM), g.scn = TL_I(L, PI_SCN);
    g.BM = TL_I(L, PI_BM), g.BN = TL_I(L, PI_BN), g.BK = TL_I(L, PI_BK), g.GM = TL_I(L, PI_GM);
    g.T = TL_I(L, PI_NKB), g.leaky = TL_I(L, PI_ACT) != 0;
    return g;
}

static int kernel_cf(const td_abi_launch *L) {
    mmh_2d g = program_cf(L);
    return mmh_gemm_2d(L, &g);
}
static int kernel_io(const td_abi_launch *L) {
    mmh_2d g = program_io(L);
    return mmh_gemm_2d(L, &g);
}

TD_KERNEL(td_k_matmul_autotune_cf) = {"matmul_triton_autotune.matmul_autotune_closed_form_correct", "triton",
                                      TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 15, 3, kernel_cf, NULL};
TD_KERNEL(td_k_matmul_autotune_io) = {"matmul_triton_autotune.matmul_autotune_io_correctness", "triton", TD_ABI_HOST,
                                      "store=fp16:rne:inf", NULL, NULL, 15, 3, kernel_io, NULL};
