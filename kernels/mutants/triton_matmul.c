/* triton_matmul mutants. */
#include "../host/matmul_tl.h"

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
    if (TL_FMT(L, R_C) == TD_E4M3FN) g.store = (td_profile){TD_E4M3FN, TD_RNE, TD_OVF_SAT, false};
    else g.store = mmh_f16_store();
    return g;
}

/* the fp8 epilogue converts without .satfinite: out-of-range sums become NaN (the OCP
 * e4m3fn / PyTorch-eager rule) while the kernel declares Triton's saturating cast */
static int f8_nosat(const td_abi_launch *L, int io) {
    mmh_2d g = program(L, io);
    g.store.ovf = TD_OVF_NAN;
    return mmh_gemm_2d(L, &g);
}
/* pid_n = pid // group_size_m: the % num_pid_in_group dropped from the swizzle */
static int pidn_nomod(const td_abi_launch *L, int io) {
    mmh_2d g = program(L, io);
    g.pidn_nomod = 1;
    return mmh_gemm_2d(L, &g);
}
/* offs_am = tl.where(offs_am < N, offs_am, 0): A's rows clamped against N */
static int clamp_by_n(const td_abi_launch *L, int io) {
    mmh_2d g = program(L, io);
    g.clamp_rows_by_n = 1;
    return mmh_reads_fit(L, &g) ? mmh_gemm_2d(L, &g) : 1;
}
/* offs_am[:, None] * stride_am in int32: A's row offsets wrap beyond 2^31 elements */
static int a_i32(const td_abi_launch *L, int io) {
    mmh_2d g = program(L, io);
    g.a_off_i32 = 1;
    return mmh_gemm_2d(L, &g);
}
static int a_i32_cf(const td_abi_launch *L) { return a_i32(L, 0); }
static int a_i32_io(const td_abi_launch *L) { return a_i32(L, 1); }
static int f8_nosat_cf(const td_abi_launch *L) { return f8_nosat(L, 0); }
static int f8_nosat_io(const td_abi_launch *L) { return f8_nosat(L, 1); }
static int pidn_cf(const td_abi_launch *L) { return pidn_nomod(L, 0); }
static int pidn_io(const td_abi_launch *L) { return pidn_nomod(L, 1); }
static int clamp_cf(const td_abi_launch *L) { return clamp_by_n(L, 0); }
static int clamp_io(const td_abi_launch *L) { return clamp_by_n(L, 1); }

#define F16_CF "triton_matmul.triton_matmul_f16_closed_form_correct"
#define F8_CF "triton_matmul.triton_matmul_f8_closed_form_correct"
#define F16_IO "triton_matmul.triton_matmul_f16_io_correctness"
#define F8_IO "triton_matmul.triton_matmul_f8_io_correctness"
#define NOSAT "fp8 store without saturation: sums beyond 448 become NaN"
#define PIDN "pid_n = pid // group_size_m (no % num_pid_in_group): later groups' tiles land past N"
#define CLAMPN "offs_am clamped with offs_am < N instead of < M"
#define S16 "store=fp16:rne:inf"
#define S8 "store=e4m3fn:rne:sat"
TD_KERNEL(td_m_triton_matmul_f8_cf_nosat) = {F8_CF, "mut_fp8_no_saturation", TD_ABI_HOST, S8, NULL, NOSAT, 14, 3,
                                             f8_nosat_cf, NULL};
TD_KERNEL(td_m_triton_matmul_f8_io_nosat) = {F8_IO, "mut_fp8_no_saturation", TD_ABI_HOST, S8, NULL, NOSAT, 14, 3,
                                             f8_nosat_io, NULL};
TD_KERNEL(td_m_triton_matmul_f8_cf_pidn) = {F8_CF, "mut_swizzle_pid_n", TD_ABI_HOST, S8, NULL, PIDN, 14, 3, pidn_cf, NULL};
TD_KERNEL(td_m_triton_matmul_f8_io_pidn) = {F8_IO, "mut_swizzle_pid_n", TD_ABI_HOST, S8, NULL, PIDN, 14, 3, pidn_io, NULL};
TD_KERNEL(td_m_triton_matmul_f16_cf_pidn) = {F16_CF, "mut_swizzle_pid_n", TD_ABI_HOST, S16, NULL, PIDN, 14, 3,
                                             pidn_cf, NULL};
TD_KERNEL(td_m_triton_matmul_f16_io_pidn) = {F16_IO, "mut_swizzle_pid_n", TD_ABI_HOST, S16, NULL, PIDN, 14, 3,
                                             pidn_io, NULL};
TD_KERNEL(td_m_triton_matmul_f16_cf_clamp) = {F16_CF, "mut_clamp_rows_by_n", TD_ABI_HOST, S16, NULL, CLAMPN, 14, 3,
                                              clamp_cf, NULL};
TD_KERNEL(td_m_triton_matmul_f16_io_clamp) = {F16_IO, "mut_clamp_rows_by_n", TD_ABI_HOST, S16, NULL, CLAMPN, 14, 3,
                                              clamp_io, NULL};
#define AI32 "offs_am[:, None] * stride_am formed in int32 (A's row offsets wrap beyond 2^31 elements)"
TD_KERNEL(td_m_triton_matmul_f16_cf_i32) = {F16_CF, "mut_offset_int32", TD_ABI_HOST, S16, NULL, AI32, 14, 3, a_i32_cf,
                                            NULL};
TD_KERNEL(td_m_triton_matmul_f16_io_i32) = {F16_IO, "mut_offset_int32", TD_ABI_HOST, S16, NULL, AI32, 14, 3, a_i32_io,
                                            NULL};
TD_KERNEL(td_m_triton_matmul_f8_cf_i32) = {F8_CF, "mut_offset_int32", TD_ABI_HOST, S8, NULL, AI32, 14, 3, a_i32_cf,
                                           NULL};
TD_KERNEL(td_m_triton_matmul_f8_io_i32) = {F8_IO, "mut_offset_int32", TD_ABI_HOST, S8, NULL, AI32, 14, 3, a_i32_io,
                                           NULL};
