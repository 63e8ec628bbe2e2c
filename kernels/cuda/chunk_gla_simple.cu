/* chunk_gla_simple on CUDA: chunk_simple_gla_fwd_kernel_o, one block per program
 * (i_v, i_t, i_bh), one thread per output lane (i, c) of the [BT, BV] tile: the thread
 * forms its row's q h over the key block, its decayed scores (q_t . k_s) exp(g_t - g_s)
 * for s <= t in the chunk (the causal where), and (b_o exp(g_t) + sum_s b_s v) * scale,
 * in binary32 with round-to-nearest intrinsics as the host port. */
#include "tlc.cuh"

struct cgs_args {
    const float *q, *k, *v, *h, *g;
    float *o;
    int64_t skh, skt, svh, svt, shh, sht, T, K, V, BT, BK, BV;
    float scale;
};

__device__ static float cgs_ld(const float *p, int64_t r, int64_t rows, int64_t rs, int64_t c, int64_t cols) {
    return r < rows && c < cols ? p[r * rs + c] : 0.0f;
}

__global__ static void cgs_fwd_o(cgs_args a) {
    int64_t i_v = blockIdx.x, i_t = blockIdx.y, bh = blockIdx.z, t0 = i_t * a.BT;
    const float *q = a.q + bh * a.skh, *k = a.k + bh * a.skh, *v = a.v + bh * a.svh;
    const float *h = a.h + bh * a.shh + i_t * a.K * a.V;
    for (int64_t lane = threadIdx.x; lane < a.BT * a.BV; lane += blockDim.x) {
        int64_t i = lane / a.BV, col = i_v * a.BV + lane % a.BV, t = t0 + i;
        if (t >= a.T || col >= a.V) continue;
        float gt = a.g[bh * a.T + t], bo = 0.0f, sv = 0.0f;
        for (int64_t i_k = 0; i_k * a.BK < a.K; i_k++)
            for (int64_t e = i_k * a.BK; e < (i_k + 1) * a.BK; e++)
                bo = __fadd_rn(bo, __fmul_rn(cgs_ld(q, t, a.T, a.skt, e, a.K), cgs_ld(h, e, a.K, a.sht, col, a.V)));
        bo = __fmul_rn(bo, expf(gt));
        for (int64_t j = 0; j <= i; j++) {
            float s = 0.0f;
            for (int64_t e = 0; e < a.K; e++) s = __fadd_rn(s, __fmul_rn(q[t * a.skt + e], k[(t0 + j) * a.skt + e]));
            s = __fmul_rn(s, expf(__fsub_rn(gt, a.g[bh * a.T + t0 + j])));
            sv = __fadd_rn(sv, __fmul_rn(s, v[(t0 + j) * a.svt + col]));
        }
        a.o[bh * a.svh + t * a.svt + col] = __fmul_rn(__fadd_rn(bo, sv), a.scale);
    }
}

static int launch(const td_abi_launch *L) {
    cgs_args a = {TLC_PTR(L, 0, const float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, const float),
                  TLC_PTR(L, 3, const float), TLC_PTR(L, 4, const float), TLC_PTR(L, 5, float),
                  TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 3), TLC_I(L, 4), TLC_I(L, 5),
                  TLC_I(L, 7), TLC_I(L, 8), TLC_I(L, 9), TLC_I(L, 10), TLC_I(L, 11), TLC_I(L, 12), TLC_R(L, 6)};
    cgs_fwd_o<<<tlc_grid(L), tlc_threads(TLC_I(L, 10) * TLC_I(L, 12)), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "chunk_simple_gla_fwd_kernel_o");
}

TD_KERNEL(td_kc_cgs_summary) = {"chunk_gla_simple.chunk_gla_simple_output_summary_general", "triton", TD_ABI_CUDA,
                                NULL, NULL, NULL, 13, 6, launch, NULL};
TD_KERNEL(td_kc_cgs_io) = {"chunk_gla_simple.chunk_gla_simple_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                           NULL, 13, 6, launch, NULL};
