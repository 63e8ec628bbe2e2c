/* masked_select mutants: the compacted position and the bounds, each wrong once. */
#include "../host/tl.h"

enum { P_N, P_BLOCK };
enum { R_INP, R_MASK, R_PSUM, R_OUT };

enum { BUG_NO_MINUS_ONE, BUG_PREV_PREFIX, BUG_LAST_ELEMENT };

static int select_variant(const td_abi_launch *L, int bug) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off >= n - (bug == BUG_LAST_ELEMENT)) continue;
            if (!tl_load_int(L, R_MASK, off)) continue;
            int64_t dst;
            switch (bug) {
            case BUG_NO_MINUS_ONE: dst = tl_load_int(L, R_PSUM, off); break;
            /* the exclusive prefix read as prefix_sum[off-1], with 0 for the first lane of
             * each program (a per-block scan's boundary forgotten) */
            case BUG_PREV_PREFIX: dst = j == 0 ? 0 : tl_load_int(L, R_PSUM, off - 1); break;
            default: dst = tl_load_int(L, R_PSUM, off) - 1; break;
            }
            tl_store(L, R_OUT, dst, tl_load(L, R_INP, off), tl_f32());
        }
    return 0;
}

/* out[prefix_sum] instead of out[prefix_sum - 1]: every element one cell late */
static int no_minus_one(const td_abi_launch *L) { return select_variant(L, BUG_NO_MINUS_ONE); }
/* exclusive position restarted at 0 in every program: blocks overwrite the front */
static int block_restart(const td_abi_launch *L) { return select_variant(L, BUG_PREV_PREFIX); }
/* mask offsets < n_elements - 1: a selected last element is dropped */
static int last_dropped(const td_abi_launch *L) { return select_variant(L, BUG_LAST_ELEMENT); }

#define MSEL "masked_select.masked_select_kernel_correctness"
TD_KERNEL(td_m_msel_no_minus_one) = {MSEL, "mut_no_minus_one", TD_ABI_HOST, NULL, NULL,
                                     "stored at prefix_sum[j] instead of prefix_sum[j] - 1", 2, 4, no_minus_one, NULL};
TD_KERNEL(td_m_msel_block_restart) = {MSEL, "mut_block_restart", TD_ABI_HOST, NULL, NULL,
                                      "compacted position restarts at 0 in each program", 2, 4, block_restart, NULL};
TD_KERNEL(td_m_msel_last_dropped) = {MSEL, "mut_last_dropped", TD_ABI_HOST, NULL, NULL,
                                     "mask offsets < n_elements - 1: last element never selected", 2, 4, last_dropped,
                                     NULL};
