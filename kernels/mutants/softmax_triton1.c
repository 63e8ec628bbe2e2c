/* softmax_triton1 mutants. */
#include "../host/softmax_tl.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN };

/* The naive softmax: exp(x) / sum exp(x) without subtracting the row max, exact in
 * the reals but inf / inf = NaN once a score exceeds 88.7 (and 0 / 0 once every score
 * is below -103). */
static int no_max_subtraction(const td_abi_launch *L) {
    int64_t is = TL_I(L, P_IN_STRIDE), os = TL_I(L, P_OUT_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    float *row;
    TL_ALLOC(L, row, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        sm_load_tile(L, R_IN, (int64_t)pid * is, 1, n, B, -INFINITY, row);
        for (int64_t j = 0; j < B; j++) row[j] = expf(row[j]);
        float s = tl_sum(row, B);
        for (int64_t j = 0; j < B && j < n; j++) tl_store(L, R_OUT, (int64_t)pid * os + j, row[j] / s, tl_f32());
    }
    free(row);
    return 0;
}

/* The output row addressed with the input's row stride (a copy-paste slip). */
static int output_uses_input_stride(const td_abi_launch *L) {
    int64_t is = TL_I(L, P_IN_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    float *row;
    TL_ALLOC(L, row, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        sm_load_tile(L, R_IN, (int64_t)pid * is, 1, n, B, -INFINITY, row);
        sm_tile_softmax(row, B);
        for (int64_t j = 0; j < B && j < n; j++) {
            int64_t off = (int64_t)pid * is + j;
            if (off < (int64_t)TL_LEN(L, R_OUT)) tl_store(L, R_OUT, off, row[j], tl_f32());
        }
    }
    free(row);
    return 0;
}

/* The row offset pid * input_row_stride formed in int32 (tl_i32): below 2^31
 * elements it is the port; beyond, the load wraps to a negative offset (a device
 * fault) or into another row. */
static int offset_int32(const td_abi_launch *L) {
    int64_t is = TL_I(L, P_IN_STRIDE), os = TL_I(L, P_OUT_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    int64_t w = n < B ? n : B;
    float *row;
    TL_ALLOC(L, row, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = tl_i32((int64_t)pid * tl_i32(is));
        if (tl_fault(L, R_IN, base, w, 1, pid)) {
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

TD_KERNEL(td_m_softmax_triton1_nomax) = {"softmax_triton1.softmax_kernel_correctness", "mut_no_max_subtraction",
                                         TD_ABI_HOST, NULL, NULL,
                                         "exp(x) / sum exp(x) without subtracting the row max", 4, 2,
                                         no_max_subtraction, NULL};
TD_KERNEL(td_m_softmax_triton1_stride) = {"softmax_triton1.softmax_kernel_correctness", "mut_output_input_stride",
                                          TD_ABI_HOST, NULL, NULL,
                                          "the output row addressed with input_row_stride", 4, 2,
                                          output_uses_input_stride, NULL};
TD_KERNEL(td_m_softmax_triton1_int32) = {"softmax_triton1.softmax_kernel_correctness", "mut_offset_int32",
                                         TD_ABI_HOST, NULL, NULL,
                                         "pid * input_row_stride computed in int32 (wraps beyond 2^31)", 4, 2,
                                         offset_int32, NULL};
