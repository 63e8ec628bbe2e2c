/* triton_argmax mutants. */
#include "../host/reduce_tl.h"

enum { P1_M, P1_BLOCK };
enum { R1_INP, R1_VAL, R1_IDX };
enum { P2_SIZE, P2_BLOCK };
enum { R2_VAL, R2_IDX, R2_OUT };
enum { PD_M, PD_N, PD_K, PD_BM, PD_BN };
enum { RD_INP, RD_OUT };

/* the last maximum of a tile (ties broken to the right) */
static float argmax_last(const float *x, int64_t n, int64_t *idx) {
    float v = -INFINITY;
    *idx = 0;
    for (int64_t i = 0; i < n; i++)
        if (x[i] >= v) v = x[i], *idx = i;
    return v;
}

enum { A1_OTHER_ZERO, A1_LOCAL_INDEX, A1_LAST };
static int a1_bug(const td_abi_launch *L, int bug) {
    int64_t M = TL_I(L, P1_M), B = TL_I(L, P1_BLOCK);
    float *x;
    TL_ALLOC(L, x, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        for (int64_t i = 0; i < B; i++) {
            int64_t off = (int64_t)pid * B + i;
            x[i] = off < M ? tl_load(L, R1_INP, off) : (bug == A1_OTHER_ZERO ? 0.0f : -INFINITY);
        }
        int64_t idx;
        float v = bug == A1_LAST ? argmax_last(x, B, &idx) : rtl_argmax(x, B, &idx);
        if (bug != A1_LOCAL_INDEX) idx += (int64_t)pid * B;
        tl_store(L, R1_VAL, pid, v, tl_f32());
        ((int64_t *)TL_BASE(L, R1_IDX))[pid] = idx;
    }
    free(x);
    return 0;
}
static int a1_other_zero(const td_abi_launch *L) { return a1_bug(L, A1_OTHER_ZERO); }
static int a1_local_index(const td_abi_launch *L) { return a1_bug(L, A1_LOCAL_INDEX); }
static int a1_last(const td_abi_launch *L) { return a1_bug(L, A1_LAST); }

/* argmax_kernel_2 storing the position in mid (index_val) instead of mid_index[index_val] */
static int a2_position(const td_abi_launch *L) {
    int64_t size = TL_I(L, P2_SIZE), B = TL_I(L, P2_BLOCK);
    float *x;
    TL_ALLOC(L, x, B);
    for (int64_t i = 0; i < B; i++) x[i] = i < size ? tl_load(L, R2_VAL, i) : -INFINITY;
    int64_t index_val;
    rtl_argmax(x, B, &index_val);
    ((int64_t *)TL_BASE(L, R2_OUT))[0] = index_val;
    free(x);
    return 0;
}

/* the dim kernel with the last maximum (1) or the row offset m*N without K (2) */
static int ad_bug(const td_abi_launch *L, int bug) {
    int64_t M = TL_I(L, PD_M), N = TL_I(L, PD_N), K = TL_I(L, PD_K), BM = TL_I(L, PD_BM), BN = TL_I(L, PD_BN);
    float *x;
    TL_ALLOC(L, x, BN);
    for (uint32_t pm = 0; pm < L->grid[0]; pm++)
        for (uint32_t pk = 0; pk < L->grid[1]; pk++)
            for (int64_t i = 0; i < BM; i++) {
                int64_t m = (int64_t)pm * BM + i;
                float best = -INFINITY;
                int64_t arg = 0;
                for (int64_t start = 0; start < N; start += BN) {
                    for (int64_t n = 0; n < BN; n++) {
                        int64_t off = bug == 2 ? m * N + (start + n) * K + pk : m * N * K + (start + n) * K + pk;
                        x[n] = (m < M && start + n < N) ? tl_load(L, RD_INP, off) : -INFINITY;
                    }
                    int64_t la;
                    float lm = bug == 1 ? argmax_last(x, BN, &la) : rtl_argmax(x, BN, &la);
                    if (lm > best) best = lm, arg = start + la;
                }
                if (m < M) ((int64_t *)TL_BASE(L, RD_OUT))[m * K + pk] = arg;
            }
    free(x);
    return 0;
}
static int ad_last(const td_abi_launch *L) { return ad_bug(L, 1); }
static int ad_row_offset(const td_abi_launch *L) { return ad_bug(L, 2); }

TD_KERNEL(td_m_argmax1_value_other) = {"triton_argmax.argmax_kernel_1_value_compute_correct", "mut_other_zero",
                                       TD_ABI_HOST, NULL, NULL, "masked lanes loaded as 0.0 instead of -inf", 2, 3,
                                       a1_other_zero, NULL};
TD_KERNEL(td_m_argmax1_index_local) = {"triton_argmax.argmax_kernel_1_index_compute_correct", "mut_local_index",
                                       TD_ABI_HOST, NULL, NULL, "max_index not shifted by pid * BLOCK_SIZE", 2, 3,
                                       a1_local_index, NULL};
TD_KERNEL(td_m_argmax1_io_last) = {"triton_argmax.argmax_kernel_1_io_correctness", "mut_argmax_last", TD_ABI_HOST,
                                   NULL, NULL, "ties broken to the right: the last maximum", 2, 3, a1_last, NULL};
TD_KERNEL(td_m_argmax2_position) = {"triton_argmax.argmax_kernel_2_compute_correct", "mut_position_not_gathered",
                                    TD_ABI_HOST, NULL, NULL, "stores index_val instead of mid_index[index_val]", 2, 3,
                                    a2_position, NULL};
TD_KERNEL(td_m_argmax_dim_last) = {"triton_argmax.argmax_kernel_dim_single_block_compute_correct", "mut_argmax_last",
                                   TD_ABI_HOST, NULL, NULL, "tie_break_left dropped: the last maximum", 5, 2, ad_last, NULL};
TD_KERNEL(td_m_argmax_dim_offset) = {"triton_argmax.argmax_kernel_dim_single_block_compute_correct",
                                     "mut_row_offset_without_k", TD_ABI_HOST, NULL, NULL,
                                     "row offset m*N instead of m*N*K", 5, 2, ad_row_offset, NULL};
