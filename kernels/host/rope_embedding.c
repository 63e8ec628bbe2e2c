/* rope_embedding on the CPU: Unsloth's `_rope_embedding` with ROPE_GROUP_SIZE a parameter
 * (rope_unsloth.h).  Parameters: Q_row_stride, cos_row_stride, sin_row_stride, seqlen,
 * head_dim, n_heads, ROPE_GROUP_SIZE, BLOCK_SIZE (, BACKWARD_PASS for the io contract).
 * io_correctness: Q, forward or backward; summary: Q forward, dY backward. */
#include "rope_unsloth.h"

static ru_args re_args(const td_abi_launch *L, int ntgt) {
    ru_args a = {TL_I(L, 0), TL_I(L, 1), TL_I(L, 2), TL_I(L, 3), TL_I(L, 4), TL_I(L, 5), TL_I(L, 6), TL_I(L, 7),
                 ntgt, ntgt + 1};
    return a;
}
static int re_io(const td_abi_launch *L) {
    int bwd[1] = {(int)TL_I(L, 8)};
    ru_args a = re_args(L, 1);
    return ru_launch(L, &a, 1, bwd, RU_OK);
}
static int re_sum(const td_abi_launch *L) {
    static const int bwd[2] = {0, 1};
    ru_args a = re_args(L, 2);
    return ru_launch(L, &a, 2, bwd, RU_OK);
}

TD_KERNEL(td_k_rope_emb_io) = {"rope_embedding.rope_embedding_io_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                               9, 3, re_io, NULL};
TD_KERNEL(td_k_rope_emb_sum) = {"rope_embedding.rope_embedding_forward_backward_summary_general", "triton", TD_ABI_HOST,
                                NULL, NULL, NULL, 8, 4, re_sum, NULL};
