/* CUDA helpers shared by the attention kernels of part 2: loads and stores through a
 * region's element format (the format travels as a kernel argument), fp16 rounding as
 * Triton's .to(tl.float16) does it (cvt.rn: RNE, IEEE overflow), and tl.sum's pairwise
 * tree over a tile held in one thread's local array (the host kernels' tl_sum; for the
 * power-of-two tiles these kernels use, the tree of adjacent pairs level by level).
 * One CUDA block per Triton program; work that Triton does on a whole tile is done by
 * the block's threads over rows or lanes, in the program's order of operations. */
#ifndef TD_ATTN2_TLC_CUH
#define TD_ATTN2_TLC_CUH

#include <string.h>

#include "tlc.cuh"

__device__ __forceinline__ float a2_ld(const void *base, uint32_t fmt, int64_t off) {
    switch (fmt) {
    case TD_ABI_F32: return ((const float *)base)[off];
    case TD_ABI_F16: return __half2float(((const __half *)base)[off]);
    case TD_ABI_BF16: return __bfloat162float(((const __nv_bfloat16 *)base)[off]);
    case TD_ABI_I32: return (float)((const int32_t *)base)[off];
    case TD_ABI_I64: return (float)((const int64_t *)base)[off];
    default: return __int_as_float(0x7fc00000);
    }
}

__device__ __forceinline__ int64_t a2_ldi(const void *base, uint32_t fmt, int64_t off) {
    switch (fmt) {
    case TD_ABI_I32: return ((const int32_t *)base)[off];
    case TD_ABI_I64: return ((const int64_t *)base)[off];
    case TD_ABI_U8: return ((const uint8_t *)base)[off];
    default: return 0;
    }
}

__device__ __forceinline__ void a2_st(void *base, uint32_t fmt, int64_t off, float v) {
    switch (fmt) {
    case TD_ABI_F32: ((float *)base)[off] = v; break;
    case TD_ABI_F16: ((__half *)base)[off] = __float2half_rn(v); break;
    case TD_ABI_BF16: ((__nv_bfloat16 *)base)[off] = __float2bfloat16_rn(v); break;
    default: break;
    }
}

/* RN to binary16, back in binary32 */
__device__ __forceinline__ float a2_rn16(float x) { return __half2float(__float2half_rn(x)); }

/* tl.sum of x[0..n) by the pairwise tree (x is overwritten); n a power of two */
__device__ __forceinline__ float a2_tree_sum(float *x, int n) {
    if (n <= 0) return 0.0f;
    for (int w = 1; w < n; w *= 2)
        for (int i = 0; i + w < n; i += 2 * w) x[i] = __fadd_rn(x[i], x[i + w]);
    return x[0];
}

/* A launch's parameters and regions, passed by value to the device (the launch record
 * itself lives in host memory). */
#define A2_MAXP 40
#define A2_MAXR 12
struct a2_args {
    td_abi_param p[A2_MAXP];
    void *base[A2_MAXR];
    uint64_t len[A2_MAXR];
    uint32_t fmt[A2_MAXR];
    uint32_t grid[3];
};

static inline int a2_pack(const td_abi_launch *L, a2_args *a) {
    if (L->nparams > A2_MAXP || L->nregions > A2_MAXR) {
        snprintf(L->err, L->errlen, "a2_pack: %u parameters / %u regions exceed the device record", L->nparams,
                 L->nregions);
        return 1;
    }
    memset(a, 0, sizeof *a);
    for (uint32_t k = 0; k < L->nparams; k++) a->p[k] = L->params[k];
    for (uint32_t k = 0; k < L->nregions; k++) {
        a->base[k] = L->regions[k].base;
        a->len[k] = L->regions[k].len;
        a->fmt[k] = L->regions[k].fmt;
    }
    for (int k = 0; k < 3; k++) a->grid[k] = L->grid[k];
    return 0;
}

#define A2_I(a, k) ((a).p[(k)].i)
#define A2_R(a, k) ((float)(a).p[(k)].r)
#define A2_LD(a, k, off) a2_ld((a).base[(k)], (a).fmt[(k)], (off))
#define A2_LDI(a, k, off) a2_ldi((a).base[(k)], (a).fmt[(k)], (off))
#define A2_ST(a, k, off, v) a2_st((a).base[(k)], (a).fmt[(k)], (off), (v))

/* a launch function: pack the record, launch kern over the program grid */
#define A2_LAUNCH(fn, kern, threads)                                                                            \
    static int fn(const td_abi_launch *L) {                                                                     \
        a2_args a;                                                                                             \
        if (a2_pack(L, &a)) return 1;                                                                          \
        kern<<<tlc_grid(L), (threads), 0, (cudaStream_t)L->stream>>>(a);                                      \
        return tlc_check(L, #kern);                                                                            \
    }

#endif
