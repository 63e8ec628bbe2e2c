/* Helpers shared by the elementwise CUDA kernels. */
#ifndef TD_ELEMENTWISE_TLC_CUH
#define TD_ELEMENTWISE_TLC_CUH

#include "tlc.cuh"

/* Triton returns without launching anything when a grid axis is 0 (an empty tensor);
 * CUDA would reject the configuration, so the launchers return early the same way. */
static inline bool ew_grid_empty(const td_abi_launch *L) { return !L->grid[0] || !L->grid[1] || !L->grid[2]; }

/* tl.sigmoid(x) = 1 / (1 + exp(-x)), binary32, with CUDA's full-precision expf. */
static __device__ __forceinline__ float ew_sigmoid(float x) { return __fdiv_rn(1.0f, __fadd_rn(1.0f, expf(-x))); }

#endif
