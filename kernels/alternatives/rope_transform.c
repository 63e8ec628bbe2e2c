/* rope_transform, alternative alt_complex_fma: see rope_liger_alt.h. */
#include "rope_liger_alt.h"

static int alt(const td_abi_launch *L) { return alt_liger(L, 0); }

TD_KERNEL(td_a_rope_tf) = {"rope_transform.rope_transform_output_summary_general", "alt_complex_fma", TD_ABI_HOST, NULL, NULL, NULL, 13, 4, alt, NULL};
