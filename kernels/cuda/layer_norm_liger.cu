/* layer_norm_liger on CUDA: the forward kernel (one block per row, the tile in shared
 * memory, tl.sum as the host's pairwise tree, tl.rsqrt as rsqrtf) and the Mean / RSTD
 * scalar-store slices. */
#include "layernorm_tlc.cuh"

enum { P_YS, P_XS, P_WS, P_BS, P_MS, P_RS, P_N, P_BLOCK, P_EPS };
enum { R_Y, R_X, R_W, R_B, R_MEAN, R_RSTD };
enum { PS_MS, PS_RS };
enum { RS_MEANPRE, RS_MEAN, RS_RSTDPRE, RS_RSTD };

static __global__ void layer_norm_forward(float *Y, const float *X, const float *W, const float *Bias, float *Mean, float *Rstd,
                                   int64_t ys, int64_t xs, int64_t ms, int64_t rs, int64_t n, int64_t B, float eps) {
    extern __shared__ float sh[];
    int64_t row = blockIdx.x;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) sh[j] = j < n ? X[row * xs + j] : 0.0f;
    float mean = ln_block_sum(sh, B) / (float)n;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        float x = j < n ? X[row * xs + j] : 0.0f;
        sh[j] = (x - mean) * (x - mean);
    }
    float var = ln_block_sum(sh, B) / (float)n;
    float rstd = rsqrtf(var + eps);
    if (threadIdx.x == 0) {
        Mean[row * ms] = mean;
        Rstd[row * rs] = rstd;
    }
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (j < n) Y[row * ys + j] = (X[row * xs + j] - mean) * rstd * W[j] + Bias[j];
}

static __global__ void scalar_stores(const float *MeanPre, float *Mean, const float *RstdPre, float *Rstd, int64_t ms,
                              int64_t rs) {
    int64_t pid = blockIdx.x;
    if (threadIdx.x == 0) {
        Mean[pid * ms] = MeanPre[pid * ms];
        Rstd[pid * rs] = RstdPre[pid * rs];
    }
}

static int launch_fwd(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    size_t smem = ln_smem(B, 1);
    if (!smem) {
        snprintf(L->err, L->errlen, "BLOCK_SIZE %lld does not fit shared memory", (long long)B);
        return 1;
    }
    layer_norm_forward<<<tlc_grid(L), tlc_threads(B), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Y, float), TLC_PTR(L, R_X, const float), TLC_PTR(L, R_W, const float),
        TLC_PTR(L, R_B, const float), TLC_PTR(L, R_MEAN, float), TLC_PTR(L, R_RSTD, float), TLC_I(L, P_YS),
        TLC_I(L, P_XS), TLC_I(L, P_MS), TLC_I(L, P_RS), TLC_I(L, P_N), B, TLC_R(L, P_EPS));
    return tlc_check(L, "_layer_norm_forward_kernel");
}

static int launch_stores(const td_abi_launch *L) {
    scalar_stores<<<tlc_grid(L), 32, 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RS_MEANPRE, const float), TLC_PTR(L, RS_MEAN, float), TLC_PTR(L, RS_RSTDPRE, const float),
        TLC_PTR(L, RS_RSTD, float), TLC_I(L, PS_MS), TLC_I(L, PS_RS));
    return tlc_check(L, "layer_norm_liger mean / rstd store slices");
}

TD_KERNEL(td_kc_liger_fwd) = {"layer_norm_liger.layer_norm_liger_forward_output_summary", "triton", TD_ABI_CUDA, NULL,
                              "cuda", NULL, 9, 6, launch_fwd, NULL};
TD_KERNEL(td_kc_liger_stores) = {"layer_norm_liger.layer_norm_liger_scalar_stores_io_correctness", "triton",
                                 TD_ABI_CUDA, NULL, NULL, NULL, 2, 4, launch_stores, NULL};
TD_KERNEL(td_kc_liger_stores_r) = {"layer_norm_liger.layer_norm_liger_scalar_stores_io_correctnessR", "triton",
                                   TD_ABI_CUDA, "store=fp32:rne:inf", NULL, NULL, 2, 4, launch_stores, NULL};
