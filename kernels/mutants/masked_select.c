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

/* offsets = pid * BLOCK_SIZE + arange formed in int32, as Triton types a program id:
 * past 2^31 elements the offset wraps negative, the mask (offset < n_elements) still
 * holds, and the load of select_mask is an illegal address (tl_fault).  Only the large
 * tier (`--large`, contracts/gen_large.h) reaches it: ordinary cases have n <= 2^14. */
static int offset_int32(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = tl_i32((int64_t)pid * B), active = n - base < B ? n - base : B;
        if (active > 0 && tl_fault(L, R_MASK, base, active, 1, pid)) return 1;
        for (int64_t j = 0; j < B; j++) {
            int64_t off = tl_i32(base + j);
            if (off >= n || !tl_load_int(L, R_MASK, off)) continue;
            tl_store(L, R_OUT, tl_load_int(L, R_PSUM, off) - 1, tl_load(L, R_INP, off), tl_f32());
        }
    }
    return 0;
}
TD_KERNEL(td_m_msel_i32) = {MSEL, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL,
                            "pid * BLOCK_SIZE + j formed in int32 (wraps beyond 2^31 elements)", 2, 4, offset_int32,
                            NULL};
