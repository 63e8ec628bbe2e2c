/* triton_argmax, alternatives: sequential first-maximum scans.
 *
 *   argmax_kernel_1 (alt_seq): per program, the block's max value and the global index
 *     of its first occurrence (int32 arithmetic as INT64_INDEX=False), by one scan that
 *     moves on a strictly greater value; the port uses a tie-break-left pairwise tree.
 *   argmax_kernel_2 (alt_seq): out = mid_index[first argmax of mid_value[:size]], by
 *     the same scan (size <= BLOCK_SIZE as the kernel's one tile).
 *   argmax_kernel dim (alt_seq): out[m, k] = first n < N maximising inp[m, n, k], one
 *     scan over all n where the kernel keeps a running max across BLOCK_N chunks.
 * Admissible: comparisons are exact; a scan with a strict update and a tie-break-left
 * tree both return the first maximum, which the contracts specify.
 */
#include "alt_common.h"

enum { P1_M, P1_BLOCK };
enum { R1_INP, R1_VAL, R1_IDX };
enum { P2_SIZE, P2_BLOCK };
enum { R2_VAL, R2_IDX, R2_OUT };
enum { PD_M, PD_N, PD_K, PD_BM, PD_BN };
enum { RD_INP, RD_OUT };

/* first maximum of region reg at base + i*step, i < n (n >= 1: index 0 for all -inf) */
static int64_t first_max(const td_abi_launch *L, int reg, int64_t base, int64_t step, int64_t n, float *val) {
    float best = -INFINITY;
    int64_t at = 0;
    for (int64_t i = 0; i < n; i++) {
        float v = tl_load(L, reg, base + i * step);
        if (v > best) best = v, at = i;
    }
    *val = best;
    return at;
}

static int argmax1_seq(const td_abi_launch *L) {
    int64_t M = TL_I(L, P1_M), B = TL_I(L, P1_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t start = (int64_t)pid * B, n = M - start < B ? M - start : B;
        float v = -INFINITY;
        int64_t at = n > 0 ? first_max(L, R1_INP, start, 1, n, &v) : 0;
        tl_store(L, R1_VAL, pid, v, tl_f32());
        ((int64_t *)TL_BASE(L, R1_IDX))[pid] = (int32_t)at + (int32_t)start;
    }
    return 0;
}

static int argmax2_seq(const td_abi_launch *L) {
    int64_t size = TL_I(L, P2_SIZE) < TL_I(L, P2_BLOCK) ? TL_I(L, P2_SIZE) : TL_I(L, P2_BLOCK);
    float v;
    int64_t at = size > 0 ? first_max(L, R2_VAL, 0, 1, size, &v) : 0;
    ((int64_t *)TL_BASE(L, R2_OUT))[0] = tl_load_int(L, R2_IDX, at);
    return 0;
}

static int argmax_dim_seq(const td_abi_launch *L) {
    int64_t M = TL_I(L, PD_M), N = TL_I(L, PD_N), K = TL_I(L, PD_K);
    for (int64_t m = 0; m < M; m++)
        for (uint32_t k = 0; k < L->grid[1]; k++) {
            float v;
            ((int64_t *)TL_BASE(L, RD_OUT))[m * K + k] = first_max(L, RD_INP, m * N * K + k, K, N, &v);
        }
    return 0;
}

TD_KERNEL(td_a_argmax1_value) = {"triton_argmax.argmax_kernel_1_value_compute_correct", "alt_seq", TD_ABI_HOST, NULL,
                                 NULL, NULL, 2, 3, argmax1_seq, NULL};
TD_KERNEL(td_a_argmax1_index) = {"triton_argmax.argmax_kernel_1_index_compute_correct", "alt_seq", TD_ABI_HOST, NULL,
                                 NULL, NULL, 2, 3, argmax1_seq, NULL};
TD_KERNEL(td_a_argmax1_io) = {"triton_argmax.argmax_kernel_1_io_correctness", "alt_seq", TD_ABI_HOST, NULL, NULL, NULL,
                              2, 3, argmax1_seq, NULL};
TD_KERNEL(td_a_argmax2) = {"triton_argmax.argmax_kernel_2_compute_correct", "alt_seq", TD_ABI_HOST, NULL, NULL, NULL, 2,
                           3, argmax2_seq, NULL};
TD_KERNEL(td_a_argmax_dim) = {"triton_argmax.argmax_kernel_dim_single_block_compute_correct", "alt_seq", TD_ABI_HOST,
                              NULL, NULL, NULL, 5, 2, argmax_dim_seq, NULL};
