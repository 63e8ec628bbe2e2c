/* mean_reduction mutants. */
#include "../host/tl.h"

enum { P_M, P_N, P_BM, P_BN };
enum { R_X, R_MEAN };

/* OFF_I32: X + pid * N with pid (program_id * BLOCK_M + arange) and N int32, as Triton
 * types them: past 2^31 elements the row offset wraps negative and the load is an
 * illegal address (tl_fault).  Only the large tier (`--large`, td_rows_large) has
 * M * N > 2^31: ordinary cases hold at most 2^14 elements. */
enum { TAIL_DROPPED, PADDED_COUNT, F16_ACC, OFF_I32 };
static int mean_bug(const td_abi_launch *L, int bug) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    td_profile store = {TL_FMT(L, R_MEAN), TD_RNE, TD_OVF_INF, false};
    td_profile half = {TD_F16, TD_RNE, TD_OVF_INF, false};
    float *acc;
    TL_ALLOC(L, acc, BM * BN);
    /* TAIL_DROPPED: for off in range(0, N // BLOCK_N * BLOCK_N, BLOCK_N) */
    int64_t end = bug == TAIL_DROPPED ? N / BN * BN : N;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        memset(acc, 0, (size_t)(BM * BN) * sizeof *acc);
        int64_t steps = 0;
        for (int64_t off = 0; off < end; off += BN, steps++)
            for (int64_t i = 0; i < BM; i++)
                for (int64_t j = 0; j < BN; j++) {
                    int64_t row = (int64_t)pid * BM + i, col = off + j;
                    int64_t x = bug == OFF_I32 ? tl_i32(row * N) + col : row * N + col;
                    if (bug == OFF_I32 && row < M && col < N && tl_fault(L, R_X, x, 1, 1, pid)) {
                        free(acc);
                        return 1;
                    }
                    float a = (row < M && col < N) ? tl_load(L, R_X, x) : 0.0f;
                    float s = acc[i * BN + j] + a;
                    /* F16_ACC: tl.zeros(..., dtype=tl.float16): every partial sum rounded to binary16 */
                    acc[i * BN + j] = bug == F16_ACC ? (float)td_decode(TD_F16, td_encode_f32(half, s)) : s;
                }
        for (int64_t i = 0; i < BM; i++) {
            int64_t row = (int64_t)pid * BM + i;
            /* PADDED_COUNT: divided by the padded count steps * BLOCK_N */
            float den = bug == PADDED_COUNT ? (float)(steps * BN) : (float)N;
            if (row < M) tl_store(L, R_MEAN, row, tl_sum(acc + i * BN, BN) / den, store);
        }
    }
    free(acc);
    return 0;
}
static int mean_tail_dropped(const td_abi_launch *L) { return mean_bug(L, TAIL_DROPPED); }
static int mean_padded_count(const td_abi_launch *L) { return mean_bug(L, PADDED_COUNT); }
static int mean_f16_acc(const td_abi_launch *L) { return mean_bug(L, F16_ACC); }
static int mean_off_i32(const td_abi_launch *L) { return mean_bug(L, OFF_I32); }

TD_KERNEL(td_m_mean_tail) = {"mean_reduction.mean_dim_kernel_output_summary", "mut_tail_block_dropped", TD_ABI_HOST,
                             NULL, NULL, "the column loop stops at N // BLOCK_N * BLOCK_N: the tail chunk is not summed",
                             4, 2, mean_tail_dropped, NULL};
TD_KERNEL(td_m_mean_padded) = {"mean_reduction.mean_dim_kernel_output_summary", "mut_padded_count", TD_ABI_HOST, NULL,
                               NULL, "divided by steps * BLOCK_N instead of N", 4, 2, mean_padded_count, NULL};
TD_KERNEL(td_m_mean_f16) = {"mean_reduction.mean_dim_kernel_io_correctness", "mut_f16_accumulation", TD_ABI_HOST, NULL,
                            NULL, "the accumulator tile is binary16", 4, 2, mean_f16_acc, NULL};
#define M_I32 "X + pid * N in int32 (pid and N int32): the row offset wraps past 2^31"
TD_KERNEL(td_m_mean_i32) = {"mean_reduction.mean_dim_kernel_output_summary", "mut_large_offset_int32", TD_ABI_HOST,
                            NULL, NULL, M_I32, 4, 2, mean_off_i32, NULL};
TD_KERNEL(td_m_mean_io_i32) = {"mean_reduction.mean_dim_kernel_io_correctness", "mut_large_offset_int32",
                               TD_ABI_HOST, NULL, NULL, M_I32, 4, 2, mean_off_i32, NULL};
