/* triton_conv2d_fwd mutants (the program itself is in ../host/triton_conv2d_fwd.c). */
#include "../host/tl.h"

int td_triton_conv2d_fwd_program(const td_abi_launch *L, int bug);

/* input_height_offset = h + stride * oh (likewise the width): the padding is applied
 * after the end only, so every window starts padding rows too low and too far right */
static int pad_one_side(const td_abi_launch *L) { return td_triton_conv2d_fwd_program(L, 1); }
/* input_height_offset = stride * h - padding + oh: the stride multiplies the kernel
 * position (a dilation) instead of the output position */
static int stride_as_dilation(const td_abi_launch *L) { return td_triton_conv2d_fwd_program(L, 2); }
/* weight_pointer without + weight_out_feat_stride * group_pid * out_group_dim: every
 * group convolves with group 0's filters */
static int no_group_w(const td_abi_launch *L) { return td_triton_conv2d_fwd_program(L, 3); }
/* the input offsets formed in int32 (Triton's type for int32 strides times int32
 * offsets): input_in_feat_stride * channel and input_batch_stride * batch_offset wrap
 * beyond 2^31 elements */
static int off_i32(const td_abi_launch *L) { return td_triton_conv2d_fwd_program(L, 4); }

#define CF "triton_conv2d_fwd.conv2d_output_summary"
#define IO "triton_conv2d_fwd.triton_conv2d_fwd_io_correctness"
#define PAD1 "padding applied on one side only: input offset h + SH*oh, without - PH"
#define DIL "stride used as dilation: input offset SH*h - PH + oh"
#define GRPW "weight pointer without the group offset: every group uses group 0's filters"
TD_KERNEL(td_m_triton_conv2d_fwd_cf_pad1) = {CF, "mut_pad_one_side", TD_ABI_HOST, NULL, NULL, PAD1, 31, 3,
                                             pad_one_side, NULL};
TD_KERNEL(td_m_triton_conv2d_fwd_io_pad1) = {IO, "mut_pad_one_side", TD_ABI_HOST, NULL, NULL, PAD1, 31, 3,
                                             pad_one_side, NULL};
TD_KERNEL(td_m_triton_conv2d_fwd_cf_dil) = {CF, "mut_stride_as_dilation", TD_ABI_HOST, NULL, NULL, DIL, 31, 3,
                                            stride_as_dilation, NULL};
TD_KERNEL(td_m_triton_conv2d_fwd_io_dil) = {IO, "mut_stride_as_dilation", TD_ABI_HOST, NULL, NULL, DIL, 31, 3,
                                            stride_as_dilation, NULL};
TD_KERNEL(td_m_triton_conv2d_fwd_cf_grpw) = {CF, "mut_no_group_weight", TD_ABI_HOST, NULL, NULL, GRPW, 31, 3,
                                             no_group_w, NULL};
TD_KERNEL(td_m_triton_conv2d_fwd_io_grpw) = {IO, "mut_no_group_weight", TD_ABI_HOST, NULL, NULL, GRPW, 31, 3,
                                             no_group_w, NULL};
#define OI32 "input offsets formed in int32: input_in_feat_stride * channel, input_batch_stride * batch wrap beyond 2^31"
TD_KERNEL(td_m_triton_conv2d_fwd_cf_i32) = {CF, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, OI32, 31, 3, off_i32, NULL};
TD_KERNEL(td_m_triton_conv2d_fwd_io_i32) = {IO, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, OI32, 31, 3, off_i32, NULL};
