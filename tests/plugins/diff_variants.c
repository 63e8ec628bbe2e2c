/* Versions of the built-in mean_reduction kernel (kernels/host/mean_reduction.c) for
 * tests/diff_test.sh, one kernel library per flavour:
 *   -DFLAVOUR_REORDER  each lane of the [BLOCK_M, BLOCK_N] accumulator walks its column
 *                      steps last to first: the same additions in another order, so the
 *                      values change bit for bit while the accuracy does not (the inputs
 *                      of a row are drawn independently: both orders are equally good);
 *   -DFLAVOUR_SIGNSORT each lane adds its positive terms first, then the others: also a
 *                      reordering of the same sequential sum (within every bound that
 *                      holds for any order), but a systematically worse one, since the
 *                      partial sums swell to the sum of the positive terms before the
 *                      negative ones cancel them, and each rounding is relative to them;
 *   -DFLAVOUR_BUG      the reversed walk of REORDER with an off-by-one: it starts at
 *                      (N / BLOCK_N - 1) * BLOCK_N, so a partial tail tile is never added.
 * Everything else (tl.sum's tree over the lanes, / N, the masked store) is the built-in's. */
#include "tl.h"

enum { P_M, P_N, P_BM, P_BN };
enum { R_X, R_MEAN };

static float lane_sum(const td_abi_launch *L, int64_t row, int64_t j, int64_t M, int64_t N, int64_t BN) {
    float acc = 0.0f; /* tl.zeros */
    if (row >= M) return acc;
#if defined(FLAVOUR_SIGNSORT)
    for (int pass = 0; pass < 2; pass++)
        for (int64_t off = 0; off < N; off += BN) {
            float a = off + j < N ? tl_load(L, R_X, row * N + off + j) : 0.0f;
            if ((a > 0) == (pass == 0)) acc += a;
        }
#else
#if defined(FLAVOUR_BUG)
    int64_t last = (N / BN - 1) * BN; /* should be (cdiv(N, BN) - 1) * BN */
#else
    int64_t last = ((N + BN - 1) / BN - 1) * BN;
#endif
    for (int64_t off = last; off >= 0; off -= BN) acc += off + j < N ? tl_load(L, R_X, row * N + off + j) : 0.0f;
#endif
    return acc;
}

static int mean_variant(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), BM = TL_I(L, P_BM), BN = TL_I(L, P_BN);
    td_profile store = {TL_FMT(L, R_MEAN), TD_RNE, TD_OVF_INF, false};
    float *acc;
    TL_ALLOC(L, acc, BN);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t i = 0; i < BM; i++) {
            int64_t row = (int64_t)pid * BM + i;
            for (int64_t j = 0; j < BN; j++) acc[j] = lane_sum(L, row, j, M, N, BN);
            float mean = tl_sum(acc, BN) / (float)N;
            if (row < M) tl_store(L, R_MEAN, row, mean, store);
        }
    free(acc);
    return 0;
}

#if defined(FLAVOUR_REORDER)
#define VARIANT "reorder"
#elif defined(FLAVOUR_SIGNSORT)
#define VARIANT "signsort"
#else
#define VARIANT "bug_reverse_tail"
#endif
static const td_abi_kernel k_summary = {"mean_reduction.mean_dim_kernel_output_summary", VARIANT, TD_ABI_HOST, NULL,
                                        NULL, NULL, 4, 2, mean_variant, NULL};
static const td_abi_kernel k_io = {"mean_reduction.mean_dim_kernel_io_correctness", VARIANT, TD_ABI_HOST, NULL, NULL,
                                   NULL, 4, 2, mean_variant, NULL};
static const td_abi_kernel *const kernels[] = {&k_summary, &k_io};
static const td_abi_table table = {TD_KERNEL_ABI_VERSION, 2, kernels, "mean_reduction " VARIANT " (diff test)"};

const td_abi_table *td_kernel_table(void) { return &table; }
