/* bgmv_expand_slice: _bgmv_expand_slice_kernel as the Lean's bgmv_full (the -1 guard,
 * ADD_INPUTS = CAST_TYPE = false, masked input load), program (pid_sn, cur_batch) by
 * program.  Parameters (io contract): K, split_n_length, xm_stride, xk_stride, l0_stride,
 * lora_k_stride, lora_n_stride, cm_stride, cn_stride, slice_offset, BLOCK_N, BLOCK_K; the
 * summary contract has li first (every index below shifts by one).  Regions: input_ptr,
 * lora_ptr, out_ptr, lora_indices (int64, -1 = no adapter). */
#include "tl.h"

enum { P_K, P_SPLIT, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_SLICE, P_BN, P_BK };
enum { R_IN, R_LORA, R_OUT, R_IDX };

#define PI(k) TL_I(L, (k) + o)

static void program(const td_abi_launch *L, int o, uint32_t pid_sn, uint32_t cur_batch, float *a, float *prod) {
    int64_t K = PI(P_K), split = PI(P_SPLIT), bn = PI(P_BN), bk = PI(P_BK), lk = PI(P_LK), ln = PI(P_LN);
    int64_t cn = PI(P_CN);
    int64_t lora_index = tl_load_int(L, R_IDX, cur_batch);
    if (lora_index == -1) return;
    for (int64_t k = 0; k < bk; k++) /* tiled_a, mask offset_k < K, other = 0 */
        a[k] = k < K ? tl_load(L, R_IN, (int64_t)cur_batch * PI(P_XM) + k * PI(P_XK)) : 0.0f;
    int64_t b_base = PI(P_L0) * lora_index + (int64_t)pid_sn * split * lk;
    int64_t c_base = (int64_t)cur_batch * PI(P_CM) + (int64_t)pid_sn * split + PI(P_SLICE) * cn;
    for (int64_t n = 0; n < split; n += bn)
        for (int64_t i = 0; i < bn; i++) {
            int64_t cur = n + i;
            if (cur >= split) continue; /* c_mask */
            for (int64_t k = 0; k < bk; k++)
                prod[k] = k < K ? a[k] * tl_load(L, R_LORA, b_base + cur * lk + k * ln) : 0.0f;
            tl_store(L, R_OUT, c_base + cur * cn, tl_sum(prod, bk), tl_f32());
        }
}

static int run(const td_abi_launch *L, int o) {
    int64_t bk = PI(P_BK);
    float *a = malloc((size_t)bk * sizeof *a), *prod = malloc((size_t)bk * sizeof *prod);
    if (!a || !prod) {
        free(a), free(prod);
        snprintf(L->err, L->errlen, "bgmv_expand_slice: out of memory for a BLOCK_K tile");
        return 1;
    }
    for (uint32_t b = 0; b < L->grid[1]; b++)
        for (uint32_t s = 0; s < L->grid[0]; s++) program(L, o, s, b, a, prod);
    free(a), free(prod);
    return 0;
}
static int run_io(const td_abi_launch *L) { return run(L, 0); }
static int run_summary(const td_abi_launch *L) { return run(L, 1); }

TD_KERNEL(td_k_bgmv_expand_slice_sum) = {"bgmv_expand_slice.bgmv_full_output_summary", "triton", TD_ABI_HOST, NULL,
                                         NULL, NULL, 13, 4, run_summary, NULL};
TD_KERNEL(td_k_bgmv_expand_slice_io) = {"bgmv_expand_slice.bgmv_expand_slice_io_correctness", "triton", TD_ABI_HOST,
                                        "store=fp32:rne:inf", NULL, NULL, 12, 4, run_io, NULL};
