/* fused_rwkv6_kernel on CUDA: fused_recurrent_rwkv6_fwd_kernel (REVERSE = false), one
 * block per program (blockIdx.x = i_v, .y = i_k, .z = i_bh), one thread per value lane
 * r of the [BV, BK] tile: it owns the row h[r, :] and reduces o over k itself, in the
 * loop's order (o from the state before the update, then h = h * exp(w) + k v).
 * binary32 throughout (__f*_rn: no contraction); the carry regions BHPrev (before step
 * m), BHOut (after step m), C (after T steps) and ht as in the host port.
 * State-step IO: one thread per active (v, k) lane.  BK, BV <= 32 (the wrapper's
 * min(next_power_of_2(D), 32)). */
#include "tlc.cuh"

enum { P_USE_INIT, P_STORE_FINAL, P_SKH, P_SVH, P_B, P_H, P_T, P_K, P_V, P_BK, P_BV, P_M, P_SCALE, NP };
enum { R_Q, R_K, R_V, R_W, R_U, R_O, R_H0, R_HT, R_BHPREV, R_BHOUT, R_C, NR };
#define MAXB 32

struct rw6_args {
    int64_t v[NP];
    float scale;
    float *r[NR];
};

__device__ static void rw6_store(const rw6_args &a, int reg, const float *h, int64_t nk, int64_t so, int64_t V) {
    for (int64_t c = 0; c < nk; c++) a.r[reg][so + c * V] = h[c];
}

__global__ static void rw6_fwd(rw6_args a) {
    const int64_t *p = a.v;
    int64_t K = p[P_K], V = p[P_V], BK = p[P_BK], BV = p[P_BV], T = p[P_T], BH = p[P_B] * p[P_H];
    int64_t bh = blockIdx.z, ik = blockIdx.y, r = threadIdx.x, vv = blockIdx.x * BV + r;
    if (r >= BV || vv >= V) return;
    int64_t nk = K - ik * BK < BK ? K - ik * BK : BK, kb = bh * p[P_SKH] + ik * BK;
    int64_t so = bh * K * V + ik * BK * V + vv; /* h[c] at so + c * V */
    float h[MAXB], u[MAXB];
    for (int64_t c = 0; c < nk; c++) {
        h[c] = p[P_USE_INIT] ? a.r[R_H0][so + c * V] : 0.0f;
        u[c] = a.r[R_U][(bh % p[P_H]) * K + ik * BK + c];
    }
    for (int64_t t = 0; t < T; t++) {
        float vt = a.r[R_V][bh * p[P_SVH] + vv + t * V], o = 0.0f;
        if (t == p[P_M]) rw6_store(a, R_BHPREV, h, nk, so, V);
        for (int64_t c = 0; c < nk; c++) {
            int64_t ko = kb + c + t * K;
            float kv = __fmul_rn(a.r[R_K][ko], vt), q = __fmul_rn(a.r[R_Q][ko], a.scale);
            o = __fadd_rn(o, __fmul_rn(__fadd_rn(h[c], __fmul_rn(kv, u[c])), q));
            h[c] = __fadd_rn(__fmul_rn(h[c], expf(a.r[R_W][ko])), kv);
        }
        a.r[R_O][(bh + ik * BH) * p[P_SVH] + vv + t * V] = o;
        if (t == p[P_M]) rw6_store(a, R_BHOUT, h, nk, so, V);
    }
    rw6_store(a, R_C, h, nk, so, V);
    if (p[P_STORE_FINAL]) rw6_store(a, R_HT, h, nk, so, V);
}

static int launch(const td_abi_launch *L) {
    rw6_args a;
    for (int i = 0; i < NP; i++) a.v[i] = TLC_I(L, i);
    a.scale = TLC_R(L, P_SCALE);
    for (int i = 0; i < NR; i++) a.r[i] = TLC_PTR(L, i, float);
    if (a.v[P_BK] > MAXB || a.v[P_BV] > MAXB) {
        snprintf(L->err, L->errlen, "fused_rwkv6_kernel: BK, BV <= %d", MAXB);
        return 1;
    }
    rw6_fwd<<<tlc_grid(L), MAXB, 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "rw6_fwd");
}

/* the state-step slice: BHOut = BHPrev * exp(w) + k v on mask_kv */
__global__ static void rw6_step(const float *prev, const float *k, const float *v, const float *w, float *out,
                                int64_t t, int64_t skh, int64_t svh, int64_t K, int64_t V, int64_t BK, int64_t BV) {
    for (int64_t l = threadIdx.x; l < BK * BV; l += blockDim.x) {
        int64_t kk = blockIdx.y * BK + l % BK, vv = blockIdx.x * BV + l / BK;
        if (kk >= K || vv >= V) continue;
        int64_t off = blockIdx.z * K * V + kk * V + vv, ko = blockIdx.z * skh + kk + t * K;
        float kv = __fmul_rn(k[ko], v[blockIdx.z * svh + vv + t * V]);
        out[off] = __fadd_rn(__fmul_rn(prev[off], expf(w[ko])), kv);
    }
}
static int launch_step(const td_abi_launch *L) {
    rw6_step<<<tlc_grid(L), tlc_threads(TLC_I(L, 5) * TLC_I(L, 6)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, const float),
        TLC_PTR(L, 4, float), TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 3), TLC_I(L, 4), TLC_I(L, 5),
        TLC_I(L, 6));
    return tlc_check(L, "rw6_step");
}

TD_KERNEL(td_kc_rw6_summary) = {"fused_rwkv6_kernel.fused_recurrent_rwkv6_output_summary_general", "triton",
                                TD_ABI_CUDA, NULL, NULL, NULL, 13, 11, launch, NULL};
TD_KERNEL(td_kc_rw6_step) = {"fused_rwkv6_kernel.fused_recurrent_rwkv6_state_step_io_correctness", "triton",
                             TD_ABI_CUDA, NULL, NULL, NULL, 7, 5, launch_step, NULL};
