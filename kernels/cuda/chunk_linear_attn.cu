/* chunk_linear_attn on CUDA: chunk_linear_attn_fwd_kernel_h and _bwd_kernel_dh, one
 * block per program (i_k, i_v, i_bh), one thread per state lane (e, p) of the [BK, BV]
 * tile (each lane's state is independent): per chunk the thread stores its state, then
 * adds the chunk's sum over BT rows of k v (forward, chunks ascending) or (q scale) do
 * (backward, chunks descending), binary32 with round-to-nearest intrinsics. */
#include "tlc.cuh"

struct cla_args {
    const float *a, *b, *h0;
    float *h, *ht;
    int64_t sqkh, sqkt, sqkd, svoh, svot, svod, shh, sht, T, K, V, BT, BK, BV, NT;
    int use_init, store_final, bwd;
    float scale;
};

__global__ static void cla_state(cla_args a) {
    int64_t bh = blockIdx.z;
    for (int64_t lane = threadIdx.x; lane < a.BK * a.BV; lane += blockDim.x) {
        int64_t e = blockIdx.x * a.BK + lane / a.BV, p = blockIdx.y * a.BV + lane % a.BV;
        if (e >= a.K || p >= a.V) continue;
        float s = !a.bwd && a.use_init ? a.h0[bh * a.K * a.V + e * a.V + p] : 0.0f;
        for (int64_t j = 0; j < a.NT; j++) {
            int64_t i_t = a.bwd ? a.NT - 1 - j : j;
            a.h[bh * a.shh + i_t * a.K * a.V + e * a.sht + p] = s;
            float d = 0.0f;
            for (int64_t r = i_t * a.BT; r < (i_t + 1) * a.BT && r < a.T; r++) {
                float x = a.a[bh * a.sqkh + r * a.sqkt + e * a.sqkd];
                if (a.bwd) x = __fmul_rn(x, a.scale);
                d = __fadd_rn(d, __fmul_rn(x, a.b[bh * a.svoh + r * a.svot + p * a.svod]));
            }
            s = __fadd_rn(s, d);
        }
        if (!a.bwd && a.store_final) a.ht[bh * a.K * a.V + e * a.V + p] = s;
    }
}

static int launch(const td_abi_launch *L, int bwd) {
    int o = bwd ? 9 : 8;
    cla_args a = {TLC_PTR(L, 0, const float), TLC_PTR(L, 1, const float), bwd ? NULL : TLC_PTR(L, 3, const float),
                  TLC_PTR(L, 2, float), bwd ? NULL : TLC_PTR(L, 4, float), TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 2),
                  TLC_I(L, 3), TLC_I(L, 4), TLC_I(L, 5), TLC_I(L, 6), TLC_I(L, 7), TLC_I(L, o), TLC_I(L, o + 1),
                  TLC_I(L, o + 2), TLC_I(L, o + 3), TLC_I(L, o + 4), TLC_I(L, o + 5), TLC_I(L, o + 6),
                  bwd ? 0 : (int)TLC_I(L, 15), bwd ? 0 : (int)TLC_I(L, 16), bwd, bwd ? TLC_R(L, 8) : 1.0f};
    cla_state<<<tlc_grid(L), tlc_threads(a.BK * a.BV), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, bwd ? "chunk_linear_attn_bwd_kernel_dh" : "chunk_linear_attn_fwd_kernel_h");
}
static int launch_fwd(const td_abi_launch *L) { return launch(L, 0); }
static int launch_bwd(const td_abi_launch *L) { return launch(L, 1); }

TD_KERNEL(td_kc_cla_fwd_h) = {"chunk_linear_attn.cla_fwd_h_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                              17, 5, launch_fwd, NULL};
TD_KERNEL(td_kc_cla_bwd_dh) = {"chunk_linear_attn.cla_bwd_dh_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                               16, 3, launch_bwd, NULL};
