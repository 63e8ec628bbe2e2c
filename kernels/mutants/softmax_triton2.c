/* softmax_triton2 mutants. */
#include "../host/softmax_tl.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK };
enum { R_OUT, R_IN };

/* The denominator accumulated in binary16 (an fp16 tensor's tl.sum without the
 * upcast): ~2^-11 relative error per addition. */
static int fp16_denominator(const td_abi_launch *L) {
    int64_t is = TL_I(L, P_IN_STRIDE), os = TL_I(L, P_OUT_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    float *row;
    TL_ALLOC(L, row, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        sm_load_tile(L, R_IN, (int64_t)pid * is, 1, n, B, -INFINITY, row);
        float m = tl_max(row, B);
        for (int64_t j = 0; j < B; j++) row[j] = expf(row[j] - m);
        float s = sm_sum_f16(row, B);
        for (int64_t j = 0; j < B && j < n; j++) tl_store(L, R_OUT, (int64_t)pid * os + j, row[j] / s, tl_f32());
    }
    free(row);
    return 0;
}

/* Masked lanes loaded with other=0.0 instead of -inf: they take part in the max and
 * add exp(0 - max) each to the denominator. */
static int masked_lanes_zero(const td_abi_launch *L) {
    int64_t is = TL_I(L, P_IN_STRIDE), os = TL_I(L, P_OUT_STRIDE), n = TL_I(L, P_NCOLS), B = TL_I(L, P_BLOCK);
    float *row;
    TL_ALLOC(L, row, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        sm_load_tile(L, R_IN, (int64_t)pid * is, 1, n, B, 0.0f, row);
        sm_tile_softmax(row, B);
        for (int64_t j = 0; j < B && j < n; j++) tl_store(L, R_OUT, (int64_t)pid * os + j, row[j], tl_f32());
    }
    free(row);
    return 0;
}

TD_KERNEL(td_m_softmax_triton2_f16) = {"softmax_triton2.softmax_kernel_correctness", "mut_fp16_denominator",
                                       TD_ABI_HOST, NULL, NULL, "the row sum accumulated in binary16", 4, 2,
                                       fp16_denominator, NULL};
TD_KERNEL(td_m_softmax_triton2_other0) = {"softmax_triton2.softmax_kernel_correctness", "mut_masked_lanes_zero",
                                          TD_ABI_HOST, NULL, NULL,
                                          "masked lanes loaded as 0.0 instead of -inf (they join the max and the sum)",
                                          4, 2, masked_lanes_zero, NULL};
