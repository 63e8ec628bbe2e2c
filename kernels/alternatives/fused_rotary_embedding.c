/* fused_rotary_embedding alternatives.
 *   q, alt_complex_fma: tokens outer, heads inner, each pair as a complex product with
 *     FMA (rope_complex.h);
 *   vcache, alt_token_major: one pass per token: its slot computed once, then every KV head
 *     of the token copied (no per-program group test: kv heads = q heads / KV_GROUP_NUM). */
#include "rope_complex.h"

static int alt_q(const td_abi_launch *L) {
    int64_t qts = TL_I(L, 0), qhs = TL_I(L, 1), hds = TL_I(L, 2), cts = TL_I(L, 3), cst = TL_I(L, 4), half = TL_I(L, 5);
    for (uint32_t t = 0; t < L->grid[1]; t++)
        for (uint32_t h = 0; h < L->grid[0]; h++)
            for (int64_t j = 0; j < half; j++) {
                int64_t o0 = t * qts + h * qhs + j * hds;
                alt_rope_rotate(L, 0, o0, o0 + half * hds, tl_load(L, 1, t * cts + j * cst),
                                tl_load(L, 2, t * cts + j * cst), 0);
            }
    return 0;
}

static int alt_v(const td_abi_launch *L) {
    int64_t G = TL_I(L, 0), kts = TL_I(L, 1), khs = TL_I(L, 2), hds = TL_I(L, 3), vcb = TL_I(L, 4), vch = TL_I(L, 5);
    int64_t vcs = TL_I(L, 6), vcd = TL_I(L, 7), bts = TL_I(L, 8), btb = TL_I(L, 9), bsz = TL_I(L, 10), D = TL_I(L, 11);
    int64_t HK = (int64_t)L->grid[0] / G;
    for (uint32_t t = 0; t < L->grid[1]; t++) {
        int64_t last = tl_load_int(L, 3, t) - 1;
        int64_t base = tl_load_int(L, 2, t * bts + (last / bsz) * btb) * vcb + (last % bsz) * vcs;
        for (int64_t kh = 0; kh < HK; kh++)
            for (int64_t d = D - 1; d >= 0; d--)
                tl_store(L, 1, base + kh * vch + d * vcd, tl_load(L, 0, t * kts + kh * khs + d * hds), tl_f32());
    }
    return 0;
}

TD_KERNEL(td_a_fused_rotary_q) = {"fused_rotary_embedding.decoding_fused_rotary_embedding_q_correctness",
                                  "alt_complex_fma", TD_ABI_HOST, NULL, NULL, NULL, 6, 3, alt_q, NULL};
TD_KERNEL(td_a_fused_rotary_v) = {"fused_rotary_embedding.decoding_fused_rotary_embedding_vcache_chain_correctness",
                                  "alt_token_major", TD_ABI_HOST, NULL, NULL, NULL, 12, 4, alt_v, NULL};
