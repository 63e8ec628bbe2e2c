/* chunked_cumsum_fwd on CUDA: chunked_cumsum_fused_slice, one block per program
 * (pid_b, pid_c, pid_h); one thread per head row of the [BSH, BSC] tile loads dt (masked
 * h < nheads, col < chunk_size), stores it to dt_out, multiplies by A[h] in binary32 and
 * scans the row in order (tl.cumsum along axis 1), a masked binary32 store. */
#include "tlc.cuh"

/* The parameter indices of the two contracts (catalogue order), as in
 * kernels/host/chunked_cumsum_fwd_tl.h. */
enum { SDB, SDS, SDH, SAH, SOB, SOC, SOH, SOS, SAB, SAC, SAHD, SAS, NH, CS, BSH, BSC, NK };
struct ccf_geo {
    int64_t p[NK];
};

__global__ void ccf_kernel(const float *dt, const float *A, float *dt_out, float *dA_cs, ccf_geo g) {
    int64_t b = blockIdx.x, ck = blockIdx.y, ph = blockIdx.z;
    for (int64_t r = threadIdx.x; r < g.p[BSH]; r += blockDim.x) {
        int64_t h = ph * g.p[BSH] + r;
        float a = h < g.p[NH] ? A[h * g.p[SAH]] : 0.0f, s = 0.0f;
        for (int64_t col = 0; col < g.p[BSC]; col++) {
            bool on = h < g.p[NH] && col < g.p[CS];
            float x = on ? dt[b * g.p[SDB] + (ck * g.p[CS] + col) * g.p[SDS] + h * g.p[SDH]] : 0.0f;
            s = __fadd_rn(s, __fmul_rn(x, a));
            if (on) {
                dt_out[b * g.p[SOB] + ck * g.p[SOC] + h * g.p[SOH] + col * g.p[SOS]] = x;
                dA_cs[b * g.p[SAB] + ck * g.p[SAC] + h * g.p[SAHD] + col * g.p[SAS]] = s;
            }
        }
    }
}

static int launch(const td_abi_launch *L) {
    static const int corr[NK] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    static const int sum[NK] = {6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 2, 3, 21, 22};
    int is_sum = L->nparams != 16, r0 = is_sum ? 5 : 0;
    ccf_geo g;
    for (int k = 0; k < NK; k++) g.p[k] = TLC_I(L, is_sum ? sum[k] : corr[k]);
    ccf_kernel<<<tlc_grid(L), tlc_threads(g.p[BSH]), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, r0, const float), TLC_PTR(L, r0 + 1, const float), TLC_PTR(L, r0 + 2, float),
        TLC_PTR(L, r0 + 3, float), g);
    return tlc_check(L, "_chunk_cumsum_fwd_kernel (DtPrepared slice)");
}

TD_KERNEL(td_kc_ccf_corr) = {"chunked_cumsum_fwd.chunked_cumsum_fwd_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                             NULL, 16, 4, launch, NULL};
TD_KERNEL(td_kc_ccf_sum) = {"chunked_cumsum_fwd.chunked_cumsum_fwd_summary_general", "triton", TD_ABI_CUDA, NULL, NULL,
                            NULL, 23, 9, launch, NULL};
