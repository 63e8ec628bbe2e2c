/* rotary_transform_ops, alternative alt_complex_fma_other: see rotary_row_alt.h. */
#include "rotary_row_alt.h"

static int general(const td_abi_launch *L) { return alt_rotary_row(L, 0, -1, -1, ALT_RR_SWAPPED); }
static int meta(const td_abi_launch *L) { return alt_rotary_row(L, 1, 0, 15, ALT_RR_SWAPPED); }

TD_KERNEL(td_a_rotary_transform_ops_g) = {"rotary_transform_ops.rotary_transform_ops_output_summary_general", "alt_complex_fma_other", TD_ABI_HOST, NULL, NULL, NULL, 14, 4, general, NULL};
TD_KERNEL(td_a_rotary_transform_ops_meta) = {"rotary_transform_ops.rotary_transform_ops_meta_implements", "alt_complex_fma_other", TD_ABI_HOST, NULL, NULL, NULL, 16, 5, meta, NULL};
