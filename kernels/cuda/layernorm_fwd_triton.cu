/* layernorm_fwd_triton on CUDA: _layer_norm_fwd_kernel, one block per (Seq, H) program;
 * each thread owns tile lanes and accumulates them across the BLOCK_SIZE tiles in tile
 * order (the per-lane accumulators), then tl.sum is the host's pairwise tree
 * (layernorm_tlc.cuh); 1 / tl.sqrt as two IEEE operations.  binary32 tensors for the
 * summary contract, bfloat16 tensors (RNE store) for the io contract. */
#include "layernorm_tlc.cuh"

enum { P_SXN, P_SXH, P_SXD, P_SYN, P_SYH, P_SYD, P_SWH, P_SWD, P_N, P_BLOCK, P_EPS };
enum { R_X, R_W, R_Y };

namespace { /* internal linkage: names stay private to this file */
template <typename T> __device__ inline float ld(const T *p, int64_t i);
template <> __device__ inline float ld<float>(const float *p, int64_t i) { return p[i]; }
template <> __device__ inline float ld<__nv_bfloat16>(const __nv_bfloat16 *p, int64_t i) { return __bfloat162float(p[i]); }
__device__ inline void st(float *p, int64_t i, float v) { p[i] = v; }
__device__ inline void st(__nv_bfloat16 *p, int64_t i, float v) { p[i] = __float2bfloat16_rn(v); }

template <typename T>
__global__ void layer_norm_fwd(const T *X, const T *W, T *Y, int64_t sxN, int64_t sxH, int64_t syN, int64_t syH,
                               int64_t swH, int64_t n, int64_t B, float eps) {
    extern __shared__ float sh[];
    const T *x = X + blockIdx.x * sxN + blockIdx.y * sxH;
    const T *w = W + blockIdx.y * swH;
    T *y = Y + blockIdx.x * syN + blockIdx.y * syH;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        float acc = 0.0f;
        for (int64_t off = 0; off < n; off += B) acc += off + j < n ? ld(x, off + j) : 0.0f;
        sh[j] = acc;
    }
    float mean = ln_block_sum(sh, B) / (float)n;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        float acc = 0.0f;
        for (int64_t off = 0; off < n; off += B) {
            float v = off + j < n ? ld(x, off + j) - mean : 0.0f;
            acc += v * v;
        }
        sh[j] = acc;
    }
    float var = ln_block_sum(sh, B) / (float)n;
    float rstd = 1.0f / sqrtf(var + eps);
    for (int64_t off = 0; off < n; off += B)
        for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
            if (off + j < n) st(y, off + j, ((ld(x, off + j) - mean) * rstd) * ld(w, off + j));
}

} // namespace

template <typename T> static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    size_t smem = ln_smem(B, 1);
    if (!smem) {
        snprintf(L->err, L->errlen, "BLOCK_SIZE %lld does not fit shared memory", (long long)B);
        return 1;
    }
    layer_norm_fwd<T><<<tlc_grid(L), tlc_threads(B), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const T), TLC_PTR(L, R_W, const T), TLC_PTR(L, R_Y, T), TLC_I(L, P_SXN), TLC_I(L, P_SXH),
        TLC_I(L, P_SYN), TLC_I(L, P_SYH), TLC_I(L, P_SWH), TLC_I(L, P_N), B, TLC_R(L, P_EPS));
    return tlc_check(L, "_layer_norm_fwd_kernel");
}
static int launch_f32(const td_abi_launch *L) { return launch<float>(L); }
static int launch_bf16(const td_abi_launch *L) { return launch<__nv_bfloat16>(L); }

TD_KERNEL(td_kc_lnfwd_summary) = {"layernorm_fwd_triton.layernorm_fwd_triton_output_summary", "triton", TD_ABI_CUDA,
                                  NULL, "cuda", NULL, 11, 3, launch_f32, NULL};
TD_KERNEL(td_kc_lnfwd_io) = {"layernorm_fwd_triton.layernorm_fwd_triton_io_correctness", "triton", TD_ABI_CUDA,
                             "store=bf16:rne:inf", "cuda", NULL, 11, 3, launch_bf16, NULL};
