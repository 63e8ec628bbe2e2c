/* cache_transform_triton mutants.  A stray store past the allocation is dropped (on a
 * GPU it lands in another tensor; the host keeps the half inside the output). */
#include "../host/tl.h"

enum { PD_CS, PD_HS, PD_HID, PD_NSEQ, PD_BH };
enum { PP_CS, PP_HS, PP_TOTAL, PP_HID, PP_N, PP_BS };
enum { R_COS, R_SIN, R_IDX, R_COUT, R_SOUT };

/* copies lane src to dst; src < 0: a masked load's other=0.0 */
static void put(const td_abi_launch *L, int64_t src, int64_t dst) {
    if (dst < 0 || dst >= (int64_t)TL_LEN(L, R_COUT)) return;
    tl_store(L, R_COUT, dst, src < 0 ? 0.0f : tl_load(L, R_COS, src), tl_f32());
    tl_store(L, R_SOUT, dst, src < 0 ? 0.0f : tl_load(L, R_SIN, src), tl_f32());
}

/* decoding, mode 0: the store masked by the hidden bound only (the sequence bound kept
 *   on the index load, other=0): surplus programs s >= NUM_SEQS write row s from cache
 *   row 0 -- the destination row used without its bound check;
 * mode 1: the hidden mask dropped: the last block's padded lanes written;
 * mode 2: ori_seq_idx * cache_stride formed in int32 (an int32 position and stride:
 *   Triton's default): beyond 2^31 elements the cache load wraps (an illegal address on
 *   a GPU: tl_fault, the launch fails) or reads another row. */
static int dec_mut(const td_abi_launch *L, int mode) {
    int64_t cs = TL_I(L, PD_CS), hs = TL_I(L, PD_HS), hid = TL_I(L, PD_HID), nseq = TL_I(L, PD_NSEQ);
    int64_t bh = TL_I(L, PD_BH);
    for (uint32_t s = 0; s < L->grid[0]; s++)
        for (uint32_t hb = 0; hb < L->grid[1]; hb++) {
            int64_t ori = s < nseq ? tl_load_int(L, R_IDX, s) : 0, base = ori * cs;
            if (mode == 2 && s < nseq && hid > 0) {
                base = tl_i32(ori * tl_i32(cs));
                if (tl_fault(L, R_COS, base, hid, hs, s)) return 1;
            }
            for (int64_t i = 0; i < bh; i++) {
                int64_t h = hb * bh + i;
                int on = mode == 0 ? h < hid : mode == 1 ? s < nseq : h < hid && s < nseq;
                if (on) put(L, s < nseq && h < hid ? base + h * hs : -1, s * cs + h * hs);
            }
        }
    return 0;
}
static int dec_no_seq_mask(const td_abi_launch *L) { return dec_mut(L, 0); }
static int dec_no_hid_mask(const td_abi_launch *L) { return dec_mut(L, 1); }
static int dec_offset_int32(const td_abi_launch *L) { return dec_mut(L, 2); }

/* prefill, mode 0: `cumsum_lens < idx`: a token at a sequence's first position takes the
 *   previous sequence's start (the start of b taken from b - 1's entry);
 * mode 1: store mask `idx <= total_length`: one token row past the last sequence's end. */
static int pre_mut(const td_abi_launch *L, int mode) {
    int64_t cs = TL_I(L, PP_CS), hs = TL_I(L, PP_HS), total = TL_I(L, PP_TOTAL), hid = TL_I(L, PP_HID);
    int64_t N = TL_I(L, PP_N), bs = TL_I(L, PP_BS);
    int64_t rows = (int64_t)TL_LEN(L, R_COS);
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
            int64_t idx = p0 * bs + p1, m = 0;
            for (int64_t k = 0; k < N; k++) {
                int64_t v = tl_load_int(L, R_IDX, k);
                if (mode == 0 ? v < idx : v <= idx) m = v > m ? v : m;
            }
            if (!(mode == 1 ? idx <= total : idx < total)) continue;
            for (int64_t i = 0; i < hid; i++) {
                int64_t src = (idx - m) * cs + i * hs;
                if (src < rows) put(L, src, idx * cs + i * hs);
            }
        }
    return 0;
}
static int pre_cumsum_lt(const td_abi_launch *L) { return pre_mut(L, 0); }
static int pre_mask_le(const td_abi_launch *L) { return pre_mut(L, 1); }

#define CTD "cache_transform_triton.decoding_cache_correctness"
#define CTP "cache_transform_triton.prefill_cache_correctness"
TD_KERNEL(td_m_ct_dec_no_seq_mask) = {CTD, "mut_no_seq_mask", TD_ABI_HOST, NULL, NULL,
                                      "store not masked by s < NUM_SEQS: surplus programs write rows", 5, 5,
                                      dec_no_seq_mask, NULL};
TD_KERNEL(td_m_ct_dec_no_hid_mask) = {CTD, "mut_no_hid_mask", TD_ABI_HOST, NULL, NULL,
                                      "store not masked by hid < HIDDEN_DIM: padded lanes written", 5, 5,
                                      dec_no_hid_mask, NULL};
TD_KERNEL(td_m_ct_pre_cumsum_lt) = {CTP, "mut_cumsum_lt", TD_ABI_HOST, NULL, NULL,
                                    "cumsum_lens < idx: a sequence's first token takes the previous start", 6, 5,
                                    pre_cumsum_lt, NULL};
TD_KERNEL(td_m_ct_pre_mask_le) = {CTP, "mut_mask_le", TD_ABI_HOST, NULL, NULL,
                                  "store mask idx <= total_length: one row past the last sequence", 6, 5, pre_mask_le,
                                  NULL};
TD_KERNEL(td_m_ct_dec_offset_int32) = {CTD, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                       "ori_seq_idx * cache_stride computed in int32 (wraps beyond 2^31 elements)", 5,
                                       5, dec_offset_int32, NULL};
