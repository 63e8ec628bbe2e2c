/* int8_matmul_kernel mutants: the bugs 2-bit packed integer GEMMs ship. */
#include "../host/imk_tl.h"

#define ID "int8_matmul_kernel.int8_matmul_kernel_exec_genuine"

static int unshifted(const td_abi_launch *L) {
    imk_bugs b = {.field_unshifted = 1};
    return imk_run(L, &b);
}
static int a_reset(const td_abi_launch *L) {
    imk_bugs b = {.a_reset = 1};
    return imk_run(L, &b);
}
static int acc_f32(const td_abi_launch *L) {
    imk_bugs b = {.acc_f32 = 1};
    return imk_run(L, &b);
}
static int acc_i16(const td_abi_launch *L) {
    imk_bugs b = {.acc_i16 = 1};
    return imk_run(L, &b);
}
static int a_i32(const td_abi_launch *L) {
    imk_bugs b = {.a_off_i32 = 1};
    return imk_run(L, &b);
}

TD_KERNEL(td_m_imk_unshifted) = {ID, "mut_field_unshifted", TD_ABI_HOST, NULL, NULL,
                                 "2-bit field masked with 3 << 2i but not shifted back (>> 2i missing)", 14, 3,
                                 unshifted, NULL};
TD_KERNEL(td_m_imk_a_reset) = {ID, "mut_a_ptrs_reset", TD_ABI_HOST, NULL, NULL,
                               "a_ptrs reset per field like b_ptrs: every field dots A's first K/4 columns", 14, 3,
                               a_reset, NULL};
TD_KERNEL(td_m_imk_acc_f32) = {ID, "mut_acc_fp32", TD_ABI_HOST, NULL, NULL,
                               "binary32 accumulator (tl.zeros default dtype): inexact once partial sums pass 2^24",
                               14, 3, acc_f32, NULL};
TD_KERNEL(td_m_imk_acc_i16) = {ID, "mut_acc_int16", TD_ABI_HOST, NULL, NULL,
                               "int16 accumulator: wraps once a sum leaves [-2^15, 2^15)", 14, 3, acc_i16, NULL};
TD_KERNEL(td_m_imk_a_i32) = {ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                             "offs_am[:, None] * stride_am formed in int32 (A's row offsets wrap beyond 2^31 elements)",
                             14, 3, a_i32, NULL};
