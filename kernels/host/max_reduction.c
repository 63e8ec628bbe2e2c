/* max_reduction: max_kernel_1 (first stage of the two-stage max; grid (programs,)) and
 * max_kernel (value and index along dim N of an [M, N, K] tensor; grid (cdiv(M, BLOCK_M), K)),
 * program by program, tl.max as a tree (reduce_tl.h). */
#include "reduce_tl.h"

enum { P1_M, P1_BLOCK };
enum { R1_INP, R1_MID };
enum { P_M, P_N, P_K, P_BM, P_BN };
enum { R_INP, R_VAL, R_IDX };

static int max_kernel_1(const td_abi_launch *L) {
    int64_t M = TL_I(L, P1_M), B = TL_I(L, P1_BLOCK);
    float *x;
    TL_ALLOC(L, x, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        for (int64_t i = 0; i < B; i++) {
            int64_t off = (int64_t)pid * B + i;
            x[i] = off < M ? tl_load(L, R1_INP, off) : -INFINITY; /* other=-float("inf") */
        }
        tl_store(L, R1_MID, pid, tl_max(x, B), tl_f32());
    }
    free(x);
    return 0;
}

static int max_kernel(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    float *x;
    TL_ALLOC(L, x, BN);
    for (uint32_t pm = 0; pm < L->grid[0]; pm++)
        for (uint32_t pk = 0; pk < L->grid[1]; pk++)
            for (int64_t i = 0; i < BM; i++) { /* row i of the [BLOCK_M, BLOCK_N] tile */
                int64_t m = (int64_t)pm * BM + i;
                for (int64_t n = 0; n < BN; n++)
                    x[n] = (m < M && n < N) ? tl_load(L, R_INP, m * N * K + n * K + pk) : -INFINITY;
                int64_t idx;
                float v = rtl_argmax(x, BN, &idx); /* tl.max(inp_vals, axis=1, return_indices=True) */
                if (m < M) {                        /* mask1 */
                    tl_store(L, R_VAL, m * K + pk, v, tl_f32());
                    ((int64_t *)TL_BASE(L, R_IDX))[m * K + pk] = idx;
                }
            }
    free(x);
    return 0;
}

TD_KERNEL(td_k_max_kernel_1) = {"max_reduction.max_kernel_1_io_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                                2, 2, max_kernel_1, NULL};
TD_KERNEL(td_k_max_kernel) = {"max_reduction.max_kernel_output_summary", "triton", TD_ABI_HOST, NULL, NULL, NULL, 5, 3,
                              max_kernel, NULL};
