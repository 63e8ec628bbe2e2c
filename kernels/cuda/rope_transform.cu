/* rope_transform on CUDA: Liger's `_triton_rope`, BACKWARD_PASS = false (rope_liger.cuh). */
#include "rope_liger.cuh"

static int launch(const td_abi_launch *L) { return rope_liger_launch(L, 0); }

TD_KERNEL(td_kc_rope_tf) = {"rope_transform.rope_transform_output_summary_general", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 13, 4, launch, NULL};
