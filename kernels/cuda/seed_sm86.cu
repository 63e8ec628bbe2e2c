/* seed_sm86 on CUDA: the SM86 streaming causal attention forward (seed 003), its
 * numerics ported to CUDA C (sm_80 and later): one block per program of the seed's grid
 * (order 0 or 1), one thread per query row of the block.  binary16 Q/K/V widened
 * exactly, binary32 sums in k order from +0 (the HMMA's operand order; a scalar port, so
 * IEEE accumulation), t = S*c, P = exp2f(t - m') (CUDA's full-precision exp2 standing
 * for MUFU.EX2), RN16(P) (__float2half_rn, the F2FP pack) for P V only, the row sum in
 * four quad-lane partial sums butterflied at the end, O * (1/l) stored binary16,
 * LSE2 = m + log2f(l); and the backward launches (query pass with the row terms, key
 * pass, group reduction).  _rn intrinsics keep the roundings where the seed has them. */
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
                                      "p=fp16:rne:inf;store=fp16:rne:inf", NULL, NULL, 8, 5, forward, NULL};

/* ---- the backward: query pass (with the row terms), key pass, group reduction ---- */
enum { PQ_T, PQ_HEADS, PQ_KVHEADS, PQ_W, PQ_B, PQ_ORDER, PQ_C, PQ_S };
enum { RQ_Q, RQ_K, RQ_V, RQ_DO, RQ_O, RQ_L, RQ_DQ, RQ_D };
enum { PK_T, PK_HEADS, PK_KVHEADS, PK_W, PK_SUB, PK_C, PK_S };
enum { RK_Q, RK_K, RK_V, RK_DO, RK_L, RK_D, RK_DK, RK_DVT };
enum { PR_T, PR_HEADS, PR_KVHEADS, PR_W };
enum { RR_SRC, RR_DST };

__device__ inline float smc_dot(const __half *a, const __half *b, int64_t W) {
    float acc = 0.0f;
    for (int64_t d = 0; d < W; d++) acc = __fadd_rn(acc, __fmul_rn(__half2float(a[d]), __half2float(b[d])));
    return acc;
}

/* streamingAttentionQuerySM86 (shared form): D = rowsum(dO * O) per quad lane and
 * butterflied, then dQ = s * sum_j RN16(EX2(FFMA(S, c, -L)) (dP - D)) K_j */
__global__ void sm86_query_kernel(const __half *q, const __half *k, const __half *v, const __half *dO,
                                  const __half *o, const float *lse, float *dq, float *dd, int64_t T, int64_t heads,
                                  int64_t kvh, int64_t W, int64_t B, int order, float c, float s) {
    int64_t tiles = T / B, groups = heads / kvh, tile, kv, g;
    if (order == 0) tile = blockIdx.x, kv = blockIdx.y, g = blockIdx.z;
    else kv = blockIdx.x, g = blockIdx.y, tile = tiles - 1 - (int64_t)blockIdx.z;
    int64_t r = threadIdx.x;
    if (r >= B) return;
    int64_t h = kv * groups + g, i = tile * B + r;
    float Dq[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int64_t d = 0; d < W; d++)
        Dq[(d / 2) % 4] = __fmaf_rn(__half2float(o[i * heads * W + h * W + d]), __half2float(dO[(h * T + i) * W + d]),
                                    Dq[(d / 2) % 4]); /* FFMA: the product is exact */
    float D = __fadd_rn(__fadd_rn(Dq[0], Dq[1]), __fadd_rn(Dq[2], Dq[3]));
    float L = lse[h * T + i], dQ[SMC_MAX];
    for (int64_t d = 0; d < W; d++) dQ[d] = 0.0f;
    for (int64_t kt = 0; kt <= tile; kt++)
        for (int64_t jj = 0; jj < B; jj++) {
            int64_t j = kt * B + jj;
            float S = smc_dot(q + (h * T + i) * W, k + (kv * T + j) * W, W);
            float dP = smc_dot(dO + (h * T + i) * W, v + (kv * T + j) * W, W);
            if (kt == tile && j > i) S = -INFINITY;
            float P = exp2f(__fmaf_rn(S, c, -L));
            float dS = __half2float(__float2half_rn(__fmul_rn(P, __fsub_rn(dP, D))));
            for (int64_t d = 0; d < W; d++) dQ[d] = __fadd_rn(dQ[d], __fmul_rn(dS, __half2float(k[(kv * T + j) * W + d])));
        }
    for (int64_t d = 0; d < W; d++) dq[(h * T + i) * W + d] = __fmul_rn(dQ[d], s);
    dd[h * T + i] = D;
}

/* streamingAttentionKeySM86: block (key sub-tile, K/V head, group), a thread per key;
 * the query sub-tiles from the last one down to the diagonal one (masked there) */
__global__ void sm86_key_kernel(const __half *q, const __half *k, const __half *v, const __half *dO,
                                const float *lse, const float *dd, float *dk, float *dvt, int64_t T, int64_t heads,
                                int64_t kvh, int64_t W, int64_t sub, float c, float s) {
    int64_t kb = blockIdx.x, kv = blockIdx.y, g = blockIdx.z, jj = threadIdx.x;
    if (jj >= sub) return;
    int64_t h = kv * (heads / kvh) + g, j = kb * sub + jj;
    float dK[SMC_MAX], dV[SMC_MAX];
    for (int64_t d = 0; d < W; d++) dK[d] = dV[d] = 0.0f;
    for (int64_t qs = T / sub - 1; qs >= kb; qs--)
        for (int64_t ii = 0; ii < sub; ii++) {
            int64_t i = qs * sub + ii;
            float S = smc_dot(k + (kv * T + j) * W, q + (h * T + i) * W, W);
            float dP = smc_dot(v + (kv * T + j) * W, dO + (h * T + i) * W, W);
            if (qs == kb && i < j) S = -INFINITY;
            float P = exp2f(__fmaf_rn(S, c, -lse[h * T + i]));
            float dS = __fmul_rn(P, __fsub_rn(dP, dd[h * T + i]));
            float p16 = __half2float(__float2half_rn(P)), ds16 = __half2float(__float2half_rn(dS));
            for (int64_t d = 0; d < W; d++) {
                dV[d] = __fadd_rn(dV[d], __fmul_rn(p16, __half2float(dO[(h * T + i) * W + d])));
                dK[d] = __fadd_rn(dK[d], __fmul_rn(ds16, __half2float(q[(h * T + i) * W + d])));
            }
        }
    for (int64_t d = 0; d < W; d++) {
        dk[(h * T + j) * W + d] = __fmul_rn(dK[d], s);
        dvt[(h * W + d) * T + j] = dV[d];
    }
}

/* streamingAttentionReduceGroupedGradientSM86: dst[kv][e] = 0 + src[kv groups][e] + ... */
__global__ void sm86_reduce_kernel(const float *src, float *dst, int64_t plane, int64_t groups) {
    int64_t e = (int64_t)blockIdx.x * 128 + threadIdx.x, kv = blockIdx.y;
    float acc = 0.0f;
    for (int64_t g = 0; g < groups; g++) acc = __fadd_rn(acc, src[(kv * groups + g) * plane + e]);
    dst[kv * plane + e] = acc;
}

static int query_pass(const td_abi_launch *L) {
    int64_t B = TLC_I(L, PQ_B), W = TLC_I(L, PQ_W);
    if (B < 1 || W < 1 || B > SMC_MAX || W > SMC_MAX) {
        snprintf(L->err, L->errlen, "tile and head width must be 16, 32 or 64");
        return 1;
    }
    if (atc_grid_empty(L)) return 0;
    sm86_query_kernel<<<tlc_grid(L), (unsigned)(B < 32 ? 32 : B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RQ_Q, const __half), TLC_PTR(L, RQ_K, const __half), TLC_PTR(L, RQ_V, const __half),
        TLC_PTR(L, RQ_DO, const __half), TLC_PTR(L, RQ_O, const __half), TLC_PTR(L, RQ_L, const float),
        TLC_PTR(L, RQ_DQ, float), TLC_PTR(L, RQ_D, float), TLC_I(L, PQ_T), TLC_I(L, PQ_HEADS), TLC_I(L, PQ_KVHEADS), W,
        B, (int)TLC_I(L, PQ_ORDER), TLC_R(L, PQ_C), TLC_R(L, PQ_S));
    return tlc_check(L, "streamingAttentionQuerySM86");
}

static int key_pass(const td_abi_launch *L) {
    int64_t sub = TLC_I(L, PK_SUB), W = TLC_I(L, PK_W);
    if (sub < 1 || W < 1 || sub > SMC_MAX || W > SMC_MAX) {
        snprintf(L->err, L->errlen, "sub_tile and head width out of range");
        return 1;
    }
    if (atc_grid_empty(L)) return 0;
    sm86_key_kernel<<<tlc_grid(L), (unsigned)(sub < 32 ? 32 : sub), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RK_Q, const __half), TLC_PTR(L, RK_K, const __half), TLC_PTR(L, RK_V, const __half),
        TLC_PTR(L, RK_DO, const __half), TLC_PTR(L, RK_L, const float), TLC_PTR(L, RK_D, const float),
        TLC_PTR(L, RK_DK, float), TLC_PTR(L, RK_DVT, float), TLC_I(L, PK_T), TLC_I(L, PK_HEADS), TLC_I(L, PK_KVHEADS),
        W, sub, TLC_R(L, PK_C), TLC_R(L, PK_S));
    return tlc_check(L, "streamingAttentionKeySM86");
}

static int reduce_grouped(const td_abi_launch *L) {
    if (atc_grid_empty(L)) return 0;
    int64_t plane = TLC_I(L, PR_W) * TLC_I(L, PR_T), groups = TLC_I(L, PR_HEADS) / TLC_I(L, PR_KVHEADS);
    sm86_reduce_kernel<<<tlc_grid(L), 128, 0, (cudaStream_t)L->stream>>>(TLC_PTR(L, RR_SRC, const float),
                                                                        TLC_PTR(L, RR_DST, float), plane, groups);
    return tlc_check(L, "streamingAttentionReduceGroupedGradientSM86");
}

TD_KERNEL(td_kc_seed_sm86_query) = {"seed_sm86.streaming_attention_query_pass", "sm86", TD_ABI_CUDA, "ds=fp16:rne:inf",
                                    NULL, NULL, 8, 8, query_pass, NULL};
TD_KERNEL(td_kc_seed_sm86_key) = {"seed_sm86.streaming_attention_key_pass", "sm86", TD_ABI_CUDA,
                                  "ds=fp16:rne:inf;p=fp16:rne:inf", NULL, NULL, 7, 8, key_pass, NULL};
TD_KERNEL(td_kc_seed_sm86_reduce) = {"seed_sm86.reduce_grouped_gradient", "sm86", TD_ABI_CUDA, NULL, NULL, NULL, 4, 2,
                                     reduce_grouped, NULL};
