/* Alternative for flash_decode2_llama.flash_decode2_llama_normalization_output_summary_general
 * (the stage-2 normalization store O[b,h,:] = Acc[b,h,:] / SumExp[b,h]).
 *
 *   alt_rcp       one reciprocal per (b, h), then O = Acc * (1/SumExp) (what fast-math
 *                 code and hand-written decode kernels do), the heads walked last to first.
 *                 Admissible: a/b as a*(1/b); the programs' order.
 * Parameters and regions as kernels/host/flash_decode2_llama.c (normalization layout). */
#include "tl.h"

enum { N_MID_OB, N_MID_OH, N_MID_OS, N_MID_OD, N_E_B, N_E_H, N_E_S, N_OBS, N_OH, N_OD, N_BSEQ, N_BD,
       N_ACC_B, N_ACC_H, N_ACC_D, N_SUM_B, N_SUM_H, N_NP };
enum { NR_SEQLEN, NR_MID, NR_E, NR_ACC, NR_SUM, NR_O, NR_N };

static int fdl_norm_rcp(const td_abi_launch *L) {
    int64_t BD = TL_I(L, N_BD);
    td_profile st = {TL_FMT(L, NR_O), TD_RNE, TD_OVF_INF, false};
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (int64_t h = (int64_t)L->grid[1] - 1; h >= 0; h--) {
            float r = 1.0f / tl_load(L, NR_SUM, b * TL_I(L, N_SUM_B) + h * TL_I(L, N_SUM_H));
            for (int64_t d = 0; d < BD; d++) {
                float acc = tl_load(L, NR_ACC, b * TL_I(L, N_ACC_B) + h * TL_I(L, N_ACC_H) + d * TL_I(L, N_ACC_D));
                tl_store(L, NR_O, b * TL_I(L, N_OBS) + h * TL_I(L, N_OH) + d * TL_I(L, N_OD), acc * r, st);
            }
        }
    return 0;
}

TD_KERNEL(td_a_fd2_llama_norm_rcp) = {"flash_decode2_llama.flash_decode2_llama_normalization_output_summary_general",
                                      "alt_rcp", TD_ABI_HOST, NULL, NULL, NULL, N_NP, NR_N, fdl_norm_rcp, NULL};
