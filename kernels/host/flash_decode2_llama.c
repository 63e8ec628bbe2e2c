/* flash_decode2_llama: the slice kernels of _fwd_kernel_flash_decode_stage2 that the
 * VeriTile contracts speak about (normalization store, running-max step, final store),
 * each a Triton program over the grid (batch, head). */
#include "attn2_tl.h"

/* normalization: O[b,h,:] = Acc[b,h,:] / SumExp[b,h] */
enum { N_MID_OB, N_MID_OH, N_MID_OS, N_MID_OD, N_E_B, N_E_H, N_E_S, N_OBS, N_OH, N_OD, N_BSEQ, N_BD,
       N_ACC_B, N_ACC_H, N_ACC_D, N_SUM_B, N_SUM_H, N_NP };
enum { NR_SEQLEN, NR_MID, NR_E, NR_ACC, NR_SUM, NR_O, NR_N };

static int normalization_store(const td_abi_launch *L) {
    int64_t BD = TL_I(L, N_BD);
    td_profile st = attn2_store_prof(L, NR_O);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            float sum_exp = tl_load(L, NR_SUM, b * TL_I(L, N_SUM_B) + h * TL_I(L, N_SUM_H));
            for (int64_t d = 0; d < BD; d++) {
                float acc = tl_load(L, NR_ACC, b * TL_I(L, N_ACC_B) + h * TL_I(L, N_ACC_H) + d * TL_I(L, N_ACC_D));
                tl_store(L, NR_O, b * TL_I(L, N_OBS) + h * TL_I(L, N_OH) + d * TL_I(L, N_OD), acc / sum_exp, st);
            }
        }
    return 0;
}

/* running max step: NewMaxLogic[b,h] = maximum(tlogic, MaxLogic[b,h]) */
enum { M_MID_OB, M_MID_OH, M_MID_OS, M_MID_OD, M_E_B1, M_E_H1, M_E_S, M_OBS, M_OH, M_OD, M_BSEQ, M_BD, M_K,
       M_E_B, M_E_H, M_LOGIC_B, M_LOGIC_H, M_NP };
enum { MR_SEQLEN, MR_MID, MR_E, MR_MAX, MR_NEWMAX, MR_O, MR_N };

static int running_max_step(const td_abi_launch *L) {
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            float tlogic = tl_load(L, MR_E, b * TL_I(L, M_E_B) + h * TL_I(L, M_E_H) + TL_I(L, M_K));
            int64_t off = b * TL_I(L, M_LOGIC_B) + h * TL_I(L, M_LOGIC_H);
            float max_logic = tl_load(L, MR_MAX, off);
            float new_max_logic = fmaxf(tlogic, max_logic); /* tl.maximum */
            tl_store(L, MR_NEWMAX, off, new_max_logic, tl_f32());
        }
    return 0;
}

/* final store: O[b,h,:] = Final[b,h,:], stored into O's format */
enum { F_FB, F_FH, F_FD, F_OBS, F_OH, F_OD, F_BD, F_NP };
enum { FR_FINAL, FR_O, FR_N };

static int final_store(const td_abi_launch *L) {
    int64_t BD = TL_I(L, F_BD);
    td_profile st = attn2_store_prof(L, FR_O);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++)
            for (int64_t d = 0; d < BD; d++) {
                float final = tl_load(L, FR_FINAL, b * TL_I(L, F_FB) + h * TL_I(L, F_FH) + d * TL_I(L, F_FD));
                tl_store(L, FR_O, b * TL_I(L, F_OBS) + h * TL_I(L, F_OH) + d * TL_I(L, F_OD), final, st);
            }
    return 0;
}

TD_KERNEL(td_k_fd2_llama_norm) = {"flash_decode2_llama.flash_decode2_llama_normalization_output_summary_general",
                                  "triton", TD_ABI_HOST, NULL, NULL, NULL, N_NP, NR_N, normalization_store, NULL};
TD_KERNEL(td_k_fd2_llama_max) = {"flash_decode2_llama.flash_decode2_llama_running_max_output_summary_general",
                                 "triton", TD_ABI_HOST, NULL, NULL, NULL, M_NP, MR_N, running_max_step, NULL};
TD_KERNEL(td_k_fd2_llama_fin) = {"flash_decode2_llama.flash_decode2_llama_final_store_io_correctness", "triton",
                                 TD_ABI_HOST, NULL, NULL, NULL, F_NP, FR_N, final_store, NULL};
TD_KERNEL(td_k_fd2_llama_finr) = {"flash_decode2_llama.flash_decode2_llama_final_store_io_correctnessR", "triton",
                                  TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, F_NP, FR_N, final_store, NULL};
