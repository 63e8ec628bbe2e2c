/* chunk_gla_fwd on CUDA: chunk_gla_fwd_kernel_o, one block per program (i_v, i_t,
 * i_bh), one thread per output lane (i, c) of the [BT, BV] tile: the thread sums its
 * row's gated inter terms ((q * scale) * exp(g)) h over every K block, then the masked
 * intra terms A v for j <= i, in binary32 with round-to-nearest intrinsics. */
#include "tlc.cuh"

struct cgf_args {
    const float *q, *v, *g, *h, *A;
    float *o;
    int64_t skh, skt, svh, svt, shh, sht, T, K, V, BT, BK, BV;
    float scale;
};

__global__ static void cgf_fwd_o(cgf_args a) {
    int64_t i_v = blockIdx.x, i_t = blockIdx.y, bh = blockIdx.z, t0 = i_t * a.BT;
    const float *h = a.h + bh * a.shh + i_t * a.K * a.V;
    for (int64_t lane = threadIdx.x; lane < a.BT * a.BV; lane += blockDim.x) {
        int64_t i = lane / a.BV, col = i_v * a.BV + lane % a.BV, t = t0 + i;
        if (t >= a.T || col >= a.V) continue;
        float bo = 0.0f;
        for (int64_t e = 0; e < a.K; e++) {
            int64_t qo = bh * a.skh + t * a.skt + e;
            float qg = __fmul_rn(__fmul_rn(a.q[qo], a.scale), expf(a.g[qo]));
            bo = __fadd_rn(bo, __fmul_rn(qg, h[e * a.sht + col]));
        }
        for (int64_t j = 0; j <= i; j++)
            bo = __fadd_rn(bo, __fmul_rn(a.A[bh * a.T * a.BT + t * a.BT + j], a.v[bh * a.svh + (t0 + j) * a.svt + col]));
        a.o[bh * a.svh + t * a.svt + col] = bo;
    }
}

static int launch(const td_abi_launch *L) {
    cgf_args a = {TLC_PTR(L, 0, const float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, const float),
                  TLC_PTR(L, 3, const float), TLC_PTR(L, 5, const float), TLC_PTR(L, 4, float),
                  TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 3), TLC_I(L, 4), TLC_I(L, 5),
                  TLC_I(L, 7), TLC_I(L, 8), TLC_I(L, 9), TLC_I(L, 10), TLC_I(L, 11), TLC_I(L, 12), TLC_R(L, 6)};
    cgf_fwd_o<<<tlc_grid(L), tlc_threads(TLC_I(L, 10) * TLC_I(L, 12)), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "chunk_gla_fwd_kernel_o");
}

TD_KERNEL(td_kc_cgf_o) = {"chunk_gla_fwd.chunk_gla_fwd_o_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 13,
                          6, launch, NULL};
