/* Helpers for the CUDA kernels: one CUDA block per Triton program (blockIdx = program
 * id), a block's threads stride over the program's BLOCK lanes, loads and stores go
 * through the region's element format with the cast profile the kernel declares
 * (the fp8/fp16/bf16 conversions of cuda_fp8.h / cuda_fp16.h / cuda_bf16.h). */
#ifndef TD_TLC_CUH
#define TD_TLC_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

#include "kernel_abi.h"

#define TLC_I(L, k) ((L)->params[(k)].i)
#define TLC_R(L, k) ((float)(L)->params[(k)].r)
#define TLC_PTR(L, k, T) ((T *)(L)->regions[(k)].base)

/* threads per block for a program of B lanes */
static inline unsigned tlc_threads(int64_t B) { return B >= 256 ? 256u : (B < 32 ? 32u : (unsigned)B); }

/* Checks the launch and reports the CUDA error as the launch's failure. */
static inline int tlc_check(const td_abi_launch *L, const char *what) {
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        snprintf(L->err, L->errlen, "%s: %s", what, cudaGetErrorString(e));
        return 1;
    }
    return 0;
}

/* Triton program grid: (grid[0], grid[1], grid[2]) blocks. */
static inline dim3 tlc_grid(const td_abi_launch *L) { return dim3(L->grid[0], L->grid[1], L->grid[2]); }

#define TD_KERNEL(name) extern "C" const td_abi_kernel name

#endif
