/* A small "Triton language on the CPU" for the host kernels.
 *
 * A host kernel mirrors its Triton program the way Triton's interpreter mode does:
 * the grid of program ids is walked in order, each program works on BLOCK-wide tiles
 * (plain C arrays of binary32 lanes) with masks, arithmetic is binary32 (the project
 * compiles kernels with -ffp-contract=off so a*b+c is two roundings, as written), and
 * every load and store goes through the element format of its region with the
 * kernel's declared cast profile.  Reductions follow Triton's: tl_sum / tl_max reduce
 * a tile by a pairwise tree.
 */
#ifndef TD_TL_H
#define TD_TL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_abi.h"
#include "rounding.h"

/* Parameters and regions by declared index. */
#define TL_I(L, k) ((L)->params[(k)].i)
#define TL_R(L, k) ((float)(L)->params[(k)].r)
#define TL_BASE(L, k) ((L)->regions[(k)].base)
#define TL_LEN(L, k) ((L)->regions[(k)].len)
#define TL_FMT(L, k) ((td_fmt)(L)->regions[(k)].fmt)

/* Loads element `off` of region `reg` as binary32 (exact for every format a kernel
 * loads: binary32, binary16, bfloat16, fp8, small integers). */
/* always inlined: an attention port loads an operand per product (millions a case), and
 * a call per load was a fifth of seed_sm86's query pass */
static inline __attribute__((always_inline)) float tl_load(const td_abi_launch *L, int reg, int64_t off) {
    const td_abi_region *R = &L->regions[reg];
    switch ((td_fmt)R->fmt) {
    case TD_F32: return ((const float *)R->base)[off];
    case TD_F64: return (float)((const double *)R->base)[off];
    case TD_F16: return (float)td_f16_value(((const uint16_t *)R->base)[off]);
    case TD_BF16: return (float)td_bf16_value(((const uint16_t *)R->base)[off]);
    case TD_E4M3FN:
    case TD_E5M2: return (float)td_decode((td_fmt)R->fmt, ((const uint8_t *)R->base)[off]);
    case TD_I8: return (float)((const int8_t *)R->base)[off];
    case TD_U8:
    case TD_BOOL: return (float)((const uint8_t *)R->base)[off];
    case TD_I32: return (float)((const int32_t *)R->base)[off];
    case TD_I64: return (float)((const int64_t *)R->base)[off];
    default: return NAN;
    }
}

static inline int64_t tl_load_int(const td_abi_launch *L, int reg, int64_t off) {
    const td_abi_region *R = &L->regions[reg];
    switch ((td_fmt)R->fmt) {
    case TD_I8: return ((const int8_t *)R->base)[off];
    case TD_U8:
    case TD_BOOL: return ((const uint8_t *)R->base)[off];
    case TD_I32: return ((const int32_t *)R->base)[off];
    case TD_I64: return ((const int64_t *)R->base)[off];
    default: return (int64_t)tl_load(L, reg, off);
    }
}

/* Stores a binary32 value into element `off` of region `reg` with cast profile p
 * (p.fmt must be the region's format; for a binary32 region the store is exact). */
static inline void tl_store(const td_abi_launch *L, int reg, int64_t off, float v, td_profile p) {
    const td_abi_region *R = &L->regions[reg];
    switch ((td_fmt)R->fmt) {
    case TD_F32:
        if (p.fmt == TD_F32 && p.rnd == TD_RNE && !p.ftz && p.ovf == TD_OVF_INF) ((float *)R->base)[off] = v;
        else {
            uint32_t b = (uint32_t)td_encode_f32(p, v);
            memcpy((float *)R->base + off, &b, 4);
        }
        break;
    case TD_F64: ((double *)R->base)[off] = v; break;
    case TD_F16:
    case TD_BF16: ((uint16_t *)R->base)[off] = (uint16_t)td_encode_f32(p, v); break;
    case TD_E4M3FN:
    case TD_E5M2:
    case TD_I8:
    case TD_U8:
    case TD_BOOL: ((uint8_t *)R->base)[off] = (uint8_t)td_encode_f32(p, v); break;
    case TD_I32: ((uint32_t *)R->base)[off] = (uint32_t)td_encode_f32(p, v); break;
    default: break;
    }
}

/* The profile of a plain binary32 store. */
static inline td_profile tl_f32(void) {
    td_profile p = {TD_F32, TD_RNE, TD_OVF_INF, false};
    return p;
}

/* Triton reductions reduce a tile pairwise (a tree); masked lanes hold the
 * reduction's neutral element. */
static inline float tl_sum(const float *x, int64_t n) {
    if (n <= 0) return 0.0f;
    if (n == 1) return x[0];
    int64_t h = n / 2;
    return tl_sum(x, h) + tl_sum(x + h, n - h);
}
static inline float tl_max(const float *x, int64_t n) {
    if (n <= 0) return -INFINITY;
    if (n == 1) return x[0];
    int64_t h = n / 2;
    float a = tl_max(x, h), b = tl_max(x + h, n - h);
    return a > b ? a : b;
}

/* Offsets formed in int32 (the int32-offset mutants; class offset-2^31).  Triton
 * types a program id and every integer argument below 2^31 as int32, so pid * stride
 * and pid * BLOCK + j are int32 products unless a kernel casts to int64 first: past 2^31
 * elements they wrap.  tl_i32 is what int32 arithmetic leaves of an offset. */
static inline int64_t tl_i32(int64_t off) { return (int64_t)(int32_t)(uint32_t)(uint64_t)off; }
/* A wrapped offset outside the buffer is, on a GPU, an access to an unmapped address:
 * the launch fails with an illegal address (cudaErrorIllegalAddress).  A host kernel
 * cannot make that access (it would touch memory outside its region), so it checks
 * elements off, off + step, ..., off + (n - 1) * step against region `reg` first and
 * fails its launch the way the device does (returns 1, the message in L->err); a
 * wrapped offset inside the buffer is accessed, and reads or writes another row. */
static inline int tl_fault(const td_abi_launch *L, int reg, int64_t off, int64_t n, int64_t step, uint32_t pid) {
    int64_t last = off + (n > 0 ? (n - 1) * step : 0);
    uint64_t len = L->regions[reg].len;
    if (n <= 0 || (off >= 0 && last >= 0 && (uint64_t)off < len && (uint64_t)last < len)) return 0;
    snprintf(L->err, L->errlen, "illegal memory access: program %u addresses region %d at element offset %lld",
             pid, reg, (long long)off);
    return 1;
}

/* 1 (L->err set) when some program pid < grid[0] addresses n cells of region reg from
 * the int32 product pid * stride outside the region: the mutants of kernels that form a
 * row base as Triton's int32 program id times an int32 stride.  The whole launch is
 * checked first, as one wrapped address fails a device's launch. */
static inline int tl_fault_rows_i32(const td_abi_launch *L, int reg, int64_t stride, int64_t n) {
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        if (tl_fault(L, reg, tl_i32((int64_t)pid * stride), n, 1, pid)) return 1;
    return 0;
}

/* Tiles are allocated per program; a kernel that cannot allocate reports it. */
#define TL_ALLOC(L, ptr, n)                                                                                    \
    do {                                                                                                       \
        (ptr) = calloc((size_t)((n) > 0 ? (n) : 1), sizeof *(ptr));                                            \
        if (!(ptr)) {                                                                                          \
            snprintf((L)->err, (L)->errlen, "out of memory for a tile of %lld lanes", (long long)(n));          \
            return 1;                                                                                          \
        }                                                                                                      \
    } while (0)

/* Declares one kernel of the built-in library; CMake collects every TD_KERNEL(name)
 * at the start of a line into the library's table. */
#define TD_KERNEL(name) const td_abi_kernel name

#endif
