/* int_scaled_matmul, alternatives: a split-K integer GEMV per output cell.
 *
 * alt_splitk: each cell (row < M, col < N) sums a[row, k] * b[k, col] over k < K in
 * three K slices, each accumulated in int64 from its last k down, the slices added
 * last first; the plain theorem stores the int32 value at row*scm + col*scn, the
 * scaled one (float)acc * s1[row] at col + N*row.  Admissible: the integer sum is exact
 * in any order and width while it fits int32 (hOvf); the epilogue is the contract's
 * one conversion and one product.
 */
#include "tl.h"

enum { P_M, P_N, P_K, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN };
enum { R_A, R_B, R_C, R_S1 };

static int64_t splitk_dot(const td_abi_launch *L, int64_t row, int64_t col) {
    int64_t K = TL_I(L, P_K), total = 0;
    for (int s = 2; s >= 0; s--) {
        int64_t lo = K * s / 3, hi = K * (s + 1) / 3, part = 0;
        for (int64_t k = hi - 1; k >= lo; k--)
            part += tl_load_int(L, R_A, row * TL_I(L, P_SAM) + k * TL_I(L, P_SAK)) *
                    tl_load_int(L, R_B, k * TL_I(L, P_SBK) + col * TL_I(L, P_SBN));
        total += part;
    }
    return total;
}

static int alt_mm(const td_abi_launch *L) {
    for (int64_t row = 0; row < TL_I(L, P_M); row++)
        for (int64_t col = 0; col < TL_I(L, P_N); col++)
            ((int32_t *)TL_BASE(L, R_C))[row * TL_I(L, P_SCM) + col * TL_I(L, P_SCN)] =
                (int32_t)splitk_dot(L, row, col);
    return 0;
}

static int alt_sc(const td_abi_launch *L) {
    int64_t N = TL_I(L, P_N);
    for (int64_t row = 0; row < TL_I(L, P_M); row++)
        for (int64_t col = 0; col < N; col++) {
            float acc = (float)(int32_t)splitk_dot(L, row, col);
            tl_store(L, R_C, col + N * row, acc * tl_load(L, R_S1, row), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_a_int_scaled_matmul_mm) = {"int_scaled_matmul.int_scaled_matmul_matmul_exec_genuine", "alt_splitk",
                                        TD_ABI_HOST, NULL, NULL, NULL, 13, 3, alt_mm, NULL};
TD_KERNEL(td_a_int_scaled_matmul_sc) = {"int_scaled_matmul.int_scaled_matmul_scaled_exec_genuine", "alt_splitk",
                                        TD_ABI_HOST, NULL, NULL, NULL, 17, 4, alt_sc, NULL};
