/* dequantize_matmul mutants: the bugs int8 dequantization kernels ship. */
#include "../host/dqm_tl.h"

#define ID "dequantize_matmul.dequantize_kernel_correctness"

static int per_row(const td_abi_launch *L) {
    dqm_bugs b = {.scale_per_row = 1};
    return dqm_run(L, &b);
}
static int k_unmasked(const td_abi_launch *L) {
    dqm_bugs b = {.k_unmasked = 1};
    return dqm_run(L, &b);
}
static int no_sign(const td_abi_launch *L) {
    dqm_bugs b = {.no_sign_ext = 1};
    return dqm_run(L, &b);
}
static int b_i32(const td_abi_launch *L) {
    dqm_bugs b = {.b_off_i32 = 1};
    return dqm_run(L, &b);
}

TD_KERNEL(td_m_dqm_per_row) = {ID, "mut_scale_per_row", TD_ABI_HOST, NULL, NULL,
                               "scale offsets built from the K offsets: the column scale applied per row", 8, 3,
                               per_row, NULL};
TD_KERNEL(td_m_dqm_k_unmasked) = {ID, "mut_last_k_block_unmasked", TD_ABI_HOST, NULL, NULL,
                                  "store mask = n_mask only: the last K block's rows past K are written", 8, 3,
                                  k_unmasked, NULL};
TD_KERNEL(td_m_dqm_no_sign) = {ID, "mut_no_sign_extension", TD_ABI_HOST, NULL, NULL,
                               "int8 weight read as uint8: negative weights become q + 256", 8, 3, no_sign, NULL};
TD_KERNEL(td_m_dqm_b_i32) = {ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                            "b_offs = (k_block_idx * BLOCK_SIZE_K + offs_k) * stride_bk + ... formed in int32 (b's "
                            "row offsets wrap beyond 2^31 elements)", 8, 3, b_i32, NULL};
