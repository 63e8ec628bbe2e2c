/* bgmv_shrink_kernel, alternative: split chains inside each program, walked by rank row.
 *
 * alt_splitk: program (pid_sk, b), rank row n: the program's k set (k = t*BK*SK + pid_sk*BK
 * + e < K) cut in two: the even K-steps t and the odd ones, each its own FMA chain from 0
 * walked from its last k down, the odd partial added to the even one, times scaling, then
 * stored (SPLIT_K = 1, the io's store surface) or added to out (the summary's atomics).
 * Admissible: any association order of one split's products, with or without FMA, is
 * inside the contract's any-order bound; rows with index -1 are skipped like the kernel. */
#include "alt_common.h"

enum { P_N, P_K, P_SCALE, P_XM, P_L0, P_LK, P_LN, P_CM, P_CN, P_BN, P_BK, P_SK, P_SK1 };
enum { R_IN, R_LORA, R_OUT, R_IDX };

static float split_dot(const td_abi_launch *L, int64_t pid_sk, int64_t b, int64_t li, int64_t n) {
    int64_t K = TL_I(L, P_K), bk = TL_I(L, P_BK), step = bk * TL_I(L, P_SK);
    float part[2] = {0.0f, 0.0f};
    for (int64_t t = (K - 1) / step; t >= 0; t--)
        for (int64_t k = t * step + pid_sk * bk + bk - 1; k >= t * step + pid_sk * bk; k--) {
            if (k >= K) continue;
            float x = tl_load(L, R_IN, b * TL_I(L, P_XM) + k);
            float w = tl_load(L, R_LORA, TL_I(L, P_L0) * li + n * TL_I(L, P_LK) + k * TL_I(L, P_LN));
            part[t & 1] = fmaf(x, w, part[t & 1]);
        }
    return part[0] + part[1];
}

static int shrink(const td_abi_launch *L, int summary) {
    int64_t nw = TL_I(L, P_N) < TL_I(L, P_BN) ? TL_I(L, P_N) : TL_I(L, P_BN);
    int atomic = summary && !TL_I(L, P_SK1);
    for (int64_t b = 0; b < (int64_t)L->grid[1]; b++) {
        int64_t li = tl_load_int(L, R_IDX, b);
        if (li == -1) continue;
        for (int64_t n = 0; n < nw; n++)
            for (int64_t s = 0; s < (int64_t)L->grid[0]; s++) {
                int64_t off = b * TL_I(L, P_CM) + n * TL_I(L, P_CN);
                float v = split_dot(L, s, b, li, n) * TL_R(L, P_SCALE);
                tl_store(L, R_OUT, off, atomic ? tl_load(L, R_OUT, off) + v : v, tl_f32());
            }
    }
    return 0;
}
static int shrink_io(const td_abi_launch *L) { return shrink(L, 0); }
static int shrink_sum(const td_abi_launch *L) { return shrink(L, 1); }

TD_KERNEL(td_a_bss_splitk) = {"bgmv_shrink_kernel.bgmv_shrink_kernel_output_summary_general", "alt_splitk",
                              TD_ABI_HOST, NULL, NULL, NULL, 13, 4, shrink_sum, NULL};
TD_KERNEL(td_a_bsi_splitk) = {"bgmv_shrink_kernel.bgmv_shrink_store_io_correctness", "alt_splitk", TD_ABI_HOST,
                              "store=fp32:rne:inf", NULL, NULL, 12, 4, shrink_io, NULL};
