/* flash_decode2_phi: the slice kernels of the Phi _fwd_kernel_flash_decode_stage2 that
 * the VeriTile contracts speak about (masked head dimension: lanes d < head_dim), each a
 * Triton program over the grid (batch, head). */
#include "attn2_tl.h"

enum { S_MID_OB, S_MID_OH, S_MID_OS, S_MID_OD, S_E_B, S_E_H, S_E_S, S_OBS, S_OH, S_OD, S_N };
enum { A_HD = S_N, A_BSEQ, A_BD, A_K, A_ACC_B, A_ACC_H, A_ACC_D, A_SUM_B, A_SUM_H, A_LOGIC_B, A_LOGIC_H, A_NP };
enum { AR_SEQLEN, AR_MID, AR_E, AR_ACCIN, AR_SUMIN, AR_MAX, AR_NEWMAX, AR_ACCOUT, AR_SUMOUT, AR_OUT, AR_N };
enum { X_HD = S_N, X_BSEQ, X_BD, X_BNS, X_NP };
enum { XR_SEQLEN, XR_MID, XR_E, XR_OUT, XR_TRACE, XR_N };
enum { N_HD = S_N, N_BSEQ, N_BD, N_ACC_B, N_ACC_H, N_ACC_D, N_SUM_B, N_SUM_H, N_NP };
enum { NR_SEQLEN, NR_MID, NR_E, NR_ACC, NR_SUM, NR_OUT, NR_N };
enum { F_HD, F_FB, F_FH, F_FD, F_OBS, F_OH, F_OD, F_BD, F_NP };
enum { FR_FINAL, FR_OUT, FR_N };

/* accumulator step + sum-exp step (the bundle), one launch */
static int accumulator_steps(const td_abi_launch *L) {
    int64_t BD = TL_I(L, A_BD), hd = TL_I(L, A_HD), k = TL_I(L, A_K);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            float tlogic = tl_load(L, AR_E, b * TL_I(L, S_E_B) + h * TL_I(L, S_E_H) + k);
            int64_t lo = b * TL_I(L, A_LOGIC_B) + h * TL_I(L, A_LOGIC_H);
            float max_logic = tl_load(L, AR_MAX, lo), new_max_logic = tl_load(L, AR_NEWMAX, lo);
            float old_scale = expf(max_logic - new_max_logic);
            float exp_logic = expf(tlogic - new_max_logic);
            for (int64_t d = 0; d < BD; d++) {
                if (!(d < hd)) continue; /* mask = offs_d < head_dim */
                float tv = tl_load(L, AR_MID, b * TL_I(L, S_MID_OB) + h * TL_I(L, S_MID_OH) + k * TL_I(L, S_MID_OS) +
                                                  d * TL_I(L, S_MID_OD));
                int64_t ao = b * TL_I(L, A_ACC_B) + h * TL_I(L, A_ACC_H) + d * TL_I(L, A_ACC_D);
                float acc = tl_load(L, AR_ACCIN, ao);
                acc = acc * old_scale;
                acc = acc + exp_logic * tv;
                tl_store(L, AR_ACCOUT, ao, acc, tl_f32());
            }
            int64_t so = b * TL_I(L, A_SUM_B) + h * TL_I(L, A_SUM_H);
            float sum_exp = tl_load(L, AR_SUMIN, so);
            sum_exp = sum_exp * old_scale + exp_logic;
            tl_store(L, AR_SUMOUT, so, sum_exp, tl_f32());
        }
    return 0;
}

/* the loop's running max, max_logic recorded after every step (entry 0: the seed) */
static int running_max_trace(const td_abi_launch *L) {
    int64_t n = TL_I(L, X_BNS);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t row = ((int64_t)b * L->grid[1] + h) * (n + 1);
            float max_logic = -INFINITY;
            tl_store(L, XR_TRACE, row, max_logic, tl_f32());
            for (int64_t k = 0; k < n; k++) {
                float tlogic = tl_load(L, XR_E, b * TL_I(L, S_E_B) + h * TL_I(L, S_E_H) + k);
                max_logic = fmaxf(tlogic, max_logic); /* tl.maximum */
                tl_store(L, XR_TRACE, row + k + 1, max_logic, tl_f32());
            }
        }
    return 0;
}

/* normalization: Out[b,h,d] = Acc[b,h,d] / SumExp[b,h], d < head_dim */
static int normalization_store(const td_abi_launch *L) {
    int64_t BD = TL_I(L, N_BD), hd = TL_I(L, N_HD);
    td_profile st = attn2_store_prof(L, NR_OUT);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            float sum_exp = tl_load(L, NR_SUM, b * TL_I(L, N_SUM_B) + h * TL_I(L, N_SUM_H));
            for (int64_t d = 0; d < BD; d++) {
                if (!(d < hd)) continue;
                float acc = tl_load(L, NR_ACC, b * TL_I(L, N_ACC_B) + h * TL_I(L, N_ACC_H) + d * TL_I(L, N_ACC_D));
                tl_store(L, NR_OUT, b * TL_I(L, S_OBS) + h * TL_I(L, S_OH) + d * TL_I(L, S_OD), acc / sum_exp, st);
            }
        }
    return 0;
}

/* final store: Out[b,h,d] = Final[b,h,d], d < head_dim, in Out's format */
static int final_store(const td_abi_launch *L) {
    int64_t BD = TL_I(L, F_BD), hd = TL_I(L, F_HD);
    td_profile st = attn2_store_prof(L, FR_OUT);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++)
            for (int64_t d = 0; d < BD; d++) {
                if (!(d < hd)) continue;
                float v = tl_load(L, FR_FINAL, b * TL_I(L, F_FB) + h * TL_I(L, F_FH) + d * TL_I(L, F_FD));
                tl_store(L, FR_OUT, b * TL_I(L, F_OBS) + h * TL_I(L, F_OH) + d * TL_I(L, F_OD), v, st);
            }
    return 0;
}

TD_KERNEL(td_k_fd2_phi_acc) = {"flash_decode2_phi.flash_decode2_phi_masked_accumulator_output_summary_general",
                               "triton", TD_ABI_HOST, NULL, NULL, NULL, A_NP, AR_N, accumulator_steps, NULL};
TD_KERNEL(td_k_fd2_phi_fold) = {"flash_decode2_phi.flash_decode2_phi_running_max_output_summary_general", "triton",
                                TD_ABI_HOST, NULL, NULL, NULL, X_NP, XR_N, running_max_trace, NULL};
TD_KERNEL(td_k_fd2_phi_norm) = {"flash_decode2_phi.flash_decode2_phi_normalization_output_summary_general", "triton",
                                TD_ABI_HOST, NULL, NULL, NULL, N_NP, NR_N, normalization_store, NULL};
TD_KERNEL(td_k_fd2_phi_fin) = {"flash_decode2_phi.flash_decode2_phi_final_store_io_correctness", "triton",
                               TD_ABI_HOST, NULL, NULL, NULL, F_NP, FR_N, final_store, NULL};
TD_KERNEL(td_k_fd2_phi_finr) = {"flash_decode2_phi.flash_decode2_phi_final_store_io_correctnessR", "triton",
                                TD_ABI_HOST, "store=bf16:rne:inf", NULL, NULL, F_NP, FR_N, final_store, NULL};
