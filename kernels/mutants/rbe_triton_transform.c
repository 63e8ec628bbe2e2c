/* rbe_triton_transform mutants: rbe_triton with one bug on (kernels/host/rbe_triton_transform_tl.h). */
#include "../host/rbe_triton_transform_tl.h"

#define ID "rbe_triton_transform.rbe_triton_transform_output_summary_general"
static int sign(const td_abi_launch *L) { return rbe_program(L, RBE_BUG_SIGN); }
static int half(const td_abi_launch *L) { return rbe_program(L, RBE_BUG_HALF_SPLIT); }
static int nostart(const td_abi_launch *L) { return rbe_program(L, RBE_BUG_NO_START); }
static int swap(const td_abi_launch *L) { return rbe_program(L, RBE_BUG_COS_SIN); }
static int i32(const td_abi_launch *L) { return rbe_program(L, RBE_BUG_OFFSET_I32); }

TD_KERNEL(td_m_rbe_sign) = {ID, "mut_wrong_sign", TD_ABI_HOST, NULL, NULL,
                            "the pair rotated by -f: out_real = xr*cos + xi*sin, out_imag = xi*cos - xr*sin", 13, 2,
                            sign, NULL};
TD_KERNEL(td_m_rbe_half) = {ID, "mut_half_split", TD_ABI_HOST, NULL, NULL,
                            "interleaved and half-split confused: the pair read as (x[col/2], x[col/2 + K/2])", 13, 2,
                            half, NULL};
TD_KERNEL(td_m_rbe_nostart) = {ID, "mut_position_offset_ignored", TD_ABI_HOST, NULL, NULL,
                               "start_token_position ignored: the angle of row r is r / THETA^e", 13, 2, nostart, NULL};
TD_KERNEL(td_m_rbe_swap) = {ID, "mut_cos_sin_swapped", TD_ABI_HOST, NULL, NULL, "cos and sin swapped", 13, 2, swap,
                            NULL};
TD_KERNEL(td_m_rbe_i32) = {ID, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                           "pid_batch * stride_x_batch formed in int32 (wraps beyond 2^31 elements)", 13, 2, i32, NULL};
