/* triton_matmul: matmul_kernel: grouped order with pid_m = first_pid_m + pid %
 * group_size_m, offs_am / offs_bn clamped by tl.where(offs < M, offs, 0), the fused
 * `accumulator = tl.dot(a, b, accumulator)`, then `.to(tl.float8e4nv)` when C is e4m3
 * (round to nearest even, saturating: cvt.rn.satfinite) else `.to(tl.float16)`, and
 * the masked store.  Parameters: closed forms (M N BM BN GM sam sak sbk sbn scm scn
 * BLOCK_K numKBlocks K), IO (M N K sam sak sbk sbn scm scn BM BN BK GM numKBlocks).
 * Regions: A, B, C (fp16, or e4m3fn for the f8 contracts). */
#include "matmul_tl.h"

enum { PC_M, PC_N, PC_BM, PC_BN, PC_GM, PC_SAM, PC_SAK, PC_SBK, PC_SBN, PC_SCM, PC_SCN, PC_BK, PC_NKB, PC_K };
enum { PI_M, PI_N, PI_K, PI_SAM, PI_SAK, PI_SBK, PI_SBN, PI_SCM, PI_SCN, PI_BM, PI_BN, PI_BK, PI_GM, PI_NKB };
enum { R_A, R_B, R_C };

static mmh_2d program(const td_abi_launch *L, int io) {
    mmh_2d g = {.swz = MMH_SWZ_SIMPLE, .rowmode = MMH_IDX_CLAMP, .colmode = MMH_IDX_CLAMP, .ra = R_A, .rb = R_B,
                .rc = R_C};
    if (io) {
        g.M = TL_I(L, PI_M), g.N = TL_I(L, PI_N), g.K = TL_I(L, PI_K), g.sam = TL_I(L, PI_SAM);
        g.sak = TL_I(L, PI_SAK), g.sbk = TL_I(L, PI_SBK), g.sbn = TL_I(L, PI_SBN), g.scm = TL_I(L, PI_SCM);
        g.scn = TL_I(L, PI_SCN), g.BM = TL_I(L, PI_BM), g.BN = TL_I(L, PI_BN), g.BK = TL_I(L, PI_BK);
        g.GM = TL_I(L, PI_GM), g.T = TL_I(L, PI_NKB);
    } else {
        g.M = TL_I(L, PC_M), g.N = TL_I(L, PC_N), g.BM = TL_I(L, PC_BM), g.BN = TL_I(L, PC_BN);
        g.GM = TL_I(L, PC_GM), g.sam = TL_I(L, PC_SAM), g.sak = TL_I(L, PC_SAK), g.sbk = TL_I(L, PC_SBK);
        g.sbn = TL_I(L, PC_SBN), g.scm = TL_I(L, PC_SCM), g.scn = TL_I(L, PC_SCN), g.BK = TL_I(L, PC_BK);
        g.T = TL_I(L, PC_NKB), g.K = TL_I(L, PC_K);
    }
    /* c_ptr.dtype.element_ty == tl.float8e4nv selects the fp8 epilogue */
    if (TL_FMT(L, R_C) == TD_E4M3FN) g.store = (td_profile){TD_E4M3FN, TD_RNE, TD_OVF_SAT, false};
    else g.store = mmh_f16_store();
    return g;
}

static int kernel_cf(const td_abi_launch *L) {
    mmh_2d g = program(L, 0);
    return mmh_gemm_2d(L, &g);
}
static int kernel_io(const td_abi_launch *L) {
    mmh_2d g = program(L, 1);
    return mmh_gemm_2d(L, &g);
}

TD_KERNEL(td_k_triton_matmul_f16_cf) = {"triton_matmul.triton_matmul_f16_closed_form_correct", "triton", TD_ABI_HOST,
                                        "store=fp16:rne:inf", NULL, NULL, 14, 3, kernel_cf, NULL};
TD_KERNEL(td_k_triton_matmul_f8_cf) = {"triton_matmul.triton_matmul_f8_closed_form_correct", "triton", TD_ABI_HOST,
                                       "store=e4m3fn:rne:sat", NULL, NULL, 14, 3, kernel_cf, NULL};
TD_KERNEL(td_k_triton_matmul_f16_io) = {"triton_matmul.triton_matmul_f16_io_correctness", "triton", TD_ABI_HOST,
                                        "store=fp16:rne:inf", NULL, NULL, 14, 3, kernel_io, NULL};
TD_KERNEL(td_k_triton_matmul_f8_io) = {"triton_matmul.triton_matmul_f8_io_correctness", "triton", TD_ABI_HOST,
                                       "store=e4m3fn:rne:sat", NULL, NULL, 14, 3, kernel_io, NULL};
