/* chunk_bwd_dqkg on CUDA: chunk_simple_gla_bwd_kernel_dqkg, one block per program
 * (i_k, i_t, i_bh).  Phase 1, one thread per lane (i, e) of the [BT, BK] tile: its dq
 * and dk (the do h and v dh dots, the gates, the masked scores recomputed per lane and
 * contracted with k and q) and the gated dk * k product, into shared memory; phase 2:
 * thread 0 forms b_dg_last (the h dh sum, exp(g_last), the dk k sum), then one thread
 * per row sums q dq - k dk and adds b_dg_last at the last in-range row.  Binary32 with
 * round-to-nearest intrinsics. */
#include "tlc.cuh"

struct cbd_args {
    const float *q, *k, *v, *h, *g, *dout, *dh;
    float *dq, *dk, *dg;
    int64_t skh, skt, svh, svt, shh, sht, T, K, V, BT, BK, NT;
    float scale;
};

__device__ static float cbd_hel(const cbd_args &a, const float *h, int64_t bh, int64_t col, int64_t c) {
    return col < a.NT * a.K ? h[bh * a.shh + c + col * a.sht] : 0.0f;
}

__device__ static float cbd_ds(const cbd_args &a, int64_t bh, int64_t t, int64_t s) {
    float d = 0.0f;
    for (int64_t c = 0; c < a.V; c++) d = __fadd_rn(d, __fmul_rn(a.dout[bh * a.svh + t * a.svt + c], a.v[bh * a.svh + s * a.svt + c]));
    return __fmul_rn(__fmul_rn(d, a.scale), expf(__fsub_rn(a.g[bh * a.T + t], a.g[bh * a.T + s])));
}

__global__ static void cbd_kernel(cbd_args a) {
    extern __shared__ float sm[]; /* dq, dk, dkg * k: [BT * BK] each */
    int64_t i_k = blockIdx.x, i_t = blockIdx.y, bh = blockIdx.z, t0 = i_t * a.BT, n = a.BT * a.BK;
    int64_t ce = t0 + a.BT < a.T ? t0 + a.BT : a.T;
    float gl = a.g[bh * a.T + ce - 1];
    for (int64_t lane = threadIdx.x; lane < n; lane += blockDim.x) {
        int64_t i = lane / a.BK, e = lane % a.BK, t = t0 + i, kk = i_k * a.BK + e, col = i_t * a.K + kk;
        sm[lane] = sm[n + lane] = sm[2 * n + lane] = 0.0f;
        if (t >= a.T || kk >= a.K) continue;
        float sq = 0.0f, sk = 0.0f;
        for (int64_t c = 0; c < a.V; c++) {
            sq = __fadd_rn(sq, __fmul_rn(a.dout[bh * a.svh + t * a.svt + c], cbd_hel(a, a.h, bh, col, c)));
            sk = __fadd_rn(sk, __fmul_rn(a.v[bh * a.svh + t * a.svt + c], cbd_hel(a, a.dh, bh, col, c)));
        }
        float g = a.g[bh * a.T + t], dq = __fmul_rn(__fmul_rn(sq, expf(g)), a.scale);
        float dkg = __fmul_rn(sk, expf(__fadd_rn(-g, gl))), dk = dkg;
        int64_t o = bh * a.skh + t * a.skt + kk;
        for (int64_t s = t0; s <= t; s++) dq = __fadd_rn(dq, __fmul_rn(cbd_ds(a, bh, t, s), a.k[bh * a.skh + s * a.skt + kk]));
        for (int64_t s = t; s < ce; s++) dk = __fadd_rn(dk, __fmul_rn(cbd_ds(a, bh, s, t), a.q[bh * a.skh + s * a.skt + kk]));
        sm[lane] = __fmul_rn(a.q[o], dq), sm[n + lane] = __fmul_rn(a.k[o], dk), sm[2 * n + lane] = __fmul_rn(dkg, a.k[o]);
        a.dq[o] = dq, a.dk[o] = dk;
    }
    __syncthreads();
    __shared__ float dgl;
    if (threadIdx.x == 0) {
        float hd = 0.0f, s = 0.0f;
        for (int64_t c = 0; c < a.V; c++)
            for (int64_t e = 0; e < a.BK; e++) {
                int64_t col = i_t * a.K + i_k * a.BK + e;
                hd = __fadd_rn(hd, __fmul_rn(cbd_hel(a, a.h, bh, col, c), cbd_hel(a, a.dh, bh, col, c)));
            }
        for (int64_t x = 0; x < n; x++) s = __fadd_rn(s, sm[2 * n + x]);
        dgl = __fadd_rn(__fmul_rn(hd, expf(gl)), s);
    }
    __syncthreads();
    for (int64_t i = threadIdx.x; i < a.BT && t0 + i < a.T; i += blockDim.x) {
        float s = 0.0f;
        for (int64_t e = 0; e < a.BK; e++) s = __fadd_rn(s, __fsub_rn(sm[i * a.BK + e], sm[n + i * a.BK + e]));
        a.dg[(i_k * gridDim.z + bh) * a.T + t0 + i] = t0 + i == ce - 1 ? __fadd_rn(s, dgl) : s;
    }
}

static int launch(const td_abi_launch *L) {
    cbd_args a = {TLC_PTR(L, 0, const float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, const float),
                  TLC_PTR(L, 3, const float), TLC_PTR(L, 4, const float), TLC_PTR(L, 5, const float),
                  TLC_PTR(L, 6, const float), TLC_PTR(L, 7, float), TLC_PTR(L, 8, float), TLC_PTR(L, 9, float),
                  TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 3), TLC_I(L, 4), TLC_I(L, 5), TLC_I(L, 7),
                  TLC_I(L, 8), TLC_I(L, 9), TLC_I(L, 10), TLC_I(L, 11), TLC_I(L, 13), TLC_R(L, 6)};
    size_t shm = sizeof(float) * 3 * (size_t)(a.BT * a.BK);
    cbd_kernel<<<tlc_grid(L), tlc_threads(a.BT * a.BK), shm, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "chunk_simple_gla_bwd_kernel_dqkg");
}

TD_KERNEL(td_kc_cbd) = {"chunk_bwd_dqkg.chunk_bwd_dqkg_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 14,
                        10, launch, NULL};
