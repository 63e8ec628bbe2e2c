/* adam_update_triton on CUDA: the Lion update, in place on p and exp_avg. */
#include "tlc.cuh"

enum { P_LR, P_WD, P_B1, P_B2, P_N, P_BLOCK };
enum { R_P, R_GRAD, R_M };

__global__ void update_fn_kernel(float *p_ptr, const float *grad_ptr, float *m_ptr, float lr, float wd, float b1,
                                 float b2, int64_t n, int64_t B) {
    int64_t base = (int64_t)blockIdx.x * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t off = base + j;
        if (off >= n) continue;
        float p = p_ptr[off], grad = grad_ptr[off], m = m_ptr[off];
        p = p * (1.0f - lr * wd);
        float diff = m - grad;
        float update = diff * b1 + grad;
        float can_update = update != 0.0f ? 1.0f : 0.0f;
        float update_sign = update > 0.0f ? -lr : lr;
        p = p + update_sign * can_update;
        m = diff * b2 + grad;
        p_ptr[off] = p;
        m_ptr[off] = m;
    }
}

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    update_fn_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_P, float), TLC_PTR(L, R_GRAD, const float), TLC_PTR(L, R_M, float), TLC_R(L, P_LR),
        TLC_R(L, P_WD), TLC_R(L, P_B1), TLC_R(L, P_B2), TLC_I(L, P_N), B);
    return tlc_check(L, "update_fn_kernel");
}

TD_KERNEL(td_kc_adam_update) = {"adam_update_triton.update_fn_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                NULL, 6, 3, launch, NULL};
