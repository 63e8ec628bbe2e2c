/* Device helpers shared by the CUDA ports of the online-softmax attention kernels
 * (flash_attn, attention_llama, attn_fwd_causal, attn_fwd_triton,
 * attention_forward_triton, attention_fwd_triton2, attention_fwd_triton3).
 *
 * One CUDA block per Triton program; each thread owns query rows of the program's
 * BLOCK_M tile (i = threadIdx.x, += blockDim.x) and runs the row's online softmax in
 * the order of the host port (kernels/host/<file>.c): tl.dot as a binary32 loop over
 * the reduction lanes, tl.max / tl.sum over the BLOCK_N scores of the row as the
 * pairwise tree of tl_sum, exp2f / expf / log2f of CUDA's full-precision library (the
 * "cuda" math model), IEEE division, fp16 / bf16 conversions round to nearest even.
 * Row state lives in per-thread arrays of AT_CU_MAX lanes: a launch whose tiles are
 * wider is refused with a message. */
#ifndef TD_ATTN_ONLINE_TLC_CUH
#define TD_ATTN_ONLINE_TLC_CUH

#include "tlc.cuh"

#define AT_CU_MAX 128

/* tl.sum of n lanes: the pairwise tree of tl_sum (left half + right half); x is consumed */
static __device__ inline float at_tree_sum(float *x, int64_t n) {
    if (n <= 0) return 0.0f;
    for (int64_t s = 1; s < n; s *= 2)
        for (int64_t i = 0; i + s < n; i += 2 * s) x[i] = __fadd_rn(x[i], x[i + s]);
    return x[0];
}

/* tl.max of n lanes (exact in any order; -inf when empty) */
static __device__ inline float at_tree_max(const float *x, int64_t n) {
    float m = -INFINITY;
    for (int64_t i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
    return m;
}

static __device__ inline float at_f16(float x) { return __half2float(__float2half_rn(x)); }
static __device__ inline float at_bf16(float x) { return __bfloat162float(__float2bfloat16_rn(x)); }
static __device__ inline float at_ld16(const __half *p, int64_t i) { return __half2float(p[i]); }
static __device__ inline float at_ldb16(const __nv_bfloat16 *p, int64_t i) { return __bfloat162float(p[i]); }

/* threads for a program of BLOCK_M rows */
static inline unsigned at_threads(int64_t bm) { return bm >= 128 ? 128u : (bm < 32 ? 32u : (unsigned)((bm + 31) / 32 * 32)); }

static inline int at_too_wide(const td_abi_launch *L, int64_t n, const char *what) {
    if (n > 0 && n <= AT_CU_MAX) return 0;
    snprintf(L->err, L->errlen, "%s = %lld: the CUDA port keeps rows of at most %d lanes", what, (long long)n,
             AT_CU_MAX);
    return 1;
}

#endif
