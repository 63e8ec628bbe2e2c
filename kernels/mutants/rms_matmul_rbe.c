/* rms_matmul_rbe mutants: the body with one bug on (kernels/host/rms_matmul_rbe_tl.h). */
#include "../host/rms_matmul_rbe_tl.h"

#define CF "rms_matmul_rbe.rms_matmul_rbe_closed_form_correct"
#define QKV "rms_matmul_rbe.rms_matmul_rbe_qkv_closed_form_correct"
#define S16 "store=fp16:rne:inf"
static int mean_bk(const td_abi_launch *L) { return rmrk_run(L, &rmrk_one, RMR_BUG_MEAN_BK); }
static int no_adv(const td_abi_launch *L) { return rmrk_run(L, &rmrk_one, RMR_BUG_RMS_NO_ADVANCE); }
static int sq_scaled(const td_abi_launch *L) { return rmrk_run(L, &rmrk_one, RMR_BUG_SQUARE_SCALED); }
static int q_mean_bk(const td_abi_launch *L) { return rmrk_run(L, &rmrk_qkv, RMR_BUG_MEAN_BK); }
static int q_eps(const td_abi_launch *L) { return rmrk_run(L, &rmrk_qkv, RMR_BUG_EPS_OUTSIDE); }
static int q_no_adv(const td_abi_launch *L) { return rmrk_run(L, &rmrk_qkv, RMR_BUG_RMS_NO_ADVANCE); }
static int i32(const td_abi_launch *L) { return rmrk_run(L, &rmrk_one, RMR_BUG_OFFSET_I32); }
static int q_i32(const td_abi_launch *L) { return rmrk_run(L, &rmrk_qkv, RMR_BUG_OFFSET_I32); }

#define D_MEAN "mean over the wrong count: tl.sum(x_sum) / BLOCK_SIZE_K instead of / K"
#define D_ADV "rms_w_ptrs not advanced in the K loop: every block scaled by rms_w[0 .. BK)"
TD_KERNEL(td_m_rmr_mean_bk) = {CF, "mut_mean_over_bk", TD_ABI_HOST, S16, NULL, D_MEAN, 17, 4, mean_bk, NULL};
TD_KERNEL(td_m_rmr_no_adv) = {CF, "mut_rms_w_not_advanced", TD_ABI_HOST, S16, NULL, D_ADV, 17, 4, no_adv, NULL};
TD_KERNEL(td_m_rmr_sq_scaled) = {CF, "mut_square_after_scale", TD_ABI_HOST, S16, NULL,
                                 "the RMS moment of x * rms_w instead of x (squares taken after the weight)", 17, 4,
                                 sq_scaled, NULL};
TD_KERNEL(td_m_rmr_q_mean_bk) = {QKV, "mut_mean_over_bk", TD_ABI_HOST, S16, NULL, D_MEAN, 27, 8, q_mean_bk, NULL};
TD_KERNEL(td_m_rmr_q_eps) = {QKV, "mut_eps_outside_rsqrt", TD_ABI_HOST, S16, NULL,
                             "EPS added after the rsqrt: rsqrt(mean) + EPS", 27, 8, q_eps, NULL};
TD_KERNEL(td_m_rmr_q_no_adv) = {QKV, "mut_rms_w_not_advanced", TD_ABI_HOST, S16, NULL, D_ADV, 27, 8, q_no_adv, NULL};
#define D_I32 "pid_batch * stride_x_batch formed in int32 (wraps beyond 2^31 elements)"
TD_KERNEL(td_m_rmr_i32) = {CF, "mut_offset_int32", TD_ABI_HOST, S16, NULL, D_I32, 17, 4, i32, NULL};
TD_KERNEL(td_m_rmr_q_i32) = {QKV, "mut_offset_int32", TD_ABI_HOST, S16, NULL, D_I32, 27, 8, q_i32, NULL};
