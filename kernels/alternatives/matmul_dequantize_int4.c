/* matmul_dequantize_int4, alternative: alt_diff_scale_fma (kernels/alternatives/g4_alt.h:
 * the weight as (q - z) * s, the column dequantized first, an FMA chain over k from
 * K - 1 down to 0). */
#include "g4_alt.h"

TD_KERNEL(td_a_matmul_dequantize_int4) = {"matmul_dequantize_int4.matmul_dequantize_int4_exec_genuine",
                                          "alt_diff_scale_fma", TD_ABI_HOST, NULL, NULL, NULL, 19, 5,
                                          g4_alt_diff_scale_fma, NULL};
