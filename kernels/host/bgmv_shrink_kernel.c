/* bgmv_shrink_kernel: _bgmv_shrink_kernel as the Lean's bgmv_shrink_surface (the -1 guard,
 * the SPLIT_K_ONE store / atomic_add tail), program (pid_sk, cur_batch) by program.
 * Parameters: N, K, scaling, xm_stride, l0_stride, lora_k_stride, lora_n_stride,
 * cm_stride, cn_stride, BLOCK_N, BLOCK_K, SPLIT_K (+ SPLIT_K_ONE for the summary; the io
 * contract is the store surface).  Regions: input_ptr, lora_ptr, out_ptr, lora_indices. */
#include "tl.h"

enum { P_N, P_K, P_SCALE, P_XM, P_L0, P_LK, P_LN, P_CM, P_CN, P_BN, P_BK, P_SK, P_SK1 };
enum { R_IN, R_LORA, R_OUT, R_IDX };

/* accumulator[BLOCK_N] of one program: the K loop of tl.sum(tiled_a * tiled_b, 1) */
static void accumulate(const td_abi_launch *L, int64_t pid_sk, int64_t b, int64_t li, float *a, float *prod,
                       float *acc) {
    int64_t N = TL_I(L, P_N), K = TL_I(L, P_K), bn = TL_I(L, P_BN), bk = TL_I(L, P_BK);
    int64_t b_base = TL_I(L, P_L0) * li;
    for (int64_t n = 0; n < bn; n++) acc[n] = 0.0f;
    for (int64_t k = 0; k < K; k += bk * TL_I(L, P_SK)) {
        for (int64_t e = 0; e < bk; e++) { /* tiled_a, mask current_k < K, other = 0 */
            int64_t ck = k + e + pid_sk * bk;
            a[e] = ck < K ? tl_load(L, R_IN, b * TL_I(L, P_XM) + ck) : 0.0f;
        }
        for (int64_t n = 0; n < bn; n++) {
            for (int64_t e = 0; e < bk; e++) { /* tiled_b, mask n < N & current_k < K */
                int64_t ck = k + e + pid_sk * bk;
                float w = n < N && ck < K ? tl_load(L, R_LORA, b_base + n * TL_I(L, P_LK) + ck * TL_I(L, P_LN)) : 0.0f;
                prod[e] = a[e] * w;
            }
            acc[n] += tl_sum(prod, bk);
        }
    }
}

static void program(const td_abi_launch *L, int atomic, int64_t pid_sk, int64_t b, float *buf) {
    int64_t bn = TL_I(L, P_BN), bk = TL_I(L, P_BK), N = TL_I(L, P_N);
    int64_t li = tl_load_int(L, R_IDX, b);
    if (li == -1) return;
    float *a = buf, *prod = buf + bk, *acc = buf + 2 * bk;
    accumulate(L, pid_sk, b, li, a, prod, acc);
    float sc = TL_R(L, P_SCALE);
    for (int64_t n = 0; n < bn && n < N; n++) { /* c_mask: offset_cn < N */
        int64_t off = b * TL_I(L, P_CM) + n * TL_I(L, P_CN);
        float v = acc[n] * sc;
        tl_store(L, R_OUT, off, atomic ? tl_load(L, R_OUT, off) + v : v, tl_f32()); /* atomic_add: one at a time */
    }
}

static int run(const td_abi_launch *L, int summary) {
    int64_t bk = TL_I(L, P_BK), bn = TL_I(L, P_BN);
    float *buf = malloc((size_t)(2 * bk + bn) * sizeof *buf);
    if (!buf) {
        snprintf(L->err, L->errlen, "bgmv_shrink_kernel: out of memory for the tiles");
        return 1;
    }
    int atomic = summary && !TL_I(L, P_SK1);
    for (uint32_t b = 0; b < L->grid[1]; b++)
        for (uint32_t s = 0; s < L->grid[0]; s++) program(L, atomic, s, b, buf);
    free(buf);
    return 0;
}
static int run_io(const td_abi_launch *L) { return run(L, 0); }
static int run_summary(const td_abi_launch *L) { return run(L, 1); }

TD_KERNEL(td_k_bgmv_shrink_sum) = {"bgmv_shrink_kernel.bgmv_shrink_kernel_output_summary_general", "triton",
                                   TD_ABI_HOST, NULL, NULL, NULL, 13, 4, run_summary, NULL};
TD_KERNEL(td_k_bgmv_shrink_io) = {"bgmv_shrink_kernel.bgmv_shrink_store_io_correctness", "triton", TD_ABI_HOST,
                                  "store=fp32:rne:inf", NULL, NULL, 12, 4, run_io, NULL};
