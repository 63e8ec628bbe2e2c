/* fused_recurrent_retention on CUDA: the forward kernel then the backward kernel, one
 * block per program (blockIdx.x = i_v, .y = i_k, .z = i_bh), one thread per value lane
 * r of the tile in the forward (it owns the column h[:, r] of the [BV, BK] state and
 * reduces over k itself), one thread per key lane c in the backward's first loop
 * (h[c, :], reducing over v) and one per value lane r in its reverse loop (d_h[:, r]:
 * dv over k in the thread; dk over v through shared memory).  binary32 throughout,
 * b_b = 1 - exp2f(-5 - i_h); the carry regions HSeed / HOut / DHOut stored as in the
 * host port.  BK, BV <= 32 (the wrapper's min(D, 32)). */
#include "tlc.cuh"

enum { P_USE_INIT, P_STORE_FINAL, P_SQK, P_SVO, P_B, P_H, P_T, P_DK, P_DV, P_BK, P_BV, P_M, P_SCALE, NP };
enum { R_Q, R_K, R_V, R_O, R_DO, R_DQ, R_DK, R_DV, R_H0, R_HT, R_HSEED, R_HPREV, R_HOUT, R_DHPREV, R_DHOUT, NR };
#define MAXB 32

struct frr_args {
    int64_t v[NP];
    float scale;
    float *r[NR];
};

__device__ static float bdecay(const frr_args &a) { return 1.0f - exp2f(-5.0f - (float)(blockIdx.z % a.v[P_H])); }

__global__ static void frr_fwd(frr_args a) {
    const int64_t *v = a.v;
    int64_t DK = v[P_DK], DV = v[P_DV], BK = v[P_BK], BV = v[P_BV], T = v[P_T], BH = v[P_B] * v[P_H];
    int64_t bh = blockIdx.z, ik = blockIdx.y, r = threadIdx.x, vv = blockIdx.x * BV + r;
    if (r >= BV || vv >= DV) return;
    float b = bdecay(a), h[MAXB];
    for (int64_t c = 0; c < BK; c++) {
        int64_t k = ik * BK + c, so = bh * DK * DV + k * DV + vv;
        h[c] = 0.0f;
        if (k < DK) {
            if (v[P_USE_INIT]) h[c] += a.r[R_H0][so];
            a.r[R_HSEED][so] = h[c];
        }
    }
    for (int64_t t = 0; t < T; t++) {
        float vt = a.r[R_V][bh * v[P_SVO] + vv + t * DV], o = 0.0f;
        for (int64_t c = 0; c < BK && ik * BK + c < DK; c++) {
            int64_t qo = bh * v[P_SQK] + ik * BK + c + t * DK;
            h[c] = __fadd_rn(__fmul_rn(b, h[c]), __fmul_rn(a.r[R_K][qo], vt));
            o = __fadd_rn(o, __fmul_rn(h[c], __fmul_rn(a.r[R_Q][qo], a.scale)));
        }
        a.r[R_O][(bh + ik * BH) * v[P_SVO] + vv + t * DV] = o;
        for (int64_t c = 0; c < BK && ik * BK + c < DK; c++) {
            int64_t so = bh * DK * DV + (ik * BK + c) * DV + vv;
            if (t == v[P_M]) a.r[R_HOUT][so] = h[c];
            if (t == T - 1 && v[P_STORE_FINAL]) a.r[R_HT][so] = h[c];
        }
    }
}

__global__ static void frr_bwd(frr_args a) {
    const int64_t *v = a.v;
    int64_t DK = v[P_DK], DV = v[P_DV], BK = v[P_BK], BV = v[P_BV], T = v[P_T], BH = v[P_B] * v[P_H];
    int64_t bh = blockIdx.z, ik = blockIdx.y, iv = blockIdx.x, l = threadIdx.x;
    __shared__ float part[MAXB][MAXB];
    float b = bdecay(a), h[MAXB];
    int64_t k = ik * BK + l, sqk = v[P_SQK], svo = v[P_SVO];
    if (l < BK && k < DK) { /* loop 1: thread = key lane, h[k, :] rebuilt, dq */
        for (int64_t r = 0; r < BV; r++) {
            int64_t vv = iv * BV + r;
            h[r] = (v[P_USE_INIT] && vv < DV) ? a.r[R_H0][bh * DK * DV + k * DV + vv] : 0.0f;
        }
        for (int64_t t = 0; t < T; t++) {
            float kt = a.r[R_K][bh * sqk + k + t * DK], dq = 0.0f;
            for (int64_t r = 0; r < BV && iv * BV + r < DV; r++) {
                int64_t vo = bh * svo + iv * BV + r + t * DV;
                h[r] = __fadd_rn(__fmul_rn(b, h[r]), __fmul_rn(kt, a.r[R_V][vo]));
                dq = __fadd_rn(dq, __fmul_rn(h[r], a.r[R_DO][vo]));
            }
            a.r[R_DQ][(bh + iv * BH) * sqk + k + t * DK] = __fmul_rn(dq, a.scale);
        }
    }
    __syncthreads();
    /* loop 2: thread = value lane r, d_h[:, r] */
    int64_t r = l, vv = iv * BV + r;
    int act = r < BV && vv < DV;
    for (int64_t c = 0; c < BK; c++) h[c] = 0.0f;
    for (int64_t t = T - 1; t >= 0; t--) {
        float dv = 0.0f;
        if (act) {
            float dot = a.r[R_DO][bh * svo + vv + t * DV], vt = a.r[R_V][bh * svo + vv + t * DV];
            for (int64_t c = 0; c < BK && ik * BK + c < DK; c++) {
                int64_t qo = bh * sqk + ik * BK + c + t * DK;
                h[c] = __fadd_rn(h[c], __fmul_rn(__fmul_rn(a.r[R_Q][qo], a.scale), dot));
                dv = __fadd_rn(dv, __fmul_rn(h[c], a.r[R_K][qo]));
                part[c][r] = __fmul_rn(h[c], vt);
            }
            a.r[R_DV][(bh + ik * BH) * svo + vv + t * DV] = dv;
        }
        __syncthreads();
        if (l < BK && k < DK) { /* dk[k] = sum over the tile's v lanes */
            float dk = 0.0f;
            for (int64_t q = 0; q < BV && iv * BV + q < DV; q++) dk = __fadd_rn(dk, part[l][q]);
            a.r[R_DK][(bh + iv * BH) * sqk + k + t * DK] = dk;
        }
        __syncthreads();
        if (act)
            for (int64_t c = 0; c < BK && ik * BK + c < DK; c++) {
                h[c] = __fmul_rn(h[c], b);
                if (t == v[P_M]) a.r[R_DHOUT][bh * DK * DV + (ik * BK + c) * DV + vv] = h[c];
            }
    }
}

static int launch(const td_abi_launch *L) {
    frr_args a;
    for (int i = 0; i < NP; i++) a.v[i] = TLC_I(L, i);
    a.scale = TLC_R(L, P_SCALE);
    for (int i = 0; i < NR; i++) a.r[i] = TLC_PTR(L, i, float);
    if (a.v[P_BK] > MAXB || a.v[P_BV] > MAXB) {
        snprintf(L->err, L->errlen, "fused_recurrent_retention: BK, BV <= %d", MAXB);
        return 1;
    }
    frr_fwd<<<tlc_grid(L), MAXB, 0, (cudaStream_t)L->stream>>>(a);
    if (tlc_check(L, "frr_fwd")) return 1;
    frr_bwd<<<tlc_grid(L), MAXB, 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "frr_bwd");
}

/* the seed prologue: h = 0 + load(initial_state, mask_kv), stored to HSeed */
__global__ static void frr_seed(const float *h0, float *hs, int64_t DK, int64_t DV, int64_t BK, int64_t BV) {
    for (int64_t l = threadIdx.x; l < BK * BV; l += blockDim.x) {
        int64_t k = blockIdx.y * BK + l % BK, vv = blockIdx.x * BV + l / BK;
        int64_t off = blockIdx.z * DK * DV + k * DV + vv;
        if (k < DK && vv < DV) hs[off] = 0.0f + h0[off];
    }
}
static int launch_seed(const td_abi_launch *L) {
    frr_seed<<<tlc_grid(L), tlc_threads(TLC_I(L, 2) * TLC_I(L, 3)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 3));
    return tlc_check(L, "frr_seed");
}

TD_KERNEL(td_kc_frr_summary) = {"fused_recurrent_retention.fused_recurrent_retention_output_summary_general",
                                "triton", TD_ABI_CUDA, NULL, NULL, NULL, 13, 15, launch, NULL};
TD_KERNEL(td_kc_frr_seed) = {"fused_recurrent_retention.fused_recurrent_retention_seed_io_correctness", "triton",
                             TD_ABI_CUDA, NULL, NULL, NULL, 4, 2, launch_seed, NULL};
TD_KERNEL(td_kc_frr_seed_r) = {"fused_recurrent_retention.fused_recurrent_retention_seed_io_correctnessR", "triton",
                               TD_ABI_CUDA, NULL, NULL, NULL, 4, 2, launch_seed, NULL};
