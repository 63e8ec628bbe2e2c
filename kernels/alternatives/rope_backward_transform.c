/* rope_backward_transform, alternative alt_complex_fma: see rope_liger_alt.h. */
#include "rope_liger_alt.h"

static int alt(const td_abi_launch *L) { return alt_liger(L, 1); }

TD_KERNEL(td_a_rope_btf) = {"rope_backward_transform.rope_backward_python_backward_output_summary_general", "alt_complex_fma", TD_ABI_HOST, NULL, NULL, NULL, 13, 4, alt, NULL};
