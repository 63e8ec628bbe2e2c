/* cache_transform_triton: gathers cos/sin cache rows.
 *   decoding (decoding_cache_one_seq_block): program (s, hb) copies hidden block hb of
 *     cache row lengths[s] to output row s, masked by s < NUM_SEQS and hid < HIDDEN_DIM;
 *   prefill (prefill_cache_kernel): program (p0, p1) handles token idx = p0*BS + p1: its
 *     source row is idx - max(where(cumsum <= idx, cumsum, 0)) over the N_ELEMENTS cells,
 *     and the row is stored when idx < total_length. */
#include "tl.h"

enum { PD_CS, PD_HS, PD_HID, PD_NSEQ, PD_BH };
enum { PP_CS, PP_HS, PP_TOTAL, PP_HID, PP_N, PP_BS };
enum { R_COS, R_SIN, R_IDX, R_COUT, R_SOUT };

static void copy_lane(const td_abi_launch *L, int64_t src, int64_t dst) {
    tl_store(L, R_COUT, dst, tl_load(L, R_COS, src), tl_f32());
    tl_store(L, R_SOUT, dst, tl_load(L, R_SIN, src), tl_f32());
}

static int decoding(const td_abi_launch *L) {
    int64_t cs = TL_I(L, PD_CS), hs = TL_I(L, PD_HS), hid = TL_I(L, PD_HID), nseq = TL_I(L, PD_NSEQ);
    int64_t bh = TL_I(L, PD_BH);
    for (uint32_t s = 0; s < L->grid[0]; s++)
        for (uint32_t hb = 0; hb < L->grid[1]; hb++) {
            int64_t ori = s < nseq ? tl_load_int(L, R_IDX, s) : 0; /* other=0 */
            for (int64_t i = 0; i < bh; i++) {
                int64_t h = hb * bh + i;
                if (s < nseq && h < hid) copy_lane(L, ori * cs + h * hs, s * cs + h * hs);
            }
        }
    return 0;
}

static int prefill(const td_abi_launch *L) {
    int64_t cs = TL_I(L, PP_CS), hs = TL_I(L, PP_HS), total = TL_I(L, PP_TOTAL), hid = TL_I(L, PP_HID);
    int64_t N = TL_I(L, PP_N), bs = TL_I(L, PP_BS);
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
            int64_t idx = p0 * bs + p1, m = 0;
            for (int64_t k = 0; k < N; k++) { /* tl.max(tl.where(cumsum_lens <= idx, cumsum_lens, 0)) */
                int64_t v = tl_load_int(L, R_IDX, k);
                int64_t w = v <= idx ? v : 0;
                m = w > m ? w : m;
            }
            for (int64_t i = 0; i < hid; i++)
                if (idx < total) copy_lane(L, (idx - m) * cs + i * hs, idx * cs + i * hs);
        }
    return 0;
}

TD_KERNEL(td_k_ct_decoding) = {"cache_transform_triton.decoding_cache_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                               NULL, 5, 5, decoding, NULL};
TD_KERNEL(td_k_ct_prefill) = {"cache_transform_triton.prefill_cache_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                              NULL, 6, 5, prefill, NULL};
