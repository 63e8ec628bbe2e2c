/* sgmv_expand_slice: _sgmv_expand_slice_kernel on the Lean's three grid axes (pid_m, pid_n,
 * cur_batch), the EVEN_K path with ADD_INPUTS = CAST_TYPE = false and the .py's two early
 * returns (pid_m*BLOCK_M > M, lora_index == -1).  Rows and columns of the loads wrap
 * (% M, % N); each K block is tl.dot(tiled_a, tiled_b): per output lane the BLOCK_K
 * products of the fp16 operands (exact in binary32) reduced by a tree, added to the
 * accumulator; the masked binary32 store.  Parameters: N, xm_stride, xk_stride, l0_stride,
 * lora_k_stride, lora_n_stride, cm_stride, cn_stride, slice_offset, BLOCK_M, BLOCK_N,
 * BLOCK_K, numKBlocks.  Regions: input_ptr, lora_ptr, out_ptr, b_seq_start_loc, seq_lens,
 * lora_indices. */
#include "tl.h"

enum { P_N, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_SLICE, P_BM, P_BN, P_BK, P_NKB };
enum { R_IN, R_LORA, R_OUT, R_START, R_LEN, R_IDX };

static void block_dot(const td_abi_launch *L, int64_t a_row, int64_t b_col, int64_t kb, float *prod, float *acc) {
    int64_t bk = TL_I(L, P_BK);
    for (int64_t e = 0; e < bk; e++) { /* unmasked loads: K = BLOCK_K * numKBlocks */
        int64_t k = kb * bk + e;
        prod[e] = tl_load(L, R_IN, a_row + k * TL_I(L, P_XK)) * tl_load(L, R_LORA, b_col + k * TL_I(L, P_LN));
    }
    *acc += tl_sum(prod, bk);
}

static void program(const td_abi_launch *L, int64_t pid_m, int64_t pid_n, int64_t b, float *acc, float *prod) {
    int64_t bm = TL_I(L, P_BM), bn = TL_I(L, P_BN), N = TL_I(L, P_N);
    int64_t M = tl_load_int(L, R_LEN, b);
    if (pid_m * bm > M) return;
    int64_t li = tl_load_int(L, R_IDX, b);
    if (li == -1) return;
    int64_t start = tl_load_int(L, R_START, b);
    for (int64_t i = 0; i < bm * bn; i++) acc[i] = 0.0f;
    for (int64_t kb = 0; kb < TL_I(L, P_NKB); kb++)
        for (int64_t i = 0; i < bm; i++)
            for (int64_t j = 0; j < bn; j++) {
                int64_t ram = (pid_m * bm + i) % M, rbn = (pid_n * bn + j) % N;
                block_dot(L, (start + ram) * TL_I(L, P_XM), TL_I(L, P_L0) * li + rbn * TL_I(L, P_LK), kb, prod,
                          &acc[i * bn + j]);
            }
    for (int64_t i = 0; i < bm; i++)
        for (int64_t j = 0; j < bn; j++) {
            int64_t m = pid_m * bm + i, n = pid_n * bn + j;
            if (m >= M || n >= N) continue; /* c_mask */
            int64_t off = (start + m) * TL_I(L, P_CM) + (n + TL_I(L, P_SLICE)) * TL_I(L, P_CN);
            tl_store(L, R_OUT, off, acc[i * bn + j], tl_f32());
        }
}

static int run(const td_abi_launch *L) {
    int64_t bm = TL_I(L, P_BM), bn = TL_I(L, P_BN), bk = TL_I(L, P_BK);
    float *acc = malloc((size_t)(bm * bn) * sizeof *acc), *prod = malloc((size_t)bk * sizeof *prod);
    if (!acc || !prod) {
        free(acc), free(prod);
        snprintf(L->err, L->errlen, "sgmv_expand_slice: out of memory for the tiles");
        return 1;
    }
    for (uint32_t b = 0; b < L->grid[2]; b++)
        for (uint32_t n = 0; n < L->grid[1]; n++)
            for (uint32_t m = 0; m < L->grid[0]; m++) program(L, m, n, b, acc, prod);
    free(acc), free(prod);
    return 0;
}

TD_KERNEL(td_k_sgmv_expand_slice_sum) = {"sgmv_expand_slice.sgmv_expand_slice_one_row_block_output_summary", "triton",
                                         TD_ABI_HOST, NULL, NULL, NULL, 13, 6, run, NULL};
TD_KERNEL(td_k_sgmv_expand_slice_io) = {"sgmv_expand_slice.sgmv_expand_slice_io_correctness", "triton", TD_ABI_HOST,
                                        "store=fp32:rne:inf", NULL, NULL, 13, 6, run, NULL};
