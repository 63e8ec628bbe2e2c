/* var_len_copy, alternatives.
 * alt_memmove (small length): each segment moved with one memmove of old_a_len[b]
 *   floats, segments last first (a host-side varlen copy); exact, so admissible.
 * alt_rev_lanes (one chunk): segments last first and each window's lanes last first,
 *   the lane count min(len, BLOCK_SIZE) computed up front instead of a per-lane mask. */
#include "alt_common.h"

enum { R_OSTART, R_OLEN, R_OLD, R_NSTART, R_NEW };

static int vlc_memmove(const td_abi_launch *L) {
    const int64_t *os = TL_BASE(L, R_OSTART), *len = TL_BASE(L, R_OLEN), *ns = TL_BASE(L, R_NSTART);
    const float *old = TL_BASE(L, R_OLD);
    float *nw = TL_BASE(L, R_NEW);
    for (int64_t b = (int64_t)L->grid[0] - 1; b >= 0; b--) memmove(nw + ns[b], old + os[b], (size_t)len[b] * sizeof(float));
    return 0;
}

static int vlc_rev_lanes(const td_abi_launch *L) {
    int64_t B = TL_I(L, 1), base = TL_I(L, 0) * B;
    for (int64_t b = (int64_t)L->grid[0] - 1; b >= 0; b--) {
        int64_t len = tl_load_int(L, R_OLEN, b), w = len < B ? len : B;
        int64_t os = tl_load_int(L, R_OSTART, b) + base, ns = tl_load_int(L, R_NSTART, b) + base;
        for (int64_t i = w - 1; i >= 0; i--) tl_store(L, R_NEW, ns + i, tl_load(L, R_OLD, os + i), tl_f32());
    }
    return 0;
}

TD_KERNEL(td_a_vlc_memmove) = {"var_len_copy.var_len_copy_kernel_triton_small_length_output_summary", "alt_memmove",
                               TD_ABI_HOST, NULL, NULL, NULL, 1, 5, vlc_memmove, NULL};
TD_KERNEL(td_a_vlc_rev_lanes) = {"var_len_copy.var_len_copy_one_chunk_io_correctness", "alt_rev_lanes", TD_ABI_HOST,
                                 NULL, NULL, NULL, 2, 5, vlc_rev_lanes, NULL};
