/* ksoftmax_triton mutants. */
#include "../host/softmax_tl.h"

enum { P_SYM, P_SYN, P_SXM, P_SXN, P_K, P_DEPTH };
enum { R_Y, R_X };

/* skip_n: x_ptrs = X + m*stride_xm + k (the n*stride_xn term forgotten); half: z
 * rounded to binary16 before exp (the IS_FP16 upcast inverted); i32: the row offset
 * m*stride_xm + n*stride_xn formed in int32 (tl_i32): beyond 2^31 elements it wraps (an
 * illegal address on a GPU: tl_fault) or reads another row. */
static int variant(const td_abi_launch *L, int skip_n, int half, int i32) {
    int64_t sym = TL_I(L, P_SYM), syn = TL_I(L, P_SYN), sxm = TL_I(L, P_SXM), sxn = TL_I(L, P_SXN);
    int64_t K = TL_I(L, P_K), D = TL_I(L, P_DEPTH);
    float *x;
    TL_ALLOC(L, x, D);
    for (uint32_t m = 0; m < L->grid[0]; m++)
        for (uint32_t n = 0; n < L->grid[1]; n++) {
            int64_t base = (int64_t)m * sxm + (skip_n ? 0 : (int64_t)n * sxn);
            if (i32) {
                base = tl_i32(tl_i32((int64_t)m * tl_i32(sxm)) + tl_i32((int64_t)n * tl_i32(sxn)));
                if (tl_fault(L, R_X, base, K < D ? K : D, 1, m)) {
                    free(x);
                    return 1;
                }
            }
            sm_load_tile(L, R_X, base, 1, K, D, -INFINITY, x);
            float mx = tl_max(x, D);
            for (int64_t k = 0; k < D; k++) x[k] = expf(half ? sm_f16(x[k] - mx) : x[k] - mx);
            float denom = tl_sum(x, D);
            for (int64_t k = 0; k < D && k < K; k++)
                tl_store(L, R_Y, (int64_t)m * sym + (int64_t)n * syn + k, x[k] / denom, tl_f32());
        }
    free(x);
    return 0;
}
static int skip_stride_xn(const td_abi_launch *L) { return variant(L, 1, 0, 0); }
static int fp16_exponent(const td_abi_launch *L) { return variant(L, 0, 1, 0); }
static int offset_int32(const td_abi_launch *L) { return variant(L, 0, 0, 1); }

TD_KERNEL(td_m_ksoftmax_xn) = {"ksoftmax_triton.ksoftmax_forward_plain_correctness", "mut_x_row_ignores_n",
                               TD_ABI_HOST, NULL, NULL, "x_ptrs = X + m*stride_xm + k: the n*stride_xn term forgotten",
                               6, 2, skip_stride_xn, NULL};
TD_KERNEL(td_m_ksoftmax_f16) = {"ksoftmax_triton.ksoftmax_forward_plain_correctness", "mut_fp16_exponent",
                                TD_ABI_HOST, NULL, NULL, "z = x - max rounded to binary16 before exp", 6, 2,
                                fp16_exponent, NULL};
TD_KERNEL(td_m_ksoftmax_i32) = {"ksoftmax_triton.ksoftmax_forward_plain_correctness", "mut_offset_int32",
                                TD_ABI_HOST, NULL, NULL,
                                "m * stride_xm + n * stride_xn computed in int32 (wraps beyond 2^31 elements)", 6, 2,
                                offset_int32, NULL};
