/* Alternatives for flash_decode2_phi (the Phi stage-2 decode slices, head lanes
 * d < head_dim).
 *
 *   masked accumulator, alt_fma_ex2approx  one step of the stage-2 recurrence with both
 *                 exps the ex2.approx.f32 model after the binary32 multiply by log2 e
 *                 (compiled tl.exp), and both updates contracted into FMAs:
 *                 acc' = fmaf(exp_logic, tv, acc * old_scale),
 *                 sum' = fmaf(sum, old_scale, exp_logic).
 *                 Admissible: the compiled exp, FMA contraction.
 *   normalization, alt_rcp  Out = Acc * (1/SumExp).  Admissible: reciprocal-multiply.
 * Parameters and regions as kernels/host/flash_decode2_phi.c. */
#include "alt_a_num.h"

enum { S_MID_OB, S_MID_OH, S_MID_OS, S_MID_OD, S_E_B, S_E_H, S_E_S, S_OBS, S_OH, S_OD, S_N };
enum { A_HD = S_N, A_BSEQ, A_BD, A_K, A_ACC_B, A_ACC_H, A_ACC_D, A_SUM_B, A_SUM_H, A_LOGIC_B, A_LOGIC_H, A_NP };
enum { AR_SEQLEN, AR_MID, AR_E, AR_ACCIN, AR_SUMIN, AR_MAX, AR_NEWMAX, AR_ACCOUT, AR_SUMOUT, AR_OUT, AR_N };
enum { N_HD = S_N, N_BSEQ, N_BD, N_ACC_B, N_ACC_H, N_ACC_D, N_SUM_B, N_SUM_H, N_NP };
enum { NR_SEQLEN, NR_MID, NR_E, NR_ACC, NR_SUM, NR_OUT, NR_N };

static int fdp_acc(const td_abi_launch *L) {
    int64_t BD = TL_I(L, A_BD), hd = TL_I(L, A_HD), k = TL_I(L, A_K), w = hd < BD ? hd : BD;
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            float tlogic = tl_load(L, AR_E, b * TL_I(L, S_E_B) + h * TL_I(L, S_E_H) + k);
            int64_t lo = b * TL_I(L, A_LOGIC_B) + h * TL_I(L, A_LOGIC_H);
            float nm = tl_load(L, AR_NEWMAX, lo);
            float old_scale = aa_exp_approx(tl_load(L, AR_MAX, lo) - nm), e = aa_exp_approx(tlogic - nm);
            for (int64_t d = 0; d < w; d++) {
                float tv = tl_load(L, AR_MID, b * TL_I(L, S_MID_OB) + h * TL_I(L, S_MID_OH) + k * TL_I(L, S_MID_OS) +
                                                  d * TL_I(L, S_MID_OD));
                int64_t ao = b * TL_I(L, A_ACC_B) + h * TL_I(L, A_ACC_H) + d * TL_I(L, A_ACC_D);
                tl_store(L, AR_ACCOUT, ao, fmaf(e, tv, tl_load(L, AR_ACCIN, ao) * old_scale), tl_f32());
            }
            int64_t so = b * TL_I(L, A_SUM_B) + h * TL_I(L, A_SUM_H);
            tl_store(L, AR_SUMOUT, so, fmaf(tl_load(L, AR_SUMIN, so), old_scale, e), tl_f32());
        }
    return 0;
}

static int fdp_norm_rcp(const td_abi_launch *L) {
    int64_t BD = TL_I(L, N_BD), hd = TL_I(L, N_HD), w = hd < BD ? hd : BD;
    td_profile st = {TL_FMT(L, NR_OUT), TD_RNE, TD_OVF_INF, false};
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            float r = 1.0f / tl_load(L, NR_SUM, b * TL_I(L, N_SUM_B) + h * TL_I(L, N_SUM_H));
            for (int64_t d = 0; d < w; d++) {
                float acc = tl_load(L, NR_ACC, b * TL_I(L, N_ACC_B) + h * TL_I(L, N_ACC_H) + d * TL_I(L, N_ACC_D));
                tl_store(L, NR_OUT, b * TL_I(L, S_OBS) + h * TL_I(L, S_OH) + d * TL_I(L, S_OD), acc * r, st);
            }
        }
    return 0;
}

TD_KERNEL(td_a_fd2_phi_acc_fma) = {"flash_decode2_phi.flash_decode2_phi_masked_accumulator_output_summary_general",
                                   "alt_fma_ex2approx", TD_ABI_HOST, NULL, NULL, NULL, A_NP, AR_N, fdp_acc, NULL};
TD_KERNEL(td_a_fd2_phi_norm_rcp) = {"flash_decode2_phi.flash_decode2_phi_normalization_output_summary_general",
                                    "alt_rcp", TD_ABI_HOST, NULL, NULL, NULL, N_NP, NR_N, fdp_norm_rcp, NULL};
