/* quant_transpose_kernel, alternative alt_rowscan: no tiles, a plain scan of A row by row
 * with the factor 127 * absmax_inv formed once (another association of the product) and
 * the rounding library's half-to-even quantization cast (td_q_encode_f32, wrap), written
 * at the transposed position.  One kernel for both theorems (the schedule is immaterial
 * to the values and the write set). */
#include "../host/tl.h"

enum { P_SAM, P_SAN, P_SBN, P_SBM, P_M, P_N };
enum { R_A, R_INV, R_B };

static int rowscan(const td_abi_launch *L) {
    int64_t sam = TL_I(L, P_SAM), san = TL_I(L, P_SAN), sbn = TL_I(L, P_SBN), sbm = TL_I(L, P_SBM);
    int64_t M = TL_I(L, P_M), N = TL_I(L, P_N);
    float s = 127.0f * tl_load(L, R_INV, 0);
    int8_t *B = (int8_t *)TL_BASE(L, R_B);
    for (int64_t m = 0; m < M; m++)
        for (int64_t n = 0; n < N; n++)
            B[m * sbm + n * sbn] = (int8_t)td_q_decode(
                TD_Q_I8, td_q_encode_f32(tl_load(L, R_A, m * sam + n * san) * s, TD_Q_I8, TD_Q_HALF_EVEN, TD_Q_WRAP));
    return 0;
}

TD_KERNEL(td_a_qt_blocked) = {"quant_transpose_kernel.quantize_global_transpose_blocked_output_summary_general",
                              "alt_rowscan", TD_ABI_HOST, "store=int8:rne:wrap", NULL, NULL, 10, 3, rowscan, NULL};
TD_KERNEL(td_a_qt_io) = {"quant_transpose_kernel.quant_transpose_scaled_store_io_correctness", "alt_rowscan",
                         TD_ABI_HOST, "store=int8:rne:wrap", NULL, NULL, 9, 3, rowscan, NULL};
