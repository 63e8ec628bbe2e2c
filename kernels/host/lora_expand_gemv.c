/* lora_expand_gemv: bgmv_loop_surface (_bgmv_expand_kernel with ADD_INPUTS = CAST_TYPE =
 * EVEN_K = false and the sentinel guard elided), program (pid_sn, cur_batch) by program.
 * Parameters: K, split_n_length, xm_stride, xk_stride, l0_stride, lora_k_stride,
 * lora_n_stride, cm_stride, cn_stride, BLOCK_N, BLOCK_K.  Regions: input_ptr, lora_ptr,
 * out_ptr, lora_indices (int64). */
#include "tl.h"

enum { P_K, P_SPLIT, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_BN, P_BK };
enum { R_IN, R_LORA, R_OUT, R_IDX };

static void program(const td_abi_launch *L, uint32_t pid_sn, uint32_t cur_batch, float *a, float *prod) {
    int64_t K = TL_I(L, P_K), split = TL_I(L, P_SPLIT), bn = TL_I(L, P_BN), bk = TL_I(L, P_BK);
    int64_t lk = TL_I(L, P_LK), ln = TL_I(L, P_LN), cn = TL_I(L, P_CN);
    int64_t lora_index = tl_load_int(L, R_IDX, cur_batch);
    for (int64_t k = 0; k < bk; k++) /* tiled_a, masked k < K, other = 0 */
        a[k] = k < K ? tl_load(L, R_IN, (int64_t)cur_batch * TL_I(L, P_XM) + k * TL_I(L, P_XK)) : 0.0f;
    int64_t b_base = TL_I(L, P_L0) * lora_index + (int64_t)pid_sn * split * lk;
    int64_t c_base = (int64_t)cur_batch * TL_I(L, P_CM) + (int64_t)pid_sn * split;
    for (int64_t n = 0; n < split; n += bn)
        for (int64_t i = 0; i < bn; i++) {
            int64_t cur = n + i;
            if (cur >= split) continue; /* c_mask */
            for (int64_t k = 0; k < bk; k++)
                prod[k] = k < K ? a[k] * tl_load(L, R_LORA, b_base + cur * lk + k * ln) : 0.0f;
            tl_store(L, R_OUT, c_base + cur * cn, tl_sum(prod, bk), tl_f32()); /* tl.sum(axis 1) */
        }
}

static int bgmv_expand_kernel(const td_abi_launch *L) {
    int64_t bk = TL_I(L, P_BK);
    float *a = malloc((size_t)bk * sizeof *a), *prod = malloc((size_t)bk * sizeof *prod);
    if (!a || !prod) {
        free(a), free(prod);
        snprintf(L->err, L->errlen, "bgmv_expand_kernel: out of memory for a BLOCK_K tile");
        return 1;
    }
    for (uint32_t b = 0; b < L->grid[1]; b++)
        for (uint32_t s = 0; s < L->grid[0]; s++) program(L, s, b, a, prod);
    free(a), free(prod);
    return 0;
}

TD_KERNEL(td_k_lora_gemv_summary) = {"lora_expand_gemv.gemv_full_output_summary",
                                     "triton",
                                     TD_ABI_HOST,
                                     NULL,
                                     NULL,
                                     NULL,
                                     11,
                                     4,
                                     bgmv_expand_kernel,
                                     NULL};
TD_KERNEL(td_k_lora_gemv_io) = {"lora_expand_gemv.gemv_full_io_correctness",
                                "triton",
                                TD_ABI_HOST,
                                "store=fp32:rne:inf",
                                NULL,
                                NULL,
                                11,
                                4,
                                bgmv_expand_kernel,
                                NULL};
