/* fused_recurrent_delta, output step on CUDA: one block per program (i_v, i_k, i_bh),
 * one thread per value lane jv summing its BK products (masked to 0) in order. */
#include "tlc.cuh"

__global__ static void frd_out(const float *hn, const float *q, float *o, int64_t t, int64_t sqk, int64_t svo,
                               int64_t K, int64_t V, int64_t BK, int64_t BV) {
    int64_t BH = gridDim.z, p2 = blockIdx.z, p1 = blockIdx.y;
    for (int64_t jv = threadIdx.x; jv < BV; jv += blockDim.x) {
        int64_t v = blockIdx.x * BV + jv;
        if (v >= V) continue;
        float acc = 0.0f;
        for (int64_t jk = 0; jk < BK && p1 * BK + jk < K; jk++) {
            int64_t k = p1 * BK + jk;
            acc = __fadd_rn(acc, __fmul_rn(hn[p2 * K * V + k * V + v], q[p2 * sqk + k + t * K]));
        }
        o[(p2 + p1 * BH) * svo + v + t * V] = acc;
    }
}
static int launch(const td_abi_launch *L) {
    frd_out<<<tlc_grid(L), tlc_threads(TLC_I(L, 8)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, const float), TLC_PTR(L, 2, float), TLC_I(L, 0), TLC_I(L, 1),
        TLC_I(L, 2), TLC_I(L, 5), TLC_I(L, 6), TLC_I(L, 7), TLC_I(L, 8));
    return tlc_check(L, "frd_out");
}
TD_KERNEL(td_kc_frd_out) = {"fused_recurrent_delta.fused_recurrent_delta_output_step_io_correctness", "triton",
                            TD_ABI_CUDA, NULL, NULL, NULL, 9, 3, launch, NULL};

/* fused_recurrent_delta summary bundle on CUDA: one block per program (i_v, 0, i_bh),
 * one thread running the forward kernel then both backward loops of the program over
 * its [BV, BK] tile in shared memory (the port's algorithm, sums in lane order). */
struct frd_args {
    const float *q, *k, *beta, *h0, *dht, *dout;
    float *v, *o, *ht, *dh0, *dq, *dk, *dv, *dbeta, *hout;
    int64_t hw, init, fin, udh0, udht, sqk, svo, NK, T, K, V, BK, BV, m;
    float scale;
};
__device__ static void frd_rows(const frd_args &A, int64_t bh, int64_t iv, int64_t t, float *bk, float *bq, float *bv,
                                float *bd, float *bb) {
    for (int64_t c = 0; c < A.BK; c++) {
        bool a = c < A.K;
        bk[c] = a ? A.k[bh * A.sqk + c + t * A.K] : 0.0f;
        bq[c] = __fmul_rn(a ? A.q[bh * A.sqk + c + t * A.K] : 0.0f, A.scale);
    }
    for (int64_t r = 0; r < A.BV; r++) {
        int64_t v = iv * A.BV + r, off = bh * A.svo + v + t * A.V;
        bool a = v < A.V;
        bv[r] = a ? A.v[off] : 0.0f;
        bd[r] = a ? A.dout[off] : 0.0f;
        bb[r] = A.hw ? (a ? A.beta[off] : 0.0f) : A.beta[bh * A.T + t];
    }
}
__device__ static float frd_dot(const float *a, int64_t sa, const float *b, int64_t sb, int64_t n) {
    float s = 0.0f;
    for (int64_t i = 0; i < n; i++) s = __fadd_rn(s, __fmul_rn(a[i * sa], b[i * sb]));
    return s;
}
__device__ static void frd_seed(const frd_args &A, float *h, const float *src, bool use, int64_t bh, int64_t iv) {
    for (int64_t c = 0; c < A.BK; c++)
        for (int64_t r = 0; r < A.BV; r++) {
            int64_t v = iv * A.BV + r;
            h[c * A.BV + r] = (use && c < A.K && v < A.V) ? src[(bh * A.K + c) * A.V + v] : 0.0f;
        }
}
__device__ static void frd_put(const frd_args &A, const float *h, float *dst, int64_t bh, int64_t iv) {
    for (int64_t c = 0; c < A.K; c++)
        for (int64_t r = 0; r < A.BV && iv * A.BV + r < A.V; r++) dst[(bh * A.K + c) * A.V + iv * A.BV + r] = h[c * A.BV + r];
}
__global__ static void frd_sum_kernel(frd_args A) {
    extern __shared__ float sm[];
    int64_t BK = A.BK, BV = A.BV, BH = gridDim.z, bh = blockIdx.z, iv = blockIdx.x, w = BK > BV ? BK : BV;
    float *h = sm, *bk = h + BK * BV, *bq = bk + w, *bv = bq + w, *bd = bv + w, *bb = bd + w, *dvv = bb + w;
    frd_seed(A, h, A.h0, A.init, bh, iv); /* h[c*BV + r] in all three phases */
    for (int64_t t = 0; t < A.T; t++) {
        frd_rows(A, bh, iv, t, bk, bq, bv, bd, bb);
        for (int64_t r = 0; r < BV; r++) {
            int64_t v = iv * BV + r, off = bh * A.svo + v + t * A.V;
            bv[r] = __fsub_rn(bv[r], frd_dot(h + r, BV, bk, 1, BK));
            if (v < A.V) A.v[off] = bv[r];
            bv[r] = __fmul_rn(bv[r], bb[r]);
            for (int64_t c = 0; c < BK; c++) h[c * BV + r] = __fadd_rn(h[c * BV + r], __fmul_rn(bk[c], bv[r]));
            if (v < A.V) A.o[off] = frd_dot(h + r, BV, bq, 1, BK);
        }
        if (t == A.m) frd_put(A, h, A.hout, bh, iv);
    }
    if (A.fin) frd_put(A, h, A.ht, bh, iv);
    frd_seed(A, h, A.dht, A.udht, bh, iv);
    for (int64_t t = A.T - 1; t >= 0; t--) {
        frd_rows(A, bh, iv, t, bk, bq, bv, bd, bb);
        for (int64_t c = 0; c < BK; c++)
            for (int64_t r = 0; r < BV; r++) h[c * BV + r] = __fadd_rn(h[c * BV + r], __fmul_rn(bq[c], bd[r]));
        for (int64_t c = 0; c < BK && c < A.K; c++) {
            float s = 0.0f;
            for (int64_t r = 0; r < BV; r++) s = __fadd_rn(s, __fmul_rn(h[c * BV + r], __fmul_rn(bv[r], bb[r])));
            A.dk[(bh + iv * BH) * A.sqk + c + t * A.K] = s;
        }
        float dbs = 0.0f;
        for (int64_t r = 0; r < BV; r++) {
            int64_t v = iv * BV + r;
            dvv[r] = frd_dot(h + r, BV, bk, 1, BK);
            float db = __fmul_rn(dvv[r], bv[r]);
            dbs = __fadd_rn(dbs, db);
            if (A.hw && v < A.V) A.dbeta[(bh + iv * BH * A.NK) * A.svo + r + t * A.V] = db;
            dvv[r] = __fmul_rn(dvv[r], bb[r]);
            if (v < A.V) A.dv[bh * A.svo + v + t * A.V] = dvv[r];
        }
        if (!A.hw) A.dbeta[(bh + iv * BH) * A.T + t] = dbs;
        for (int64_t c = 0; c < BK; c++)
            for (int64_t r = 0; r < BV; r++) h[c * BV + r] = __fsub_rn(h[c * BV + r], __fmul_rn(bk[c], dvv[r]));
    }
    if (A.udh0) frd_put(A, h, A.dh0, bh, iv);
    frd_seed(A, h, A.h0, A.init, bh, iv);
    for (int64_t t = 0; t < A.T; t++) {
        for (int64_t r = 0; r < BV; r++) {
            int64_t v = iv * BV + r;
            dvv[r] = v < A.V ? A.dv[bh * A.svo + v + t * A.V] : 0.0f;
        }
        for (int64_t c = 0; c < BK && c < A.K; c++) {
            int64_t off = (bh + iv * BH) * A.sqk + c + t * A.K;
            A.dk[off] = __fsub_rn(A.dk[off], frd_dot(dvv, 1, h + c * BV, 1, BV));
        }
        frd_rows(A, bh, iv, t, bk, bq, bv, bd, bb);
        for (int64_t c = 0; c < BK; c++)
            for (int64_t r = 0; r < BV; r++)
                h[c * BV + r] = __fadd_rn(h[c * BV + r], __fmul_rn(bk[c], __fmul_rn(bv[r], bb[r])));
        for (int64_t c = 0; c < BK && c < A.K; c++)
            A.dq[(bh + iv * BH) * A.sqk + c + t * A.K] = __fmul_rn(frd_dot(h + c * BV, 1, bd, 1, BV), A.scale);
    }
}
static int launch_sum(const td_abi_launch *L) {
    frd_args A = {TLC_PTR(L, 0, const float), TLC_PTR(L, 1, const float), TLC_PTR(L, 3, const float),
                  TLC_PTR(L, 5, const float), TLC_PTR(L, 7, const float), TLC_PTR(L, 9, const float),
                  TLC_PTR(L, 2, float), TLC_PTR(L, 4, float), TLC_PTR(L, 6, float), TLC_PTR(L, 8, float),
                  TLC_PTR(L, 10, float), TLC_PTR(L, 11, float), TLC_PTR(L, 12, float), TLC_PTR(L, 13, float),
                  TLC_PTR(L, 15, float), TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 3), TLC_I(L, 4),
                  TLC_I(L, 5), TLC_I(L, 6), TLC_I(L, 7), TLC_I(L, 10), TLC_I(L, 11), TLC_I(L, 12), TLC_I(L, 13),
                  TLC_I(L, 14), TLC_I(L, 15), TLC_R(L, 16)};
    int64_t w = A.BK > A.BV ? A.BK : A.BV;
    size_t shm = (size_t)(A.BK * A.BV + 6 * w) * sizeof(float);
    if (shm > 48 * 1024) {
        snprintf(L->err, L->errlen, "frd_sum: a [%lld, %lld] tile does not fit in shared memory", (long long)A.BV,
                 (long long)A.BK);
        return 1;
    }
    frd_sum_kernel<<<tlc_grid(L), 1, shm, (cudaStream_t)L->stream>>>(A);
    return tlc_check(L, "frd_sum");
}
TD_KERNEL(td_kc_frd_sum) = {"fused_recurrent_delta.fused_recurrent_delta_output_summary_general", "triton",
                            TD_ABI_CUDA, NULL, NULL, NULL, 17, 18, launch_sum, NULL};
