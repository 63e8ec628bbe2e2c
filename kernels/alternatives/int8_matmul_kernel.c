/* int8_matmul_kernel, alternative: unpack first, then a split-K integer GEMV.
 *
 * alt_unpack_splitk: each output cell (row < M, col < N) unpacks column col of the
 * packed weights into W[k] = ((B[k % (K/4), col] >> 2*(k / (K/4))) & 3) - 1 for all
 * k < K (the dequantize-then-matmul form), then sums A[row, k] * W[k] in three K
 * slices, each accumulated in int64 from its last k down, the slices added last
 * first, and stores the int32 value.  Admissible: the contract's value is an integer
 * sum, exact in any order and accumulator width while it fits int32 (hOvf).
 */
#include "tl.h"

enum { P_M, P_N, P_K, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN };
enum { R_A, R_B, R_C };

static int unpack_splitk(const td_abi_launch *L) {
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N), K = TL_I(L, P_K), kq = K / 4;
    int8_t *w;
    TL_ALLOC(L, w, K);
    for (int64_t col = 0; col < N; col++) {
        for (int64_t k = 0; k < K; k++) {
            int64_t b = tl_load_int(L, R_B, k % kq * TL_I(L, P_SBK) + col * TL_I(L, P_SBN));
            w[k] = (int8_t)(((b >> (2 * (k / kq))) & 3) - 1);
        }
        for (int64_t row = 0; row < M; row++) {
            int64_t total = 0;
            for (int s = 2; s >= 0; s--) {
                int64_t lo = K * s / 3, hi = K * (s + 1) / 3, part = 0;
                for (int64_t k = hi - 1; k >= lo; k--)
                    part += tl_load_int(L, R_A, row * TL_I(L, P_SAM) + k * TL_I(L, P_SAK)) * w[k];
                total += part;
            }
            ((int32_t *)TL_BASE(L, R_C))[row * TL_I(L, P_SCM) + col * TL_I(L, P_SCN)] = (int32_t)total;
        }
    }
    free(w);
    return 0;
}

TD_KERNEL(td_a_int8_matmul_kernel) = {"int8_matmul_kernel.int8_matmul_kernel_exec_genuine", "alt_unpack_splitk",
                                      TD_ABI_HOST, NULL, NULL, NULL, 14, 3, unpack_splitk, NULL};
