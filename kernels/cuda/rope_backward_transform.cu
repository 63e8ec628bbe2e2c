/* rope_backward_transform on CUDA: Liger's `_triton_rope`, BACKWARD_PASS = true (rope_liger.cuh). */
#include "rope_liger.cuh"

static int launch(const td_abi_launch *L) { return rope_liger_launch(L, 1); }

TD_KERNEL(td_kc_rope_btf) = {"rope_backward_transform.rope_backward_python_backward_output_summary_general", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 13, 4, launch, NULL};
