/* Building blocks of the alternative kernels (kernels/alternatives/): correct
 * implementations of the contracts written independently of the ports in
 * kernels/host/, the way other kernel authors write them.  A flag on any of them is a
 * false alarm of the checker (tilediff selftest counts it as such).
 *
 * Only tl.h (loads, stores, casts): an alternative knows nothing of the oracle.  The
 * library is compiled with -ffp-contract=off, so every FMA below is an explicit fmaf
 * (one rounding of a*b+c) and every a*b+c without fmaf is two roundings.
 *
 * The dot products here are the orders a BLAS-like or CUTLASS-like kernel uses, all
 * admissible for a contract that sums k < K in binary32 (Higham, ASNA 2nd ed., 3.1 and
 * 4.2: every association order, with or without FMA, obeys |s^ - s| <= gamma_{n} sum|a_k b_k|):
 *   ALT_DOT_FMA_SEQ   one FMA chain acc = fma(a_k, b_k, acc), k = 0 .. K-1 (an MMA-less
 *                     CUDA inner loop, cuBLAS-style GEMV);
 *   ALT_DOT_SPLITK    K cut into ALT_SPLITS slices; each slice its own FMA chain from 0;
 *                     the partials added to the seed last slice first (split-K with a
 *                     reduction over the workspace in reverse slice order);
 *   ALT_DOT_BLOCK8    products rounded one by one (no FMA), summed by a pairwise tree in
 *                     blocks of 8 (not the port's BK), block sums accumulated from the
 *                     last block down to the first;
 *   ALT_DOT_REV       plain multiply-then-add (two roundings) from k = K-1 down to 0.
 */
#ifndef TD_ALT_COMMON_H
#define TD_ALT_COMMON_H

#include "tl.h"

enum { ALT_DOT_FMA_SEQ = 0, ALT_DOT_SPLITK, ALT_DOT_BLOCK8, ALT_DOT_REV };
#define ALT_SPLITS 3

/* One operand of a dot product: element k is region `reg` at base + k*step. */
typedef struct alt_vec {
    int reg;
    int64_t base, step;
} alt_vec;

static inline float alt_ld(const td_abi_launch *L, const alt_vec *v, int64_t k) {
    return tl_load(L, v->reg, v->base + k * v->step);
}

/* Pairwise (recursive halving) sum of n values, n >= 1. */
static inline float alt_tree(const float *x, int64_t n) {
    if (n == 1) return x[0];
    int64_t h = (n + 1) / 2; /* the larger half first: another tree shape than tl_sum's */
    return alt_tree(x, h) + alt_tree(x + h, n - h);
}

/* seed + sum_{k < K} a_k * b_k in binary32 in the order `method` names. */
static inline float alt_dot(const td_abi_launch *L, const alt_vec *a, const alt_vec *b, int64_t K, float seed,
                            int method) {
    switch (method) {
    case ALT_DOT_SPLITK: {
        float part[ALT_SPLITS] = {0};
        int64_t chunk = (K + ALT_SPLITS - 1) / ALT_SPLITS;
        for (int s = 0; s < ALT_SPLITS; s++)
            for (int64_t k = s * chunk; k < K && k < (s + 1) * chunk; k++)
                part[s] = fmaf(alt_ld(L, a, k), alt_ld(L, b, k), part[s]);
        float acc = seed;
        for (int s = ALT_SPLITS - 1; s >= 0; s--) acc = acc + part[s];
        return acc;
    }
    case ALT_DOT_BLOCK8: {
        float acc = seed, p[8];
        for (int64_t k0 = (K - 1) / 8 * 8; K > 0 && k0 >= 0; k0 -= 8) {
            int64_t n = K - k0 < 8 ? K - k0 : 8;
            for (int64_t e = 0; e < n; e++) p[e] = alt_ld(L, a, k0 + e) * alt_ld(L, b, k0 + e);
            acc = acc + alt_tree(p, n);
        }
        return acc;
    }
    case ALT_DOT_REV: {
        float acc = seed;
        for (int64_t k = K - 1; k >= 0; k--) acc = acc + alt_ld(L, a, k) * alt_ld(L, b, k);
        return acc;
    }
    default: {
        float acc = seed;
        for (int64_t k = 0; k < K; k++) acc = fmaf(alt_ld(L, a, k), alt_ld(L, b, k), acc);
        return acc;
    }
    }
}

/* A row-major 2-D GEMM over every output cell (row < M, col < N), one cell at a time,
 * instead of the port's grouped tiles: the same cells, the same sum, another order.
 * `epi` (may be NULL) is applied to the binary32 value before the store's cast. */
typedef struct alt_gemm {
    int64_t M, N, K;
    int64_t sam, sak, sbk, sbn, scm, scn;
    int ra, rb, rc;
    td_profile store;
    int method;
    float (*epi)(float);
} alt_gemm;

static inline int alt_gemm_run(const td_abi_launch *L, const alt_gemm *g) {
    for (int64_t row = 0; row < g->M; row++)
        for (int64_t col = 0; col < g->N; col++) {
            alt_vec a = {g->ra, row * g->sam, g->sak}, b = {g->rb, col * g->sbn, g->sbk};
            float v = alt_dot(L, &a, &b, g->K, 0.0f, g->method);
            tl_store(L, g->rc, row * g->scm + col * g->scn, g->epi ? g->epi(v) : v, g->store);
        }
    return 0;
}

static inline td_profile alt_f16(void) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return p;
}
static inline td_profile alt_out(const td_abi_launch *L, int reg) {
    td_profile p = {TL_FMT(L, reg), TD_RNE, TD_OVF_INF, false};
    return p;
}

/* exp(x) as compiled Triton lowers tl.exp: exp2(x * log2(e)) with the multiply rounded
 * to binary32 (the ex2.approx input); the host's exp2f stands for ex2.approx.  The
 * rounding of x*log2e moves the result by up to |x*log2e| * 2^-24 * ln2 relatively: the
 * |x|-proportional term of the cuda-approx budget. */
static inline float alt_exp_via_exp2(float x) { return exp2f(x * 1.44269504088896340736f); }

/* The PTX approximate instructions at the edge of their documented error (PTX ISA 9.1,
 * 9.7.3): ex2.approx.f32 and div.full.f32 are within 2 ulp of the correctly rounded
 * result; here the correctly rounded value (binary64 evaluation, rounded once) is moved
 * by exactly 2 ulp, up or down by a hash of the operands, so a bound that charged less
 * than the instruction's documented error would be caught.  tl.exp in compiled Triton:
 * ex2.approx(RN(x * RN32(log2 e))). */
static inline float alt_ulps_away(float y, uint32_t h) {
    float dir = (h * 0x9E3779B1u) >> 31 ? INFINITY : -INFINITY;
    if (!isfinite(y) || y == 0.0f) return y;
    return nextafterf(nextafterf(y, dir), dir);
}
static inline uint32_t alt_bits(float x) {
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}
static inline float alt_ex2_approx(float t) { return alt_ulps_away((float)exp2((double)t), alt_bits(t)); }
static inline float alt_exp_ptx(float x) { return alt_ex2_approx(x * 1.44269504088896340736f); }
static inline float alt_div_full(float a, float b) {
    return alt_ulps_away((float)((double)a / (double)b), alt_bits(a) ^ (alt_bits(b) * 3u));
}

/* 1/x as a reciprocal then a multiply (rcp.approx / __frcp_rn then mul): a/b = a * (1/b). */
static inline float alt_rcp(float x) { return 1.0f / x; }

#endif
