/* sgmv_expand_slice, alternative: split-K partial sums, walked token by token.
 *
 * alt_splitk: for every batch b, row m < seq_len and column n < N, the sum over
 * k < BLOCK_K*numKBlocks as ALT_SPLITS FMA chains combined last slice first
 * (kernels/alternatives/alt_common.h), stored at out[(start_b + m)*cm + (n + slice)*cn].
 * Admissible: any association order, with or without FMA, is within the contract's
 * any-order bound; no row/column wrap is needed for the lanes that are written. */
#include "alt_common.h"

enum { P_N, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_SLICE, P_BM, P_BN, P_BK, P_NKB };
enum { R_IN, R_LORA, R_OUT, R_START, R_LEN, R_IDX };

static int expand(const td_abi_launch *L) {
    int64_t K = TL_I(L, P_BK) * TL_I(L, P_NKB);
    for (int64_t b = 0; b < (int64_t)L->grid[2]; b++) {
        int64_t start = tl_load_int(L, R_START, b), M = tl_load_int(L, R_LEN, b), li = tl_load_int(L, R_IDX, b);
        if (li == -1) continue;
        for (int64_t m = 0; m < M; m++) {
            alt_vec x = {R_IN, (start + m) * TL_I(L, P_XM), TL_I(L, P_XK)};
            for (int64_t n = 0; n < TL_I(L, P_N); n++) {
                alt_vec w = {R_LORA, TL_I(L, P_L0) * li + n * TL_I(L, P_LK), TL_I(L, P_LN)};
                int64_t off = (start + m) * TL_I(L, P_CM) + (n + TL_I(L, P_SLICE)) * TL_I(L, P_CN);
                tl_store(L, R_OUT, off, alt_dot(L, &x, &w, K, 0.0f, ALT_DOT_SPLITK), tl_f32());
            }
        }
    }
    return 0;
}

TD_KERNEL(td_a_sgs_splitk) = {"sgmv_expand_slice.sgmv_expand_slice_one_row_block_output_summary", "alt_splitk",
                              TD_ABI_HOST, NULL, NULL, NULL, 13, 6, expand, NULL};
TD_KERNEL(td_a_sgi_splitk) = {"sgmv_expand_slice.sgmv_expand_slice_io_correctness", "alt_splitk", TD_ABI_HOST,
                              "store=fp32:rne:inf", NULL, NULL, 13, 6, expand, NULL};
