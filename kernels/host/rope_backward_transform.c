/* rope_backward_transform on the CPU: Liger's `_triton_rope` with BACKWARD_PASS = true (rope_liger.h). */
#include "rope_liger.h"

static int k_btf(const td_abi_launch *L) { return lg_launch(L, 1, LG_OK); }

TD_KERNEL(td_k_rope_btf) = {"rope_backward_transform.rope_backward_python_backward_output_summary_general", "triton", TD_ABI_HOST, NULL, NULL, NULL, 13, 4, k_btf, NULL};
