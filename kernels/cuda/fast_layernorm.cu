/* fast_layernorm on CUDA: layernorm_forward, one block per row, the tile in shared
 * memory, tl.sum as the host's pairwise tree, tl.math.rsqrt as rsqrtf. */
#include "layernorm_tlc.cuh"

enum { P_YS, P_XS, P_N, P_BLOCK, P_EPS };
enum { R_Y, R_X, R_W, R_B, R_R, R_MU };

static __global__ void layernorm_forward(float *Y, const float *X, const float *W, const float *b, float *r, float *mu,
                                  int64_t ys, int64_t xs, int64_t n, int64_t B, float eps) {
    extern __shared__ float sh[];
    int64_t row = blockIdx.x;
    float *sum = sh, *xx = sh + B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) sum[j] = j < n ? X[row * xs + j] : 0.0f;
    float mean = ln_block_sum(sum, B) / (float)n;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        float x = j < n ? X[row * xs + j] : 0.0f;
        xx[j] = x - mean;
        sum[j] = xx[j] * xx[j];
    }
    float var = ln_block_sum(sum, B) / (float)n;
    float inv_var = rsqrtf(var + eps);
    if (threadIdx.x == 0) {
        r[row] = inv_var;
        mu[row] = mean;
    }
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (j < n) Y[row * ys + j] = (xx[j] * inv_var) * W[j] + b[j];
}

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    size_t smem = ln_smem(B, 2);
    if (!smem) {
        snprintf(L->err, L->errlen, "BLOCK_SIZE %lld does not fit shared memory", (long long)B);
        return 1;
    }
    layernorm_forward<<<tlc_grid(L), tlc_threads(B), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Y, float), TLC_PTR(L, R_X, const float), TLC_PTR(L, R_W, const float),
        TLC_PTR(L, R_B, const float), TLC_PTR(L, R_R, float), TLC_PTR(L, R_MU, float), TLC_I(L, P_YS),
        TLC_I(L, P_XS), TLC_I(L, P_N), B, TLC_R(L, P_EPS));
    return tlc_check(L, "layernorm_forward");
}

TD_KERNEL(td_kc_fast_layernorm_fwd) = {"fast_layernorm.layernorm_forward_correctness", "triton", TD_ABI_CUDA, NULL,
                                       "cuda", NULL, 5, 6, launch, NULL};
