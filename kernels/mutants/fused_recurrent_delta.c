/* fused_recurrent_delta mutants (the program is in ../host/fused_recurrent_delta.c). */
#include "../host/tl.h"
#include "far_i32.h"

int td_frd_out(const td_abi_launch *L, int no_row, int transposed);
static int no_row(const td_abi_launch *L) { return td_frd_out(L, 1, 0); }
static int transposed(const td_abi_launch *L) { return td_frd_out(L, 0, 1); }
/* q's head base i_bh * s_qk_h formed in int32 (region 1, parameter 1) */
static int offset_i32(const td_abi_launch *L) { return far_i32_fault(L, 2, 1, TL_I(L, 1)) ? 1 : td_frd_out(L, 0, 0); }
#define ID "fused_recurrent_delta.fused_recurrent_delta_output_step_io_correctness"
TD_KERNEL(td_m_frd_i32) = {ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                           "i_bh * s_qk_h formed in int32 (q's head base wraps beyond 2^31 elements)", 9, 3, offset_i32,
                           NULL};
TD_KERNEL(td_m_frd_no_row) = {ID, "mut_time_row_dropped", TD_ABI_HOST, NULL, NULL,
                              "o stored without the + t*V row offset (every step into row 0)", 9, 3, no_row, NULL};
TD_KERNEL(td_m_frd_trans) = {ID, "mut_state_transposed", TD_ABI_HOST, NULL, NULL,
                             "HNext read as [V, K] (v*K + k) instead of [K, V]", 9, 3, transposed, NULL};

/* the summary bundle's mutants (the program is in ../host/fused_recurrent_delta.c) */
#include "../host/fused_recurrent_delta_tl.h"
static const frd_bug b_vnew = {.vnew_scaled = 1}, b_nocorr = {.no_dk_corr = 1}, b_noinit = {.bwd_no_init = 1};
static int vnew_scaled(const td_abi_launch *L) { return td_frd_run(L, &b_vnew); }
static int no_dk_corr(const td_abi_launch *L) { return td_frd_run(L, &b_nocorr); }
static int bwd_no_init(const td_abi_launch *L) { return td_frd_run(L, &b_noinit); }
TD_KERNEL(td_m_frd_vnew_scaled) = {FRD_SUM, "mut_vnew_stored_after_beta", TD_ABI_HOST, NULL, NULL,
                                   "forward stores beta * v_new into v (the store after b_v *= b_beta)", 17, 18,
                                   vnew_scaled, NULL};
TD_KERNEL(td_m_frd_no_dk_corr) = {FRD_SUM, "mut_dk_correction_dropped", TD_ABI_HOST, NULL, NULL,
                                  "backward loop 2 leaves loop 1's dk (no - h d_v correction)", 17, 18, no_dk_corr, NULL};
TD_KERNEL(td_m_frd_bwd_no_init) = {FRD_SUM, "mut_bwd_state_not_seeded", TD_ABI_HOST, NULL, NULL,
                                   "backward loop 2 rebuilds h from 0, ignoring h0", 17, 18, bwd_no_init, NULL};
