/* matmul_dequant_int4 mutants: the bugs packed int4 dequantization ships. */
#include "../host/mdi4_tl.h"

#define ID "matmul_dequant_int4.matmul_dequant_int4_exec_genuine"

static int swapped(const td_abi_launch *L) {
    mdi4_bugs b = {.nibbles_swapped = 1};
    return mdi4_run(L, &b);
}
static int zp_after(const td_abi_launch *L) {
    mdi4_bugs b = {.zp_after_scale = 1};
    return mdi4_run(L, &b);
}
static int group8(const td_abi_launch *L) {
    mdi4_bugs b = {.group8 = 1};
    return mdi4_run(L, &b);
}
static int b_i32(const td_abi_launch *L) {
    mdi4_bugs b = {.b_off_i32 = 1};
    return mdi4_run(L, &b);
}

TD_KERNEL(td_m_mdi4_swapped) = {ID, "mut_nibbles_swapped", TD_ABI_HOST, NULL, NULL,
                                "packed nibbles read high first: shift (7 - k % 8) * 4", 13, 4, swapped, NULL};
TD_KERNEL(td_m_mdi4_zp_after) = {ID, "mut_zp_after_scale", TD_ABI_HOST, NULL, NULL,
                                 "zero point subtracted after scaling: q * s - zp", 13, 4, zp_after, NULL};
TD_KERNEL(td_m_mdi4_group8) = {ID, "mut_group_size_8", TD_ABI_HOST, NULL, NULL,
                               "scale and zero-point group index k // 8 (the packing factor) instead of k // group_size",
                               13, 4, group8, NULL};
TD_KERNEL(td_m_mdi4_b_i32) = {ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                             "b_offs = (offs_k // 8) * stride_bk + offs_n * stride_bn formed in int32 (b's packed-row offsets wrap "
                            "beyond 2^31 elements)",
                             13, 4, b_i32, NULL};
