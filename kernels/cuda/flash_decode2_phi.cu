/* flash_decode2_phi on CUDA: the stage-2 slice kernels with the head_dim mask, one
 * block per (batch, head) program. */
#include "attn2_tlc.cuh"

enum { S_MID_OB, S_MID_OH, S_MID_OS, S_MID_OD, S_E_B, S_E_H, S_E_S, S_OBS, S_OH, S_OD, S_N };
enum { A_HD = S_N, A_BSEQ, A_BD, A_K, A_ACC_B, A_ACC_H, A_ACC_D, A_SUM_B, A_SUM_H, A_LOGIC_B, A_LOGIC_H, A_NP };
enum { AR_SEQLEN, AR_MID, AR_E, AR_ACCIN, AR_SUMIN, AR_MAX, AR_NEWMAX, AR_ACCOUT, AR_SUMOUT, AR_OUT, AR_N };
enum { X_HD = S_N, X_BSEQ, X_BD, X_BNS, X_NP };
enum { XR_SEQLEN, XR_MID, XR_E, XR_OUT, XR_TRACE, XR_N };
enum { N_HD = S_N, N_BSEQ, N_BD, N_ACC_B, N_ACC_H, N_ACC_D, N_SUM_B, N_SUM_H, N_NP };
enum { NR_SEQLEN, NR_MID, NR_E, NR_ACC, NR_SUM, NR_OUT, NR_N };
enum { F_HD, F_FB, F_FH, F_FD, F_OBS, F_OH, F_OD, F_BD, F_NP };
enum { FR_FINAL, FR_OUT, FR_N };

static __global__ void accumulator_steps(a2_args a) {
    int64_t b = blockIdx.x, h = blockIdx.y, k = A2_I(a, A_K);
    float tlogic = A2_LD(a, AR_E, b * A2_I(a, S_E_B) + h * A2_I(a, S_E_H) + k);
    int64_t lo = b * A2_I(a, A_LOGIC_B) + h * A2_I(a, A_LOGIC_H);
    float max_logic = A2_LD(a, AR_MAX, lo), new_max_logic = A2_LD(a, AR_NEWMAX, lo);
    float old_scale = expf(__fsub_rn(max_logic, new_max_logic));
    float exp_logic = expf(__fsub_rn(tlogic, new_max_logic));
    for (int64_t d = threadIdx.x; d < A2_I(a, A_BD); d += blockDim.x) {
        if (!(d < A2_I(a, A_HD))) continue;
        float tv = A2_LD(a, AR_MID, b * A2_I(a, S_MID_OB) + h * A2_I(a, S_MID_OH) + k * A2_I(a, S_MID_OS) +
                                        d * A2_I(a, S_MID_OD));
        int64_t ao = b * A2_I(a, A_ACC_B) + h * A2_I(a, A_ACC_H) + d * A2_I(a, A_ACC_D);
        float acc = __fmul_rn(A2_LD(a, AR_ACCIN, ao), old_scale);
        acc = __fadd_rn(acc, __fmul_rn(exp_logic, tv));
        A2_ST(a, AR_ACCOUT, ao, acc);
    }
    if (threadIdx.x == 0) {
        int64_t so = b * A2_I(a, A_SUM_B) + h * A2_I(a, A_SUM_H);
        A2_ST(a, AR_SUMOUT, so, __fadd_rn(__fmul_rn(A2_LD(a, AR_SUMIN, so), old_scale), exp_logic));
    }
}

static __global__ void running_max_trace(a2_args a) {
    int64_t b = blockIdx.x, h = blockIdx.y, n = A2_I(a, X_BNS);
    if (threadIdx.x) return;
    int64_t row = (b * a.grid[1] + h) * (n + 1);
    float max_logic = -INFINITY;
    A2_ST(a, XR_TRACE, row, max_logic);
    for (int64_t k = 0; k < n; k++) {
        max_logic = fmaxf(A2_LD(a, XR_E, b * A2_I(a, S_E_B) + h * A2_I(a, S_E_H) + k), max_logic);
        A2_ST(a, XR_TRACE, row + k + 1, max_logic);
    }
}

static __global__ void normalization_store(a2_args a) {
    int64_t b = blockIdx.x, h = blockIdx.y;
    float sum_exp = A2_LD(a, NR_SUM, b * A2_I(a, N_SUM_B) + h * A2_I(a, N_SUM_H));
    for (int64_t d = threadIdx.x; d < A2_I(a, N_BD); d += blockDim.x) {
        if (!(d < A2_I(a, N_HD))) continue;
        float acc = A2_LD(a, NR_ACC, b * A2_I(a, N_ACC_B) + h * A2_I(a, N_ACC_H) + d * A2_I(a, N_ACC_D));
        A2_ST(a, NR_OUT, b * A2_I(a, S_OBS) + h * A2_I(a, S_OH) + d * A2_I(a, S_OD), __fdiv_rn(acc, sum_exp));
    }
}

static __global__ void final_store(a2_args a) {
    int64_t b = blockIdx.x, h = blockIdx.y;
    for (int64_t d = threadIdx.x; d < A2_I(a, F_BD); d += blockDim.x) {
        if (!(d < A2_I(a, F_HD))) continue;
        float v = A2_LD(a, FR_FINAL, b * A2_I(a, F_FB) + h * A2_I(a, F_FH) + d * A2_I(a, F_FD));
        A2_ST(a, FR_OUT, b * A2_I(a, F_OBS) + h * A2_I(a, F_OH) + d * A2_I(a, F_OD), v);
    }
}

A2_LAUNCH(launch_acc, accumulator_steps, tlc_threads(A2_I(a, A_BD)))
A2_LAUNCH(launch_fold, running_max_trace, 32)
A2_LAUNCH(launch_norm, normalization_store, tlc_threads(A2_I(a, N_BD)))
A2_LAUNCH(launch_fin, final_store, tlc_threads(A2_I(a, F_BD)))

TD_KERNEL(td_kc_fd2_phi_acc) = {"flash_decode2_phi.flash_decode2_phi_masked_accumulator_output_summary_general",
                                "triton", TD_ABI_CUDA, NULL, NULL, NULL, A_NP, AR_N, launch_acc, NULL};
TD_KERNEL(td_kc_fd2_phi_fold) = {"flash_decode2_phi.flash_decode2_phi_running_max_output_summary_general", "triton",
                                 TD_ABI_CUDA, NULL, NULL, NULL, X_NP, XR_N, launch_fold, NULL};
TD_KERNEL(td_kc_fd2_phi_norm) = {"flash_decode2_phi.flash_decode2_phi_normalization_output_summary_general",
                                 "triton", TD_ABI_CUDA, NULL, NULL, NULL, N_NP, NR_N, launch_norm, NULL};
TD_KERNEL(td_kc_fd2_phi_fin) = {"flash_decode2_phi.flash_decode2_phi_final_store_io_correctness", "triton",
                                TD_ABI_CUDA, NULL, NULL, NULL, F_NP, FR_N, launch_fin, NULL};
TD_KERNEL(td_kc_fd2_phi_finr) = {"flash_decode2_phi.flash_decode2_phi_final_store_io_correctnessR", "triton",
                                 TD_ABI_CUDA, "store=bf16:rne:inf", NULL, NULL, F_NP, FR_N, launch_fin, NULL};
