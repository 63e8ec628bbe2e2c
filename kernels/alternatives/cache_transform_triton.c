/* cache_transform_triton, alternatives.
 * alt_rows (decoding): the Python kernel's own shape, rows of BLOCK_SIZE = 4 sequences
 *   per program over the whole hidden dim (not the Lean slice's (sequence, hidden block)
 *   grid): the host walks sequences and dims directly, ignoring the launch grid, sin
 *   before cos; a gather is exact in any order, so this is admissible.
 * alt_search (prefill): each token's sequence found by a binary search over the
 *   cumulative lengths (the first cell > tok) instead of a max over all cells; the same
 *   ori(tok) = tok - cumsum[b - 1] for every live token, so admissible. */
#include "alt_common.h"

enum { PD_CS, PD_HS, PD_HID, PD_NSEQ, PD_BH };
enum { PP_CS, PP_HS, PP_TOTAL, PP_HID, PP_N, PP_BS };
enum { R_COS, R_SIN, R_IDX, R_COUT, R_SOUT };

static int ct_rows(const td_abi_launch *L) {
    int64_t cs = TL_I(L, PD_CS), hs = TL_I(L, PD_HS);
    for (int64_t s0 = 0; s0 < TL_I(L, PD_NSEQ); s0 += 4)
        for (int64_t s = s0; s < s0 + 4 && s < TL_I(L, PD_NSEQ); s++) {
            int64_t r = tl_load_int(L, R_IDX, s);
            for (int64_t h = 0; h < TL_I(L, PD_HID); h++)
                tl_store(L, R_SOUT, s * cs + h * hs, tl_load(L, R_SIN, r * cs + h * hs), tl_f32());
            for (int64_t h = 0; h < TL_I(L, PD_HID); h++)
                tl_store(L, R_COUT, s * cs + h * hs, tl_load(L, R_COS, r * cs + h * hs), tl_f32());
        }
    return 0;
}

/* the largest cumsum cell <= tok among the N sorted cells, or 0 (cells nondecreasing) */
static int64_t start_of(const td_abi_launch *L, int64_t tok) {
    int64_t lo = 0, hi = TL_I(L, PP_N); /* first cell > tok in [lo, hi) */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (tl_load_int(L, R_IDX, mid) <= tok) lo = mid + 1;
        else hi = mid;
    }
    return lo > 0 ? tl_load_int(L, R_IDX, lo - 1) : 0;
}

static int ct_search(const td_abi_launch *L) {
    int64_t cs = TL_I(L, PP_CS), hs = TL_I(L, PP_HS);
    for (int64_t tok = TL_I(L, PP_TOTAL) - 1; tok >= 0; tok--) {
        int64_t r = tok - start_of(L, tok);
        for (int64_t i = 0; i < TL_I(L, PP_HID); i++) {
            tl_store(L, R_COUT, tok * cs + i * hs, tl_load(L, R_COS, r * cs + i * hs), tl_f32());
            tl_store(L, R_SOUT, tok * cs + i * hs, tl_load(L, R_SIN, r * cs + i * hs), tl_f32());
        }
    }
    return 0;
}

TD_KERNEL(td_a_ct_rows) = {"cache_transform_triton.decoding_cache_correctness", "alt_rows", TD_ABI_HOST, NULL, NULL,
                           NULL, 5, 5, ct_rows, NULL};
TD_KERNEL(td_a_ct_search) = {"cache_transform_triton.prefill_cache_correctness", "alt_search", TD_ABI_HOST, NULL, NULL,
                             NULL, 6, 5, ct_search, NULL};
