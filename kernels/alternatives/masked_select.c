/* masked_select, alternative: a sequential stream compaction that ignores prefix_sum.
 *
 * alt_running_count: out[k++] = inp[i] for every selected i < n_elements, in order, the
 * way a CPU masked_select (or a single-thread reference) does it, with its own running
 * count instead of the supplied prefix sum.  Admissible: the contract's precondition
 * makes prefix_sum the inclusive cumsum of the mask, so prefix_sum[i] - 1 is exactly
 * the running count k at a selected i; the cells written and their values are the same.
 */
#include "alt_common.h"

enum { P_N, P_BLOCK };
enum { R_INP, R_MASK, R_PSUM, R_OUT };

static int compact_sequential(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), k = 0;
    for (int64_t i = 0; i < n; i++)
        if (tl_load_int(L, R_MASK, i)) tl_store(L, R_OUT, k++, tl_load(L, R_INP, i), tl_f32());
    return 0;
}

TD_KERNEL(td_a_masked_select) = {"masked_select.masked_select_kernel_correctness", "alt_running_count", TD_ABI_HOST,
                                 NULL, NULL, NULL, 2, 4, compact_sequential, NULL};
