/* var_len_copy mutants: the ragged-batch bugs varlen copies ship.  A stray store past
 * the allocation is dropped (on a GPU it lands in another tensor; the host keeps the
 * half inside new_a_location; the harness's guard zones catch the first cells past it). */
#include "../host/tl.h"

enum { R_OSTART, R_OLEN, R_OLD, R_NSTART, R_NEW };

/* mode 0: mask `offset <= length`: one lane past the segment's end copied;
 * mode 1: the old start of segment b read from entry b + 1 (old_a_start has nb + 1
 *         cu_seqlens entries, so the read is in bounds and silently wrong);
 * mode 2: the chunk offset dropped on the read side (every chunk reads chunk 0). */
static void chunk_mut(const td_abi_launch *L, uint32_t b, int64_t base, int64_t B, int mode) {
    int64_t len = tl_load_int(L, R_OLEN, b), os = tl_load_int(L, R_OSTART, mode == 1 ? b + 1 : b);
    int64_t ns = tl_load_int(L, R_NSTART, b), rbase = mode == 2 ? 0 : base;
    for (int64_t j = 0; j < B; j++) {
        if (!(mode == 0 ? j <= len : j < len)) continue;
        int64_t src = os + rbase + j, dst = ns + base + j;
        float v = src < (int64_t)TL_LEN(L, R_OLD) ? tl_load(L, R_OLD, src) : 0.0f;
        if (dst < (int64_t)TL_LEN(L, R_NEW) + 1) tl_store(L, R_NEW, dst, v, tl_f32()); /* +1: into the guard */
    }
}

static int small_mut(const td_abi_launch *L, int mode) {
    int64_t B = TL_I(L, 0);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (int64_t i = 0; i < tl_load_int(L, R_OLEN, b); i += B) chunk_mut(L, b, i, B, mode);
    return 0;
}
static int small_mask_le(const td_abi_launch *L) { return small_mut(L, 0); }
static int small_start_next(const td_abi_launch *L) { return small_mut(L, 1); }

static int chunk_mutk(const td_abi_launch *L, int mode) {
    for (uint32_t b = 0; b < L->grid[0]; b++) chunk_mut(L, b, TL_I(L, 0) * TL_I(L, 1), TL_I(L, 1), mode);
    return 0;
}
static int chunk_mask_le(const td_abi_launch *L) { return chunk_mutk(L, 0); }
static int chunk_read_base(const td_abi_launch *L) { return chunk_mutk(L, 2); }

#define VS "var_len_copy.var_len_copy_kernel_triton_small_length_output_summary"
#define VC "var_len_copy.var_len_copy_one_chunk_io_correctness"
TD_KERNEL(td_m_vlc_small_mask_le) = {VS, "mut_mask_le", TD_ABI_HOST, NULL, NULL,
                                     "mask offset <= length: one lane past each segment's end", 1, 5, small_mask_le,
                                     NULL};
TD_KERNEL(td_m_vlc_small_start_next) = {VS, "mut_start_next", TD_ABI_HOST, NULL, NULL,
                                        "segment b read from old_a_start[b+1]", 1, 5, small_start_next, NULL};
TD_KERNEL(td_m_vlc_chunk_mask_le) = {VC, "mut_mask_le", TD_ABI_HOST, NULL, NULL,
                                     "mask offset <= length: one lane past the segment's end", 2, 5, chunk_mask_le,
                                     NULL};
TD_KERNEL(td_m_vlc_chunk_read_base) = {VC, "mut_read_chunk0", TD_ABI_HOST, NULL, NULL,
                                       "chunk offset dropped on the read: chunk 0 copied into chunk's window", 2, 5,
                                       chunk_read_base, NULL};
