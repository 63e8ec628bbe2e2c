/* matmul_dequantize_int4 mutants: the bugs GPTQ int4 GEMMs ship. */
#include "../host/g4_tl.h"

#define ID "matmul_dequantize_int4.matmul_dequantize_int4_exec_genuine"

static int swapped(const td_abi_launch *L) {
    g4_bugs b = {.nibbles_swapped = 1};
    return g4_run(L, &b);
}
static int zp_unscaled(const td_abi_launch *L) {
    g4_bugs b = {.zp_unscaled = 1};
    return g4_run(L, &b);
}
static int group_blockidx(const td_abi_launch *L) {
    g4_bugs b = {.group_blockidx = 1};
    return g4_run(L, &b);
}

TD_KERNEL(td_m_mdqi4_swapped) = {ID, "mut_nibbles_swapped", TD_ABI_HOST, NULL, NULL,
                                 "packed nibbles read high first: shift (7 - k % 8) * 4", 19, 5, swapped, NULL};
TD_KERNEL(td_m_mdqi4_zp_unscaled) = {ID, "mut_zp_unscaled", TD_ABI_HOST, NULL, NULL,
                                     "zero point subtracted unscaled: b * scales - zeros", 19, 5, zp_unscaled, NULL};
TD_KERNEL(td_m_mdqi4_group_blockidx) = {ID, "mut_group_index_blocks", TD_ABI_HOST, NULL, NULL,
                                        "group row k // groupsize of the K-block index k (group size taken in "
                                        "elements, not blocks)", 19, 5, group_blockidx, NULL};
static int td_m_mdqi4_a_i32_fn(const td_abi_launch *L) {
    g4_bugs b = {.a_off_i32 = 1};
    return g4_run(L, &b);
}
TD_KERNEL(td_m_mdqi4_a_i32) = {ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                        "offs_am[:, None] * stride_am formed in int32 (a's row offsets wrap beyond 2^31 elements)", 19,
                        5, td_m_mdqi4_a_i32_fn, NULL};
