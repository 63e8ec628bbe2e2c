/* tilediff kernel ABI, version 2 (version 1 tables still load: see `declares`).
 *
 * How a kernel library exposes kernels to tilediff, and what a launch receives.
 * The built-in kernels (libtilediff_kernels.so, libtilediff_kernels_cuda.so) and
 * external kernel libraries use this same header and are loaded the same way
 * (dlopen).  This header is self-contained C (also valid C++) and is installed as
 * <tilediff/kernel_abi.h>; docs/kernel-abi.md is its manual.
 *
 * A library exports exactly one symbol:
 *
 *     const td_abi_table *td_kernel_table(void);
 *
 * returning a table whose abi_version is TD_KERNEL_ABI_VERSION.  tilediff refuses a
 * table of another version (exit 2, "built for kernel ABI vN, this tilediff speaks vM").
 *
 * A launch receives, in a td_abi_launch record:
 *  - the contract id the kernel implements ("add_example.add_kernel_correctness");
 *  - the parameter values in the contract's declared order (`tilediff list -v` and
 *    the contract's file name them): integers in .i, real-valued parameters in .r
 *    as binary64 holding exactly the binary32 value the Triton kernel would receive;
 *  - the regions (the contract's named buffers) in the contract's declared order:
 *    base pointer (host memory for the host backend, device memory for CUDA), length
 *    in elements and element format (a td_abi_fmt code);
 *  - the grid (number of programs along each axis) and, for CUDA, a stream.
 * A launch returns 0 on success; non-zero with a message in err[0..errlen) on
 * failure (tilediff reports "launch failed: <message>" as a finding of the kernel).
 * A launch must not write outside the regions it is given, must not keep pointers
 * after it returns, and must be callable many times (no hidden state between calls).
 */
#ifndef TD_KERNEL_ABI_H
#define TD_KERNEL_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TD_KERNEL_ABI_VERSION 2u
/* The oldest version this tilediff still loads (v1 kernels declare nothing). */
#define TD_KERNEL_ABI_VERSION_MIN 1u

/* Element formats of regions (values fixed by the ABI). */
enum td_abi_fmt {
    TD_ABI_F64 = 0,
    TD_ABI_F32 = 1,
    TD_ABI_F16 = 2,
    TD_ABI_BF16 = 3,
    TD_ABI_E4M3FN = 4,
    TD_ABI_E5M2 = 5,
    TD_ABI_I8 = 6,
    TD_ABI_U8 = 7,
    TD_ABI_I32 = 8,
    TD_ABI_I64 = 9,
    TD_ABI_BOOL = 10 /* one byte, 0 or 1 */
};

enum td_abi_backend { TD_ABI_HOST = 0, TD_ABI_CUDA = 1 };

typedef union td_abi_param {
    int64_t i;
    double r;
} td_abi_param;

typedef struct td_abi_region {
    void *base;   /* first element */
    uint64_t len; /* elements */
    uint32_t fmt; /* enum td_abi_fmt */
    uint32_t reserved;
} td_abi_region;

typedef struct td_abi_launch {
    uint32_t abi_version; /* TD_KERNEL_ABI_VERSION */
    uint32_t backend;     /* enum td_abi_backend */
    const char *contract_id;
    uint32_t grid[3];
    uint32_t nparams;
    const td_abi_param *params;
    uint32_t nregions;
    const td_abi_region *regions;
    void *stream; /* cudaStream_t for TD_ABI_CUDA, NULL for host */
    char *err;    /* message buffer for failures */
    size_t errlen;
} td_abi_launch;

/* A launch that cannot run on this backend at all (an interpreter limit, an
 * instruction the device lacks: not the kernel's fault) returns TD_ABI_NOT_COVERED
 * with the reason in err.  tilediff reports the kernel "not covered on this backend:
 * <reason>", never as a finding, and goes on with the other contracts. */
#define TD_ABI_NOT_COVERED 77

typedef int (*td_abi_launch_fn)(const td_abi_launch *launch);

typedef struct td_abi_kernel {
    const char *contract_id; /* catalogue id: <kernel_file>.<theorem> */
    const char *variant;     /* e.g. "triton" (the reference port), "mut_mask_off_by_one" */
    uint32_t backend;        /* enum td_abi_backend */
    /* The kernel's cast profiles, one per cast slot the contract declares, as
     * "slot=fmt:rnd:ovf[:ftz];slot=...", e.g. "store=e5m2:rne:sat".  NULL or ""
     * means the contract's default profiles. */
    const char *casts;
    /* Which math library the kernel's transcendental functions come from, so the
     * oracle charges the right error budgets (oracle/budget.c names each source):
     * "libm" (the host C library, measured), "cuda" (CUDA's full-precision
     * functions), "triton" (compiled Triton on NVIDIA: ex2/lg2/sqrt/rsqrt/sin/cos.approx
     * and div.full), "cuda-approx" (nvcc --use_fast_math intrinsics), or "any".  NULL
     * means "any": the union of libm, cuda and triton, which every kernel that does
     * not say otherwise is judged by. */
    const char *math;
    /* NULL for a kernel that claims to meet the contract; for a seeded mutant, a
     * one-line description of the bug (tilediff selftest must flag it). */
    const char *mutant;
    /* The number of parameters and regions the kernel expects: tilediff refuses a
     * kernel whose counts differ from its contract's (a kernel built against
     * another reading of the contract). */
    uint32_t nparams;
    uint32_t nregions;
    td_abi_launch_fn launch;
    /* v2: narrowing declarations, "key=value;key=value", NULL or "" for none.  A
     * kernel that declares nothing is judged by the bound that holds for every
     * admissible implementation of its contract (any summation order, FMA
     * contraction or not, a/b or a*(1/b), the math libraries and approximate GPU
     * instructions real kernels use).  A declaration only narrows that bound, and
     * reports print it ("certified assuming order=seq"):
     *   order=any|seq|tree|blocked:B   how the kernel's sums and dot products associate
     *   div=any|ieee                   ieee: a/b is one correctly rounded division
     * FMA contraction needs no declaration: the bound covers it either way.  Unknown
     * keys or values are refused (exit 2).  Absent in v1 tables. */
    const char *declares;
} td_abi_kernel;

typedef struct td_abi_table {
    uint32_t abi_version; /* TD_KERNEL_ABI_VERSION (TD_KERNEL_ABI_VERSION_MIN .. it are loaded) */
    uint32_t nkernels;
    const td_abi_kernel *const *kernels; /* nkernels pointers */
    const char *library; /* a name and version for reports, e.g. "mykernels 2.3.1" */
} td_abi_table;

/* The one exported entry point of a kernel library. */
typedef const td_abi_table *(*td_kernel_table_fn)(void);
#define TD_KERNEL_TABLE_SYMBOL "td_kernel_table"

#ifdef __cplusplus
}
#endif
#endif
