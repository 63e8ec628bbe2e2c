/* fused_recurrent_hgrn on CUDA: the forward kernel then the backward kernel, one block
 * per program (blockIdx.x = i_d, .y = i_bh), one thread per lane d of the BD tile
 * (the lanes are independent), binary32 as the host port; bwd_dx: one step's
 * DX = DHPrev + DO. */
#include "tlc.cuh"

enum { P_USE_INIT, P_STORE_FINAL, P_IT, P_T, P_D, P_BD, NP };
enum { R_X, R_G, R_O, R_H0, R_HT, R_DX, R_DG, R_DO, NR = 10 };

struct hg_args {
    int64_t v[NP];
    float *r[NR];
};

__global__ static void hgrn_fwd(hg_args a) {
    int64_t T = a.v[P_T], D = a.v[P_D], bh = blockIdx.y;
    for (int64_t i = threadIdx.x; i < a.v[P_BD]; i += blockDim.x) {
        int64_t d = blockIdx.x * a.v[P_BD] + i;
        if (d >= D) continue;
        float h = 0.0f;
        if (a.v[P_USE_INIT]) h += a.r[R_H0][bh * D + d];
        for (int64_t t = 0; t < T; t++) {
            int64_t o = (bh * T + t) * D + d;
            h = __fadd_rn(__fmul_rn(a.r[R_G][o], h), a.r[R_X][o]);
            a.r[R_O][o] = h;
        }
        if (a.v[P_STORE_FINAL]) a.r[R_HT][bh * D + d] = h;
    }
}

__global__ static void hgrn_bwd(hg_args a) {
    int64_t T = a.v[P_T], D = a.v[P_D], bh = blockIdx.y;
    for (int64_t i = threadIdx.x; i < a.v[P_BD]; i += blockDim.x) {
        int64_t d = blockIdx.x * a.v[P_BD] + i;
        if (d >= D) continue;
        float dh = 0.0f;
        for (int64_t t = T - 1; t >= 0; t--) {
            int64_t o = (bh * T + t) * D + d;
            float bo = t > 0 ? a.r[R_O][o - D] : (a.v[P_USE_INIT] ? a.r[R_H0][bh * D + d] : 0.0f);
            dh = __fadd_rn(dh, a.r[R_DO][o]);
            a.r[R_DX][o] = dh;
            a.r[R_DG][o] = __fmul_rn(dh, bo);
            dh = __fmul_rn(dh, a.r[R_G][o]);
        }
    }
}

static int launch(const td_abi_launch *L) {
    hg_args a;
    for (int i = 0; i < NP; i++) a.v[i] = TLC_I(L, i);
    for (int i = 0; i < NR; i++) a.r[i] = TLC_PTR(L, i, float);
    hgrn_fwd<<<tlc_grid(L), tlc_threads(a.v[P_BD]), 0, (cudaStream_t)L->stream>>>(a);
    if (tlc_check(L, "hgrn_fwd")) return 1;
    hgrn_bwd<<<tlc_grid(L), tlc_threads(a.v[P_BD]), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "hgrn_bwd");
}

__global__ static void hgrn_dx(const float *dhp, const float *dout, float *dx, int64_t it, int64_t T, int64_t D,
                               int64_t BD) {
    for (int64_t i = threadIdx.x; i < BD; i += blockDim.x) {
        int64_t o = (blockIdx.y * T + it) * D + blockIdx.x * BD + i;
        if (blockIdx.x * BD + i < D) dx[o] = __fadd_rn(dhp[o], dout[o]);
    }
}
static int launch_dx(const td_abi_launch *L) {
    hgrn_dx<<<tlc_grid(L), tlc_threads(TLC_I(L, 3)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, float), TLC_I(L, 0), TLC_I(L, 1),
        TLC_I(L, 2), TLC_I(L, 3));
    return tlc_check(L, "hgrn_dx");
}

TD_KERNEL(td_kc_hgrn_summary) = {"fused_recurrent_hgrn.fused_recurrent_hgrn_output_summary_general", "triton",
                                 TD_ABI_CUDA, NULL, NULL, NULL, 6, 10, launch, NULL};
TD_KERNEL(td_kc_hgrn_dx) = {"fused_recurrent_hgrn.fused_recurrent_hgrn_bwd_dx_io_correctness", "triton", TD_ABI_CUDA,
                            NULL, NULL, NULL, 4, 3, launch_dx, NULL};
