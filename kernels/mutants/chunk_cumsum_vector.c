/* chunk_cumsum_vector mutants: the triangle mask, the dot's input precision, the store masks. */
#include "../host/tl.h"

enum { P_SH, P_ST, P_SD, P_T, P_S, P_BT, P_BS };
enum { R_IN, R_Z };

#define CCV_OFF(bh, t, d) ((int64_t)(bh) * TL_I(L, P_SH) + (int64_t)(t) * TL_I(L, P_ST) + (int64_t)(d) * TL_I(L, P_SD))

/* allow_tf32=True: the dot's operands rounded to tf32 (10 mantissa bits, nearest, ties
 * away from zero: cvt.rna.tf32.f32). */
static float ccv_tf32(float x) {
    uint32_t b;
    memcpy(&b, &x, 4);
    b = (b + 0x1000u) & 0xFFFFE000u;
    memcpy(&x, &b, 4);
    return x;
}

enum { STRICT_TRIANGLE, UPPER_TRIANGLE, TF32, OFFSET_I32 };
static int ccv_sum_bug(const td_abi_launch *L, int bug) {
    int64_t T = TL_I(L, P_T), S = TL_I(L, P_S), BT = TL_I(L, P_BT), BS = TL_I(L, P_BS);
    for (uint32_t i_bh = 0; i_bh < L->grid[1]; i_bh++)
        for (uint32_t i_s = 0; i_s < L->grid[0]; i_s++)
            for (int64_t r = 0; r < BT && r < T; r++) /* one chunk: the summary's regime */
                for (int64_t k = 0; k < BS && (int64_t)i_s * BS + k < S; k++) {
                    /* OFFSET_I32: s + i_bh * s_s_h with i_bh (program_id) and s_s_h int32: the
                     * head's base wraps beyond 2^31 elements (a device fault, or another head) */
                    int64_t base = (int64_t)i_bh * TL_I(L, P_SH), d = (int64_t)i_s * BS + k;
                    if (bug == OFFSET_I32) base = tl_i32((int64_t)i_bh * tl_i32(TL_I(L, P_SH)));
                    float dot = 0.0f;
                    for (int64_t q = 0; q < BT && q < T; q++) {
                        /* STRICT_TRIANGLE: o_i[:, None] > o_i[None, :] (exclusive); UPPER: <= (a suffix sum) */
                        int in = bug == STRICT_TRIANGLE ? r > q : bug == UPPER_TRIANGLE ? r <= q : r >= q;
                        int64_t o = base + CCV_OFF(0, q, d);
                        if (tl_fault(L, R_IN, o, 1, 1, i_s)) return 1;
                        float x = tl_load(L, R_IN, o);
                        if (in) dot += bug == TF32 ? ccv_tf32(x) : x;
                    }
                    if (tl_fault(L, R_Z, base + CCV_OFF(0, r, d), 1, 1, i_s)) return 1;
                    tl_store(L, R_Z, base + CCV_OFF(0, r, d), dot, tl_f32());
                }
    return 0;
}
static int ccv_strict(const td_abi_launch *L) { return ccv_sum_bug(L, STRICT_TRIANGLE); }
static int ccv_upper(const td_abi_launch *L) { return ccv_sum_bug(L, UPPER_TRIANGLE); }
static int ccv_tf32_dot(const td_abi_launch *L) { return ccv_sum_bug(L, TF32); }
static int ccv_offset_i32(const td_abi_launch *L) { return ccv_sum_bug(L, OFFSET_I32); }

enum { NO_COLUMN_MASK, ROW_MASK_LE };
static int ccv_store_bug(const td_abi_launch *L, int bug) {
    int64_t T = TL_I(L, P_T), S = TL_I(L, P_S), BT = TL_I(L, P_BT), BS = TL_I(L, P_BS);
    for (uint32_t i_t = 0; i_t < L->grid[2]; i_t++)
        for (uint32_t i_bh = 0; i_bh < L->grid[1]; i_bh++)
            for (uint32_t i_s = 0; i_s < L->grid[0]; i_s++)
                for (int64_t r = 0; r < BT; r++)
                    for (int64_t k = 0; k < BS; k++) {
                        int64_t t = (int64_t)i_t * BT + r, d = (int64_t)i_s * BS + k;
                        /* NO_COLUMN_MASK: mask = offs_t < T only; ROW_MASK_LE: offs_t <= T */
                        int on = bug == NO_COLUMN_MASK ? t < T : (t <= T && d < S);
                        if (!on) continue;
                        int64_t off = CCV_OFF(i_bh, t, d);
                        /* an address past a region is an illegal access on the device */
                        if (tl_fault(L, R_IN, off, 1, 1, i_s) || tl_fault(L, R_Z, off, 1, 1, i_s)) return 1;
                        tl_store(L, R_Z, off, tl_load(L, R_IN, off), tl_f32());
                    }
    return 0;
}
static int ccv_no_col_mask(const td_abi_launch *L) { return ccv_store_bug(L, NO_COLUMN_MASK); }
static int ccv_row_le(const td_abi_launch *L) { return ccv_store_bug(L, ROW_MASK_LE); }

#define CCV_SUM "chunk_cumsum_vector.chunk_cumsum_vector_output_summary_general"
#define CCV_ST "chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctness"
#define CCV_STR "chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctnessR"
TD_KERNEL(td_m_ccv_strict) = {CCV_SUM, "mut_exclusive_triangle", TD_ABI_HOST, NULL, NULL,
                              "m_s = o_i[:, None] > o_i[None, :]: an exclusive scan (off by one)", 7, 2, ccv_strict, NULL};
TD_KERNEL(td_m_ccv_upper) = {CCV_SUM, "mut_upper_triangle", TD_ABI_HOST, NULL, NULL,
                             "m_s = o_i[:, None] <= o_i[None, :]: the reversed (suffix) scan", 7, 2, ccv_upper, NULL};
TD_KERNEL(td_m_ccv_tf32) = {CCV_SUM, "mut_tf32_dot", TD_ABI_HOST, NULL, NULL,
                            "tl.dot(m_s, b_s) with allow_tf32=True: the inputs rounded to tf32", 7, 2, ccv_tf32_dot,
                            NULL};
TD_KERNEL(td_m_ccv_i32) = {CCV_SUM, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                           "s + i_bh * s_s_h formed in int32 (wraps beyond 2^31 elements)", 7, 2, ccv_offset_i32, NULL};
TD_KERNEL(td_m_ccv_st_col) = {CCV_ST, "mut_no_column_mask", TD_ABI_HOST, NULL, NULL,
                              "the store mask drops offs_s < S: whole BS-wide tiles written", 7, 2, ccv_no_col_mask, NULL};
TD_KERNEL(td_m_ccv_st_row) = {CCV_ST, "mut_row_mask_le", TD_ABI_HOST, NULL, NULL,
                              "the row mask offs_t <= T: one row past the sequence written", 7, 2, ccv_row_le, NULL};
TD_KERNEL(td_m_ccv_str_col) = {CCV_STR, "mut_no_column_mask", TD_ABI_HOST, NULL, NULL,
                               "the store mask drops offs_s < S: whole BS-wide tiles written", 7, 2, ccv_no_col_mask,
                               NULL};
TD_KERNEL(td_m_ccv_str_row) = {CCV_STR, "mut_row_mask_le", TD_ABI_HOST, NULL, NULL,
                               "the row mask offs_t <= T: one row past the sequence written", 7, 2, ccv_row_le, NULL};
