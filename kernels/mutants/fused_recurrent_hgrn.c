/* fused_recurrent_hgrn mutants (the programs are in ../host/fused_recurrent_hgrn.c). */
#include "../host/fused_recurrent_hgrn_tl.h"

int td_hgrn_dx_step(const td_abi_launch *L, int64_t head_mul, int64_t mask_extra);

static int run(const td_abi_launch *L, hg_bug b) { return td_hgrn_run(L, &b); }
static int fp16_state(const td_abi_launch *L) { return run(L, (hg_bug){.fp16_state = 1}); }
static int bwd_forward(const td_abi_launch *L) { return run(L, (hg_bug){.bwd_forward = 1}); }
static int dg_same_row(const td_abi_launch *L) { return run(L, (hg_bug){.dg_same_row = 1}); }
static int decay_early(const td_abi_launch *L) { return run(L, (hg_bug){.decay_early = 1}); }
/* i_bh * T * D + o_d in int32: past 2^31 elements a head's base wraps negative, an illegal
 * address; only the large tier (`--large`, td_rows_large) has B*H*T*D > 2^31 */
static int offset_i32(const td_abi_launch *L) { return run(L, (hg_bug){.off_i32 = 1}); }
/* bwd_dx: the head's T rows dropped from the offset ((p1 + i_t) * D), and the mask D + 1 */
static int dx_no_head_rows(const td_abi_launch *L) { return td_hgrn_dx_step(L, 1, 0); }
static int dx_mask_le(const td_abi_launch *L) { return td_hgrn_dx_step(L, TL_I(L, 1), 1); }

TD_KERNEL(td_m_hgrn_fp16) = {HG_SUM, "mut_fp16_state", TD_ABI_HOST, NULL, NULL,
                             "forward: the state stored as fp16 between steps", 6, 10, fp16_state, NULL};
TD_KERNEL(td_m_hgrn_bwd_fwd) = {HG_SUM, "mut_bwd_forward_direction", TD_ABI_HOST, NULL, NULL,
                                "backward: b_dh accumulated from t = 0 upwards", 6, 10, bwd_forward, NULL};
TD_KERNEL(td_m_hgrn_dg_row) = {HG_SUM, "mut_dg_same_row", TD_ABI_HOST, NULL, NULL,
                               "backward: dg's b_o read from o[t] instead of o[t - 1]", 6, 10, dg_same_row, NULL};
TD_KERNEL(td_m_hgrn_decay_early) = {HG_SUM, "mut_decay_wrong_step", TD_ABI_HOST, NULL, NULL,
                                    "backward: b_dh *= b_g before dx, dg are stored", 6, 10, decay_early, NULL};
TD_KERNEL(td_m_hgrn_dx_head) = {HG_DX, "mut_head_rows_dropped", TD_ABI_HOST, NULL, NULL,
                                "offset (p1 + i_t) * D: the head's T rows dropped", 4, 3, dx_no_head_rows, NULL};
TD_KERNEL(td_m_hgrn_dx_mask) = {HG_DX, "mut_mask_off_by_one", TD_ABI_HOST, NULL, NULL,
                                "mask p0*BD + i <= D: one lane past the row", 4, 3, dx_mask_le, NULL};
TD_KERNEL(td_m_hgrn_i32) = {HG_SUM, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL,
                            "i_bh * T * D + o_d in int32 (i_bh an int32 program id): wraps past 2^31", 6, 10, offset_i32,
                            NULL};
