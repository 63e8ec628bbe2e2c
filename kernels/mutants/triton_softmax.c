/* triton_softmax mutants: bugs of hand-written row-softmax kernels. */
#include "../host/softmax_tl.h"

/* Each mutant is the row softmax with one bug (sm_rows_bug, softmax_tl.h). */

/* The load mask off by one (cols <= n_cols): when the row is narrower than the tile,
 * the cell after the row (the next row's first column, or the buffer's slack) joins
 * the max and the sum.  Cells beyond the buffer read as -inf (a real kernel faults). */
static int load_mask_le(const td_abi_launch *L) { return sm_rows_bug(L, SM_BUG_MASK_LE); }

/* The store without its mask: all BLOCK_SIZE lanes are written (the padding lanes hold
 * 0 = exp(-inf) / s) over whatever follows the row.  Cells beyond the buffer are
 * skipped (a real kernel faults there). */
static int store_unmasked(const td_abi_launch *L) { return sm_rows_bug(L, SM_BUG_STORE_ALL); }

/* tl.exp2(row - max) in place of tl.exp (a speed-up without the log2(e) factor):
 * the softmax of x * ln 2, right only where every active score equals the max. */
static int exp2_no_log2e(const td_abi_launch *L) { return sm_rows_bug(L, SM_BUG_EXP2); }

/* row_start_ptr = input_ptr + row_idx * input_row_stride in int32, as the original
 * forms it (tl.program_id(0) and an int argument below 2^31 are int32): below 2^31
 * elements it is the port; beyond, the load wraps to a negative offset (a device
 * fault, tl_fault) or into another row. */
static int offset_int32(const td_abi_launch *L) { return sm_rows_bug(L, SM_BUG_OFFSET_I32); }

TD_KERNEL(td_m_triton_softmax_mask_le) = {"triton_softmax.softmax_kernel_correctness", "mut_load_mask_le",
                                          TD_ABI_HOST, NULL, NULL,
                                          "load mask cols <= n_cols: one column past the row joins max and sum", 4,
                                          2, load_mask_le, NULL};
TD_KERNEL(td_m_triton_softmax_store_all) = {"triton_softmax.softmax_kernel_correctness", "mut_store_unmasked",
                                            TD_ABI_HOST, NULL, NULL,
                                            "store without the cols < n_cols mask: padding lanes written", 4, 2,
                                            store_unmasked, NULL};
TD_KERNEL(td_m_triton_softmax_exp2) = {"triton_softmax.softmax_kernel_correctness", "mut_exp2_no_log2e",
                                       TD_ABI_HOST, NULL, NULL, "tl.exp2(row - max) without the log2(e) factor", 4,
                                       2, exp2_no_log2e, NULL};
TD_KERNEL(td_m_triton_softmax_i32) = {"triton_softmax.softmax_kernel_correctness", "mut_offset_int32", TD_ABI_HOST,
                                      NULL, NULL, "row_idx * input_row_stride computed in int32 (wraps beyond 2^31 "
                                      "elements)",
                                      4, 2, offset_int32, NULL};
