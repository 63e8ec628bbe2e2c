/* rotary_transform_ops: the row slice of rotary_kernel its two statements speak of (rotary_row_tl.h),
 * one program at a time, binary32 products and sums as the Triton kernel writes them. */
#include "rotary_row_tl.h"

static int general(const td_abi_launch *L) { return rotary_row_program(L, &rrk_general, 0); }
static int meta(const td_abi_launch *L) { return rotary_row_program(L, &rrk_meta, 0); }

TD_KERNEL(td_k_rotary_transform_ops_g) = {"rotary_transform_ops.rotary_transform_ops_output_summary_general", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                               14, 4, general, NULL};
TD_KERNEL(td_k_rotary_transform_ops_meta) = {"rotary_transform_ops.rotary_transform_ops_meta_implements", "triton", TD_ABI_HOST, NULL, NULL, NULL, 16, 5,
                                  meta, NULL};
