/* flash_decode2_llama on CUDA: the stage-2 slice kernels (normalization store,
 * running-max step, final store), one block per (batch, head) program. */
#include "attn2_tlc.cuh"

enum { N_MID_OB, N_MID_OH, N_MID_OS, N_MID_OD, N_E_B, N_E_H, N_E_S, N_OBS, N_OH, N_OD, N_BSEQ, N_BD,
       N_ACC_B, N_ACC_H, N_ACC_D, N_SUM_B, N_SUM_H, N_NP };
enum { NR_SEQLEN, NR_MID, NR_E, NR_ACC, NR_SUM, NR_O, NR_N };
enum { M_MID_OB, M_MID_OH, M_MID_OS, M_MID_OD, M_E_B1, M_E_H1, M_E_S, M_OBS, M_OH, M_OD, M_BSEQ, M_BD, M_K,
       M_E_B, M_E_H, M_LOGIC_B, M_LOGIC_H, M_NP };
enum { MR_SEQLEN, MR_MID, MR_E, MR_MAX, MR_NEWMAX, MR_O, MR_N };
enum { F_FB, F_FH, F_FD, F_OBS, F_OH, F_OD, F_BD, F_NP };
enum { FR_FINAL, FR_O, FR_N };

static __global__ void normalization_store(a2_args a) {
    int64_t b = blockIdx.x, h = blockIdx.y;
    float sum_exp = A2_LD(a, NR_SUM, b * A2_I(a, N_SUM_B) + h * A2_I(a, N_SUM_H));
    for (int64_t d = threadIdx.x; d < A2_I(a, N_BD); d += blockDim.x) {
        float acc = A2_LD(a, NR_ACC, b * A2_I(a, N_ACC_B) + h * A2_I(a, N_ACC_H) + d * A2_I(a, N_ACC_D));
        A2_ST(a, NR_O, b * A2_I(a, N_OBS) + h * A2_I(a, N_OH) + d * A2_I(a, N_OD), __fdiv_rn(acc, sum_exp));
    }
}

static __global__ void running_max_step(a2_args a) {
    int64_t b = blockIdx.x, h = blockIdx.y;
    if (threadIdx.x) return;
    float tlogic = A2_LD(a, MR_E, b * A2_I(a, M_E_B) + h * A2_I(a, M_E_H) + A2_I(a, M_K));
    int64_t off = b * A2_I(a, M_LOGIC_B) + h * A2_I(a, M_LOGIC_H);
    float max_logic = A2_LD(a, MR_MAX, off);
    A2_ST(a, MR_NEWMAX, off, fmaxf(tlogic, max_logic));
}

static __global__ void final_store(a2_args a) {
    int64_t b = blockIdx.x, h = blockIdx.y;
    for (int64_t d = threadIdx.x; d < A2_I(a, F_BD); d += blockDim.x) {
        float v = A2_LD(a, FR_FINAL, b * A2_I(a, F_FB) + h * A2_I(a, F_FH) + d * A2_I(a, F_FD));
        A2_ST(a, FR_O, b * A2_I(a, F_OBS) + h * A2_I(a, F_OH) + d * A2_I(a, F_OD), v);
    }
}

A2_LAUNCH(launch_norm, normalization_store, tlc_threads(A2_I(a, N_BD)))
A2_LAUNCH(launch_max, running_max_step, 32)
A2_LAUNCH(launch_fin, final_store, tlc_threads(A2_I(a, F_BD)))

TD_KERNEL(td_kc_fd2_llama_norm) = {"flash_decode2_llama.flash_decode2_llama_normalization_output_summary_general",
                                   "triton", TD_ABI_CUDA, NULL, NULL, NULL, N_NP, NR_N, launch_norm, NULL};
TD_KERNEL(td_kc_fd2_llama_max) = {"flash_decode2_llama.flash_decode2_llama_running_max_output_summary_general",
                                  "triton", TD_ABI_CUDA, NULL, NULL, NULL, M_NP, MR_N, launch_max, NULL};
TD_KERNEL(td_kc_fd2_llama_fin) = {"flash_decode2_llama.flash_decode2_llama_final_store_io_correctness", "triton",
                                  TD_ABI_CUDA, NULL, NULL, NULL, F_NP, FR_N, launch_fin, NULL};
TD_KERNEL(td_kc_fd2_llama_finr) = {"flash_decode2_llama.flash_decode2_llama_final_store_io_correctnessR", "triton",
                                   TD_ABI_CUDA, "store=fp16:rne:inf", NULL, NULL, F_NP, FR_N, launch_fin, NULL};
