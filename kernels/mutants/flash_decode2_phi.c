/* flash_decode2_phi mutants: bugs of the kind stage-2 decoding kernels ship with. */
#include "../host/attn2_tl.h"

enum { S_MID_OB, S_MID_OH, S_MID_OS, S_MID_OD, S_E_B, S_E_H, S_E_S, S_OBS, S_OH, S_OD, S_N };
enum { A_HD = S_N, A_BSEQ, A_BD, A_K, A_ACC_B, A_ACC_H, A_ACC_D, A_SUM_B, A_SUM_H, A_LOGIC_B, A_LOGIC_H, A_NP };
enum { AR_SEQLEN, AR_MID, AR_E, AR_ACCIN, AR_SUMIN, AR_MAX, AR_NEWMAX, AR_ACCOUT, AR_SUMOUT, AR_OUT, AR_N };
enum { X_HD = S_N, X_BSEQ, X_BD, X_BNS, X_NP };
enum { XR_SEQLEN, XR_MID, XR_E, XR_OUT, XR_TRACE, XR_N };
enum { N_HD = S_N, N_BSEQ, N_BD, N_ACC_B, N_ACC_H, N_ACC_D, N_SUM_B, N_SUM_H, N_NP };
enum { NR_SEQLEN, NR_MID, NR_E, NR_ACC, NR_SUM, NR_OUT, NR_N };
enum { F_HD, F_FB, F_FH, F_FD, F_OBS, F_OH, F_OD, F_BD, F_NP };
enum { FR_FINAL, FR_OUT, FR_N };

/* The running max moves but sum_exp is not rescaled: sum_exp + exp_logic. */
static int acc_sum_not_rescaled(const td_abi_launch *L) {
    int64_t BD = TL_I(L, A_BD), hd = TL_I(L, A_HD), k = TL_I(L, A_K);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            float tlogic = tl_load(L, AR_E, b * TL_I(L, S_E_B) + h * TL_I(L, S_E_H) + k);
            int64_t lo = b * TL_I(L, A_LOGIC_B) + h * TL_I(L, A_LOGIC_H);
            float max_logic = tl_load(L, AR_MAX, lo), new_max_logic = tl_load(L, AR_NEWMAX, lo);
            float old_scale = expf(max_logic - new_max_logic), exp_logic = expf(tlogic - new_max_logic);
            for (int64_t d = 0; d < BD && d < hd; d++) {
                float tv = tl_load(L, AR_MID, b * TL_I(L, S_MID_OB) + h * TL_I(L, S_MID_OH) + k * TL_I(L, S_MID_OS) +
                                                  d * TL_I(L, S_MID_OD));
                int64_t ao = b * TL_I(L, A_ACC_B) + h * TL_I(L, A_ACC_H) + d * TL_I(L, A_ACC_D);
                float acc = tl_load(L, AR_ACCIN, ao) * old_scale;
                tl_store(L, AR_ACCOUT, ao, acc + exp_logic * tv, tl_f32());
            }
            int64_t so = b * TL_I(L, A_SUM_B) + h * TL_I(L, A_SUM_H);
            tl_store(L, AR_SUMOUT, so, tl_load(L, AR_SUMIN, so) + exp_logic, tl_f32());
        }
    return 0;
}

/* The running max starts at 0.0 instead of -inf (sum_exp = 0.0; max_logic = 0.0). */
static int fold_zero_seed(const td_abi_launch *L) {
    int64_t n = TL_I(L, X_BNS);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t row = ((int64_t)b * L->grid[1] + h) * (n + 1);
            float max_logic = 0.0f;
            tl_store(L, XR_TRACE, row, max_logic, tl_f32());
            for (int64_t k = 0; k < n; k++) {
                max_logic = fmaxf(tl_load(L, XR_E, b * TL_I(L, S_E_B) + h * TL_I(L, S_E_H) + k), max_logic);
                tl_store(L, XR_TRACE, row + k + 1, max_logic, tl_f32());
            }
        }
    return 0;
}

/* The store mask compares with <=: lane head_dim of the tile is written too. */
static int norm_mask_off_by_one(const td_abi_launch *L) {
    int64_t BD = TL_I(L, N_BD), hd = TL_I(L, N_HD);
    td_profile st = attn2_store_prof(L, NR_OUT);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            float sum_exp = tl_load(L, NR_SUM, b * TL_I(L, N_SUM_B) + h * TL_I(L, N_SUM_H));
            for (int64_t d = 0; d < BD && d <= hd; d++) {
                float acc = tl_load(L, NR_ACC, b * TL_I(L, N_ACC_B) + h * TL_I(L, N_ACC_H) + d * TL_I(L, N_ACC_D));
                tl_store(L, NR_OUT, b * TL_I(L, S_OBS) + h * TL_I(L, S_OH) + d * TL_I(L, S_OD), acc / sum_exp, st);
            }
        }
    return 0;
}

/* The head_dim mask is dropped: all BLOCK_DMODEL lanes are stored. */
static int fin_mask_dropped(const td_abi_launch *L) {
    int64_t BD = TL_I(L, F_BD);
    td_profile st = attn2_store_prof(L, FR_OUT);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++)
            for (int64_t d = 0; d < BD; d++) {
                float v = tl_load(L, FR_FINAL, b * TL_I(L, F_FB) + h * TL_I(L, F_FH) + d * TL_I(L, F_FD));
                tl_store(L, FR_OUT, b * TL_I(L, F_OBS) + h * TL_I(L, F_OH) + d * TL_I(L, F_OD), v, st);
            }
    return 0;
}

/* fp32 -> bf16 by dropping the low 16 bits (truncation), the classic hand-rolled cast. */
static int fin_bf16_truncation(const td_abi_launch *L) {
    int64_t BD = TL_I(L, F_BD), hd = TL_I(L, F_HD);
    uint16_t *out = (uint16_t *)TL_BASE(L, FR_OUT);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++)
            for (int64_t d = 0; d < BD && d < hd; d++) {
                float v = tl_load(L, FR_FINAL, b * TL_I(L, F_FB) + h * TL_I(L, F_FH) + d * TL_I(L, F_FD));
                uint32_t bits;
                memcpy(&bits, &v, 4);
                out[b * TL_I(L, F_OBS) + h * TL_I(L, F_OH) + d * TL_I(L, F_OD)] = (uint16_t)(bits >> 16);
            }
    return 0;
}

/* Final's offset b*stride_final_b + h*stride_final_h + d*stride_final_d formed in int32
 * (Triton's type for pids and strides below 2^31): past 2^31 elements it wraps (tl_i32)
 * to an illegal address (tl_fault) or another row. */
static int fin_offset_int32(const td_abi_launch *L) {
    int64_t BD = TL_I(L, F_BD), hd = TL_I(L, F_HD);
    td_profile st = attn2_store_prof(L, FR_OUT);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++)
            for (int64_t d = 0; d < BD && d < hd; d++) {
                int64_t off = tl_i32(b * tl_i32(TL_I(L, F_FB)) + h * tl_i32(TL_I(L, F_FH)) + d * tl_i32(TL_I(L, F_FD)));
                if (tl_fault(L, FR_FINAL, off, 1, 1, b)) return 1;
                float v = tl_load(L, FR_FINAL, off);
                tl_store(L, FR_OUT, b * TL_I(L, F_OBS) + h * TL_I(L, F_OH) + d * TL_I(L, F_OD), v, st);
            }
    return 0;
}

/* Mid_O_LogExpSum's element (b, h, k) at an offset formed in int32; -1 (the launch
 * fails: tl_fault) when the wrapped offset leaves the region */
static int64_t e_off_int32(const td_abi_launch *L, int reg, uint32_t b, uint32_t h, int64_t k) {
    int64_t off = tl_i32(b * tl_i32(TL_I(L, S_E_B)) + h * tl_i32(TL_I(L, S_E_H)) + tl_i32(k));
    return tl_fault(L, reg, off, 1, 1, b) ? -1 : off;
}

/* The accumulator bundle with Mid_O_LogExpSum's offset formed in int32. */
static int acc_offset_int32(const td_abi_launch *L) {
    int64_t BD = TL_I(L, A_BD), hd = TL_I(L, A_HD), k = TL_I(L, A_K);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t eo = e_off_int32(L, AR_E, b, h, k);
            if (eo < 0) return 1;
            float tlogic = tl_load(L, AR_E, eo);
            int64_t lo = b * TL_I(L, A_LOGIC_B) + h * TL_I(L, A_LOGIC_H);
            float max_logic = tl_load(L, AR_MAX, lo), new_max_logic = tl_load(L, AR_NEWMAX, lo);
            float old_scale = expf(max_logic - new_max_logic), exp_logic = expf(tlogic - new_max_logic);
            for (int64_t d = 0; d < BD && d < hd; d++) {
                float tv = tl_load(L, AR_MID, b * TL_I(L, S_MID_OB) + h * TL_I(L, S_MID_OH) + k * TL_I(L, S_MID_OS) +
                                                  d * TL_I(L, S_MID_OD));
                int64_t ao = b * TL_I(L, A_ACC_B) + h * TL_I(L, A_ACC_H) + d * TL_I(L, A_ACC_D);
                float acc = tl_load(L, AR_ACCIN, ao) * old_scale;
                tl_store(L, AR_ACCOUT, ao, acc + exp_logic * tv, tl_f32());
            }
            int64_t so = b * TL_I(L, A_SUM_B) + h * TL_I(L, A_SUM_H);
            tl_store(L, AR_SUMOUT, so, tl_load(L, AR_SUMIN, so) * old_scale + exp_logic, tl_f32());
        }
    return 0;
}

/* The running-max fold with Mid_O_LogExpSum's offset formed in int32. */
static int fold_offset_int32(const td_abi_launch *L) {
    int64_t n = TL_I(L, X_BNS);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t row = ((int64_t)b * L->grid[1] + h) * (n + 1);
            float max_logic = -INFINITY;
            tl_store(L, XR_TRACE, row, max_logic, tl_f32());
            for (int64_t k = 0; k < n; k++) {
                int64_t eo = e_off_int32(L, XR_E, b, h, k);
                if (eo < 0) return 1;
                max_logic = fmaxf(tl_load(L, XR_E, eo), max_logic);
                tl_store(L, XR_TRACE, row + k + 1, max_logic, tl_f32());
            }
        }
    return 0;
}

/* The normalization slice with Acc's offset formed in int32. */
static int norm_offset_int32(const td_abi_launch *L) {
    int64_t BD = TL_I(L, N_BD), hd = TL_I(L, N_HD);
    td_profile st = attn2_store_prof(L, NR_OUT);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            float sum_exp = tl_load(L, NR_SUM, b * TL_I(L, N_SUM_B) + h * TL_I(L, N_SUM_H));
            for (int64_t d = 0; d < BD && d < hd; d++) {
                int64_t off = tl_i32(b * tl_i32(TL_I(L, N_ACC_B)) + h * tl_i32(TL_I(L, N_ACC_H)) +
                                     d * tl_i32(TL_I(L, N_ACC_D)));
                if (tl_fault(L, NR_ACC, off, 1, 1, b)) return 1;
                float acc = tl_load(L, NR_ACC, off);
                tl_store(L, NR_OUT, b * TL_I(L, S_OBS) + h * TL_I(L, S_OH) + d * TL_I(L, S_OD), acc / sum_exp, st);
            }
        }
    return 0;
}

TD_KERNEL(td_m_fd2_phi_acc) = {"flash_decode2_phi.flash_decode2_phi_masked_accumulator_output_summary_general",
                               "mut_sum_exp_not_rescaled", TD_ABI_HOST, NULL, NULL,
                               "sum_exp += exp_logic without the old_scale rescale", A_NP, AR_N, acc_sum_not_rescaled, NULL};
TD_KERNEL(td_m_fd2_phi_fold) = {"flash_decode2_phi.flash_decode2_phi_running_max_output_summary_general",
                                "mut_zero_seed", TD_ABI_HOST, NULL, NULL, "max_logic starts at 0.0 instead of -inf",
                                X_NP, XR_N, fold_zero_seed, NULL};
TD_KERNEL(td_m_fd2_phi_norm) = {"flash_decode2_phi.flash_decode2_phi_normalization_output_summary_general",
                                "mut_mask_off_by_one", TD_ABI_HOST, NULL, NULL,
                                "store mask offs_d <= head_dim: one lane past head_dim written", N_NP, NR_N,
                                norm_mask_off_by_one, NULL};
TD_KERNEL(td_m_fd2_phi_fin) = {"flash_decode2_phi.flash_decode2_phi_final_store_io_correctness", "mut_mask_dropped",
                               TD_ABI_HOST, NULL, NULL, "the head_dim mask is dropped from the store", F_NP, FR_N,
                               fin_mask_dropped, NULL};
TD_KERNEL(td_m_fd2_phi_finr) = {"flash_decode2_phi.flash_decode2_phi_final_store_io_correctnessR",
                                "mut_bf16_truncation", TD_ABI_HOST, "store=bf16:rne:inf", NULL,
                                "fp32 -> bf16 by truncating the low 16 bits", F_NP, FR_N, fin_bf16_truncation, NULL};
TD_KERNEL(td_m_fd2_phi_fin_int32) = {"flash_decode2_phi.flash_decode2_phi_final_store_io_correctness",
                                     "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                     "Final's offset formed in int32 (wraps beyond 2^31 elements)", F_NP, FR_N,
                                     fin_offset_int32, NULL};
TD_KERNEL(td_m_fd2_phi_finr_int32) = {"flash_decode2_phi.flash_decode2_phi_final_store_io_correctnessR",
                                      "mut_offset_int32", TD_ABI_HOST, "store=bf16:rne:inf", NULL,
                                      "Final's offset formed in int32 (wraps beyond 2^31 elements)", F_NP, FR_N,
                                      fin_offset_int32, NULL};
TD_KERNEL(td_m_fd2_phi_acc_int32) = {"flash_decode2_phi.flash_decode2_phi_masked_accumulator_output_summary_general",
                                     "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                     "Mid_O_LogExpSum's offset formed in int32 (wraps beyond 2^31 elements)", A_NP,
                                     AR_N, acc_offset_int32, NULL};
TD_KERNEL(td_m_fd2_phi_fold_int32) = {"flash_decode2_phi.flash_decode2_phi_running_max_output_summary_general",
                                      "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                      "Mid_O_LogExpSum's offset formed in int32 (wraps beyond 2^31 elements)", X_NP,
                                      XR_N, fold_offset_int32, NULL};
TD_KERNEL(td_m_fd2_phi_norm_int32) = {"flash_decode2_phi.flash_decode2_phi_normalization_output_summary_general",
                                      "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                      "Acc's offset formed in int32 (wraps beyond 2^31 elements)", N_NP, NR_N,
                                      norm_offset_int32, NULL};
