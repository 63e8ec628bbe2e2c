/* triton_softmax mutants: bugs of hand-written row-softmax kernels. */
#include "../host/softmax_tl.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN };

/* The load mask off by one (cols <= n_cols): when the row is narrower than the tile,
 * the cell after the row (the next row's first column, or the buffer's slack) joins
 * the max and the sum.  Cells beyond the buffer read as -inf (a real kernel faults). */
static int load_mask_le(const td_abi_launch *L) {
    int64_t is = TL_I(L, P_IN_STRIDE), os = TL_I(L, P_OUT_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    float *row;
    TL_ALLOC(L, row, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = (int64_t)pid * is;
        for (int64_t j = 0; j < B; j++)
            row[j] = j <= n && base + j < (int64_t)TL_LEN(L, R_IN) ? tl_load(L, R_IN, base + j) : -INFINITY;
        sm_tile_softmax(row, B);
        for (int64_t j = 0; j < B && j < n; j++) tl_store(L, R_OUT, (int64_t)pid * os + j, row[j], tl_f32());
    }
    free(row);
    return 0;
}

/* The store without its mask: all BLOCK_SIZE lanes are written (the padding lanes hold
 * 0 = exp(-inf) / s) over whatever follows the row.  Cells beyond the buffer are
 * skipped (a real kernel faults there). */
static int store_unmasked(const td_abi_launch *L) {
    int64_t is = TL_I(L, P_IN_STRIDE), os = TL_I(L, P_OUT_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    float *row;
    TL_ALLOC(L, row, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        sm_load_tile(L, R_IN, (int64_t)pid * is, 1, n, B, -INFINITY, row);
        sm_tile_softmax(row, B);
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * os + j;
            if (off < (int64_t)TL_LEN(L, R_OUT)) tl_store(L, R_OUT, off, row[j], tl_f32());
        }
    }
    free(row);
    return 0;
}

/* tl.exp2(row - max) in place of tl.exp (a speed-up without the log2(e) factor):
 * the softmax of x * ln 2, right only where every active score equals the max. */
static int exp2_no_log2e(const td_abi_launch *L) {
    int64_t is = TL_I(L, P_IN_STRIDE), os = TL_I(L, P_OUT_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    float *row;
    TL_ALLOC(L, row, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        sm_load_tile(L, R_IN, (int64_t)pid * is, 1, n, B, -INFINITY, row);
        float m = tl_max(row, B);
        for (int64_t j = 0; j < B; j++) row[j] = exp2f(row[j] - m);
        float s = tl_sum(row, B);
        for (int64_t j = 0; j < B && j < n; j++) tl_store(L, R_OUT, (int64_t)pid * os + j, row[j] / s, tl_f32());
    }
    free(row);
    return 0;
}

/* row_start_ptr = input_ptr + row_idx * input_row_stride in int32, as the original
 * forms it (tl.program_id(0) and an int argument below 2^31 are int32): below 2^31
 * elements it is the port; beyond, the load wraps to a negative offset (a device
 * fault, tl_fault) or into another row. */
static int offset_int32(const td_abi_launch *L) {
    int64_t is = TL_I(L, P_IN_STRIDE), os = TL_I(L, P_OUT_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    float *row;
    TL_ALLOC(L, row, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = tl_i32((int64_t)pid * tl_i32(is));
        if (tl_fault(L, R_IN, base, n < B ? n : B, 1, pid)) {
            free(row);
            return 1;
        }
        sm_load_tile(L, R_IN, base, 1, n, B, -INFINITY, row);
        sm_tile_softmax(row, B);
        for (int64_t j = 0; j < B && j < n; j++) tl_store(L, R_OUT, (int64_t)pid * os + j, row[j], tl_f32());
    }
    free(row);
    return 0;
}

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
