/* rotary_emb, alternative alt_token_program_fma: one program per (token, head) as the
 * Lean slices have it (no BLOCK_SEQ x BLOCK_HEAD tiles), K before Q, each interleaved pair
 * rotated as a complex product with FMA (rope_complex.h) at the pair's even table column. */
#include "rope_complex.h"

static void alt_one(const td_abi_launch *L, int reg, int64_t bs, int64_t hs, int64_t ds, int64_t H) {
    int64_t T = TL_I(L, 10), half = TL_I(L, 16), cbs = TL_I(L, 6), cd = TL_I(L, 7), sbs = TL_I(L, 8), sd = TL_I(L, 9);
    for (int64_t h = 0; h < H; h++)
        for (int64_t t = 0; t < T; t++)
            for (int64_t i = 0; i < half; i++) {
                int64_t o0 = t * bs + h * hs + 2 * i * ds;
                alt_rope_rotate(L, reg, o0, o0 + ds, tl_load(L, 2, t * cbs + 2 * i * cd),
                                tl_load(L, 3, t * sbs + 2 * i * sd), 0);
            }
}
static int alt(const td_abi_launch *L) {
    alt_one(L, 1, TL_I(L, 3), TL_I(L, 4), TL_I(L, 5), TL_I(L, 12));
    alt_one(L, 0, TL_I(L, 0), TL_I(L, 1), TL_I(L, 2), TL_I(L, 11));
    return 0;
}

TD_KERNEL(td_a_rotary_emb) = {"rotary_emb.rotary_emb_kernel_correctness", "alt_token_program_fma", TD_ABI_HOST, NULL,
                              NULL, NULL, 17, 4, alt, NULL};
