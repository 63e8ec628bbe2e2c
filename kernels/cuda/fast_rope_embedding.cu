/* fast_rope_embedding on CUDA: Unsloth's `_rope_embedding`, ROPE_GROUP_SIZE = 4 (rope_unsloth.cuh). */
#include "rope_unsloth.cuh"

static int launch_io(const td_abi_launch *L) {
    static const int bwd[1] = {0};
    return rope_unsloth_launch(L, 1, bwd, 4, 6, "_rope_embedding");
}
static int launch_sum(const td_abi_launch *L) {
    static const int bwd[4] = {0, 0, 1, 1};
    return rope_unsloth_launch(L, 4, bwd, 4, 6, "_rope_embedding");
}

TD_KERNEL(td_kc_fast_rope_io) = {"fast_rope_embedding.fast_rope_embedding_io_correctness", "triton", TD_ABI_CUDA, NULL,
                                 NULL, NULL, 7, 3, launch_io, NULL};
TD_KERNEL(td_kc_fast_rope_sum) = {"fast_rope_embedding.rope_embedding_output_summary_general", "triton", TD_ABI_CUDA,
                                  NULL, NULL, NULL, 7, 6, launch_sum, NULL};
