/* l2_norm_triton2 on CUDA: _l2_norm_fwd_1pass_kernel and _l2_norm_bwd_kernel, one block
 * per row (rmsnorm_tlc.cuh). */
#include "rmsnorm_tlc.cuh"

enum { P_STRIDE, P_N, P_EPS, P_B };

static int launch_fwd(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_B);
    size_t smem = (size_t)B * sizeof(float);
    if (rn_smem(L, rn_l2_fwd_kernel, smem)) return 1;
    rn_l2_fwd_kernel<<<tlc_grid(L), tlc_threads(B), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_I(L, P_STRIDE), TLC_I(L, P_N), B, TLC_R(L, P_EPS));
    return tlc_check(L, "_l2_norm_fwd_1pass_kernel");
}
static int launch_bwd(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_B);
    size_t smem = (size_t)B * sizeof(float);
    if (rn_smem(L, rn_l2_bwd_kernel, smem)) return 1;
    rn_l2_bwd_kernel<<<tlc_grid(L), tlc_threads(B), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, float), TLC_I(L, P_STRIDE),
        TLC_I(L, P_N), B, TLC_R(L, P_EPS));
    return tlc_check(L, "_l2_norm_bwd_kernel");
}

TD_KERNEL(td_kc_l2_norm_triton2_fwd) = {"l2_norm_triton2.l2_norm_fwd_1pass_kernel_correctness", "triton", TD_ABI_CUDA,
                                        NULL, NULL, NULL, 4, 2, launch_fwd, NULL};
TD_KERNEL(td_kc_l2_norm_triton2_bwd) = {"l2_norm_triton2.l2_norm_bwd_kernel_correctness", "triton", TD_ABI_CUDA, NULL,
                                        NULL, NULL, 4, 3, launch_bwd, NULL};
