/* rotary_transform on CUDA: the row slice its statements speak of (rotary_row_tlc.cuh). */
#include "rotary_row_tlc.cuh"

static int general(const td_abi_launch *L) { return rotary_row_launch(L, 0, -1, -1); }
static int meta(const td_abi_launch *L) { return rotary_row_launch(L, 1, 0, 15); }

TD_KERNEL(td_kc_rotary_transform_g) = {"rotary_transform.rotary_transform_python_output_summary_general", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 14, 4, general, NULL};
TD_KERNEL(td_kc_rotary_transform_meta) = {"rotary_transform.rotary_transform_meta_implements", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 16, 5, meta,
                                  NULL};
