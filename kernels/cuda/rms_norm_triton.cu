/* rms_norm_triton on CUDA: rms_norm_kernel, one block per row, one tile
 * (rmsnorm_tlc.cuh). */
#include "rmsnorm_tlc.cuh"

enum { P_YSR, P_YSC, P_XSR, P_XSC, P_N, P_B, P_EPS };
enum { R_Y, R_X, R_W };

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_B);
    size_t smem = (size_t)B * sizeof(float);
    if (rn_smem(L, rn_rms_norm_kernel, smem)) return 1;
    rn_rms_norm_kernel<<<tlc_grid(L), tlc_threads(B), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Y, float), TLC_PTR(L, R_X, const float), TLC_PTR(L, R_W, const float), TLC_I(L, P_YSR),
        TLC_I(L, P_YSC), TLC_I(L, P_XSR), TLC_I(L, P_XSC), TLC_I(L, P_N), B, TLC_R(L, P_EPS));
    return tlc_check(L, "rms_norm_kernel");
}

TD_KERNEL(td_kc_rms_norm_triton) = {"rms_norm_triton.rms_norm_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                    NULL, 7, 3, launch, NULL};
