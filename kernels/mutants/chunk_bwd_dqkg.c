/* chunk_bwd_dqkg mutants (the program itself is in ../host/chunk_bwd_dqkg.c): the bugs
 * chunked GLA backward kernels ship. */
#include "../host/chunk_bwd_dqkg_tl.h"
#include "far_i32.h"

static int run(const td_abi_launch *L, cbd_bug b) { return td_cbd_run(L, &b); }
/* v's head base i_bh * s_v_h formed in int32 (region 2, parameter 2) */
static int offset_i32(const td_abi_launch *L) { return far_i32_fault(L, 2, 2, TL_I(L, 2)) ? 1 : run(L, (cbd_bug){0}); }
static int strict_mask(const td_abi_launch *L) { return run(L, (cbd_bug){.strict_mask = 1}); }
static int dglast_late(const td_abi_launch *L) { return run(L, (cbd_bug){.dglast_late = 1}); }
static int dglast_blkrow(const td_abi_launch *L) { return run(L, (cbd_bug){.dglast_blkrow = 1}); }

TD_KERNEL(td_m_cbd_strict) = {CBD_ID, "mut_strict_causal_mask", TD_ABI_HOST, NULL, NULL,
                              "where(i > j, ds, 0): the diagonal scores dropped", 14, 10, strict_mask, NULL};
TD_KERNEL(td_m_cbd_late) = {CBD_ID, "mut_dglast_after_contraction", TD_ABI_HOST, NULL, NULL,
                            "b_dg_last += sum(b_dk * b_k) after b_dk += ds^T q (statements reordered)", 14, 10,
                            dglast_late, NULL};
TD_KERNEL(td_m_cbd_blkrow) = {CBD_ID, "mut_dglast_block_row", TD_ABI_HOST, NULL, NULL,
                              "b_dg_last added at row BT - 1: lost in a tail chunk (T % BT != 0)", 14, 10,
                              dglast_blkrow, NULL};
TD_KERNEL(td_m_cbd_i32) = {CBD_ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                           "i_bh * s_v_h formed in int32 (v's head base wraps beyond 2^31 elements)", 14, 10,
                           offset_i32, NULL};
