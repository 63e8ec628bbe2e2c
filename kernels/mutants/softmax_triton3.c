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
