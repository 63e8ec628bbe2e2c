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

/* threads for a program of BLOCK_M rows */
static inline unsigned at_threads(int64_t bm) { return bm >= 128 ? 128u : (bm < 32 ? 32u : (unsigned)((bm + 31) / 32 * 32)); }

static inline int at_too_wide(const td_abi_launch *L, int64_t n, const char *what) {
    if (n > 0 && n <= AT_CU_MAX) return 0;
    snprintf(L->err, L->errlen, "%s = %lld: the CUDA port keeps rows of at most %d lanes", what, (long long)n,
             AT_CU_MAX);
    return 1;
}

static __device__ inline float at_ld(const __half *p, int64_t i) { return __half2float(p[i]); }
static __device__ inline float at_ld(const __nv_bfloat16 *p, int64_t i) { return __bfloat162float(p[i]); }
static __device__ inline void at_st(__half *p, int64_t i, float x) { p[i] = __float2half_rn(x); }
static __device__ inline void at_st(__nv_bfloat16 *p, int64_t i, float x) { p[i] = __float2bfloat16_rn(x); }

/* ---- the SageAttention-style _attn_fwd (attention_forward_triton, attention_fwd_triton2,
 * attn_fwd_causal, attn_fwd_triton): row i of program (blockIdx.x, blockIdx.y), the
 * arithmetic of at_sage_run in kernels/host/attn_online_tl.h ---- */
struct at_sage_dev {
    int64_t sqz, sqh, H, n, hd, bm, bn, bd, ha, stage;
    int causal, v16;
};

template <typename TIn>
static __device__ void at_sage_inner(const TIn *K, const TIn *V, const float *KS, const at_sage_dev &g, int st,
                                     int64_t start_m, int64_t off_m, int64_t qvk, int64_t ks_off, const float *q,
                                     float q_scale, float *acc, float &l, float &m, float *qk, float *p16) {
    int64_t lo = 0, hi = g.n, kblk = 0;
    if (g.causal && st == 1) hi = start_m * g.bm;
    if (g.causal && st == 2) lo = start_m * g.bm, hi = (start_m + 1) * g.bm, kblk = lo / g.bn;
    for (int64_t start_n = lo; start_n < hi; start_n += g.bn, kblk++) {
        const float k_scale = KS[ks_off + kblk];
        for (int64_t n = 0; n < g.bn; n++) {
            float d = 0.0f;
            for (int64_t e = 0; e < g.bd; e++) {
                float k = (n < g.n - start_n && e < g.ha) ? at_ld(K, qvk + e + (start_n + n) * g.hd) : 0.0f;
                d = __fadd_rn(d, __fmul_rn(q[e], k));
            }
            float s = __fmul_rn(__fmul_rn(d, q_scale), k_scale);
            if (g.causal && st == 2) s = __fadd_rn(s, off_m >= start_n + n ? 0.0f : -1.0e6f);
            qk[n] = s;
        }
        const float tmax = at_tree_max(qk, g.bn);
        const float m_ij = m > tmax ? m : tmax;
        for (int64_t n = 0; n < g.bn; n++) {
            qk[n] = exp2f(__fsub_rn(qk[n], m_ij)); /* p, in place */
            p16[n] = at_f16(qk[n]);
        }
        const float l_ij = at_tree_sum(qk, g.bn);
        const float alpha = exp2f(__fsub_rn(m, m_ij));
        l = __fadd_rn(__fmul_rn(l, alpha), l_ij);
        for (int64_t e = 0; e < g.bd; e++) {
            float d = 0.0f;
            for (int64_t n = 0; n < g.bn; n++) {
                float v = (n < g.n - start_n && e < g.ha) ? at_ld(V, qvk + (start_n + n) * g.hd + e) : 0.0f;
                if (g.v16) v = at_f16(v);
                d = __fadd_rn(d, __fmul_rn(p16[n], v));
            }
            acc[e] = __fadd_rn(__fmul_rn(acc[e], alpha), at_f16(d));
        }
        m = m_ij;
    }
}

template <typename TIn, typename TOut>
static __global__ void at_sage_kernel(const TIn *Q, const TIn *K, const TIn *V, const float *QS, const float *KS,
                                      TOut *Out, at_sage_dev g) {
    const int64_t start_m = blockIdx.x, off_hz = blockIdx.y;
    const int64_t qvk = off_hz / g.H * g.sqz + off_hz % g.H * g.sqh;
    const int64_t qs_off = off_hz * ((g.n + g.bm - 1) / g.bm), ks_off = off_hz * ((g.n + g.bn - 1) / g.bn);
    for (int64_t i = threadIdx.x; i < g.bm; i += blockDim.x) {
        float q[AT_CU_MAX], acc[AT_CU_MAX], qk[AT_CU_MAX], p16[AT_CU_MAX];
        const int64_t off_m = start_m * g.bm + i;
        for (int64_t e = 0; e < g.bd; e++) {
            acc[e] = 0.0f;
            q[e] = (off_m < g.n && e < g.ha) ? at_ld(Q, qvk + off_m * g.hd + e) : 0.0f;
        }
        const float q_scale = QS[qs_off + start_m];
        float m = -INFINITY, l = 1.0f;
        at_sage_inner(K, V, KS, g, (int)(4 - g.stage), start_m, off_m, qvk, ks_off, q, q_scale, acc, l, m, qk, p16);
        if (g.causal) at_sage_inner(K, V, KS, g, 2, start_m, off_m, qvk, ks_off, q, q_scale, acc, l, m, qk, p16);
        if (off_m < g.n)
            for (int64_t e = 0; e < g.ha; e++) at_st(Out, qvk + off_m * g.hd + e, __fdiv_rn(acc[e], l));
    }
}

template <typename TIn, typename TOut>
static int at_sage_launch(const td_abi_launch *L, const at_sage_dev &g, const char *what) {
    if (at_too_wide(L, g.bd, "BLOCK_DMODEL") || at_too_wide(L, g.bn, "BLOCK_N")) return 1;
    at_sage_kernel<TIn, TOut><<<tlc_grid(L), at_threads(g.bm), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const TIn), TLC_PTR(L, 1, const TIn), TLC_PTR(L, 2, const TIn), TLC_PTR(L, 3, const float),
        TLC_PTR(L, 4, const float), TLC_PTR(L, 5, TOut), g);
    return tlc_check(L, what);
}

#endif
