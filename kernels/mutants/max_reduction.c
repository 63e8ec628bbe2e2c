/* max_reduction mutants. */
#include "../host/reduce_tl.h"

enum { P1_M, P1_BLOCK };
enum { R1_INP, R1_MID };
enum { P_M, P_N, P_K, P_BM, P_BN };
enum { R_INP, R_VAL, R_IDX };

/* max_kernel_1 loading masked lanes with other=0.0 (1) or launched on M // BLOCK programs (2) */
static int max1_bug(const td_abi_launch *L, int bug) {
    int64_t M = TL_I(L, P1_M), B = TL_I(L, P1_BLOCK);
    uint32_t programs = bug == 2 ? (uint32_t)(M / B) : L->grid[0];
    float *x;
    TL_ALLOC(L, x, B);
    for (uint32_t pid = 0; pid < programs && pid < L->grid[0]; pid++) {
        for (int64_t i = 0; i < B; i++) {
            int64_t off = (int64_t)pid * B + i;
            x[i] = off < M ? tl_load(L, R1_INP, off) : (bug == 1 ? 0.0f : -INFINITY);
        }
        tl_store(L, R1_MID, pid, tl_max(x, B), tl_f32());
    }
    free(x);
    return 0;
}
static int max1_other_zero(const td_abi_launch *L) { return max1_bug(L, 1); }
static int max1_grid_floor(const td_abi_launch *L) { return max1_bug(L, 2); }

/* max_kernel with ties broken to the right (1), the tensor read as [M, K, N] (2), or the
 * row offset m_offset * N * K formed in int32 as the original's tl.int32 M, N, K have it
 * (3: a far case's wrapped offset faults the launch, contracts/gen_far.h) */
static int maxk_bug(const td_abi_launch *L, int bug) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    float *x;
    TL_ALLOC(L, x, BN);
    for (uint32_t pm = 0; pm < L->grid[0]; pm++)
        for (uint32_t pk = 0; pk < L->grid[1]; pk++)
            for (int64_t i = 0; i < BM; i++) {
                int64_t m = (int64_t)pm * BM + i, row = m * N * K;
                if (bug == 3) {
                    row = tl_i32(tl_i32(m * tl_i32(N)) * tl_i32(K));
                    if (m < M && tl_fault(L, R_INP, row + pk, N < BN ? N : BN, K, pm)) {
                        free(x);
                        return 1;
                    }
                }
                for (int64_t n = 0; n < BN; n++) {
                    int64_t off = bug == 2 ? m * N * K + (int64_t)pk * N + n : row + n * K + pk;
                    x[n] = (m < M && n < N) ? tl_load(L, R_INP, off) : -INFINITY;
                }
                int64_t idx = 0;
                float v = -INFINITY;
                if (bug == 1) { /* keeps the last maximum */
                    for (int64_t n = 0; n < BN; n++)
                        if (x[n] >= v) v = x[n], idx = n;
                } else {
                    v = rtl_argmax(x, BN, &idx);
                }
                if (m < M) {
                    tl_store(L, R_VAL, m * K + pk, v, tl_f32());
                    ((int64_t *)TL_BASE(L, R_IDX))[m * K + pk] = idx;
                }
            }
    free(x);
    return 0;
}
static int maxk_last(const td_abi_launch *L) { return maxk_bug(L, 1); }
static int maxk_layout(const td_abi_launch *L) { return maxk_bug(L, 2); }
static int maxk_offset_int32(const td_abi_launch *L) { return maxk_bug(L, 3); }

TD_KERNEL(td_m_max1_other_zero) = {"max_reduction.max_kernel_1_io_correctness", "mut_other_zero", TD_ABI_HOST, NULL,
                                   NULL, "masked lanes loaded as 0.0 instead of -inf", 2, 2, max1_other_zero, NULL};
TD_KERNEL(td_m_max1_grid_floor) = {"max_reduction.max_kernel_1_io_correctness", "mut_last_program_skipped",
                                   TD_ABI_HOST, NULL, NULL, "M // BLOCK_SIZE programs: the tail block is never reduced",
                                   2, 2, max1_grid_floor, NULL};
TD_KERNEL(td_m_maxk_last) = {"max_reduction.max_kernel_output_summary", "mut_argmax_last", TD_ABI_HOST, NULL, NULL,
                             "ties broken to the right: the last maximum's index", 5, 3, maxk_last, NULL};
TD_KERNEL(td_m_maxk_layout) = {"max_reduction.max_kernel_output_summary", "mut_layout_mkn", TD_ABI_HOST, NULL, NULL,
                               "offset m*N*K + k*N + n: the input read as [M, K, N]", 5, 3, maxk_layout, NULL};
TD_KERNEL(td_m_maxk_i32) = {"max_reduction.max_kernel_output_summary", "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                            "m_offset * N * K computed in int32 (wraps beyond 2^31 elements)", 5, 3, maxk_offset_int32,
                            NULL};
