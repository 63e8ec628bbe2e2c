/* int8_dequant_matmul mutants: the bugs dequantizing int8 GEMMs ship.  (A binary32
 * accumulator, ACC_TYPE = tl.float32, is not among them: its error, below 2^-16 of the
 * sum even at the largest K, sits far below the fp16 output's half-ulp 2^-12, so no
 * input separates it from the exact int32 sum reliably.) */
#include "../host/idm_tl.h"

#define ID "int8_dequant_matmul.int8_dequant_matmul_exec_genuine"
#define S16 "store=fp16:rne:inf"

static int x_per_col(const td_abi_launch *L) {
    idm_bugs b = {.x_per_col = 1};
    return idm_run(L, &b);
}
static int w_per_row(const td_abi_launch *L) {
    idm_bugs b = {.w_per_row = 1};
    return idm_run(L, &b);
}
static int bias_always(const td_abi_launch *L) {
    idm_bugs b = {.bias_always = 1};
    return idm_run(L, &b);
}
static int a_i32(const td_abi_launch *L) {
    idm_bugs b = {.a_off_i32 = 1};
    return idm_run(L, &b);
}

TD_KERNEL(td_m_idm_x_per_col) = {ID, "mut_scale_per_column", TD_ABI_HOST, S16, NULL,
                                 "row scale state_x loaded at the column index (per column instead of per row)", 16,
                                 6, x_per_col, NULL};
TD_KERNEL(td_m_idm_w_per_row) = {ID, "mut_scale_per_row", TD_ABI_HOST, S16, NULL,
                                 "column scale state_w loaded at the row index (the two states swapped)", 16, 6,
                                 w_per_row, NULL};
TD_KERNEL(td_m_idm_bias_always) = {ID, "mut_bias_unguarded", TD_ABI_HOST, S16, NULL,
                                   "the has_bias guard dropped: the bias buffer is added when has_bias is false", 16,
                                   6, bias_always, NULL};
TD_KERNEL(td_m_idm_a_i32) = {ID, "mut_offset_int32", TD_ABI_HOST, S16, NULL,
                             "ram[:, None] * stride_am formed in int32 (A's row offsets wrap beyond 2^31 elements)",
                             16, 6, a_i32, NULL};
