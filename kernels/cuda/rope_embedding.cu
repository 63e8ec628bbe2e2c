/* rope_embedding on CUDA: Unsloth's `_rope_embedding`, ROPE_GROUP_SIZE a parameter (rope_unsloth.cuh). */
#include "rope_unsloth.cuh"

static int launch_io(const td_abi_launch *L) {
    int bwd[1] = {(int)TLC_I(L, 8)};
    return rope_unsloth_launch(L, 1, bwd, TLC_I(L, 6), 7, "_rope_embedding");
}
static int launch_sum(const td_abi_launch *L) {
    static const int bwd[2] = {0, 1};
    return rope_unsloth_launch(L, 2, bwd, TLC_I(L, 6), 7, "_rope_embedding");
}

TD_KERNEL(td_kc_rope_emb_io) = {"rope_embedding.rope_embedding_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                                9, 3, launch_io, NULL};
TD_KERNEL(td_kc_rope_emb_sum) = {"rope_embedding.rope_embedding_forward_backward_summary_general", "triton",
                                 TD_ABI_CUDA, NULL, NULL, NULL, 8, 4, launch_sum, NULL};
