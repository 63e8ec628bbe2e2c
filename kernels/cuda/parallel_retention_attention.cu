/* parallel_retention_attention on CUDA: parallel_retention_fwd_kernel, one block per
 * program (blockIdx = (i_kv, i_c, i_bh)), one thread per output lane (a, p) of the
 * [BTL, BV] tile, following the Triton program's blocking: the key blocks below the
 * diagonal with score * exp2f((BTS - j) b_b) and the accumulator decayed by exp2f(b_b BTS)
 * per block, then * exp2f(a b_b), then the diagonal blocks with exp2f((a - j) b_b) where
 * a >= j; and _parallel_retention_bwd_dkv, one block (the case's scalars), one thread per
 * dk lane (r, e) and per dv lane (r, p), with the descending blocks decayed by exp2f(b_b
 * BTS), the row factor exp2f((BTL - r) b_b) and scale, then the diagonal blocks.
 * binary32 throughout; the host port (../host) is the reference, this compiles in CI. */
#include "tlc.cuh"

enum { PF_SQK_H, PF_SQK_T, PF_SQK_D, PF_SVO_H, PF_SVO_T, PF_SVO_D, PF_SCALE, PF_B, PF_H, PF_T, PF_K, PF_V, PF_BTL,
       PF_BTS, PF_BK, PF_BV, NPF };
enum { PB_IBH, PB_IC, PB_IK, PB_IV, PB_IH, PB_SQK_H, PB_SQK_T, PB_SQK_D, PB_SVO_H, PB_SVO_T, PB_SVO_D, PB_SCALE, PB_B,
       PB_H, PB_T, PB_K, PB_V, PB_BTL, PB_BTS, PB_BK, PB_BV, NPB };

struct pra_fargs {
    int64_t v[NPF];
    float scale;
    const float *q, *k, *vv;
    float *o;
};
struct pra_bargs {
    int64_t v[NPB];
    float scale;
    const float *q, *k, *vv, *d;
    float *dk, *dv;
};

__global__ static void pra_fwd(pra_fargs a) {
    const int64_t *v = a.v;
    int64_t T = v[PF_T], K = v[PF_K], V = v[PF_V], BTL = v[PF_BTL], BTS = v[PF_BTS], BK = v[PF_BK], BV = v[PF_BV];
    int64_t NV = (V + BV - 1) / BV, ik = blockIdx.x / NV, iv = blockIdx.x % NV, ic = blockIdx.y, bh = blockIdx.z;
    int64_t l = threadIdx.x, ai = l / BV, p = iv * BV + l % BV, row = ic * BTL + ai;
    if (l >= BTL * BV || row >= T || p >= V) return;
    float bb = log2f(1.0f - exp2f(-5.0f - (float)(bh % v[PF_H]) * 1.0f)), o = 0.0f;
    int64_t qb = bh * v[PF_SQK_H];
    for (int64_t s0 = 0; s0 < (ic + 1) * BTL; s0 += BTS) {
        int diag = s0 >= ic * BTL;
        if (!diag) o = __fmul_rn(o, exp2f(bb * (float)BTS));
        else if (s0 == ic * BTL) o = __fmul_rn(o, exp2f((float)ai * bb));
        for (int64_t j = 0; j < BTS; j++) {
            int64_t t = s0 + j, ok = s0 - ic * BTL + j;
            if (t >= T || (diag && ai < ok)) continue;
            float s = 0.0f;
            for (int64_t x = ik * BK; x < (ik + 1) * BK && x < K; x++)
                s = __fadd_rn(s, __fmul_rn(__fmul_rn(a.q[qb + row * v[PF_SQK_T] + x * v[PF_SQK_D]], a.scale),
                                           a.k[qb + t * v[PF_SQK_T] + x * v[PF_SQK_D]]));
            float d = diag ? exp2f((float)(ai - ok) * bb) : exp2f((float)(BTS - j) * bb);
            o = __fadd_rn(o, __fmul_rn(__fmul_rn(s, d), a.vv[bh * v[PF_SVO_H] + t * v[PF_SVO_T] + p]));
        }
    }
    a.o[(bh + v[PF_B] * v[PF_H] * ik) * v[PF_SVO_H] + row * v[PF_SVO_T] + p] = o;
}

/* one dk (o = 0) or dv (o = 1) lane (row i = i_c BTL + r, column col) */
__device__ static float pra_bwd_lane(const pra_bargs &a, int o, int64_t r, int64_t col) {
    const int64_t *v = a.v;
    int64_t T = v[PB_T], BTL = v[PB_BTL], BTS = v[PB_BTS], ic = v[PB_IC], i = ic * BTL + r, bh = v[PB_IBH];
    int64_t other = o ? v[PB_IK] : v[PB_IV], Bx = o ? v[PB_BK] : v[PB_BV], Dx = o ? v[PB_K] : v[PB_V];
    int64_t qb = bh * v[PB_SQK_H], vb = bh * v[PB_SVO_H], sqt = v[PB_SQK_T], svt = v[PB_SVO_T];
    float bb = log2f(1.0f - exp2f(-5.0f - (float)v[PB_IH] * 1.0f)), acc = 0.0f;
    int64_t NB = (T + BTS - 1) / BTS * BTS;
    for (int64_t s0 = NB - BTS; s0 >= (ic + 1) * BTL; s0 -= BTS) { /* descending, decayed per block */
        acc = __fmul_rn(acc, exp2f(bb * (float)BTS));
        for (int64_t j = 0; j < BTS && s0 + j < T; j++) {
            int64_t t = s0 + j;
            float d = 0.0f, w = exp2f((float)j * bb);
            for (int64_t x = other * Bx; x < (other + 1) * Bx && x < Dx; x++)
                d = o == 0 ? __fadd_rn(d, __fmul_rn(a.vv[vb + i * svt + x], __fmul_rn(a.d[vb + t * svt + x], w)))
                           : __fadd_rn(d, __fmul_rn(__fmul_rn(a.k[qb + i * sqt + x], exp2f((float)(BTL - r) * bb)), a.q[qb + t * sqt + x]));
            float f = o == 0 ? a.q[qb + t * sqt + col] : __fmul_rn(a.d[vb + t * svt + col], w);
            acc = __fadd_rn(acc, __fmul_rn(d, f));
        }
    }
    acc = o == 0 ? __fmul_rn(acc, __fmul_rn(exp2f((float)(BTL - r) * bb), a.scale)) : __fmul_rn(acc, a.scale);
    for (int64_t t = i; t < (ic + 1) * BTL && t < T; t++) { /* the diagonal blocks */
        float d = 0.0f, w = __fmul_rn(exp2f((float)(t - i) * bb), a.scale);
        for (int64_t x = other * Bx; x < (other + 1) * Bx && x < Dx; x++)
            d = o == 0 ? __fadd_rn(d, __fmul_rn(a.vv[vb + i * svt + x], a.d[vb + t * svt + x]))
                       : __fadd_rn(d, __fmul_rn(a.k[qb + i * sqt + x], a.q[qb + t * sqt + x]));
        float f = o == 0 ? a.q[qb + t * sqt + col] : a.d[vb + t * svt + col];
        acc = __fadd_rn(acc, __fmul_rn(__fmul_rn(d, w), f));
    }
    return acc;
}
__global__ static void pra_bwd(pra_bargs a) {
    const int64_t *v = a.v;
    int64_t BTL = v[PB_BTL], T = v[PB_T], BH = v[PB_B] * v[PB_H], bh = v[PB_IBH];
    for (int64_t l = threadIdx.x; l < BTL * (v[PB_BK] + v[PB_BV]); l += blockDim.x) {
        int o = l >= BTL * v[PB_BK];
        int64_t Bc = o ? v[PB_BV] : v[PB_BK], m = o ? l - BTL * v[PB_BK] : l, r = m / Bc;
        int64_t col = (o ? v[PB_IV] : v[PB_IK]) * Bc + m % Bc, row = v[PB_IC] * BTL + r;
        if (row >= T || col >= (o ? v[PB_V] : v[PB_K])) continue;
        float x = pra_bwd_lane(a, o, r, col);
        if (o) a.dv[(bh + BH * v[PB_IK]) * v[PB_SVO_H] + row * v[PB_SVO_T] + col] = x;
        else a.dk[(bh + BH * v[PB_IV]) * v[PB_SQK_H] + row * v[PB_SQK_T] + col] = x;
    }
}

static int launch_fwd(const td_abi_launch *L) {
    pra_fargs a;
    for (int i = 0; i < NPF; i++) a.v[i] = i == PF_SCALE ? 0 : TLC_I(L, i);
    a.scale = TLC_R(L, PF_SCALE);
    a.q = TLC_PTR(L, 0, const float), a.k = TLC_PTR(L, 1, const float), a.vv = TLC_PTR(L, 2, const float);
    a.o = TLC_PTR(L, 3, float);
    pra_fwd<<<tlc_grid(L), tlc_threads(a.v[PF_BTL] * a.v[PF_BV]), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "pra_fwd");
}
static int launch_bwd(const td_abi_launch *L) {
    pra_bargs a;
    for (int i = 0; i < NPB; i++) a.v[i] = i == PB_SCALE ? 0 : TLC_I(L, i);
    a.scale = TLC_R(L, PB_SCALE);
    a.q = TLC_PTR(L, 0, const float), a.k = TLC_PTR(L, 1, const float), a.vv = TLC_PTR(L, 2, const float);
    a.d = TLC_PTR(L, 3, const float), a.dk = TLC_PTR(L, 4, float), a.dv = TLC_PTR(L, 5, float);
    pra_bwd<<<tlc_grid(L), 256, 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "pra_bwd");
}

TD_KERNEL(td_kc_pra_fwd) = {"parallel_retention_attention.pra_fwd_o_exec_genuine", "triton", TD_ABI_CUDA, NULL, NULL,
                            NULL, 16, 4, launch_fwd, NULL};
TD_KERNEL(td_kc_pra_bwd) = {"parallel_retention_attention.pra_bwd_dkv_exec_genuine", "triton", TD_ABI_CUDA, NULL,
                            NULL, NULL, 21, 6, launch_bwd, NULL};
