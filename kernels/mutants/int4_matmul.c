/* int4_matmul mutants: the bugs int4 GEMMs ship. */
#include "../host/i4mm_tl.h"

#define ID "int4_matmul.int4_matmul_exec_genuine"

static int swapped(const td_abi_launch *L) {
    i4_bugs b = {.nibbles_swapped = 1};
    return i4_run(L, &b);
}
static int zp_after(const td_abi_launch *L) {
    i4_bugs b = {.zp_after_scale = 1};
    return i4_run(L, &b);
}
static int no_adv(const td_abi_launch *L) {
    i4_bugs b = {.group_no_adv = 1};
    return i4_run(L, &b);
}
static int a_i32(const td_abi_launch *L) {
    i4_bugs b = {.a_off_i32 = 1};
    return i4_run(L, &b);
}

TD_KERNEL(td_m_i4_swapped) = {ID, "mut_nibbles_swapped", TD_ABI_HOST, NULL, NULL,
                              "packed nibbles read high first: shift (7 - k % 8) * 4", 19, 5, swapped, NULL};
TD_KERNEL(td_m_i4_zp_after) = {ID, "mut_zp_after_scale", TD_ABI_HOST, NULL, NULL,
                               "zero point subtracted after scaling: q * bs - zp", 19, 5, zp_after, NULL};
TD_KERNEL(td_m_i4_no_adv) = {ID, "mut_group_index_no_advance", TD_ABI_HOST, NULL, NULL,
                             "scale / zero-point group from offs_k // group_size: every K step uses the first "
                             "block's groups",
                             19, 5, no_adv, NULL};
TD_KERNEL(td_m_i4_a_i32) = {ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                            "offs_am[:, None] * stride_am formed in int32 (a's row offsets wrap beyond 2^31 elements)",
                            19, 5, a_i32, NULL};
