/* fast_rope_embedding on the CPU: Unsloth's `_rope_embedding` with ROPE_GROUP_SIZE = 4
 * (rope_unsloth.h).  Parameters: Q_row_stride, cos_row_stride, sin_row_stride, seqlen,
 * head_dim, n_heads, BLOCK_SIZE.  io_correctness: Q forward; output_summary_general:
 * Q, K forward, QGrad, KGrad backward (the four launches of the autograd functions). */
#include "rope_unsloth.h"

static ru_args fre_args(const td_abi_launch *L, int ntgt) {
    ru_args a = {TL_I(L, 0), TL_I(L, 1), TL_I(L, 2), TL_I(L, 3), TL_I(L, 4), TL_I(L, 5), 4, TL_I(L, 6), ntgt, ntgt + 1};
    return a;
}
static int fre_io(const td_abi_launch *L) {
    static const int bwd[1] = {0};
    ru_args a = fre_args(L, 1);
    return ru_launch(L, &a, 1, bwd, RU_OK);
}
static int fre_sum(const td_abi_launch *L) {
    static const int bwd[4] = {0, 0, 1, 1};
    ru_args a = fre_args(L, 4);
    return ru_launch(L, &a, 4, bwd, RU_OK);
}

TD_KERNEL(td_k_fast_rope_io) = {"fast_rope_embedding.fast_rope_embedding_io_correctness", "triton", TD_ABI_HOST, NULL,
                                NULL, NULL, 7, 3, fre_io, NULL};
TD_KERNEL(td_k_fast_rope_sum) = {"fast_rope_embedding.rope_embedding_output_summary_general", "triton", TD_ABI_HOST,
                                 NULL, NULL, NULL, 7, 6, fre_sum, NULL};
