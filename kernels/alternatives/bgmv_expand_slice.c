/* bgmv_expand_slice, alternative: split-K partial sums, walked by output row.
 *
 * alt_splitk: for every batch row with an adapter and every global output row
 * r = pid_sn*split_n_length + g, the sum over k < min(K, BLOCK_K) as ALT_SPLITS FMA
 * chains combined last slice first (kernels/alternatives/alt_common.h), stored at
 * out[b*cm + pid_sn*split_n_length + (slice_offset + g)*cn].  Admissible: any association
 * order, with or without FMA, is within the contract's any-order bound; rows with
 * index -1 are skipped like the kernel does.
 */
#include "alt_common.h"

enum { P_K, P_SPLIT, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_SLICE, P_BN, P_BK };
enum { R_IN, R_LORA, R_OUT, R_IDX };

#define PI(k) TL_I(L, (k) + o)

static int expand(const td_abi_launch *L, int o) {
    int64_t split = PI(P_SPLIT), rows = (int64_t)L->grid[0] * split, K = PI(P_K) < PI(P_BK) ? PI(P_K) : PI(P_BK);
    for (int64_t b = 0; b < (int64_t)L->grid[1]; b++) {
        int64_t li = tl_load_int(L, R_IDX, b);
        if (li == -1) continue;
        alt_vec x = {R_IN, b * PI(P_XM), PI(P_XK)};
        for (int64_t r = 0; r < rows; r++) {
            alt_vec w = {R_LORA, PI(P_L0) * li + r * PI(P_LK), PI(P_LN)};
            int64_t off = b * PI(P_CM) + (r / split) * split + (PI(P_SLICE) + r % split) * PI(P_CN);
            tl_store(L, R_OUT, off, alt_dot(L, &x, &w, K, 0.0f, ALT_DOT_SPLITK), tl_f32());
        }
    }
    return 0;
}
static int expand_io(const td_abi_launch *L) { return expand(L, 0); }
static int expand_sum(const td_abi_launch *L) { return expand(L, 1); }

TD_KERNEL(td_a_bes_splitk) = {"bgmv_expand_slice.bgmv_full_output_summary", "alt_splitk", TD_ABI_HOST, NULL, NULL,
                              NULL, 13, 4, expand_sum, NULL};
TD_KERNEL(td_a_bei_splitk) = {"bgmv_expand_slice.bgmv_expand_slice_io_correctness", "alt_splitk", TD_ABI_HOST,
                              "store=fp32:rne:inf", NULL, NULL, 12, 4, expand_io, NULL};
