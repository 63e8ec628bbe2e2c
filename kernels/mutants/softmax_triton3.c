/* softmax_triton3 mutants. */
#include "../host/softmax_tl.h"

enum { P_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN, R_MASK };

/* mask_mode: 0 no mask, 1 the mask row at pid * row_stride, 2 the mask row of program 0
 * for every program (the row offset forgotten); numer_only: the mask added to the
 * numerators after the denominator was summed. */
static int variant(const td_abi_launch *L, int mask_mode, int numer_only) {
    int64_t rs = TL_I(L, P_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    float *row, *mask;
    TL_ALLOC(L, row, B);
    mask = calloc((size_t)B, sizeof *mask);
    if (!mask) {
        free(row);
        snprintf(L->err, L->errlen, "out of memory");
        return 1;
    }
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        sm_load_tile(L, R_IN, (int64_t)pid * rs, 1, n, B, -INFINITY, row);
        float m = tl_max(row, B);
        for (int64_t j = 0; j < B; j++) row[j] = row[j] - m;
        if (mask_mode) sm_load_tile(L, R_MASK, mask_mode == 1 ? (int64_t)pid * rs : 0, 1, n, B, 0.0f, mask);
        if (mask_mode && !numer_only)
            for (int64_t j = 0; j < B; j++) row[j] = row[j] + mask[j];
        float s = 0;
        if (numer_only) {
            float *e = calloc((size_t)B, sizeof *e);
            if (!e) break;
            for (int64_t j = 0; j < B; j++) e[j] = expf(row[j]);
            s = tl_sum(e, B);
            free(e);
            for (int64_t j = 0; j < B; j++) row[j] = row[j] + mask[j];
            for (int64_t j = 0; j < B; j++) row[j] = expf(row[j]);
        } else {
            for (int64_t j = 0; j < B; j++) row[j] = expf(row[j]);
            s = tl_sum(row, B);
        }
        for (int64_t j = 0; j < B && j < n; j++) tl_store(L, R_OUT, (int64_t)pid * rs + j, row[j] / s, tl_f32());
    }
    free(row);
    free(mask);
    return 0;
}

static int mask_applied_unconditionally(const td_abi_launch *L) { return variant(L, 1, 0); }
static int mask_row_offset_forgotten(const td_abi_launch *L) { return variant(L, 2, 0); }
static int mask_in_numerator_only(const td_abi_launch *L) { return variant(L, 1, 1); }

TD_KERNEL(td_m_softmax_triton3_always) = {"softmax_triton3.softmax_kernel_correctness", "mut_mask_always_applied",
                                          TD_ABI_HOST, NULL, NULL,
                                          "the mask row is added although USE_MASK is false", 3, 3,
                                          mask_applied_unconditionally, NULL};
TD_KERNEL(td_m_softmax_triton3_row0) = {"softmax_triton3.softmax_kernel_masked_correctness",
                                        "mut_mask_row_offset_forgotten", TD_ABI_HOST, NULL, NULL,
                                        "every program reads mask row 0 (mask_ptr + cols, no row_idx * row_stride)",
                                        3, 3, mask_row_offset_forgotten, NULL};
TD_KERNEL(td_m_softmax_triton3_numer) = {"softmax_triton3.softmax_kernel_masked_correctness",
                                         "mut_mask_numerator_only", TD_ABI_HOST, NULL, NULL,
                                         "the mask is added to the numerators only, after the denominator was summed",
                                         3, 3, mask_in_numerator_only, NULL};

/* The row offset row_idx * row_stride formed in int32 (tl_i32), as Triton forms it for an
 * int32 row_stride: one offset for the input, mask and output rows.  Below 2^31
 * elements it is the port; beyond, the offset wraps to a negative one (a device fault)
 * or into another row. */
static int offset_int32(const td_abi_launch *L, int use_mask) {
    int64_t rs = TL_I(L, P_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK), w = n < B ? n : B;
    float *row, *mask;
    TL_ALLOC(L, row, B);
    mask = calloc((size_t)B, sizeof *mask);
    if (!mask) {
        free(row);
        snprintf(L->err, L->errlen, "out of memory");
        return 1;
    }
    int rc = 0;
    for (uint32_t pid = 0; pid < L->grid[0] && !rc; pid++) {
        int64_t base = tl_i32((int64_t)pid * tl_i32(rs));
        rc = tl_fault(L, R_IN, base, w, 1, pid) || (use_mask && tl_fault(L, R_MASK, base, w, 1, pid)) ||
             tl_fault(L, R_OUT, base, w, 1, pid);
        if (rc) break;
        sm_load_tile(L, R_IN, base, 1, n, B, -INFINITY, row);
        float m = tl_max(row, B);
        for (int64_t j = 0; j < B; j++) row[j] = row[j] - m;
        if (use_mask) {
            sm_load_tile(L, R_MASK, base, 1, n, B, 0.0f, mask);
            for (int64_t j = 0; j < B; j++) row[j] = row[j] + mask[j];
        }
        for (int64_t j = 0; j < B; j++) row[j] = expf(row[j]);
        float s = tl_sum(row, B);
        for (int64_t j = 0; j < B && j < n; j++) tl_store(L, R_OUT, base + j, row[j] / s, tl_f32());
    }
    free(row);
    free(mask);
    return rc;
}
static int offset_int32_nomask(const td_abi_launch *L) { return offset_int32(L, 0); }
static int offset_int32_masked(const td_abi_launch *L) { return offset_int32(L, 1); }

TD_KERNEL(td_m_softmax_triton3_i32) = {"softmax_triton3.softmax_kernel_correctness", "mut_offset_int32", TD_ABI_HOST,
                                       NULL, NULL, "row_idx * row_stride computed in int32 (wraps beyond 2^31)", 3, 3,
                                       offset_int32_nomask, NULL};
TD_KERNEL(td_m_softmax_triton3_masked_i32) = {"softmax_triton3.softmax_kernel_masked_correctness", "mut_offset_int32",
                                              TD_ABI_HOST, NULL, NULL,
                                              "row_idx * row_stride computed in int32 (wraps beyond 2^31)", 3, 3,
                                              offset_int32_masked, NULL};
