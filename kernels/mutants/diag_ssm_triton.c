/* diag_ssm_triton mutants (the programs are in ../host/diag_ssm_triton.c). */
#include "../host/diag_ssm_triton_tl.h"

static int fwd(const td_abi_launch *L, dssm_bug b) { return td_dssm_fwd(L, &b); }
static int bwd(const td_abi_launch *L, dssm_bug b) { return td_dssm_bwd(L, &b); }
static int decay_twice(const td_abi_launch *L) { return fwd(L, (dssm_bug){.decay_twice = 1}); }
static int fp16_state(const td_abi_launch *L) { return fwd(L, (dssm_bug){.fp16_state = 1}); }
static int lambda_batch(const td_abi_launch *L) { return fwd(L, (dssm_bug){.lambda_by_batch = 1}); }
static int bwd_forward(const td_abi_launch *L) { return bwd(L, (dssm_bug){.bwd_forward = 1}); }
static int y_same_row(const td_abi_launch *L) { return bwd(L, (dssm_bug){.y_same_row = 1}); }
static int fwd_i32(const td_abi_launch *L) { return fwd(L, (dssm_bug){.off_i32 = 1}); }
static int bwd_i32(const td_abi_launch *L) { return bwd(L, (dssm_bug){.off_i32 = 1}); }
static int no_last_decay(const td_abi_launch *L) { return bwd(L, (dssm_bug){.no_last_decay = 1}); }

#define DT "the decay applied twice per step (s * L * L + x)"
#define F16 "the state stored as fp16 between steps"
#define LB "lambda broadcast over the wrong axis (col // batch instead of col % dim)"
TD_KERNEL(td_m_dssm_sum_dt) = {DSSM_FWD_SUM, "mut_decay_twice", TD_ABI_HOST, NULL, NULL, DT, 4, 4, decay_twice, NULL};
TD_KERNEL(td_m_dssm_io_dt) = {DSSM_FWD_IO, "mut_decay_twice", TD_ABI_HOST, NULL, NULL, DT, 4, 4, decay_twice, NULL};
TD_KERNEL(td_m_dssm_sum_f16) = {DSSM_FWD_SUM, "mut_fp16_state", TD_ABI_HOST, NULL, NULL, F16, 4, 4, fp16_state, NULL};
TD_KERNEL(td_m_dssm_io_f16) = {DSSM_FWD_IO, "mut_fp16_state", TD_ABI_HOST, NULL, NULL, F16, 4, 4, fp16_state, NULL};
TD_KERNEL(td_m_dssm_sum_lb) = {DSSM_FWD_SUM, "mut_lambda_axis", TD_ABI_HOST, NULL, NULL, LB, 4, 4, lambda_batch, NULL};
TD_KERNEL(td_m_dssm_io_lb) = {DSSM_FWD_IO, "mut_lambda_axis", TD_ABI_HOST, NULL, NULL, LB, 4, 4, lambda_batch, NULL};
TD_KERNEL(td_m_dssm_bwd_fwd) = {DSSM_BWD_IO, "mut_bwd_forward_direction", TD_ABI_HOST, NULL, NULL,
                                "the gradient accumulated from t = 0 upwards", 4, 7, bwd_forward, NULL};
TD_KERNEL(td_m_dssm_bwd_row) = {DSSM_BWD_IO, "mut_y_same_row", TD_ABI_HOST, NULL, NULL,
                                "grad_lambda multiplies by y[t] instead of y[t-1]", 4, 7, y_same_row, NULL};
TD_KERNEL(td_m_dssm_bwd_dec) = {DSSM_BWD_IO, "mut_decay_wrong_step", TD_ABI_HOST, NULL, NULL,
                                "grad_s stored without the last step's lambda", 4, 7, no_last_decay, NULL};
/* the original's offsets t * batch_size * dim + col, all int32: past 2^31 elements the row
 * offset wraps negative, an illegal address; only the large tier (`--large`) has
 * length * batch_size * dim > 2^31, below it these are the port */
#define I32 "t * batch_size * dim + col in int32 (as the original forms it): wraps past 2^31 elements"
TD_KERNEL(td_m_dssm_sum_i32) = {DSSM_FWD_SUM, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL, I32, 4, 4, fwd_i32, NULL};
TD_KERNEL(td_m_dssm_io_i32) = {DSSM_FWD_IO, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL, I32, 4, 4, fwd_i32, NULL};
TD_KERNEL(td_m_dssm_bwd_i32) = {DSSM_BWD_IO, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL, I32, 4, 7, bwd_i32, NULL};
