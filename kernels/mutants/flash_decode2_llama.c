/* flash_decode2_llama mutants: bugs of the kind stage-2 decoding kernels ship with. */
#include "../host/attn2_tl.h"

enum { N_MID_OB, N_MID_OH, N_MID_OS, N_MID_OD, N_E_B, N_E_H, N_E_S, N_OBS, N_OH, N_OD, N_BSEQ, N_BD,
       N_ACC_B, N_ACC_H, N_ACC_D, N_SUM_B, N_SUM_H, N_NP };
enum { NR_SEQLEN, NR_MID, NR_E, NR_ACC, NR_SUM, NR_O, NR_N };
enum { M_MID_OB, M_MID_OH, M_MID_OS, M_MID_OD, M_E_B1, M_E_H1, M_E_S, M_OBS, M_OH, M_OD, M_BSEQ, M_BD, M_K,
       M_E_B, M_E_H, M_LOGIC_B, M_LOGIC_H, M_NP };
enum { MR_SEQLEN, MR_MID, MR_E, MR_MAX, MR_NEWMAX, MR_O, MR_N };
enum { F_FB, F_FH, F_FD, F_OBS, F_OH, F_OD, F_BD, F_NP };
enum { FR_FINAL, FR_O, FR_N };

/* SumExp addressed with the accumulator's head stride (a copy-paste of the Acc offset):
 * another head's (or a padding cell's) sum divides the row. */
static int norm_sum_stride(const td_abi_launch *L) {
    int64_t BD = TL_I(L, N_BD);
    td_profile st = attn2_store_prof(L, NR_O);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t soff = b * TL_I(L, N_SUM_B) + h * TL_I(L, N_ACC_H);
            if (soff >= (int64_t)TL_LEN(L, NR_SUM)) soff = (int64_t)TL_LEN(L, NR_SUM) - 1;
            float sum_exp = tl_load(L, NR_SUM, soff);
            for (int64_t d = 0; d < BD; d++) {
                float acc = tl_load(L, NR_ACC, b * TL_I(L, N_ACC_B) + h * TL_I(L, N_ACC_H) + d * TL_I(L, N_ACC_D));
                tl_store(L, NR_O, b * TL_I(L, N_OBS) + h * TL_I(L, N_OH) + d * TL_I(L, N_OD), acc / sum_exp, st);
            }
        }
    return 0;
}

/* The running max is not carried: the step keeps the block's log-sum-exp. */
static int max_not_carried(const td_abi_launch *L) {
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            float tlogic = tl_load(L, MR_E, b * TL_I(L, M_E_B) + h * TL_I(L, M_E_H) + TL_I(L, M_K));
            tl_store(L, MR_NEWMAX, b * TL_I(L, M_LOGIC_B) + h * TL_I(L, M_LOGIC_H), tlogic, tl_f32());
        }
    return 0;
}

/* The store loop stops one lane short (arange(0, BLOCK_DMODEL - 1) after a refactor). */
static int fin_last_lane(const td_abi_launch *L) {
    int64_t BD = TL_I(L, F_BD);
    td_profile st = attn2_store_prof(L, FR_O);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++)
            for (int64_t d = 0; d + 1 < BD; d++) {
                float v = tl_load(L, FR_FINAL, b * TL_I(L, F_FB) + h * TL_I(L, F_FH) + d * TL_I(L, F_FD));
                tl_store(L, FR_O, b * TL_I(L, F_OBS) + h * TL_I(L, F_OH) + d * TL_I(L, F_OD), v, st);
            }
    return 0;
}

/* The narrowing store truncates (round toward zero, overflow saturating) instead of
 * rounding to nearest even: what a bit-shift conversion does. */
static int fin_truncating_store(const td_abi_launch *L) {
    int64_t BD = TL_I(L, F_BD);
    td_profile st = {TL_FMT(L, FR_O), TD_RTZ, TD_OVF_SAT, false};
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++)
            for (int64_t d = 0; d < BD; d++) {
                float v = tl_load(L, FR_FINAL, b * TL_I(L, F_FB) + h * TL_I(L, F_FH) + d * TL_I(L, F_FD));
                tl_store(L, FR_O, b * TL_I(L, F_OBS) + h * TL_I(L, F_OH) + d * TL_I(L, F_OD), v, st);
            }
    return 0;
}

/* Final's offset b*stride_final_b + h*stride_final_h + d*stride_final_d formed in int32
 * (Triton's type for pids and strides below 2^31): past 2^31 elements it wraps (tl_i32)
 * to an illegal address (tl_fault) or another row. */
static int fin_offset_int32(const td_abi_launch *L) {
    int64_t BD = TL_I(L, F_BD);
    td_profile st = attn2_store_prof(L, FR_O);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++)
            for (int64_t d = 0; d < BD; d++) {
                int64_t off = tl_i32(b * tl_i32(TL_I(L, F_FB)) + h * tl_i32(TL_I(L, F_FH)) + d * tl_i32(TL_I(L, F_FD)));
                if (tl_fault(L, FR_FINAL, off, 1, 1, b)) return 1;
                float v = tl_load(L, FR_FINAL, off);
                tl_store(L, FR_O, b * TL_I(L, F_OBS) + h * TL_I(L, F_OH) + d * TL_I(L, F_OD), v, st);
            }
    return 0;
}

/* The normalization slice with Acc's offset formed in int32 (as fin_offset_int32). */
static int norm_offset_int32(const td_abi_launch *L) {
    int64_t BD = TL_I(L, N_BD);
    td_profile st = attn2_store_prof(L, NR_O);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            float sum_exp = tl_load(L, NR_SUM, b * TL_I(L, N_SUM_B) + h * TL_I(L, N_SUM_H));
            for (int64_t d = 0; d < BD; d++) {
                int64_t off = tl_i32(b * tl_i32(TL_I(L, N_ACC_B)) + h * tl_i32(TL_I(L, N_ACC_H)) +
                                     d * tl_i32(TL_I(L, N_ACC_D)));
                if (tl_fault(L, NR_ACC, off, 1, 1, b)) return 1;
                float acc = tl_load(L, NR_ACC, off);
                tl_store(L, NR_O, b * TL_I(L, N_OBS) + h * TL_I(L, N_OH) + d * TL_I(L, N_OD), acc / sum_exp, st);
            }
        }
    return 0;
}

/* The running-max step with Mid_O_LogExpSum's offset formed in int32. */
static int max_offset_int32(const td_abi_launch *L) {
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t eo = tl_i32(b * tl_i32(TL_I(L, M_E_B)) + h * tl_i32(TL_I(L, M_E_H)) + tl_i32(TL_I(L, M_K)));
            if (tl_fault(L, MR_E, eo, 1, 1, b)) return 1;
            float tlogic = tl_load(L, MR_E, eo);
            int64_t off = b * TL_I(L, M_LOGIC_B) + h * TL_I(L, M_LOGIC_H);
            tl_store(L, MR_NEWMAX, off, fmaxf(tlogic, tl_load(L, MR_MAX, off)), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_m_fd2_llama_norm_stride) = {
    "flash_decode2_llama.flash_decode2_llama_normalization_output_summary_general", "mut_sum_exp_head_stride",
    TD_ABI_HOST, NULL, NULL, "SumExp addressed with stride_acc_h instead of stride_sum_h", N_NP, NR_N,
    norm_sum_stride, NULL};
TD_KERNEL(td_m_fd2_llama_max_carry) = {
    "flash_decode2_llama.flash_decode2_llama_running_max_output_summary_general", "mut_max_not_carried", TD_ABI_HOST,
    NULL, NULL, "new_max_logic = tlogic: the running max is dropped", M_NP, MR_N, max_not_carried, NULL};
TD_KERNEL(td_m_fd2_llama_fin_lane) = {"flash_decode2_llama.flash_decode2_llama_final_store_io_correctness",
                                      "mut_last_lane_dropped", TD_ABI_HOST, NULL, NULL,
                                      "the store covers BLOCK_DMODEL - 1 lanes", F_NP, FR_N, fin_last_lane, NULL};
TD_KERNEL(td_m_fd2_llama_finr_rtz) = {"flash_decode2_llama.flash_decode2_llama_final_store_io_correctnessR",
                                      "mut_truncating_store", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                      "the fp16 store truncates (RTZ, saturating) instead of RNE", F_NP, FR_N,
                                      fin_truncating_store, NULL};
TD_KERNEL(td_m_fd2_llama_fin_int32) = {"flash_decode2_llama.flash_decode2_llama_final_store_io_correctness",
                                       "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                       "Final's offset formed in int32 (wraps beyond 2^31 elements)", F_NP, FR_N,
                                       fin_offset_int32, NULL};
TD_KERNEL(td_m_fd2_llama_finr_int32) = {"flash_decode2_llama.flash_decode2_llama_final_store_io_correctnessR",
                                        "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                        "Final's offset formed in int32 (wraps beyond 2^31 elements)", F_NP, FR_N,
                                        fin_offset_int32, NULL};
TD_KERNEL(td_m_fd2_llama_norm_int32) = {
    "flash_decode2_llama.flash_decode2_llama_normalization_output_summary_general", "mut_offset_int32", TD_ABI_HOST,
    NULL, NULL, "Acc's offset formed in int32 (wraps beyond 2^31 elements)", N_NP, NR_N, norm_offset_int32, NULL};
TD_KERNEL(td_m_fd2_llama_max_int32) = {
    "flash_decode2_llama.flash_decode2_llama_running_max_output_summary_general", "mut_offset_int32", TD_ABI_HOST,
    NULL, NULL, "Mid_O_LogExpSum's offset formed in int32 (wraps beyond 2^31 elements)", M_NP, MR_N,
    max_offset_int32, NULL};
