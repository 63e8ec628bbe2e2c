/* Block-level tile steps shared by the softmax family's CUDA kernels (see tlc.cuh):
 * one CUDA block per Triton program, its threads striding over the tile's lanes, the
 * tile in dynamic shared memory.  The reductions are the pairwise tree of the host's
 * tl_sum / tl_max (for a power-of-two tile the same tree, so the same sums), and
 * tl.exp is CUDA's expf (math model "cuda").  Every function here is called by all
 * threads of the block (they synchronise). */
#ifndef TD_SOFTMAX_TLC_CUH
#define TD_SOFTMAX_TLC_CUH

#include <math.h>

#include "tlc.cuh"

extern __shared__ float smc_smem[];

/* t[j] = src[j * stride] for j < n, other for n <= j < B. */
__device__ inline void smc_load(float *t, const float *src, int64_t stride, int64_t n, int64_t B, float other) {
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) t[j] = j < n ? src[j * stride] : other;
    __syncthreads();
}

/* Pairwise tree over r[0..B): level s adds r[i + s] into r[i] for i a multiple of 2s
 * (tl_sum's left + right at every node).  Destroys r; returns the total to every thread. */
__device__ inline float smc_reduce_sum(float *r, int64_t B) {
    for (int64_t s = 1; s < B; s *= 2) {
        for (int64_t i = 2 * s * threadIdx.x; i < B; i += 2 * s * blockDim.x)
            if (i + s < B) r[i] = r[i] + r[i + s];
        __syncthreads();
    }
    float v = B > 0 ? r[0] : 0.0f;
    __syncthreads();
    return v;
}

__device__ inline float smc_reduce_max(float *r, int64_t B) {
    for (int64_t s = 1; s < B; s *= 2) {
        for (int64_t i = 2 * s * threadIdx.x; i < B; i += 2 * s * blockDim.x)
            if (i + s < B) r[i] = r[i] > r[i + s] ? r[i] : r[i + s];
        __syncthreads();
    }
    float v = B > 0 ? r[0] : -INFINITY;
    __syncthreads();
    return v;
}

/* r = t (the scratch copy a reduction consumes). */
__device__ inline void smc_copy(float *r, const float *t, int64_t B) {
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) r[j] = t[j];
    __syncthreads();
}

/* In place over a tile of B lanes: t = exp(t - max) / sum exp(t - max); r is scratch. */
__device__ inline void smc_tile_softmax(float *t, float *r, int64_t B) {
    smc_copy(r, t, B);
    float m = smc_reduce_max(r, B);
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) t[j] = expf(t[j] - m);
    __syncthreads();
    smc_copy(r, t, B);
    float s = smc_reduce_sum(r, B);
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) t[j] = t[j] / s;
    __syncthreads();
}

/* Allows a kernel `bytes` of dynamic shared memory (beyond the default 48 KiB). */
template <typename K> static inline int smc_allow_smem(const td_abi_launch *L, K kernel, size_t bytes) {
    if (bytes <= 48 * 1024) return 0;
    if (cudaFuncSetAttribute((const void *)kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes) !=
        cudaSuccess)
        return tlc_check(L, "shared memory for the tile");
    return 0;
}

#endif
