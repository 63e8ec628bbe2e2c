/* int8_matmul_quantization mutants: the bugs per-row int8 quantizers and scaled int8
 * GEMMs ship. */
#include "../host/imq_tl.h"

#define ID_Q "int8_matmul_quantization.int8_matmul_quantization_quantize_exec_genuine"
#define ID_M "int8_matmul_quantization.int8_matmul_quantization_matmul_exec_genuine"
#define Q_CASTS "store=int8:rtz:sat;scale=fp16:rne:inf"

static int q_half_even(const td_abi_launch *L) {
    imq_qbugs b = {.half_even = 1};
    return imq_quantize(L, &b);
}
static int q_no_abs(const td_abi_launch *L) {
    imq_qbugs b = {.no_abs = 1};
    return imq_quantize(L, &b);
}
static int q_unmasked(const td_abi_launch *L) {
    imq_qbugs b = {.unmasked = 1};
    return imq_quantize(L, &b);
}
static int m_scale_col(const td_abi_launch *L) {
    imq_mbugs b = {.scale_per_col = 1};
    return imq_matmul(L, &b);
}
static int m_no_sign(const td_abi_launch *L) {
    imq_mbugs b = {.no_sign_ext = 1};
    return imq_matmul(L, &b);
}
static int q_fpa_i32(const td_abi_launch *L) {
    imq_qbugs b = {.fpa_off_i32 = 1};
    return imq_quantize(L, &b);
}
static int m_a_i32(const td_abi_launch *L) {
    imq_mbugs b = {.a_off_i32 = 1};
    return imq_matmul(L, &b);
}

TD_KERNEL(td_m_imq_q_half_even) = {ID_Q, "mut_round_half_even", TD_ABI_HOST, Q_CASTS, NULL,
                                   "the int8 cast rounds half to even (llrint) where .to(tl.int8) truncates", 10, 3,
                                   q_half_even, NULL};
TD_KERNEL(td_m_imq_q_no_abs) = {ID_Q, "mut_max_no_abs", TD_ABI_HOST, Q_CASTS, NULL,
                                "the row max over fpa, not |fpa| (a negative extreme lost)", 10, 3, q_no_abs, NULL};
TD_KERNEL(td_m_imq_q_unmasked) = {ID_Q, "mut_absmax_unmasked", TD_ABI_HOST, Q_CASTS, NULL,
                                  "the absmax over the whole padded block: lanes past K read the row's padding or "
                                  "the next row", 10, 3, q_unmasked, NULL};
TD_KERNEL(td_m_imq_m_scale_col) = {ID_M, "mut_ascale_per_column", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                   "a_scale loaded per column (offs_bn) instead of per row", 16, 5, m_scale_col, NULL};
TD_KERNEL(td_m_imq_m_no_sign) = {ID_M, "mut_b_no_sign_extension", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                 "B's int8 values read as unsigned bytes (sign extension missing)", 16, 5, m_no_sign,
                                 NULL};
TD_KERNEL(td_m_imq_m_a_i32) = {ID_M, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                               "offs_am[:, None] * stride_am formed in int32 (A's row offsets wrap beyond 2^31 "
                               "elements)", 16, 5, m_a_i32, NULL};
TD_KERNEL(td_m_imq_q_fpa_i32) = {ID_Q, "mut_offset_int32", TD_ABI_HOST, Q_CASTS, NULL,
                                "offs_am[:, None] * stride_fpam formed in int32 (fpa's row offsets wrap beyond 2^31 "
                                "elements)", 10, 3, q_fpa_i32, NULL};
