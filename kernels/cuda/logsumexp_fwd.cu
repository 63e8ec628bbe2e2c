/* logsumexp_fwd on CUDA: one block per (i_n, i_d) program, one scalar stored. */
#include "softmax_tlc.cuh"

enum { P_D, P_B, P_HAS_SCALE, P_SCALE };
enum { R_X, R_Z };

static __global__ void logsumexp_fwd_kernel(const float *x, float *z, float scale, int64_t D, int64_t B,
                                            int has_scale) {
    float *t = smc_smem, *r = smc_smem + B;
    int64_t in = blockIdx.x, id = blockIdx.y, lo = id * B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        float v = lo + j < D ? x[in * D + lo + j] : -INFINITY;
        t[j] = has_scale ? v * scale : v;
    }
    __syncthreads();
    smc_copy(r, t, B);
    float m = smc_reduce_max(r, B);
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) r[j] = expf(t[j] - m);
    __syncthreads();
    float s = smc_reduce_sum(r, B);
    if (threadIdx.x == 0) z[in * ((D + B - 1) / B) + id] = logf(s) + m;
}

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_B);
    size_t smem = 2 * (size_t)B * sizeof(float);
    if (smc_allow_smem(L, logsumexp_fwd_kernel, smem)) return 1;
    logsumexp_fwd_kernel<<<tlc_grid(L), tlc_threads(B), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_Z, float), TLC_R(L, P_SCALE), TLC_I(L, P_D), B,
        TLC_I(L, P_HAS_SCALE) != 0);
    return tlc_check(L, "logsumexp_fwd_kernel");
}

TD_KERNEL(td_kc_logsumexp_fwd) = {"logsumexp_fwd.logsumexp_fwd_kernel_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                  NULL, 4, 2, launch, NULL};
