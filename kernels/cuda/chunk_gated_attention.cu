/* chunk_gated_attention on CUDA: the two state-store slices, one block per program
 * (i_v, i_k, i_bh), one thread per lane of the [BK, BV] tile, masked copies; the
 * bundle: chunk_gated_abc_fwd_kernel_cum (one block per (i_s, i_t, i_bh), one thread
 * per [BT, BS] lane summing its chunk prefix) then chunk_gated_abc_fwd_kernel_h for
 * chunks 0 .. m (one block per (i_v, i_k, i_bh), one thread per state lane: decay by
 * exp(gn), the gated products summed over the chunk's rows, added), binary32 with
 * round-to-nearest intrinsics as the host port. */
#include "tlc.cuh"

__global__ static void cga_stores(const float *bh_in, float *h, const float *bhf, float *ht, int64_t it, int64_t shh,
                                  int64_t sht, int64_t shd, int64_t K, int64_t V, int64_t BK, int64_t BV) {
    int64_t p0 = blockIdx.x, p1 = blockIdx.y, p2 = blockIdx.z;
    for (int64_t lane = threadIdx.x; lane < BK * BV; lane += blockDim.x) {
        int64_t k = p1 * BK + lane / BV, v = p0 * BV + lane % BV;
        if (k >= K || v >= V) continue;
        int64_t off = p2 * shh + it * K * V + k * sht + v * shd, fo = p2 * K * V + k * V + v;
        h[off] = bh_in[off];
        ht[fo] = bhf[fo];
    }
}

static int launch(const td_abi_launch *L) {
    cga_stores<<<tlc_grid(L), tlc_threads(TLC_I(L, 6) * TLC_I(L, 7)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, float),
        TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 3), TLC_I(L, 4), TLC_I(L, 5), TLC_I(L, 6), TLC_I(L, 7));
    return tlc_check(L, "chunk_gated_attention state stores");
}

struct cga_bargs {
    const float *s, *k, *v, *g, *h0;
    float *gcum, *hprev, *hout;
    int64_t ssh, sst, ssd, T, S, BT, BS, m, skh, skt, skd, svh, svt, svd, K, V, BK, BV;
    int use_init, gatek;
};

__global__ static void cga_cum(cga_bargs a) {
    int64_t i_s = blockIdx.x, i_t = blockIdx.y, bh = blockIdx.z;
    for (int64_t lane = threadIdx.x; lane < a.BT * a.BS; lane += blockDim.x) {
        int64_t i = lane / a.BS, t = i_t * a.BT + i, d = i_s * a.BS + lane % a.BS;
        if (t >= a.T || d >= a.S) continue;
        float acc = 0.0f;
        for (int64_t r = i_t * a.BT; r <= t; r++) acc = __fadd_rn(acc, a.s[bh * a.ssh + r * a.sst + d * a.ssd]);
        a.gcum[bh * a.ssh + t * a.sst + d * a.ssd] = acc;
    }
}

__global__ static void cga_h(cga_bargs a) {
    int64_t bh = blockIdx.z;
    for (int64_t lane = threadIdx.x; lane < a.BK * a.BV; lane += blockDim.x) {
        int64_t k = blockIdx.y * a.BK + lane / a.BV, v = blockIdx.x * a.BV + lane % a.BV, off = bh * a.K * a.V + k * a.V + v;
        int64_t x = a.gatek ? k : v, D = a.gatek ? a.K : a.V, gh = a.gatek ? a.skh : a.svh;
        float h = a.use_init ? a.h0[off] : 0.0f;
        for (int64_t j = 0; j <= a.m; j++) {
            if (j == a.m) a.hprev[off] = h;
            float gn = a.g[bh * gh + (j * a.BT + a.BT - 1) * D + x], d = 0.0f;
            h = __fmul_rn(h, expf(gn));
            for (int64_t t = j * a.BT; t < (j + 1) * a.BT; t++) {
                float w = expf(__fsub_rn(gn, a.g[bh * gh + t * D + x]));
                float kk = a.k[bh * a.skh + t * a.skt + k * a.skd], vv = a.v[bh * a.svh + t * a.svt + v * a.svd];
                d = __fadd_rn(d, a.gatek ? __fmul_rn(__fmul_rn(kk, w), vv) : __fmul_rn(kk, __fmul_rn(vv, w)));
            }
            h = __fadd_rn(h, d);
        }
        a.hout[off] = h;
    }
}

static int launch_bundle(const td_abi_launch *L) {
    cga_bargs a = {TLC_PTR(L, 0, const float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, const float),
                   TLC_PTR(L, 4, const float), TLC_PTR(L, 5, const float), TLC_PTR(L, 1, float), TLC_PTR(L, 6, float),
                   TLC_PTR(L, 7, float), TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 3), TLC_I(L, 4), TLC_I(L, 5), TLC_I(L, 6),
                   TLC_I(L, 7), TLC_I(L, 8), TLC_I(L, 9), TLC_I(L, 10), TLC_I(L, 11), TLC_I(L, 12), TLC_I(L, 13),
                   TLC_I(L, 14), TLC_I(L, 15), TLC_I(L, 16), TLC_I(L, 17), TLC_I(L, 18), (int)TLC_I(L, 0),
                   (int)TLC_I(L, 19)};
    dim3 gc((unsigned)((a.S + a.BS - 1) / a.BS), (unsigned)((a.T + a.BT - 1) / a.BT), L->grid[2]);
    cga_cum<<<gc, tlc_threads(a.BT * a.BS), 0, (cudaStream_t)L->stream>>>(a);
    cga_h<<<tlc_grid(L), tlc_threads(a.BK * a.BV), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "chunk_gated_abc_fwd_kernel_cum / _h");
}
TD_KERNEL(td_kc_cga_bundle) = {"chunk_gated_attention.chunk_gated_attention_cum_slice_output_summary_general",
                               "triton", TD_ABI_CUDA, NULL, NULL, NULL, 20, 8, launch_bundle, NULL};

TD_KERNEL(td_kc_cga_stores) = {"chunk_gated_attention.chunk_gated_attention_state_stores_io_correctness", "triton",
                               TD_ABI_CUDA, NULL, NULL, NULL, 8, 4, launch, NULL};
TD_KERNEL(td_kc_cga_stores_r) = {"chunk_gated_attention.chunk_gated_attention_state_stores_io_correctnessR",
                                 "triton", TD_ABI_CUDA, NULL, NULL, NULL, 8, 4, launch, NULL};
