/* triton_argmax: argmax_kernel_1 (block max and its global index; grid (programs,)),
 * argmax_kernel_2 (one program: mid_index at the argmax of mid_value) and the dim kernel
 * argmax_kernel (grid (cdiv(M, BLOCK_M), K), the loop over BLOCK_N chunks), INT64_INDEX
 * false, program by program; tl.max(return_indices) / tl.argmax as the tree of reduce_tl.h. */
#include "reduce_tl.h"

enum { P1_M, P1_BLOCK };
enum { R1_INP, R1_VAL, R1_IDX };
enum { P2_SIZE, P2_BLOCK };
enum { R2_VAL, R2_IDX, R2_OUT };
enum { PD_M, PD_N, PD_K, PD_BM, PD_BN };
enum { RD_INP, RD_OUT };

static int argmax_kernel_1(const td_abi_launch *L) {
    int64_t M = TL_I(L, P1_M), B = TL_I(L, P1_BLOCK);
    float *x;
    TL_ALLOC(L, x, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        for (int64_t i = 0; i < B; i++) {
            int64_t off = (int64_t)pid * B + i;
            x[i] = off < M ? tl_load(L, R1_INP, off) : -INFINITY;
        }
        int64_t idx;
        float v = rtl_argmax(x, B, &idx);
        int32_t max_index = (int32_t)idx + (int32_t)pid * (int32_t)B; /* int32 arithmetic (INT64_INDEX false) */
        tl_store(L, R1_VAL, pid, v, tl_f32());
        ((int64_t *)TL_BASE(L, R1_IDX))[pid] = max_index;
    }
    free(x);
    return 0;
}

static int argmax_kernel_2(const td_abi_launch *L) {
    int64_t size = TL_I(L, P2_SIZE), B = TL_I(L, P2_BLOCK);
    float *x;
    TL_ALLOC(L, x, B);
    for (int64_t i = 0; i < B; i++) x[i] = i < size ? tl_load(L, R2_VAL, i) : -INFINITY;
    int64_t index_val;
    rtl_argmax(x, B, &index_val);                                 /* tl.argmax(mid_val, axis=0) */
    int64_t out_val = tl_load_int(L, R2_IDX, index_val);         /* tl.load(mid_index + index_val) */
    ((int64_t *)TL_BASE(L, R2_OUT))[0] = out_val;
    free(x);
    return 0;
}

static int argmax_kernel(const td_abi_launch *L) {
    int64_t M = TL_I(L, PD_M), N = TL_I(L, PD_N), K = TL_I(L, PD_K), BM = TL_I(L, PD_BM), BN = TL_I(L, PD_BN);
    float *x, *max_values;
    int64_t *argmax_values;
    TL_ALLOC(L, x, BN);
    TL_ALLOC(L, max_values, BM);
    TL_ALLOC(L, argmax_values, BM);
    for (uint32_t pm = 0; pm < L->grid[0]; pm++)
        for (uint32_t pk = 0; pk < L->grid[1]; pk++) {
            for (int64_t i = 0; i < BM; i++) max_values[i] = -INFINITY, argmax_values[i] = 0;
            for (int64_t start = 0; start < N; start += BN)
                for (int64_t i = 0; i < BM; i++) {
                    int64_t m = (int64_t)pm * BM + i;
                    for (int64_t n = 0; n < BN; n++)
                        x[n] = (m < M && start + n < N) ? tl_load(L, RD_INP, m * N * K + (start + n) * K + pk)
                                                        : -INFINITY;
                    int64_t local_argmax;
                    float local_max = rtl_argmax(x, BN, &local_argmax);
                    if (local_max > max_values[i]) { /* update = local_max > max_values */
                        max_values[i] = local_max;
                        argmax_values[i] = start + local_argmax;
                    }
                }
            for (int64_t i = 0; i < BM; i++) {
                int64_t m = (int64_t)pm * BM + i;
                if (m < M) ((int64_t *)TL_BASE(L, RD_OUT))[m * K + pk] = argmax_values[i];
            }
        }
    free(x);
    free(max_values);
    free(argmax_values);
    return 0;
}

TD_KERNEL(td_k_argmax1_value) = {"triton_argmax.argmax_kernel_1_value_compute_correct", "triton", TD_ABI_HOST, NULL,
                                 NULL, NULL, 2, 3, argmax_kernel_1, NULL};
TD_KERNEL(td_k_argmax1_index) = {"triton_argmax.argmax_kernel_1_index_compute_correct", "triton", TD_ABI_HOST, NULL,
                                 NULL, NULL, 2, 3, argmax_kernel_1, NULL};
TD_KERNEL(td_k_argmax1_io) = {"triton_argmax.argmax_kernel_1_io_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL, 2,
                              3, argmax_kernel_1, NULL};
TD_KERNEL(td_k_argmax2) = {"triton_argmax.argmax_kernel_2_compute_correct", "triton", TD_ABI_HOST, NULL, NULL, NULL, 2,
                           3, argmax_kernel_2, NULL};
TD_KERNEL(td_k_argmax_dim) = {"triton_argmax.argmax_kernel_dim_single_block_compute_correct", "triton", TD_ABI_HOST,
                              NULL, NULL, NULL, 5, 2, argmax_kernel, NULL};
