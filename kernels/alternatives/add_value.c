/* add_value, alternative alt_grid_stride: see elementwise_add.h (out = value + x). */
#include "elementwise_add.h"

static int grid_stride(const td_abi_launch *L) { return alt_add_grid_stride(L, TL_I(L, 0), 0, -1, TL_R(L, 2), 1); }

TD_KERNEL(td_a_add_value) = {"add_value.puzzle1_kernel_correctness", "alt_grid_stride", TD_ABI_HOST, NULL, NULL, NULL,
                             3, 2, grid_stride, NULL};
TD_KERNEL(td_a_add_value_io) = {"add_value.puzzle1_kernel_io_correctness", "alt_grid_stride", TD_ABI_HOST,
                                "store=fp32:rne:inf", NULL, NULL, 3, 2, grid_stride, NULL};
