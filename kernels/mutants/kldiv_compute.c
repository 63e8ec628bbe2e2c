/* kldiv_compute mutants. */
#include "../host/tl.h"

enum { P_N, P_BLOCK };
enum { R_X, R_Y, R_OUT };

/* bug 0: the ratio inverted; 1: log2; 2: offsets = pid * BLOCK_SIZE + arange formed in
 * int32, as Triton types a program id: past 2^31 elements the offset wraps negative,
 * the mask (offset < n_elements) still holds, and the access is an illegal address
 * (tl_fault).  Only the large tier (`--large`) reaches 2: ordinary cases have n <= 2^14. */
static int kl_bug(const td_abi_launch *L, int bug) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = bug == 2 ? tl_i32((int64_t)pid * B) : (int64_t)pid * B, active = n - base < B ? n - base : B;
        if (bug == 2 && active > 0 && tl_fault(L, R_OUT, base, active, 1, pid)) return 1;
        for (int64_t j = 0; j < B; j++) {
            int64_t off = bug == 2 ? tl_i32(base + j) : base + j;
            if (!(off < n)) continue;
            float x = tl_load(L, R_X, off), y = tl_load(L, R_Y, off);
            float out = bug == 0 ? x * logf(y / x) : bug == 1 ? x * log2f(x / y) : x * logf(x / y);
            tl_store(L, R_OUT, off, out, tl_f32());
        }
    }
    return 0;
}
static int kl_ratio_swapped(const td_abi_launch *L) { return kl_bug(L, 0); }
static int kl_log2(const td_abi_launch *L) { return kl_bug(L, 1); }
static int kl_offset_int32(const td_abi_launch *L) { return kl_bug(L, 2); }

TD_KERNEL(td_m_kldiv_compute_swap) = {"kldiv_compute.kldivergence_kernel_correctness", "mut_ratio_swapped",
                                      TD_ABI_HOST, NULL, "libm", "x * log(y / x): the ratio inverted", 2, 3,
                                      kl_ratio_swapped, NULL};
TD_KERNEL(td_m_kldiv_compute_log2) = {"kldiv_compute.kldivergence_kernel_correctness", "mut_log2", TD_ABI_HOST, NULL,
                                      "libm", "tl.log2 instead of tl.log", 2, 3, kl_log2, NULL};
TD_KERNEL(td_m_kldiv_compute_i32) = {"kldiv_compute.kldivergence_kernel_correctness", "mut_large_offset_int32",
                                     TD_ABI_HOST, NULL, "libm", "pid * BLOCK_SIZE + j formed in int32 (wraps beyond 2^31 elements)",
                                     2, 3, kl_offset_int32, NULL};
