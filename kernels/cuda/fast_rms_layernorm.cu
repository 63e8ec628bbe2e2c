/* fast_rms_layernorm on CUDA: _rms_layernorm_forward and _gemma_rms_layernorm_forward, one
 * block per row, one tile (rmsnorm_tlc.cuh). */
#include "rmsnorm_tlc.cuh"

enum { R_Y, R_X, R_W, R_R };

static int launch_any(const td_abi_launch *L, int gemma) {
    int k = 0;
    int64_t ysr = TLC_I(L, k++), xsr = TLC_I(L, k++), wsr = gemma ? 1 : TLC_I(L, k++), rsr = TLC_I(L, k++);
    int64_t n_cols = TLC_I(L, k++), B = TLC_I(L, k++);
    float eps = TLC_R(L, k);
    size_t smem = (size_t)B * sizeof(float);
    if (rn_smem(L, rn_fast_rms_kernel, smem)) return 1;
    rn_fast_rms_kernel<<<tlc_grid(L), tlc_threads(B), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Y, float), TLC_PTR(L, R_X, const float), TLC_PTR(L, R_W, const float), TLC_PTR(L, R_R, float), ysr,
        xsr, wsr, rsr, n_cols, B, eps, gemma);
    return tlc_check(L, gemma ? "_gemma_rms_layernorm_forward" : "_rms_layernorm_forward");
}
static int launch_plain(const td_abi_launch *L) { return launch_any(L, 0); }
static int launch_gemma(const td_abi_launch *L) { return launch_any(L, 1); }

TD_KERNEL(td_kc_fast_rms_layernorm) = {"fast_rms_layernorm.rms_layernorm_forward_correctness", "triton", TD_ABI_CUDA,
                                       NULL, NULL, NULL, 7, 4, launch_plain, NULL};
TD_KERNEL(td_kc_gemma_rms_layernorm) = {"fast_rms_layernorm.gemma_rms_layernorm_forward_correctness", "triton",
                                        TD_ABI_CUDA, NULL, NULL, NULL, 6, 4, launch_gemma, NULL};
