/* matmul_dequantize mutants: the bugs int4 dequantization ships. */
#include "../host/mdi4_tl.h"

#define ID_DQ "matmul_dequantize.matmul_dequantize_dequantize_exec_genuine"

static int dq_swapped(const td_abi_launch *L) {
    mdi4_bugs b = {.nibbles_swapped = 1};
    return mdi4_run(L, &b);
}
static int dq_zp_after(const td_abi_launch *L) {
    mdi4_bugs b = {.zp_after_scale = 1};
    return mdi4_run(L, &b);
}
static int dq_group8(const td_abi_launch *L) {
    mdi4_bugs b = {.group8 = 1};
    return mdi4_run(L, &b);
}
static int dq_b_i32(const td_abi_launch *L) {
    mdi4_bugs b = {.b_off_i32 = 1};
    return mdi4_run(L, &b);
}

TD_KERNEL(td_m_mdq_dq_swapped) = {ID_DQ, "mut_nibbles_swapped", TD_ABI_HOST, NULL, NULL,
                                  "packed nibbles read high first: shift (7 - k % 8) * 4", 13, 4, dq_swapped, NULL};
TD_KERNEL(td_m_mdq_dq_zp_after) = {ID_DQ, "mut_zp_after_scale", TD_ABI_HOST, NULL, NULL,
                                   "zero point subtracted after scaling: q * s - zp", 13, 4, dq_zp_after, NULL};
TD_KERNEL(td_m_mdq_dq_group8) = {ID_DQ, "mut_group_size_8", TD_ABI_HOST, NULL, NULL,
                                 "scale and zero-point group index k // 8 (the packing factor) instead of "
                                 "k // group_size", 13, 4, dq_group8, NULL};
TD_KERNEL(td_m_mdq_dq_b_i32) = {ID_DQ, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                               "b_offs = (offs_k // 8) * stride_bk + offs_n * stride_bn formed in int32 (b's "
                               "packed-row offsets wrap beyond 2^31 elements)", 13, 4, dq_b_i32, NULL};

/* matmul_kernel */
#include "../host/mdq_tl.h"

#define ID_MM "matmul_dequantize.matmul_dequantize_matmul_exec_genuine"

static int mm_swapped(const td_abi_launch *L) {
    mdq_bugs b = {.nibbles_swapped = 1};
    return mdq_run(L, &b);
}
static int mm_zp_after(const td_abi_launch *L) {
    mdq_bugs b = {.zp_after_scale = 1};
    return mdq_run(L, &b);
}
static int mm_group_no_adv(const td_abi_launch *L) {
    mdq_bugs b = {.group_no_adv = 1};
    return mdq_run(L, &b);
}
static int mm_acc_f16(const td_abi_launch *L) {
    mdq_bugs b = {.acc_f16 = 1};
    return mdq_run(L, &b);
}
static int mm_a_i32(const td_abi_launch *L) {
    mdq_bugs b = {.a_off_i32 = 1};
    return mdq_run(L, &b);
}

TD_KERNEL(td_m_mdq_mm_a_i32) = {ID_MM, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                "offs_am[:, None] * stride_am formed in int32 (a's row offsets wrap beyond 2^31 "
                                "elements)", 19, 5, mm_a_i32, NULL};
TD_KERNEL(td_m_mdq_mm_swapped) = {ID_MM, "mut_nibbles_swapped", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                  "packed nibbles read high first: shift (7 - k % 8) * 4", 19, 5, mm_swapped, NULL};
TD_KERNEL(td_m_mdq_mm_zp_after) = {ID_MM, "mut_zp_after_scale", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                   "zero point subtracted after scaling: q * bs - zp", 19, 5, mm_zp_after, NULL};
TD_KERNEL(td_m_mdq_mm_group_no_adv) = {ID_MM, "mut_group_no_advance", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                       "scale / zero-point group row offs_k // group_size: the + k*BK of the K step "
                                       "dropped", 19, 5, mm_group_no_adv, NULL};
TD_KERNEL(td_m_mdq_mm_acc_f16) = {ID_MM, "mut_acc_fp16", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                  "the accumulator rounded to fp16 after every K step", 19, 5, mm_acc_f16, NULL};

/* matmul4_kernel */
#include "../host/g4_tl.h"

#define ID_M4 "matmul_dequantize.matmul_dequantize_matmul4_exec_genuine"

static int m4_swapped(const td_abi_launch *L) {
    g4_bugs b = {.nibbles_swapped = 1};
    return g4_run(L, &b);
}
static int m4_zp_unscaled(const td_abi_launch *L) {
    g4_bugs b = {.zp_unscaled = 1};
    return g4_run(L, &b);
}
static int m4_group_blockidx(const td_abi_launch *L) {
    g4_bugs b = {.group_blockidx = 1};
    return g4_run(L, &b);
}

TD_KERNEL(td_m_mdq_m4_swapped) = {ID_M4, "mut_nibbles_swapped", TD_ABI_HOST, NULL, NULL,
                                  "packed nibbles read high first: shift (7 - k % 8) * 4", 19, 5, m4_swapped, NULL};
TD_KERNEL(td_m_mdq_m4_zp_unscaled) = {ID_M4, "mut_zp_unscaled", TD_ABI_HOST, NULL, NULL,
                                      "zero point subtracted unscaled: b * scales - zeros", 19, 5, m4_zp_unscaled,
                                      NULL};
TD_KERNEL(td_m_mdq_m4_group_blockidx) = {ID_M4, "mut_group_index_blocks", TD_ABI_HOST, NULL, NULL,
                                         "group row k // groupsize of the K-block index k (group size taken in "
                                         "elements, not blocks)", 19, 5, m4_group_blockidx, NULL};
static int td_m_mdq_m4_a_i32_fn(const td_abi_launch *L) {
    g4_bugs b = {.a_off_i32 = 1};
    return g4_run(L, &b);
}
TD_KERNEL(td_m_mdq_m4_a_i32) = {ID_M4, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                        "offs_am[:, None] * stride_am formed in int32 (a's row offsets wrap beyond 2^31 elements)", 19,
                        5, td_m_mdq_m4_a_i32_fn, NULL};
