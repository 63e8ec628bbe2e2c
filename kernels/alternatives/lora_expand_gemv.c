/* lora_expand_gemv, alternatives: the GEMV in other admissible orders.
 *
 * alt_splitk: each output row's K-sum cut into ALT_SPLITS FMA chains combined last
 *   slice first (split-K with a reduction over partials); alt_fma_seq: one FMA chain
 *   k = 0 .. K-1 (a CUDA inner loop, cuBLAS-style GEMV).  Both walk the output by
 *   batch row and global output row (pid_sn * split_n_length + m), not by program.
 *   Admissible: the contract's sum is over the reals; every association order, with or
 *   without FMA, is within the any-order bound (kernels/alternatives/alt_common.h).
 */
#include "alt_common.h"

enum { P_K, P_SPLIT, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_BN, P_BK };
enum { R_IN, R_LORA, R_OUT, R_IDX };

static int gemv(const td_abi_launch *L, int method) {
    int64_t split = TL_I(L, P_SPLIT), rows = (int64_t)L->grid[0] * split;
    for (int64_t b = 0; b < (int64_t)L->grid[1]; b++) {
        alt_vec x = {R_IN, b * TL_I(L, P_XM), TL_I(L, P_XK)};
        for (int64_t r = 0; r < rows; r++) {
            alt_vec w = {R_LORA, TL_I(L, P_L0) * tl_load_int(L, R_IDX, b) + r * TL_I(L, P_LK), TL_I(L, P_LN)};
            int64_t o = b * TL_I(L, P_CM) + (r / split) * split + (r % split) * TL_I(L, P_CN);
            tl_store(L, R_OUT, o, alt_dot(L, &x, &w, TL_I(L, P_K), 0.0f, method), tl_f32());
        }
    }
    return 0;
}
static int splitk(const td_abi_launch *L) { return gemv(L, ALT_DOT_SPLITK); }
static int fma_seq(const td_abi_launch *L) { return gemv(L, ALT_DOT_FMA_SEQ); }

TD_KERNEL(td_a_lgs_splitk) = {"lora_expand_gemv.gemv_full_output_summary", "alt_splitk", TD_ABI_HOST, NULL, NULL,
                              NULL, 11, 4, splitk, NULL};
TD_KERNEL(td_a_lgs_fma) = {"lora_expand_gemv.gemv_full_output_summary", "alt_fma_seq", TD_ABI_HOST, NULL, NULL, NULL,
                           11, 4, fma_seq, NULL};
TD_KERNEL(td_a_lgi_splitk) = {"lora_expand_gemv.gemv_full_io_correctness", "alt_splitk", TD_ABI_HOST,
                              "store=fp32:rne:inf", NULL, NULL, 11, 4, splitk, NULL};
TD_KERNEL(td_a_lgi_fma) = {"lora_expand_gemv.gemv_full_io_correctness", "alt_fma_seq", TD_ABI_HOST,
                           "store=fp32:rne:inf", NULL, NULL, 11, 4, fma_seq, NULL};
