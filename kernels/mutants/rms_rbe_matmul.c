/* rms_rbe_matmul mutants: the body with one bug on (kernels/host/rms_matmul_rbe_tl.h). */
#include "../host/rms_matmul_rbe_tl.h"

#define CF "rms_rbe_matmul.rms_matmul_rbe_closed_form_correct"
#define S16 "store=fp16:rne:inf"
static int mean_bk(const td_abi_launch *L) { return rmrk_run(L, &rmrk_one, RMR_BUG_MEAN_BK); }
static int eps_out(const td_abi_launch *L) { return rmrk_run(L, &rmrk_one, RMR_BUG_EPS_OUTSIDE); }
static int sq_scaled(const td_abi_launch *L) { return rmrk_run(L, &rmrk_one, RMR_BUG_SQUARE_SCALED); }
static int i32(const td_abi_launch *L) { return rmrk_run(L, &rmrk_one, RMR_BUG_OFFSET_I32); }

TD_KERNEL(td_m_rrm_mean_bk) = {CF, "mut_mean_over_bk", TD_ABI_HOST, S16, NULL,
                               "mean over the wrong count: tl.sum(x_sum) / BLOCK_SIZE_K instead of / K", 17, 4, mean_bk,
                               NULL};
TD_KERNEL(td_m_rrm_eps_out) = {CF, "mut_eps_outside_rsqrt", TD_ABI_HOST, S16, NULL,
                               "EPS added after the rsqrt: rsqrt(mean) + EPS", 17, 4, eps_out, NULL};
TD_KERNEL(td_m_rrm_sq_scaled) = {CF, "mut_square_after_scale", TD_ABI_HOST, S16, NULL,
                                 "the RMS moment of x * rms_w instead of x (squares taken after the weight)", 17, 4,
                                 sq_scaled, NULL};
TD_KERNEL(td_m_rrm_i32) = {CF, "mut_offset_int32", TD_ABI_HOST, S16, NULL,
                           "pid_batch * stride_x_batch formed in int32 (wraps beyond 2^31 elements)", 17, 4, i32, NULL};
