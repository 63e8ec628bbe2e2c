/* chunk_delta_fwd on CUDA: one block per Triton program (i_k, i_v, i_bh), threads over
 * the tile's lanes. */
#include "tlc.cuh"

enum { P_USE_INIT, P_STORE_FINAL, P_SQKH, P_SQKT, P_SQKD, P_SVOH, P_SVOT, P_SVOD, P_SHH, P_SHT, P_H, P_T, P_K, P_V,
       P_BT, P_BC, P_BK, P_BV, P_NT };
enum { R_K, R_V, R_D, R_VNEW, R_H, R_H0, R_HT };

struct cdf_args {
    const float *k, *v, *d, *h0;
    float *vnew, *h, *ht;
    int64_t sqkh, sqkt, sqkd, svoh, svot, svod, shh, sht, T, K, V, BT, BC, BK, BV, NT;
    int use_init, store_final;
};

/* program (0, i_v, i_bh): one thread per column q of the [BK, BV] state; b_h and the
 * inner chunk's b_v live in shared memory ([BK][BV] and [BC][BV]), b_h_cumsum too */
__global__ static void cdf_exec(cdf_args a) {
    extern __shared__ float sm[];
    float *bh_ = sm, *cum = sm + a.BK * a.BV, *bv = cum + a.BK * a.BV;
    int64_t bh = blockIdx.z, KV = a.K * a.V;
    for (int64_t q = threadIdx.x; q < a.BV; q += blockDim.x) {
        int64_t p = (int64_t)blockIdx.y * a.BV + q;
        int act = p < a.V;
        for (int64_t e = 0; e < a.BK; e++) bh_[e * a.BV + q] = a.use_init && act ? a.h0[bh * KV + e * a.V + p] : 0.0f;
        for (int64_t it = 0; it < a.NT; it++) {
            for (int64_t e = 0; e < a.BK; e++) {
                if (act) a.h[bh * a.shh + it * KV + e * a.sht + p] = bh_[e * a.BV + q];
                cum[e * a.BV + q] = 0.0f;
            }
            for (int64_t ic = 0; ic < (a.BT + a.BC - 1) / a.BC; ic++) {
                int64_t t0 = it * a.BT + ic * a.BC;
                for (int64_t r = 0; r < a.BC; r++) {
                    int64_t t = t0 + r, off = bh * a.svoh + t * a.svot + p * a.svod;
                    float dot = 0.0f;
                    for (int64_t e = 0; e < a.BK; e++)
                        if (t < a.T) dot += a.d[bh * a.sqkh + t * a.sqkt + e * a.sqkd] * bh_[e * a.BV + q];
                    float x = (act && t < a.T ? a.v[off] : 0.0f) - dot;
                    bv[r * a.BV + q] = x;
                    if (act && t < a.T) a.vnew[off] = x;
                }
                for (int64_t e = 0; e < a.BK; e++) {
                    float s = 0.0f;
                    for (int64_t r = 0; r < a.BC; r++)
                        if (t0 + r < a.T) s += a.k[bh * a.sqkh + e * a.sqkd + (t0 + r) * a.sqkt] * bv[r * a.BV + q];
                    cum[e * a.BV + q] += s;
                }
            }
            for (int64_t e = 0; e < a.BK; e++) bh_[e * a.BV + q] += cum[e * a.BV + q];
        }
        if (a.store_final && act)
            for (int64_t e = 0; e < a.BK; e++) a.ht[bh * KV + e * a.V + p] = bh_[e * a.BV + q];
    }
}

static int launch_exec(const td_abi_launch *L) {
    cdf_args a = {TLC_PTR(L, R_K, const float), TLC_PTR(L, R_V, const float), TLC_PTR(L, R_D, const float),
                  TLC_PTR(L, R_H0, const float), TLC_PTR(L, R_VNEW, float), TLC_PTR(L, R_H, float),
                  TLC_PTR(L, R_HT, float), TLC_I(L, P_SQKH), TLC_I(L, P_SQKT), TLC_I(L, P_SQKD), TLC_I(L, P_SVOH),
                  TLC_I(L, P_SVOT), TLC_I(L, P_SVOD), TLC_I(L, P_SHH), TLC_I(L, P_SHT), TLC_I(L, P_T), TLC_I(L, P_K),
                  TLC_I(L, P_V), TLC_I(L, P_BT), TLC_I(L, P_BC), TLC_I(L, P_BK), TLC_I(L, P_BV), TLC_I(L, P_NT),
                  (int)TLC_I(L, P_USE_INIT), (int)TLC_I(L, P_STORE_FINAL)};
    size_t shm = (size_t)((2 * a.BK + a.BC) * a.BV) * sizeof(float);
    if (shm > 48 * 1024) {
        snprintf(L->err, L->errlen, "(2 BK + BC) BV floats exceed 48 KiB of shared memory");
        return TD_ABI_NOT_COVERED;
    }
    cdf_exec<<<tlc_grid(L), tlc_threads(a.BV), shm, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "cdf_exec");
}

enum { PS_IT, PS_SHH, PS_SHT, PS_K, PS_V, PS_BK, PS_BV };

/* the chunk-start state writeback: b_h (HPre) to h's slot i_t, boundary-checked */
__global__ static void cdf_store(const float *hpre, float *h, int64_t it, int64_t shh, int64_t sht, int64_t K,
                                 int64_t V, int64_t BK, int64_t BV) {
    for (int64_t l = threadIdx.x; l < BK * BV; l += blockDim.x) {
        int64_t k = (int64_t)blockIdx.x * BK + l / BV, v = (int64_t)blockIdx.y * BV + l % BV;
        int64_t off = (int64_t)blockIdx.z * shh + it * K * V + k * sht + v;
        if (k < K && v < V) h[off] = hpre[off];
    }
}
static int launch_store(const td_abi_launch *L) {
    cdf_store<<<tlc_grid(L), tlc_threads(TLC_I(L, PS_BK) * TLC_I(L, PS_BV)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_I(L, PS_IT), TLC_I(L, PS_SHH), TLC_I(L, PS_SHT),
        TLC_I(L, PS_K), TLC_I(L, PS_V), TLC_I(L, PS_BK), TLC_I(L, PS_BV));
    return tlc_check(L, "cdf_store");
}

TD_KERNEL(td_kc_cdf_exec) = {"chunk_delta_fwd.chunk_delta_fwd_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                             19, 7, launch_exec, NULL};
TD_KERNEL(td_kc_cdf_store) = {"chunk_delta_fwd.chunk_delta_h_state_store_io_correctness", "triton", TD_ABI_CUDA, NULL,
                              NULL, NULL, 7, 2, launch_store, NULL};
TD_KERNEL(td_kc_cdf_store_r) = {"chunk_delta_fwd.chunk_delta_h_state_store_io_correctnessR", "triton", TD_ABI_CUDA,
                                NULL, NULL, NULL, 7, 2, launch_store, NULL};
