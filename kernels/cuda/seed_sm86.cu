/* seed_sm86 on CUDA: the SM86 streaming causal attention forward (seed 003), its
 * numerics ported to CUDA C (sm_80 and later): one block per program of the seed's grid
 * (order 0 or 1), one thread per query row of the block.  binary16 Q/K/V widened
 * exactly, binary32 sums in k order from +0 (the HMMA's operand order; a scalar port, so
 * IEEE accumulation), t = S*c, P = exp2f(t - m') (CUDA's full-precision exp2 standing
 * for MUFU.EX2), RN16(P) (__float2half_rn, the F2FP pack) for P V only, the row sum in
 * four quad-lane partial sums butterflied at the end, O * (1/l) stored binary16,
 * LSE2 = m + log2f(l).  _rn intrinsics keep the roundings where the seed has them. */
#include "attn_tlc.cuh"

enum { P_T, P_HEADS, P_KVHEADS, P_W, P_B, P_ORDER, P_VROWS, P_C };
enum { R_Q, R_K, R_V, R_O, R_LSE };
#define SMC_MAX 64

__global__ void sm86_forward_kernel(const __half *q, const __half *k, const __half *v, __half *o, float *lse,
                                    int64_t T, int64_t heads, int64_t kvh, int64_t W, int64_t B, int order,
                                    int vrows, float c) {
    int64_t tiles = T / B, groups = heads / kvh, tile, kv, g;
    if (order == 0) tile = blockIdx.x, kv = blockIdx.y, g = blockIdx.z;
    else kv = blockIdx.x, g = blockIdx.y, tile = tiles - 1 - (int64_t)blockIdx.z;
    int64_t r = threadIdx.x;
    if (r >= B) return;
    int64_t h = kv * groups + g, i = tile * B + r;
    float t[SMC_MAX], P[SMC_MAX], O[SMC_MAX];
    float m = -INFINITY, lq[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int64_t d = 0; d < W; d++) O[d] = 0.0f;
    for (int64_t kt = 0; kt <= tile; kt++) {
        for (int64_t jj = 0; jj < B; jj++) {
            int64_t j = kt * B + jj;
            float S = 0.0f;
            for (int64_t d = 0; d < W; d++)
                S = __fadd_rn(S, __fmul_rn(__half2float(q[(h * T + i) * W + d]), __half2float(k[(kv * T + j) * W + d])));
            if (kt == tile && j > i) S = -INFINITY;
            t[jj] = __fmul_rn(S, c);
        }
        float rmax = t[0];
        for (int64_t jj = 1; jj < B; jj++) rmax = t[jj] > rmax ? t[jj] : rmax;
        float mn = rmax > m ? rmax : m;
        float alpha = exp2f(__fsub_rn(m, mn));
        for (int64_t jj = 0; jj < B; jj++) P[jj] = exp2f(__fsub_rn(t[jj], mn));
        for (int qd = 0; qd < 4; qd++) {
            lq[qd] = __fmul_rn(lq[qd], alpha);
            for (int64_t jj = 0; jj < B; jj++)
                if ((jj / 2) % 4 == qd) lq[qd] = __fadd_rn(lq[qd], P[jj]);
        }
        for (int64_t d = 0; d < W; d++) {
            float acc = __fmul_rn(O[d], alpha);
            for (int64_t jj = 0; jj < B; jj++) {
                int64_t j = kt * B + jj;
                float vv = __half2float(vrows ? v[(kv * T + j) * W + d] : v[(kv * W + d) * T + j]);
                acc = __fadd_rn(acc, __fmul_rn(__half2float(__float2half_rn(P[jj])), vv));
            }
            O[d] = acc;
        }
        m = mn;
    }
    float l = __fadd_rn(__fadd_rn(lq[0], lq[1]), __fadd_rn(lq[2], lq[3]));
    float rcp = __fdiv_rn(1.0f, l);
    for (int64_t d = 0; d < W; d++) o[i * heads * W + h * W + d] = __float2half_rn(__fmul_rn(O[d], rcp));
    lse[h * T + i] = __fadd_rn(m, log2f(l));
}

static int forward(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_B), W = TLC_I(L, P_W);
    if (B < 1 || W < 1 || B > SMC_MAX || W > SMC_MAX) {
        snprintf(L->err, L->errlen, "tile and head width must be 16, 32 or 64");
        return 1;
    }
    if (atc_grid_empty(L)) return 0;
    sm86_forward_kernel<<<tlc_grid(L), (unsigned)(B < 32 ? 32 : B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_Q, const __half), TLC_PTR(L, R_K, const __half), TLC_PTR(L, R_V, const __half),
        TLC_PTR(L, R_O, __half), TLC_PTR(L, R_LSE, float), TLC_I(L, P_T), TLC_I(L, P_HEADS), TLC_I(L, P_KVHEADS), W, B,
        (int)TLC_I(L, P_ORDER), (int)(TLC_I(L, P_VROWS) != 0), TLC_R(L, P_C));
    return tlc_check(L, "streamingAttentionForwardGroupedSM86");
}

TD_KERNEL(td_kc_seed_sm86_forward) = {"seed_sm86.streaming_attention_forward_grouped", "sm86", TD_ABI_CUDA,
                                      "p=fp16:rne:inf;store=fp16:rne:inf", NULL, NULL, 8, 5, forward};
