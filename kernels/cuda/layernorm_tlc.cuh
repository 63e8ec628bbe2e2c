/* The layer-norm family's CUDA helpers: a program's BLOCK-lane tile lives in shared
 * memory (one CUDA block per Triton program), and tl.sum is the same pairwise tree as
 * the host's tl_sum: for a power-of-two tile, tl_sum(x, B) = tl_sum(x[0, B/2)) +
 * tl_sum(x[B/2, B)), i.e. level s adds lane i + s into lane i for i a multiple of 2s
 * (s = 1, 2, 4, ...).  The result is bitwise the host's. */
#ifndef TD_LAYERNORM_TLC_CUH
#define TD_LAYERNORM_TLC_CUH

#include "tlc.cuh"

/* Sums sh[0, B) (B a power of two) in place; every thread of the block must call it;
 * returns the sum to every thread. */
__device__ inline float ln_block_sum(float *sh, int64_t B) {
    __syncthreads();
    for (int64_t s = 1; s < B; s *= 2) {
        for (int64_t i = (int64_t)threadIdx.x * 2 * s; i < B; i += (int64_t)blockDim.x * 2 * s) sh[i] = sh[i] + sh[i + s];
        __syncthreads();
    }
    float r = sh[0];
    __syncthreads();
    return r;
}

/* Dynamic shared memory for `arrays` tiles of B floats; 0 when it does not fit the
 * default 48 KiB (the launch then reports the failure). */
static inline size_t ln_smem(int64_t B, int arrays) {
    size_t bytes = (size_t)B * (size_t)arrays * sizeof(float);
    return bytes <= 48 * 1024 ? bytes : 0;
}

#endif
