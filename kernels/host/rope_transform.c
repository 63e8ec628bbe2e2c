/* rope_transform on the CPU: Liger's `_triton_rope` with BACKWARD_PASS = false (rope_liger.h). */
#include "rope_liger.h"

static int k_tf(const td_abi_launch *L) { return lg_launch(L, 0, LG_OK); }

TD_KERNEL(td_k_rope_tf) = {"rope_transform.rope_transform_output_summary_general", "triton", TD_ABI_HOST, NULL, NULL, NULL, 13, 4, k_tf, NULL};
