/* dequantize_matmul, alternative: column by column, the product formed in binary64.
 *
 * alt_colwise_f64: for each column n < N, the scale is read once, and every weight
 * b[k, n] (k < K) is widened and multiplied in binary64 (exact: 8 x 24 bits), then
 * rounded once to binary32 for the store.  Admissible: one correctly rounded product,
 * as the binary32 multiply of the int8 value (exact in binary32) and the scale.
 */
#include "tl.h"

enum { P_K, P_N, P_SBK, P_SBN, P_SFK, P_SFN };
enum { R_B, R_S, R_F };

static int colwise(const td_abi_launch *L) {
    int64_t K = TL_I(L, P_K), N = TL_I(L, P_N);
    for (int64_t n = 0; n < N; n++) {
        double s = tl_load(L, R_S, n);
        for (int64_t k = 0; k < K; k++) {
            double q = (double)tl_load_int(L, R_B, k * TL_I(L, P_SBK) + n * TL_I(L, P_SBN));
            tl_store(L, R_F, k * TL_I(L, P_SFK) + n * TL_I(L, P_SFN), (float)(q * s), tl_f32());
        }
    }
    return 0;
}

TD_KERNEL(td_a_dequantize_matmul) = {"dequantize_matmul.dequantize_kernel_correctness", "alt_colwise_f64",
                                     TD_ABI_HOST, NULL, NULL, NULL, 8, 3, colwise, NULL};
