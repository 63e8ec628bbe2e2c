/* int_scaled_matmul mutants: the bugs int8 GEMMs and their scaled epilogues ship. */
#include "../host/ism_tl.h"

#define MM "int_scaled_matmul.int_scaled_matmul_matmul_exec_genuine"
#define SC "int_scaled_matmul.int_scaled_matmul_scaled_exec_genuine"

static int mm_k_unchecked(const td_abi_launch *L) {
    ism_bugs b = {.k_unchecked = 1};
    return ism_run(L, 0, &b);
}
static int mm_acc_f32(const td_abi_launch *L) {
    ism_bugs b = {.acc_f32 = 1};
    return ism_run(L, 0, &b);
}
static int sc_k_unmasked(const td_abi_launch *L) {
    ism_bugs b = {.k_unchecked = 1};
    return ism_run(L, 1, &b);
}
static int sc_acc_f32(const td_abi_launch *L) {
    ism_bugs b = {.acc_f32 = 1};
    return ism_run(L, 1, &b);
}
static int sc_per_col(const td_abi_launch *L) {
    ism_bugs b = {.s1_per_col = 1};
    return ism_run(L, 1, &b);
}
static int sc_a_i32(const td_abi_launch *L) {
    ism_bugs b = {.a_off_i32 = 1};
    return ism_run(L, 1, &b);
}

#define F32ACC "binary32 accumulator (ACC_TYPE = tl.float32): inexact once partial sums pass 2^24"
TD_KERNEL(td_m_ism_mm_kunchecked) = {MM, "mut_last_k_block_unmasked", TD_ABI_HOST, NULL, NULL,
                                     "boundary_check=(0,) on A and B: the last K block reads past K", 13, 3,
                                     mm_k_unchecked, NULL};
TD_KERNEL(td_m_ism_mm_acc_f32) = {MM, "mut_acc_fp32", TD_ABI_HOST, NULL, NULL, F32ACC, 13, 3, mm_acc_f32, NULL};
TD_KERNEL(td_m_ism_sc_kunmasked) = {SC, "mut_last_k_block_unmasked", TD_ABI_HOST, NULL, NULL,
                                    "the EVEN_K arm taken for every K: the last K block's loads unmasked", 17, 4,
                                    sc_k_unmasked, NULL};
TD_KERNEL(td_m_ism_sc_acc_f32) = {SC, "mut_acc_fp32", TD_ABI_HOST, NULL, NULL, F32ACC, 17, 4, sc_acc_f32, NULL};
TD_KERNEL(td_m_ism_sc_per_col) = {SC, "mut_scale_per_column", TD_ABI_HOST, NULL, NULL,
                                  "s1 loaded at idx_n: the row scale applied per column", 17, 4, sc_per_col, NULL};
/* (the plain kernel's block pointers address in int64: no such mutant for it) */
TD_KERNEL(td_m_ism_sc_a_i32) = {SC, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                "ram[:, None] * stride_am formed in int32 (a's row offsets wrap beyond 2^31 elements)",
                                17, 4, sc_a_i32, NULL};
