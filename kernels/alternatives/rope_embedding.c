/* rope_embedding, alternative alt_rotate_half: the Hugging Face formulation
 *   out = x * cos_full + rotate_half(x) * sin_full,  rotate_half(x) = cat(-x2, x1),
 * over the whole head vector (cos_full[j] = cos[j mod hd/2]), the sin product added with
 * fmaf(rotate_half(x)[j], s, x[j]*c) and the cos product rounded: the other product fused
 * than in rope_complex.h.  One head at a time is copied out, rotated, written back; programs
 * row by row, all heads of a row (ROPE_GROUP_SIZE only shapes the grid).  Backward: sin
 * negated. */
#include <math.h>
#include <stdlib.h>

#include "tl.h"

static int alt_rope(const td_abi_launch *L, int ntgt, const int *bwd) {
    int64_t qs = TL_I(L, 0), cs = TL_I(L, 1), ss = TL_I(L, 2), seq = TL_I(L, 3), hd = TL_I(L, 4), nh = TL_I(L, 5);
    int64_t half = hd / 2;
    float *x;
    TL_ALLOC(L, x, 2 * half);
    for (int t = 0; t < ntgt; t++)
        for (int64_t row = 0; row < (int64_t)L->grid[0]; row++)
            for (int64_t k = 0; k < nh; k++) {
                int64_t base = row * qs + k * hd, pos = row % seq;
                for (int64_t j = 0; j < 2 * half; j++) x[j] = tl_load(L, t, base + j);
                for (int64_t j = 0; j < 2 * half; j++) {
                    int64_t i = j % half;
                    float c = tl_load(L, ntgt, pos * cs + i), s = tl_load(L, ntgt + 1, pos * ss + i);
                    float rh = j < half ? -x[j + half] : x[j - half];
                    if (bwd[t]) s = -s;
                    tl_store(L, t, base + j, fmaf(rh, s, x[j] * c), tl_f32());
                }
            }
    free(x);
    return 0;
}
static int alt_io(const td_abi_launch *L) {
    int bwd[1] = {(int)TL_I(L, 8)};
    return alt_rope(L, 1, bwd);
}
static int alt_sum(const td_abi_launch *L) {
    static const int bwd[2] = {0, 1};
    return alt_rope(L, 2, bwd);
}

TD_KERNEL(td_a_rope_emb_io) = {"rope_embedding.rope_embedding_io_correctness", "alt_rotate_half", TD_ABI_HOST, NULL,
                               NULL, NULL, 9, 3, alt_io, NULL};
TD_KERNEL(td_a_rope_emb_sum) = {"rope_embedding.rope_embedding_forward_backward_summary_general", "alt_rotate_half",
                                TD_ABI_HOST, NULL, NULL, NULL, 8, 4, alt_sum, NULL};
