/* rms_matmul_rbe's body on CUDA (rms_matmul_rbe, its QKV wrapper, rms_rbe_matmul): one
 * block per program (blockIdx.x = pid_batch, blockIdx.y = pid), a thread per output lane
 * (i, j) of the BM x BN tile; the row's sum of squares and the dot over k < K in binary32,
 * x * rms_w rounded to fp16 as Triton's fp16 tiles do, rsqrtf, the fp16 store. */
#ifndef TD_RMS_MATMUL_RBE_TLC_CUH
#define TD_RMS_MATMUL_RBE_TLC_CUH

#include "tlc.cuh"

struct rmr_args {
    int64_t M, N, K, BM, BN, sxb, sxm, sxk, srms, swk, swn, sob, som, son;
    float eps;
};

__global__ void rms_matmul_rbe_kernel(const __half *x, const __half *w, const __half *rms, __half *out, rmr_args a) {
    int64_t gn = (a.N + a.BN - 1) / a.BN, pm = blockIdx.y / gn, pn = blockIdx.y % gn;
    for (int64_t l = threadIdx.x; l < a.BM * a.BN; l += blockDim.x) {
        int64_t i = l / a.BN, j = l % a.BN, m = pm * a.BM + i, n = pn * a.BN + j;
        if (m >= a.M || n >= a.N) continue;
        const __half *xr = x + (int64_t)blockIdx.x * a.sxb + m * a.sxm;
        float ss = 0.0f, acc = 0.0f;
        for (int64_t k = 0; k < a.K; k++) {
            float xv = __half2float(xr[k * a.sxk]);
            ss += xv * xv;
            float xs = __half2float(__float2half_rn(xv * __half2float(rms[k * a.srms])));
            acc += xs * __half2float(w[k * a.swk + n * a.swn]);
        }
        float nrm = rsqrtf(ss / (float)a.K + a.eps);
        out[(int64_t)blockIdx.x * a.sob + m * a.som + n * a.son] = __float2half_rn(acc * nrm);
    }
}

/* p: M, N, sxb, sxm, sxk, srms, BM, BN, K, EPS; o: swk, swn, sob, som, son; regions x, rms, w, out */
static inline int rmr_launch(const td_abi_launch *L, const int *p, const int *o, int rx, int rrms, int rw, int rout) {
    rmr_args a;
    a.M = TLC_I(L, p[0]), a.N = TLC_I(L, p[1]), a.sxb = TLC_I(L, p[2]), a.sxm = TLC_I(L, p[3]), a.sxk = TLC_I(L, p[4]);
    a.srms = TLC_I(L, p[5]), a.BM = TLC_I(L, p[6]), a.BN = TLC_I(L, p[7]), a.K = TLC_I(L, p[8]);
    a.eps = TLC_R(L, p[9]);
    a.swk = TLC_I(L, o[0]), a.swn = TLC_I(L, o[1]), a.sob = TLC_I(L, o[2]), a.som = TLC_I(L, o[3]), a.son = TLC_I(L, o[4]);
    rms_matmul_rbe_kernel<<<dim3(L->grid[0], L->grid[1], 1), tlc_threads(a.BM * a.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, rx, const __half), TLC_PTR(L, rw, const __half), TLC_PTR(L, rrms, const __half),
        TLC_PTR(L, rout, __half), a);
    return tlc_check(L, "rms_matmul_rbe_kernel");
}

/* the single-output statement: M N sxb sxm sxk swk swn srms sob som son BM BN BK nkb K EPS; X W RMS OUT */
static inline int rmr_launch_one(const td_abi_launch *L) {
    static const int p[10] = {0, 1, 2, 3, 4, 7, 11, 12, 15, 16}, o[5] = {5, 6, 8, 9, 10};
    return rmr_launch(L, p, o, 0, 2, 1, 3);
}

#endif
