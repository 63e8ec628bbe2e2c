/* CUDA helpers shared by the seed attention kernels (seed_fa1, seed_vyre, seed_sm86,
 * seed_sdpa).  The ports give one query row to a thread (the rows of a program are
 * independent in every one of these kernels), so a row's tile lives in the thread's
 * local memory and Triton's tile reductions are the host's pairwise trees over it.
 * Arithmetic uses the _rn intrinsics where the program rounds, so that nvcc does not
 * contract a product and a sum into one FMA the host port (and the error model's
 * operation order) does not have. */
#ifndef TD_ATTN_TLC_CUH
#define TD_ATTN_TLC_CUH

#include <math.h>

#include "tlc.cuh"

/* tl.sum over n lanes (a power of two) of x, destroyed: level w adds lane i + w into
 * lane i for every i that is a multiple of 2w, the host's recursive halving tree */
__device__ inline float atc_tree_sum(float *x, int64_t n) {
    for (int64_t w = 1; w < n; w *= 2)
        for (int64_t i = 0; i + w < n; i += 2 * w) x[i] = __fadd_rn(x[i], x[i + w]);
    return n > 0 ? x[0] : 0.0f;
}

/* tl.max the same way (combine a > b ? a : b); x is destroyed */
__device__ inline float atc_tree_max(float *x, int64_t n) {
    for (int64_t w = 1; w < n; w *= 2)
        for (int64_t i = 0; i + w < n; i += 2 * w) x[i] = x[i] > x[i + w] ? x[i] : x[i + w];
    return n > 0 ? x[0] : -INFINITY;
}

/* Triton launches nothing for an empty grid; CUDA would reject the configuration */
static inline bool atc_grid_empty(const td_abi_launch *L) { return !L->grid[0] || !L->grid[1] || !L->grid[2]; }

#endif
