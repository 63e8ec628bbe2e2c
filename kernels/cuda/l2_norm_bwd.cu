/* l2_norm_bwd on CUDA: _l2_norm_bwd_kernel, one block per row (rmsnorm_tlc.cuh). */
#include "rmsnorm_tlc.cuh"

enum { P_STRIDE, P_N, P_EPS, P_B };
enum { R_X, R_DY, R_DX };

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_B);
    size_t smem = (size_t)B * sizeof(float);
    if (rn_smem(L, rn_l2_bwd_kernel, smem)) return 1;
    rn_l2_bwd_kernel<<<tlc_grid(L), tlc_threads(B), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_DY, const float), TLC_PTR(L, R_DX, float), TLC_I(L, P_STRIDE),
        TLC_I(L, P_N), B, TLC_R(L, P_EPS));
    return tlc_check(L, "_l2_norm_bwd_kernel");
}

TD_KERNEL(td_kc_l2_norm_bwd) = {"l2_norm_bwd.l2_norm_bwd_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                                4, 3, launch, NULL};
