/* kldiv_compute mutants. */
#include "../host/tl.h"

enum { P_N, P_BLOCK };
enum { R_X, R_Y, R_OUT };

static int kl_bug(const td_abi_launch *L, int bug) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (!(off < n)) continue;
            float x = tl_load(L, R_X, off), y = tl_load(L, R_Y, off);
            float out = bug == 0 ? x * logf(y / x) : x * log2f(x / y);
            tl_store(L, R_OUT, off, out, tl_f32());
        }
    return 0;
}
static int kl_ratio_swapped(const td_abi_launch *L) { return kl_bug(L, 0); }
static int kl_log2(const td_abi_launch *L) { return kl_bug(L, 1); }

TD_KERNEL(td_m_kldiv_compute_swap) = {"kldiv_compute.kldivergence_kernel_correctness", "mut_ratio_swapped",
                                      TD_ABI_HOST, NULL, "libm", "x * log(y / x): the ratio inverted", 2, 3,
                                      kl_ratio_swapped, NULL};
TD_KERNEL(td_m_kldiv_compute_log2) = {"kldiv_compute.kldivergence_kernel_correctness", "mut_log2", TD_ABI_HOST, NULL,
                                      "libm", "tl.log2 instead of tl.log", 2, 3, kl_log2, NULL};
