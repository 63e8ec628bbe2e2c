/* parallel_attention on CUDA: parallel_rebased_fwd_kernel, one block per program
 * (blockIdx = (i_kv, i_c, i_bh)), one thread per output row a of the [BTL, BV] tile: it
 * walks the keys block by block as the Triton program does (scores squared, the diagonal
 * block masked where o_q >= o_k after the square) and keeps z and the BV outputs of its
 * row; and _parallel_rebased_bwd_dkv, one block (the case's scalars), one thread per dk
 * lane (r, e) and per dv lane (r, p), the descending blocks with ds = dot scale + dz scale,
 * the diagonal blocks with (dot + dz) scale.  binary32 throughout; the host port (../host)
 * is the reference, this compiles in CI.  BV <= 8 (the generator's). */
#include "tlc.cuh"

enum { PF_SQK_H, PF_SQK_T, PF_SQK_D, PF_SVO_H, PF_SVO_T, PF_SVO_D, PF_SCALE, PF_B, PF_H, PF_T, PF_K, PF_V, PF_BTL,
       PF_BTS, PF_BK, PF_BV, NPF };
enum { PB_IBH, PB_IC, PB_IK, PB_IV, PB_IH, PB_SQK_H, PB_SQK_T, PB_SQK_D, PB_SVO_H, PB_SVO_T, PB_SVO_D, PB_SCALE, PB_B,
       PB_H, PB_T, PB_K, PB_V, PB_BTL, PB_BTS, PB_BK, PB_BV, NPB };
#define PA_MAXBV 8

struct pa_fargs {
    int64_t v[NPF];
    float scale;
    const float *q, *k, *vv;
    float *o, *z;
};
struct pa_bargs {
    int64_t v[NPB];
    float scale;
    const float *q, *k, *vv, *d, *dz;
    float *dk, *dv;
};

__global__ static void pa_fwd(pa_fargs a) {
    const int64_t *v = a.v;
    int64_t T = v[PF_T], K = v[PF_K], V = v[PF_V], BTL = v[PF_BTL], BK = v[PF_BK], BV = v[PF_BV];
    int64_t NV = (V + BV - 1) / BV, ik = blockIdx.x / NV, iv = blockIdx.x % NV, ic = blockIdx.y, bh = blockIdx.z;
    int64_t ai = threadIdx.x, row = ic * BTL + ai, qb = bh * v[PF_SQK_H];
    if (ai >= BTL || row >= T || BV > PA_MAXBV) return;
    float o[PA_MAXBV], z = 0.0f;
    for (int64_t p = 0; p < BV; p++) o[p] = 0.0f;
    for (int64_t t = 0; t <= row; t++) {
        float s = 0.0f;
        for (int64_t x = ik * BK; x < (ik + 1) * BK && x < K; x++)
            s = __fadd_rn(s, __fmul_rn(__fmul_rn(a.q[qb + row * v[PF_SQK_T] + x * v[PF_SQK_D]], a.scale),
                                       a.k[qb + t * v[PF_SQK_T] + x * v[PF_SQK_D]]));
        s = __fmul_rn(s, s);
        z = __fadd_rn(z, s);
        for (int64_t p = 0; p < BV && iv * BV + p < V; p++)
            o[p] = __fadd_rn(o[p], __fmul_rn(s, a.vv[bh * v[PF_SVO_H] + t * v[PF_SVO_T] + iv * BV + p]));
    }
    int64_t blk = bh + v[PF_B] * v[PF_H] * ik;
    for (int64_t p = 0; p < BV && iv * BV + p < V; p++) a.o[blk * v[PF_SVO_H] + row * v[PF_SVO_T] + iv * BV + p] = o[p];
    a.z[blk * T + row] = z;
}

__device__ static float pa_bwd_lane(const pa_bargs &a, int o, int64_t r, int64_t col) {
    const int64_t *v = a.v;
    int64_t T = v[PB_T], BTL = v[PB_BTL], ic = v[PB_IC], i = ic * BTL + r, bh = v[PB_IBH], iv = v[PB_IV], ik = v[PB_IK];
    int64_t qb = bh * v[PB_SQK_H], vb = bh * v[PB_SVO_H], sqt = v[PB_SQK_T], svt = v[PB_SVO_T];
    float acc = 0.0f;
    for (int64_t t = T - 1; t >= i; t--) {
        int diag = t < (ic + 1) * BTL;
        float s = 0.0f, d = 0.0f;
        for (int64_t x = ik * v[PB_BK]; x < (ik + 1) * v[PB_BK] && x < v[PB_K]; x++)
            s = __fadd_rn(s, __fmul_rn(a.k[qb + i * sqt + x], a.q[qb + t * sqt + x]));
        s = __fmul_rn(s, a.scale);
        if (o) {
            acc = __fadd_rn(acc, __fmul_rn(__fmul_rn(s, s), a.d[vb + t * svt + col]));
            continue;
        }
        for (int64_t x = iv * v[PB_BV]; x < (iv + 1) * v[PB_BV] && x < v[PB_V]; x++)
            d = __fadd_rn(d, __fmul_rn(a.vv[vb + i * svt + x], a.d[vb + t * svt + x]));
        float dz = a.dz[bh * T + t];
        float ds = iv != 0 ? __fmul_rn(d, a.scale)
                   : diag  ? __fmul_rn(__fadd_rn(d, dz), a.scale)
                           : __fadd_rn(__fmul_rn(d, a.scale), __fmul_rn(dz, a.scale));
        acc = __fadd_rn(acc, __fmul_rn(__fmul_rn(__fmul_rn(2.0f, ds), s), a.q[qb + t * sqt + col]));
    }
    return acc;
}
__global__ static void pa_bwd(pa_bargs a) {
    const int64_t *v = a.v;
    int64_t BTL = v[PB_BTL], T = v[PB_T], BH = v[PB_B] * v[PB_H], bh = v[PB_IBH];
    for (int64_t l = threadIdx.x; l < BTL * (v[PB_BK] + v[PB_BV]); l += blockDim.x) {
        int o = l >= BTL * v[PB_BK];
        int64_t Bc = o ? v[PB_BV] : v[PB_BK], m = o ? l - BTL * v[PB_BK] : l, r = m / Bc;
        int64_t col = (o ? v[PB_IV] : v[PB_IK]) * Bc + m % Bc, row = v[PB_IC] * BTL + r;
        if (row >= T || col >= (o ? v[PB_V] : v[PB_K])) continue;
        float x = pa_bwd_lane(a, o, r, col);
        if (o) a.dv[(bh + BH * v[PB_IK]) * v[PB_SVO_H] + row * v[PB_SVO_T] + col] = x;
        else a.dk[(bh + BH * v[PB_IV]) * v[PB_SQK_H] + row * v[PB_SQK_T] + col] = x;
    }
}

static int launch_fwd(const td_abi_launch *L) {
    pa_fargs a;
    for (int i = 0; i < NPF; i++) a.v[i] = i == PF_SCALE ? 0 : TLC_I(L, i);
    a.scale = TLC_R(L, PF_SCALE);
    a.q = TLC_PTR(L, 0, const float), a.k = TLC_PTR(L, 1, const float), a.vv = TLC_PTR(L, 2, const float);
    a.o = TLC_PTR(L, 3, float), a.z = TLC_PTR(L, 4, float);
    pa_fwd<<<tlc_grid(L), tlc_threads(a.v[PF_BTL]), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "pa_fwd");
}
static int launch_bwd(const td_abi_launch *L) {
    pa_bargs a;
    for (int i = 0; i < NPB; i++) a.v[i] = i == PB_SCALE ? 0 : TLC_I(L, i);
    a.scale = TLC_R(L, PB_SCALE);
    a.q = TLC_PTR(L, 0, const float), a.k = TLC_PTR(L, 1, const float), a.vv = TLC_PTR(L, 2, const float);
    a.d = TLC_PTR(L, 3, const float), a.dz = TLC_PTR(L, 4, const float);
    a.dk = TLC_PTR(L, 5, float), a.dv = TLC_PTR(L, 6, float);
    pa_bwd<<<tlc_grid(L), 256, 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "pa_bwd");
}

TD_KERNEL(td_kc_pa_fwd) = {"parallel_attention.pa_fwd_o_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 16, 5,
                           launch_fwd, NULL};
TD_KERNEL(td_kc_pa_bwd) = {"parallel_attention.pa_bwd_dkv_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 21,
                           7, launch_bwd, NULL};
