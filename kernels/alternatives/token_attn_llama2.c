/* Alternatives for token_attn_llama2 (LightLLM's decode Q·K score stage, both contracts).
 *
 *   alt_prescale_fma  q pre-scaled by sm_scale (each q_d * sm_scale rounded to binary32,
 *                 as kernels that fold the softmax scale into q do), then the dot as one
 *                 sequential FMA chain over BLOCK_DMODEL; programs in another order
 *                 (heads outermost) and each token's slot read once per token rather
 *                 than per block.  Admissible: the contract's second form (N(either)),
 *                 any summation order, FMA contraction.
 * Parameters: sm_scale, max_input_len, stride_b_loc_b, stride_b_loc_s, stride_qbs,
 * stride_qh, stride_qd, stride_kbs, stride_kh, stride_kd, att_stride_h, att_stride_bs,
 * kv_group_num, BLOCK_DMODEL, BLOCK_N.  Regions: Q, K, B_Loc, B_Start_Loc, B_Seqlen, Att_Out. */
#include <math.h>

#include "alt_common.h"

static int prescale_fma(const td_abi_launch *L) {
    float sc = (float)TL_R(L, 0);
    int64_t mil = TL_I(L, 1), BD = TL_I(L, 13), kvg = TL_I(L, 12);
    for (uint32_t h = 0; h < L->grid[1]; h++)
        for (uint32_t b = 0; b < L->grid[0]; b++) {
            int64_t len = tl_load_int(L, 4, b), st = tl_load_int(L, 3, b);
            int64_t n_max = (int64_t)L->grid[2] * TL_I(L, 14);
            for (int64_t n = 0; n < len && n < n_max; n++) {
                int64_t loc = tl_load_int(L, 2, b * TL_I(L, 2) + (mil - len + n) * TL_I(L, 3));
                float acc = 0.0f;
                for (int64_t d = 0; d < BD; d++) {
                    float q = tl_load(L, 0, b * TL_I(L, 4) + h * TL_I(L, 5) + d * TL_I(L, 6)) * sc;
                    float k = tl_load(L, 1, loc * TL_I(L, 7) + (h / kvg) * TL_I(L, 8) + d * TL_I(L, 9));
                    acc = fmaf(q, k, acc);
                }
                tl_store(L, 5, h * TL_I(L, 10) + (st + n) * TL_I(L, 11), acc, tl_f32());
            }
        }
    return 0;
}

TD_KERNEL(td_a_token_attn_llama2_prescale) = {"token_attn_llama2.token_attn_llama2_output_summary_general",
                                              "alt_prescale_fma", TD_ABI_HOST, NULL, NULL, NULL, 15, 6,
                                              prescale_fma, NULL};
TD_KERNEL(td_a_token_attn_llama2_io_prescale) = {"token_attn_llama2.token_attn_llama2_io_correctness",
                                                 "alt_prescale_fma", TD_ABI_HOST, NULL, NULL, NULL, 15, 6,
                                                 prescale_fma, NULL};
