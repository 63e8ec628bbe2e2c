/* rotary_emb_nopad, alternative alt_token_major_fma: tokens outer, heads inner (no
 * BLOCK_TOKENS tiles), each pair a complex product with FMA (rope_complex.h); K's KV heads
 * by their own index (nopad), the v2 cache slot computed once per token. */
#include "rope_complex.h"

/* rotates (o0, o1) of src by (c, s) into dst (d0, d1) */
static void alt_to(const td_abi_launch *L, int src, int64_t o0, int64_t o1, int dst, int64_t d0, int64_t d1, float c,
                   float s) {
    float x0 = tl_load(L, src, o0), x1 = tl_load(L, src, o1);
    tl_store(L, dst, d0, fmaf(x0, c, -(x1 * s)), tl_f32());
    tl_store(L, dst, d1, fmaf(x1, c, x0 * s), tl_f32());
}

static int alt(const td_abi_launch *L) {
    int64_t qts = TL_I(L, 0), qhs = TL_I(L, 1), kts = TL_I(L, 2), khs = TL_I(L, 3), hds = TL_I(L, 4), cts = TL_I(L, 5);
    int64_t cst = TL_I(L, 6), T = TL_I(L, 7), QH = TL_I(L, 8), G = TL_I(L, 9), half = TL_I(L, 10) / 2, v2 = TL_I(L, 42);
    for (int64_t t = 0; t < T; t++) {
        int64_t slot = 0;
        if (v2) {
            int64_t past = tl_load_int(L, 6, t) - 1, bsz = TL_I(L, 41); /* 35..41: cacheb .. block_size */
            slot = tl_load_int(L, 5, t * TL_I(L, 39) + (past / bsz) * TL_I(L, 40)) * TL_I(L, 35) + (past % bsz) * TL_I(L, 37);
        }
        for (int64_t h = 0; h < QH; h++)
            for (int64_t i = 0; i < half; i++) {
                float c = tl_load(L, 2, t * cts + i * cst), s = tl_load(L, 3, t * cts + i * cst);
                int64_t q = t * qts + h * qhs + i * hds, k = t * kts + (h / G) * khs + i * hds;
                alt_to(L, 0, q, q + half * hds, 0, q, q + half * hds, c, s);
                if (v2) {
                    int64_t d = slot + h * TL_I(L, 36) + i * TL_I(L, 38);
                    alt_to(L, 1, k, k + half * hds, 4, d, d + half * TL_I(L, 38), c, s);
                } else if (h % G == 0)
                    alt_to(L, 1, k, k + half * hds, 1, k, k + half * hds, c, s);
            }
    }
    return 0;
}

TD_KERNEL(td_a_rotary_emb_nopad) = {"rotary_emb_nopad.rotary_emb_nopad_output_summary_general", "alt_token_major_fma",
                                    TD_ABI_HOST, NULL, NULL, NULL, 43, 7, alt, NULL};
