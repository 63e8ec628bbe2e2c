/* fast_rope_embedding, alternative alt_complex_fma: every (row, head) of the flat
 * [rows, n_heads] grid (no head groups), rows from the last one down, each pair rotated as
 * a complex product with FMA (rope_complex.h); the table row is row mod seqlen. */
#include "rope_complex.h"

static int alt_rope(const td_abi_launch *L, int ntgt, const int *bwd) {
    int64_t qs = TL_I(L, 0), cs = TL_I(L, 1), ss = TL_I(L, 2), seq = TL_I(L, 3), hd = TL_I(L, 4), nh = TL_I(L, 5);
    int64_t half = hd / 2, rows = L->grid[0];
    for (int t = 0; t < ntgt; t++)
        for (int64_t row = rows - 1; row >= 0; row--)
            for (int64_t k = 0; k < nh; k++)
                for (int64_t i = half - 1; i >= 0; i--) {
                    int64_t o0 = row * qs + k * hd + i, pos = row % seq;
                    alt_rope_rotate(L, t, o0, o0 + half, tl_load(L, ntgt, pos * cs + i),
                                    tl_load(L, ntgt + 1, pos * ss + i), bwd[t]);
                }
    return 0;
}
static int alt_io(const td_abi_launch *L) {
    static const int bwd[1] = {0};
    return alt_rope(L, 1, bwd);
}
static int alt_sum(const td_abi_launch *L) {
    static const int bwd[4] = {0, 0, 1, 1};
    return alt_rope(L, 4, bwd);
}

TD_KERNEL(td_a_fast_rope_io) = {"fast_rope_embedding.fast_rope_embedding_io_correctness", "alt_complex_fma",
                                TD_ABI_HOST, NULL, NULL, NULL, 7, 3, alt_io, NULL};
TD_KERNEL(td_a_fast_rope_sum) = {"fast_rope_embedding.rope_embedding_output_summary_general", "alt_complex_fma",
                                 TD_ABI_HOST, NULL, NULL, NULL, 7, 6, alt_sum, NULL};
