/* decay_cumsum on CUDA: fwd_decay_cumsum, one block per program (i_k, i_c, i_bh), one
 * thread per lane j of the BK-wide window: cum_decay += g * inv_ln2 row by row, stored. */
#include "tlc.cuh"

enum { P_SQH, P_SQT, P_SQD, P_B, P_H, P_T, P_SCALE, P_BT, P_BK, P_DK };

static __global__ void fwd_decay_cumsum_kernel(const float *g, float *go, int64_t sqh, int64_t BT, int64_t BK,
                                               int64_t DK) {
    const float inv_ln2 = 1.44269504f;
    for (int64_t j = threadIdx.x; j < BK; j += blockDim.x) {
        if ((int64_t)blockIdx.x * BK + j >= DK) continue;
        int64_t p = (int64_t)blockIdx.z * sqh + (int64_t)blockIdx.y * BT * DK + (int64_t)blockIdx.x * BK + j;
        float cum = 0.0f;
        for (int64_t i = 0; i < BT; i++, p += DK) {
            cum = __fadd_rn(cum, __fmul_rn(g[p], inv_ln2));
            go[p] = cum;
        }
    }
}

static int launch(const td_abi_launch *L) {
    int64_t BK = TLC_I(L, P_BK);
    fwd_decay_cumsum_kernel<<<tlc_grid(L), tlc_threads(BK), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_I(L, P_SQH), TLC_I(L, P_BT), BK, TLC_I(L, P_DK));
    return tlc_check(L, "fwd_decay_cumsum");
}

TD_KERNEL(td_kc_decay_cumsum_fwd) = {"decay_cumsum.fwd_decay_cumsum_io_correctness", "triton", TD_ABI_CUDA,
                                     "store=fp32:rne:inf", NULL, NULL, 10, 2, launch, NULL};

/* prepare_qg_kg: one thread per lane j; last_decay loaded unmasked (every BK lane). */
static __global__ void prepare_qg_kg_kernel(const float *q, const float *k, const float *g, float *qg, float *kg,
                                            int64_t sqh, int64_t BT, int64_t BK, int64_t DK, float scale) {
    for (int64_t j = threadIdx.x; j < BK; j += blockDim.x) {
        int64_t p = (int64_t)blockIdx.z * sqh + (int64_t)blockIdx.y * BT * DK + (int64_t)blockIdx.x * BK + j;
        float last = g[p + (BT - 1) * DK];
        if ((int64_t)blockIdx.x * BK + j >= DK) continue;
        for (int64_t i = 0; i < BT; i++, p += DK) {
            float gg = g[p];
            kg[p] = k[p] * exp2f(last - gg);
            qg[p] = q[p] * (exp2f(gg) * scale);
        }
    }
}

/* bwd_decay_global_cumsum: one thread per lane j, rows from BT-1 down to 0, in place. */
static __global__ void bwd_decay_kernel(const float *dqi, float *dqt, const float *dki, float *dkt, const float *q,
                                        const float *k, const float *g, float *dg, int64_t sqh, int64_t BT,
                                        int64_t BK, int64_t DK) {
    for (int64_t j = threadIdx.x; j < BK; j += blockDim.x) {
        if ((int64_t)blockIdx.x * BK + j >= DK) continue;
        int64_t p = (int64_t)blockIdx.z * sqh + ((int64_t)blockIdx.y * BT + BT - 1) * DK + (int64_t)blockIdx.x * BK + j;
        float cum = 0.0f, last_g = g[p];
        for (int64_t r = BT - 1; r >= 0; r--, p -= DK) {
            float gg = g[p];
            float dq = dqi[p] + dqt[p] * exp2f(gg);
            dqt[p] = dq;
            float dk = dki[p] + dkt[p] * exp2f(last_g - gg);
            dkt[p] = dk;
            cum += dq * q[p] - dk * k[p];
            dg[p] = cum;
        }
    }
}

static int launch_prep(const td_abi_launch *L) {
    int64_t BK = TLC_I(L, P_BK);
    prepare_qg_kg_kernel<<<tlc_grid(L), tlc_threads(BK), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, float),
        TLC_PTR(L, 4, float), TLC_I(L, P_SQH), TLC_I(L, P_BT), BK, TLC_I(L, P_DK), TLC_R(L, P_SCALE));
    return tlc_check(L, "prepare_qg_kg");
}
static int launch_bwd(const td_abi_launch *L) {
    int64_t BK = TLC_I(L, P_BK);
    bwd_decay_kernel<<<tlc_grid(L), tlc_threads(BK), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, float),
        TLC_PTR(L, 4, const float), TLC_PTR(L, 5, const float), TLC_PTR(L, 6, const float), TLC_PTR(L, 7, float),
        TLC_I(L, P_SQH), TLC_I(L, P_BT), BK, TLC_I(L, P_DK));
    return tlc_check(L, "bwd_decay_global_cumsum");
}

TD_KERNEL(td_kc_decay_cumsum_prep) = {"decay_cumsum.prepare_qg_kg_io_correctness", "triton", TD_ABI_CUDA,
                                      "store=fp32:rne:inf", NULL, NULL, 10, 5, launch_prep, NULL};
TD_KERNEL(td_kc_decay_cumsum_bwd) = {"decay_cumsum.bwd_decay_global_cumsum_io_correctness", "triton", TD_ABI_CUDA,
                                     "store=fp32:rne:inf", NULL, NULL, 10, 8, launch_bwd, NULL};
TD_KERNEL(td_kc_decay_cumsum_bwd_closed) = {"decay_cumsum.decay_cumsum_backward_closed_output_summary_general",
                                            "triton", TD_ABI_CUDA, NULL, NULL, NULL, 10, 8, launch_bwd, NULL};
