/* Host programs of the seed attention kernels (seed_fa1, seed_vyre, seed_sm86,
 * seed_sdpa), written once with a `bug` switch: the correct kernels in kernels/host/
 * call them with bug 0 (..._CORRECT), the mutants in kernels/mutants/ with one seeded
 * bug each, so a mutant differs from the port in exactly the lines its bug names.
 * Only tl.h and rounding.h: a kernel does not know the oracle. */
#ifndef TD_ATTN_TL_H
#define TD_ATTN_TL_H

#include <float.h>

#include "tl.h"

/* ======================= seed_fa1: VeriTile FA-1 forward ======================= */
/* parameter indices of the two layouts (contracts/seed_fa1.c) */
enum {
    FA1H_P_M, FA1H_P_BD, FA1H_P_BK, FA1H_P_NKV, FA1H_P_SQ, FA1H_P_SK, FA1H_P_D, FA1H_P_STRIDES,
    FA1H_P_SCALE = FA1H_P_STRIDES + 16
};
enum { FA1H_PN_M, FA1H_PN_BD, FA1H_PN_SQ, FA1H_PN_SK, FA1H_PN_D, FA1H_PN_STRIDES, FA1H_PN_SCALE = FA1H_PN_STRIDES + 16 };
enum { FA1H_R_Q, FA1H_R_K, FA1H_R_V, FA1H_R_OUT };

typedef struct fa1h_args {
    int64_t M, Bd, Bk, nkv, Sq, Sk, D;
    int64_t st[4][4]; /* [q, k, v, out][b, h, s, d] */
    float scale;
} fa1h_args;

static inline void fa1h_args_online(const td_abi_launch *L, fa1h_args *a) {
    a->M = TL_I(L, FA1H_P_M), a->Bd = TL_I(L, FA1H_P_BD), a->Bk = TL_I(L, FA1H_P_BK), a->nkv = TL_I(L, FA1H_P_NKV);
    a->Sq = TL_I(L, FA1H_P_SQ), a->Sk = TL_I(L, FA1H_P_SK), a->D = TL_I(L, FA1H_P_D);
    for (int t = 0; t < 16; t++) a->st[t / 4][t % 4] = TL_I(L, FA1H_P_STRIDES + t);
    a->scale = TL_R(L, FA1H_P_SCALE);
}
static inline void fa1h_args_naive(const td_abi_launch *L, fa1h_args *a) {
    a->M = TL_I(L, FA1H_PN_M), a->Bd = TL_I(L, FA1H_PN_BD), a->Sq = TL_I(L, FA1H_PN_SQ), a->Sk = TL_I(L, FA1H_PN_SK);
    a->D = TL_I(L, FA1H_PN_D);
    a->Bk = a->Sk, a->nkv = 1;
    for (int t = 0; t < 16; t++) a->st[t / 4][t % 4] = TL_I(L, FA1H_PN_STRIDES + t);
    a->scale = TL_R(L, FA1H_PN_SCALE);
}

enum {
    FA1H_CORRECT = 0,
    FA1H_TAIL_UNMASKED,  /* the scores' where(offs_n < S_k, ., -inf) dropped (the loads stay masked) */
    FA1H_NO_RESCALE_L,   /* l_new = l_i + sum(p): the running max changes without rescaling l */
    FA1H_CAUSAL_PLUS1,   /* causal mask offs_m + 1 >= offs_n: each row also sees the next key */
    FA1H_SCALE_TWICE,    /* scores = dot * scale * scale */
    FA1H_LOCAL_ROW,      /* naive causal mask compares arange(M) (the block-local row) with offs_n */
    FA1H_STORE_NO_DMASK  /* the store mask drops offs_d < D: padding lanes are stored */
};

/* q tile [M][Bd] of program (pid0, h, b): masked by offs_m < S_q and offs_d < D, other 0 */
static inline void fa1h_load_q(const td_abi_launch *L, const fa1h_args *a, int64_t pid0, int64_t h, int64_t b,
                               float *q) {
    for (int64_t r = 0; r < a->M; r++)
        for (int64_t d = 0; d < a->Bd; d++) {
            int64_t m = pid0 * a->M + r;
            q[r * a->Bd + d] = (m < a->Sq && d < a->D)
                                   ? tl_load(L, FA1H_R_Q, b * a->st[0][0] + h * a->st[0][1] + m * a->st[0][2] + d * a->st[0][3])
                                   : 0.0f;
        }
}

/* k or v tile [n][Bd] of keys n0 .. n0+n-1: masked by offs_n < S_k (when seq_mask) and offs_d < D */
static inline void fa1h_load_kv(const td_abi_launch *L, const fa1h_args *a, int t, int reg, int64_t n0, int64_t n,
                                int64_t h, int64_t b, int seq_mask, float *x) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t d = 0; d < a->Bd; d++) {
            int64_t s = n0 + j;
            x[j * a->Bd + d] = ((!seq_mask || s < a->Sk) && d < a->D)
                                   ? tl_load(L, reg, b * a->st[t][0] + h * a->st[t][1] + s * a->st[t][2] + d * a->st[t][3])
                                   : 0.0f;
        }
}

/* masked store of out [M][Bd]: offs_m < S_q and offs_d < D */
static inline void fa1h_store(const td_abi_launch *L, const fa1h_args *a, int64_t pid0, int64_t h, int64_t b,
                              const float *out, int bug) {
    for (int64_t r = 0; r < a->M; r++)
        for (int64_t d = 0; d < a->Bd; d++) {
            int64_t m = pid0 * a->M + r;
            if (!(m < a->Sq && (d < a->D || bug == FA1H_STORE_NO_DMASK))) continue;
            tl_store(L, FA1H_R_OUT, b * a->st[3][0] + h * a->st[3][1] + m * a->st[3][2] + d * a->st[3][3],
                     out[r * a->Bd + d], tl_f32());
        }
}

/* scores[M][n] = dot(q, k^T) * scale: a binary32 dot over the Bd lanes from +0 */
static inline void fa1h_scores(const fa1h_args *a, const float *q, const float *k, int64_t n, float *s, int bug) {
    for (int64_t r = 0; r < a->M; r++)
        for (int64_t j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int64_t d = 0; d < a->Bd; d++) acc += q[r * a->Bd + d] * k[j * a->Bd + d];
            float sc = acc * a->scale;
            if (bug == FA1H_SCALE_TWICE) sc = sc * a->scale;
            s[r * n + j] = sc;
        }
}

/* fa1ForwardKernelStrided{,Causal}BoundaryD */
static inline int fa1h_online(const td_abi_launch *L, const fa1h_args *a, int causal, int bug) {
    int64_t M = a->M, Bd = a->Bd, Bk = a->Bk;
    float *q, *k, *v, *s, *p, *m_i, *l_i, *o;
    TL_ALLOC(L, q, M * Bd);
    TL_ALLOC(L, k, Bk * Bd);
    TL_ALLOC(L, v, Bk * Bd);
    TL_ALLOC(L, s, M * Bk);
    TL_ALLOC(L, p, M * Bk);
    TL_ALLOC(L, m_i, M);
    TL_ALLOC(L, l_i, M);
    TL_ALLOC(L, o, M * Bd);
    for (uint32_t b = 0; b < L->grid[2]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++)
            for (uint32_t pid0 = 0; pid0 < L->grid[0]; pid0++) {
                fa1h_load_q(L, a, pid0, h, b, q);
                for (int64_t r = 0; r < M; r++) {
                    m_i[r] = -INFINITY, l_i[r] = 0.0f;
                    for (int64_t d = 0; d < Bd; d++) o[r * Bd + d] = 0.0f;
                }
                for (int64_t n = 0; n < a->nkv; n++) {
                    int64_t n0 = n * Bk;
                    fa1h_load_kv(L, a, 1, FA1H_R_K, n0, Bk, h, b, 1, k);
                    fa1h_load_kv(L, a, 2, FA1H_R_V, n0, Bk, h, b, 1, v);
                    fa1h_scores(a, q, k, Bk, s, bug);
                    for (int64_t r = 0; r < M; r++) {
                        int64_t om = (int64_t)pid0 * M + r;
                        float *sr = s + r * Bk, *pr = p + r * Bk;
                        for (int64_t j = 0; j < Bk; j++) {
                            int64_t on = n0 + j;
                            if (causal && !(bug == FA1H_CAUSAL_PLUS1 ? om + 1 >= on : om >= on)) sr[j] = -INFINITY;
                            if (bug != FA1H_TAIL_UNMASKED && !(on < a->Sk)) sr[j] = -INFINITY;
                        }
                        float m_block = tl_max(sr, Bk);
                        float m_new = m_i[r] > m_block ? m_i[r] : m_block;
                        float alpha = expf(m_i[r] - m_new);
                        for (int64_t j = 0; j < Bk; j++) pr[j] = expf(sr[j] - m_new);
                        float rs = tl_sum(pr, Bk);
                        l_i[r] = bug == FA1H_NO_RESCALE_L ? l_i[r] + rs : alpha * l_i[r] + rs;
                        for (int64_t d = 0; d < Bd; d++) {
                            float pv = 0.0f; /* tl.dot(p, v) */
                            for (int64_t j = 0; j < Bk; j++) pv += pr[j] * v[j * Bd + d];
                            o[r * Bd + d] = alpha * o[r * Bd + d] + pv;
                        }
                        m_i[r] = m_new;
                    }
                }
                for (int64_t r = 0; r < M; r++)
                    for (int64_t d = 0; d < Bd; d++) o[r * Bd + d] = o[r * Bd + d] / l_i[r];
                fa1h_store(L, a, pid0, h, b, o, bug);
            }
    free(q), free(k), free(v), free(s), free(p), free(m_i), free(l_i), free(o);
    return 0;
}

/* fa1NaiveForwardKernelStrided{,Causal}BoundaryD: offs_n = arange(S_k), K/V loads masked
 * by the head dim only, p = exp(scores), out = dot(p, v) / sum(p) */
static inline int fa1h_naive(const td_abi_launch *L, const fa1h_args *a, int causal, int bug) {
    int64_t M = a->M, Bd = a->Bd, N = a->Sk;
    float *q, *k, *v, *s, *o;
    TL_ALLOC(L, q, M * Bd);
    TL_ALLOC(L, k, N * Bd);
    TL_ALLOC(L, v, N * Bd);
    TL_ALLOC(L, s, M * N);
    TL_ALLOC(L, o, M * Bd);
    for (uint32_t b = 0; b < L->grid[2]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++)
            for (uint32_t pid0 = 0; pid0 < L->grid[0]; pid0++) {
                fa1h_load_q(L, a, pid0, h, b, q);
                fa1h_load_kv(L, a, 1, FA1H_R_K, 0, N, h, b, 0, k);
                fa1h_load_kv(L, a, 2, FA1H_R_V, 0, N, h, b, 0, v);
                fa1h_scores(a, q, k, N, s, bug);
                for (int64_t r = 0; r < M; r++) {
                    int64_t om = bug == FA1H_LOCAL_ROW ? r : (int64_t)pid0 * M + r;
                    float *sr = s + r * N;
                    for (int64_t j = 0; j < N; j++) {
                        if (causal && !(om >= j)) sr[j] = -INFINITY;
                        sr[j] = expf(sr[j]); /* p = tl.exp(scores) */
                    }
                    float l = tl_sum(sr, N);
                    for (int64_t d = 0; d < Bd; d++) {
                        float pv = 0.0f;
                        for (int64_t j = 0; j < N; j++) pv += sr[j] * v[j * Bd + d];
                        o[r * Bd + d] = pv / l;
                    }
                }
                fa1h_store(L, a, pid0, h, b, o, bug);
            }
    free(q), free(k), free(v), free(s), free(o);
    return 0;
}

/* ===================== seed_sdpa: accy scaled-dot-product attention ===================== */
enum { SDPAH_P_BATCH, SDPAH_P_QUERIES, SDPAH_P_KEYS, SDPAH_P_QK, SDPAH_P_VALUE, SDPAH_P_TX, SDPAH_P_TY, SDPAH_P_TZ };
enum { SDPAH_R_DST, SDPAH_R_QUERY, SDPAH_R_KEY, SDPAH_R_VALUE };
enum {
    SDPAH_CORRECT = 0,
    SDPAH_SCALE_TWICE,   /* score = dot * scale * scale */
    SDPAH_DEN_FROM_ONE,  /* the denominator's fold starts at key 1 (as the max's does): key 0 left out */
    SDPAH_VALUE_TAIL     /* the value axis's tail threads are not guarded (v < value) */
};

/* scaledScore: foldRange(0, qk) from 0.0 of acc + q*k, then * scale */
static inline float sdpah_score(const td_abi_launch *L, int64_t b, int64_t q, int64_t k, float scale, int bug) {
    int64_t Q = TL_I(L, SDPAH_P_QUERIES), K = TL_I(L, SDPAH_P_KEYS), H = TL_I(L, SDPAH_P_QK);
    float acc = 0.0f;
    for (int64_t h = 0; h < H; h++)
        acc = acc + tl_load(L, SDPAH_R_QUERY, (b * Q + q) * H + h) * tl_load(L, SDPAH_R_KEY, (b * K + k) * H + h);
    float s = acc * scale;
    return bug == SDPAH_SCALE_TWICE ? s * scale : s;
}

/* scaled_dot_product_each: one thread per (v, q, b), three passes recomputing every score */
static inline int sdpah_run(const td_abi_launch *L, int bug) {
    int64_t Bt = TL_I(L, SDPAH_P_BATCH), Q = TL_I(L, SDPAH_P_QUERIES), K = TL_I(L, SDPAH_P_KEYS);
    int64_t H = TL_I(L, SDPAH_P_QK), V = TL_I(L, SDPAH_P_VALUE);
    int64_t tx = TL_I(L, SDPAH_P_TX), ty = TL_I(L, SDPAH_P_TY), tz = TL_I(L, SDPAH_P_TZ);
    float scale = (float)(1.0 / sqrt((double)H)); /* constantFloat(.f32, 1.0 / @sqrt(f64 qk)) */
    for (uint32_t bz = 0; bz < L->grid[2]; bz++)
        for (uint32_t by = 0; by < L->grid[1]; by++)
            for (uint32_t bx = 0; bx < L->grid[0]; bx++)
                for (int64_t z = 0; z < tz; z++)
                    for (int64_t y = 0; y < ty; y++)
                        for (int64_t x = 0; x < tx; x++) {
                            int64_t v = bx * tx + x, q = by * ty + y, b = bz * tz + z;
                            if (!(q < Q && b < Bt && (v < V || bug == SDPAH_VALUE_TAIL))) continue;
                            float m = sdpah_score(L, b, q, 0, scale, bug); /* scoreMax: fold from key 1 */
                            for (int64_t k = 1; k < K; k++) {
                                float s = sdpah_score(L, b, q, k, scale, bug);
                                m = m > s ? m : s;
                            }
                            float den = 0.0f;
                            for (int64_t k = bug == SDPAH_DEN_FROM_ONE ? 1 : 0; k < K; k++)
                                den = den + expf(sdpah_score(L, b, q, k, scale, bug) - m);
                            float acc = 0.0f;
                            for (int64_t k = 0; k < K; k++) {
                                float w = expf(sdpah_score(L, b, q, k, scale, bug) - m) / den;
                                acc = acc + w * tl_load(L, SDPAH_R_VALUE, (b * K + k) * V + v);
                            }
                            tl_store(L, SDPAH_R_DST, (b * Q + q) * V + v, acc, tl_f32());
                        }
    return 0;
}

/* A port that forms the seed's i64 indices (queryIndex b*queries*qk + q*qk + h,
 * outputIndex b*queries*value + q*value + v) in int32, as a Triton or CUDA rewrite with
 * int indices would: past 2^31 elements they wrap.  The whole launch is checked first
 * (one wrapped address fails a device's launch): each (b, q) row's first and last
 * element of query and dst, the int32 wrap being monotone inside a row. */
static inline int sdpah_fault_i32(const td_abi_launch *L) {
    int64_t Bt = TL_I(L, SDPAH_P_BATCH), Q = TL_I(L, SDPAH_P_QUERIES), H = TL_I(L, SDPAH_P_QK);
    int64_t V = TL_I(L, SDPAH_P_VALUE), ty = TL_I(L, SDPAH_P_TY);
    for (int64_t b = 0; b < Bt; b++)
        for (int64_t q = 0; q < Q; q++) {
            int64_t qb = (b * Q + q) * H, ob = (b * Q + q) * V;
            uint32_t pid = (uint32_t)(q / ty);
            if (tl_fault(L, SDPAH_R_QUERY, tl_i32(qb), 1, 1, pid) ||
                tl_fault(L, SDPAH_R_QUERY, tl_i32(qb + H - 1), 1, 1, pid) ||
                tl_fault(L, SDPAH_R_DST, tl_i32(ob), 1, 1, pid) || tl_fault(L, SDPAH_R_DST, tl_i32(ob + V - 1), 1, 1, pid))
                return 1;
        }
    return 0;
}

/* ========================= seed_vyre: vyre-libs FlashAttention-2 ========================= */
enum { VYH_P_SEQ, VYH_P_HD, VYH_P_TILE };
enum { VYH_R_Q, VYH_R_K, VYH_R_V, VYH_R_OUT };
#define VYH_LANES 64 /* COOPERATIVE_TILED_WORKGROUP_LANES */
enum {
    VYH_CORRECT = 0,
    VYH_STALE_TAIL,      /* tile_max and tile_sum loop to tile_size: the tail tile reuses stale scores */
    VYH_NO_RESCALE_L,    /* l = l + tile_sum: the running max moves without rescaling l */
    VYH_NO_FLUSH,        /* flush_tiny dropped: subnormal outputs are stored */
    VYH_REF_O_NO_RESCALE /* reference: o = o + prob*v, the accumulator not rescaled by the new max */
};

/* vyre's stability primitives (vyre-primitives nn/attention_stability.rs, f32_stability.rs) */
static inline float vyh_bounded_score(float x) { return isnan(x) ? x : (isfinite(x) ? x : -80.0f); }
static inline float vyh_bounded_exp_arg(float x) {
    if (isnan(x)) return x;
    float f = isfinite(x) ? x : -80.0f;
    float u = f > 0.0f ? 0.0f : f;
    return u < -80.0f ? -80.0f : u;
}
static inline float vyh_positive_denominator(float x) {
    if (isnan(x)) return x;
    return (isfinite(x) && x > 0x1p-126f) ? x : 0x1p-126f;
}
static inline float vyh_flush_tiny(float x) { return fabsf(x) <= 0x1p-126f ? 0.0f : x; }

/* The builders' traps: a trap program (here: the launch's error) instead of a kernel. */
static inline int vyh_trap(const td_abi_launch *L, int tiled) {
    int64_t S = TL_I(L, VYH_P_SEQ), D = TL_I(L, VYH_P_HD), T = TL_I(L, VYH_P_TILE);
    const uint64_t U32 = 0xffffffffu;
    const char *why = NULL;
    if (S <= 0 || D <= 0 || (tiled && T <= 0)) why = "seq_len, head_dim and tile_size must all be > 0";
    else if (S > (int64_t)U32 || D > (int64_t)U32 || (tiled && T > (int64_t)U32)) why = "sizes are u32";
    else if ((uint64_t)S * (uint64_t)D > U32) why = "seq_len*head_dim overflows u32";
    else if (tiled) {
        uint64_t tiles = ((uint64_t)S + (uint64_t)T - 1) / (uint64_t)T;
        uint64_t splits = (tiles + 3) / 4, per = (tiles + splits - 1) / splits;
        if ((uint64_t)T * per > U32) why = "split key span overflows u32";
        else if ((uint64_t)VYH_LANES * (uint64_t)D > U32) why = "64*head_dim (q_scratch, o_acc) overflows u32";
        else if ((uint64_t)VYH_LANES * (uint64_t)T > U32) why = "64*tile_size (score_scratch) overflows u32";
        else if (splits * ((uint64_t)D + 2) > U32) why = "split reduction scratch overflows u32";
        else if (2 * (uint64_t)VYH_LANES * (uint64_t)D + (uint64_t)VYH_LANES * (uint64_t)T > U32)
            why = "shared scratch overflows u32";
    }
    if (!why) return 0;
    snprintf(L->err, L->errlen, "trap: Fix: %s %s", tiled ? "flash_attention_2" : "flash_attention_2_reference", why);
    return 1;
}

/* flash_attention_2: one query row per invocation (64-lane workgroups), KV tiles of
 * tile_size keys, the recurrence of tiled_online_softmax_body */
static inline int vyh_tiled(const td_abi_launch *L, int bug) {
    if (vyh_trap(L, 1)) return 1;
    int64_t S = TL_I(L, VYH_P_SEQ), D = TL_I(L, VYH_P_HD), T = TL_I(L, VYH_P_TILE);
    float scale = 1.0f / sqrtf((float)D);
    int64_t tile_count = (S + T - 1) / T;
    float *q_scratch, *score_tile, *o_acc;
    TL_ALLOC(L, q_scratch, D);
    TL_ALLOC(L, score_tile, T);
    TL_ALLOC(L, o_acc, D);
    for (uint32_t wg = 0; wg < L->grid[0]; wg++)
        for (int64_t local = 0; local < VYH_LANES; local++) {
            int64_t row = (int64_t)wg * VYH_LANES + local; /* InvocationId */
            if (!(row < S)) continue;
            for (int64_t d = 0; d < D; d++) q_scratch[d] = tl_load(L, VYH_R_Q, row * D + d);
            float m = -FLT_MAX, l = 0.0f;
            for (int64_t d = 0; d < D; d++) o_acc[d] = 0.0f;
            for (int64_t tile_idx = 0; tile_idx < tile_count; tile_idx++) {
                int64_t tile_start = tile_idx * T, tile_end = tile_start + T < S ? tile_start + T : S;
                int64_t tile_len = tile_end - tile_start;
                for (int64_t j = 0; j < tile_len; j++) {
                    float dot = 0.0f;
                    for (int64_t d = 0; d < D; d++) dot = dot + q_scratch[d] * tl_load(L, VYH_R_K, (tile_start + j) * D + d);
                    score_tile[j] = vyh_bounded_score(dot * scale);
                }
                int64_t red_len = bug == VYH_STALE_TAIL ? T : tile_len;
                float tile_max = -FLT_MAX;
                for (int64_t j = 0; j < red_len; j++)
                    tile_max = isnan(tile_max) ? tile_max : (score_tile[j] > tile_max ? score_tile[j] : tile_max);
                float m_new = tile_max > m ? tile_max : m;
                float rescale = expf(vyh_bounded_exp_arg(m - m_new));
                float tile_sum = 0.0f;
                for (int64_t j = 0; j < red_len; j++) tile_sum = tile_sum + expf(vyh_bounded_exp_arg(score_tile[j] - m_new));
                l = bug == VYH_NO_RESCALE_L ? l + tile_sum : rescale * l + tile_sum;
                for (int64_t d = 0; d < D; d++) {
                    float weighted = 0.0f;
                    for (int64_t j = 0; j < tile_len; j++)
                        weighted = weighted + expf(vyh_bounded_exp_arg(score_tile[j] - m_new)) *
                                                  tl_load(L, VYH_R_V, (tile_start + j) * D + d);
                    o_acc[d] = rescale * o_acc[d] + weighted;
                }
                m = m_new;
            }
            float denom = vyh_positive_denominator(l);
            for (int64_t d = 0; d < D; d++) {
                float x = o_acc[d] / denom;
                tl_store(L, VYH_R_OUT, row * D + d, bug == VYH_NO_FLUSH ? x : vyh_flush_tiny(x), tl_f32());
            }
        }
    free(q_scratch), free(score_tile), free(o_acc);
    return 0;
}

/* flash_attention_2_reference: one row per invocation, one key at a time */
static inline int vyh_reference(const td_abi_launch *L, int bug) {
    if (vyh_trap(L, 0)) return 1;
    int64_t S = TL_I(L, VYH_P_SEQ), D = TL_I(L, VYH_P_HD);
    float scale = 1.0f / sqrtf((float)D);
    float *o_ref;
    TL_ALLOC(L, o_ref, D);
    for (int64_t row = 0; row < (int64_t)L->grid[0] * VYH_LANES; row++) {
        if (!(row < S)) continue;
        float m = -FLT_MAX, l = 0.0f;
        for (int64_t d = 0; d < D; d++) o_ref[d] = 0.0f;
        for (int64_t j = 0; j < S; j++) {
            float dot = 0.0f;
            for (int64_t d = 0; d < D; d++) dot = dot + tl_load(L, VYH_R_Q, row * D + d) * tl_load(L, VYH_R_K, j * D + d);
            float score = vyh_bounded_score(dot * scale);
            float m_new = score > m ? score : m;
            float rescale = expf(vyh_bounded_exp_arg(m - m_new));
            float prob = expf(vyh_bounded_exp_arg(score - m_new));
            float l_new = rescale * l + prob;
            for (int64_t d = 0; d < D; d++)
                o_ref[d] = (bug == VYH_REF_O_NO_RESCALE ? o_ref[d] : rescale * o_ref[d]) +
                           prob * tl_load(L, VYH_R_V, j * D + d);
            m = m_new;
            l = l_new;
        }
        float denom = vyh_positive_denominator(l);
        for (int64_t d = 0; d < D; d++) tl_store(L, VYH_R_OUT, row * D + d, vyh_flush_tiny(o_ref[d] / denom), tl_f32());
    }
    free(o_ref);
    return 0;
}

/* ================= seed_sm86: SM86 streaming causal attention (forward) ================= */
enum { SMH_P_T, SMH_P_HEADS, SMH_P_KVHEADS, SMH_P_W, SMH_P_B, SMH_P_ORDER, SMH_P_VROWS, SMH_P_C };
enum { SMH_R_Q, SMH_R_K, SMH_R_V, SMH_R_O, SMH_R_LSE };
#define SMH_MAX_B 64
#define SMH_MAX_W 64
enum {
    SMH_CORRECT = 0,
    SMH_DIAG_PLUS1,    /* the diagonal tile's mask keeps key <= query + 1 */
    SMH_P16_IN_L,      /* the row sum adds the binary16-rounded P */
    SMH_GQA_MODULO,    /* K/V head h % kvHeads instead of h / groups */
    SMH_NO_RESCALE_L   /* l_q = l_q + sum P: the running max moves without rescaling l */
};

static inline float smh_rn16(float x) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return (float)td_decode(TD_F16, td_encode_f32(p, x));
}

/* out[d] = element off + d of region reg, d < W: a row operand that a warp holds in its
 * registers across the key (or query) loop, converted once instead of once per product */
static inline void smh_row(const td_abi_launch *L, int reg, int64_t off, int64_t W, float *out) {
    for (int64_t d = 0; d < W; d++) out[d] = tl_load(L, reg, off + d);
}

/* one block: `B` query rows of head h (tile `tile`), the streaming recurrence over key
 * tiles 0..tile, each row's four quad-lane partial sums kept apart until the epilogue */
static inline void smh_block(const td_abi_launch *L, int64_t tile, int64_t kv, int64_t g, int bug) {
    int64_t T = TL_I(L, SMH_P_T), heads = TL_I(L, SMH_P_HEADS), kvh = TL_I(L, SMH_P_KVHEADS);
    int64_t W = TL_I(L, SMH_P_W), B = TL_I(L, SMH_P_B), vrows = TL_I(L, SMH_P_VROWS);
    int64_t groups = heads / kvh, h = kv * groups + g;
    if (bug == SMH_GQA_MODULO) kv = h % kvh;
    float c = TL_R(L, SMH_P_C);
    float t[SMH_MAX_B], P[SMH_MAX_B], P16[SMH_MAX_B], O[SMH_MAX_W], Qi[SMH_MAX_W];
    for (int64_t r = 0; r < B; r++) {
        int64_t i = tile * B + r; /* 64 tile + 16 warp + lane / 4 (+ 8) */
        float m = -INFINITY, lq[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int64_t d = 0; d < W; d++) O[d] = 0.0f;
        smh_row(L, SMH_R_Q, (h * T + i) * W, W, Qi); /* the row's fragment, held across the key tiles */
        for (int64_t kt = 0; kt <= tile; kt++) {
            for (int64_t jj = 0; jj < B; jj++) {
                int64_t j = kt * B + jj;
                float S = 0.0f; /* HMMA from RZ, k-slices in order */
                for (int64_t d = 0; d < W; d++) S = S + Qi[d] * tl_load(L, SMH_R_K, (kv * T + j) * W + d);
                if (kt == tile && (bug == SMH_DIAG_PLUS1 ? j > i + 1 : j > i)) S = -INFINITY; /* the diagonal tile */
                t[jj] = S * c;
            }
            float rmax = t[0];
            for (int64_t jj = 1; jj < B; jj++) rmax = t[jj] > rmax ? t[jj] : rmax; /* FMNMX, then the quad's shuffles */
            float mn = rmax > m ? rmax : m;
            float alpha = exp2f(m - mn);
            for (int64_t jj = 0; jj < B; jj++) P[jj] = exp2f(t[jj] - mn), P16[jj] = smh_rn16(P[jj]); /* F2FP */
            for (int q = 0; q < 4; q++) {
                lq[q] = bug == SMH_NO_RESCALE_L ? lq[q] : lq[q] * alpha;
                for (int64_t jj = 0; jj < B; jj++)
                    if ((jj / 2) % 4 == q) lq[q] = lq[q] + (bug == SMH_P16_IN_L ? P16[jj] : P[jj]);
            }
            for (int64_t d = 0; d < W; d++) {
                float acc = O[d] * alpha;
                for (int64_t jj = 0; jj < B; jj++) {
                    int64_t j = kt * B + jj;
                    float v = tl_load(L, SMH_R_V, vrows ? (kv * T + j) * W + d : (kv * W + d) * T + j);
                    acc = acc + P16[jj] * v; /* HMMA */
                }
                O[d] = acc;
            }
            m = mn;
        }
        float l = (lq[0] + lq[1]) + (lq[2] + lq[3]); /* SHFL xor 1, then xor 2 */
        float rcp = 1.0f / l;
        td_profile st = {TD_F16, TD_RNE, TD_OVF_INF, false};
        for (int64_t d = 0; d < W; d++) tl_store(L, SMH_R_O, i * heads * W + h * W + d, O[d] * rcp, st);
        tl_store(L, SMH_R_LSE, h * T + i, m + log2f(l), tl_f32());
    }
}

/* streamingAttentionForwardGrouped{,Ordered}SM86 over its grid */
static inline int smh_forward(const td_abi_launch *L, int bug) {
    int64_t B = TL_I(L, SMH_P_B), W = TL_I(L, SMH_P_W), order = TL_I(L, SMH_P_ORDER);
    if (B > SMH_MAX_B || W > SMH_MAX_W || B < 1 || W < 1) {
        snprintf(L->err, L->errlen, "tile and head width must be 16, 32 or 64");
        return 1;
    }
    int64_t tiles = TL_I(L, SMH_P_T) / B;
    for (uint32_t z = 0; z < L->grid[2]; z++)
        for (uint32_t y = 0; y < L->grid[1]; y++)
            for (uint32_t x = 0; x < L->grid[0]; x++) {
                if (order == 0) smh_block(L, x, y, z, bug);
                else smh_block(L, tiles - 1 - (int64_t)z, x, y, bug); /* heavy first: tile = tiles - 1 - z */
            }
    return 0;
}

/* ============== seed_sm86: the backward (query pass, key pass, group reduction) ============== */
enum { SQH_P_T, SQH_P_HEADS, SQH_P_KVHEADS, SQH_P_W, SQH_P_B, SQH_P_ORDER, SQH_P_C, SQH_P_S };
enum { SQH_R_Q, SQH_R_K, SQH_R_V, SQH_R_DO, SQH_R_O, SQH_R_L, SQH_R_DQ, SQH_R_D };
enum { SKH_P_T, SKH_P_HEADS, SKH_P_KVHEADS, SKH_P_W, SKH_P_SUB, SKH_P_C, SKH_P_S };
enum { SKH_R_Q, SKH_R_K, SKH_R_V, SKH_R_DO, SKH_R_L, SKH_R_D, SKH_R_DK, SKH_R_DVT };
enum { SRH_P_T, SRH_P_HEADS, SRH_P_KVHEADS, SRH_P_W };
enum { SRH_R_SRC, SRH_R_DST };
enum {
    SBH_CORRECT = 0,
    SQH_DIAG_UNMASKED,  /* the query pass leaves the diagonal tile unmasked */
    SQH_NO_S_SCALE,     /* dQ stored without the FMUL by s */
    SKH_DV_SCALED,      /* dV scaled by s as dK is */
    SKH_SKIP_DIAG,      /* the key pass stops before the diagonal query sub-tile */
    SRH_STRIDED_GROUPS, /* the group of K/V head kv taken as planes kv, kv + kvHeads, ... */
    SRH_LAST_SKIPPED    /* the reduction leaves the group's last plane out */
};

/* a binary32 dot of binary16 values (exact products) in k order from +0, both operands
 * held rows (smh_row) */
static inline float sbh_dot_rows(const float *a, const float *b, int64_t W) {
    float acc = 0.0f;
    for (int64_t d = 0; d < W; d++) acc = acc + a[d] * b[d];
    return acc;
}
/* streamingAttentionQuerySM86 (shared form): one block of B query rows of head h.  The
 * rows are independent (each its own D, dQ and running sums), so the block walks the keys
 * once and updates every row at each key, each row's sums in the kernel's order: every
 * binary16 operand is converted once per block, not once per product. */
static inline void sqh_block(const td_abi_launch *L, int64_t tile, int64_t kv, int64_t g, int bug) {
    int64_t T = TL_I(L, SQH_P_T), heads = TL_I(L, SQH_P_HEADS), kvh = TL_I(L, SQH_P_KVHEADS);
    int64_t W = TL_I(L, SQH_P_W), B = TL_I(L, SQH_P_B), h = kv * (heads / kvh) + g;
    float c = TL_R(L, SQH_P_C), sc = TL_R(L, SQH_P_S);
    float Q[SMH_MAX_B][SMH_MAX_W], dO[SMH_MAX_B][SMH_MAX_W], dQ[SMH_MAX_B][SMH_MAX_W], D[SMH_MAX_B], Lse[SMH_MAX_B];
    float Kj[SMH_MAX_W], Vj[SMH_MAX_W];
    for (int64_t r = 0; r < B; r++) {
        int64_t i = tile * B + r;
        smh_row(L, SQH_R_Q, (h * T + i) * W, W, Q[r]);
        smh_row(L, SQH_R_DO, (h * T + i) * W, W, dO[r]);
        float Dq[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int64_t d = 0; d < W; d++) /* FFMA chain of exact products, per quad lane */
            Dq[(d / 2) % 4] = Dq[(d / 2) % 4] + tl_load(L, SQH_R_O, i * heads * W + h * W + d) * dO[r][d];
        D[r] = (Dq[0] + Dq[1]) + (Dq[2] + Dq[3]);
        Lse[r] = tl_load(L, SQH_R_L, h * T + i);
        for (int64_t d = 0; d < W; d++) dQ[r][d] = 0.0f;
    }
    for (int64_t kt = 0; kt <= tile; kt++)
        for (int64_t jj = 0; jj < B; jj++) {
            int64_t j = kt * B + jj;
            smh_row(L, SQH_R_K, (kv * T + j) * W, W, Kj);
            smh_row(L, SQH_R_V, (kv * T + j) * W, W, Vj);
            for (int64_t r = 0; r < B; r++) {
                int64_t i = tile * B + r;
                float S = sbh_dot_rows(Q[r], Kj, W), dP = sbh_dot_rows(dO[r], Vj, W);
                if (kt == tile && j > i && bug != SQH_DIAG_UNMASKED) S = -INFINITY;
                float P = exp2f(fmaf(S, c, -Lse[r])); /* EX2(FFMA(S, c, -L)) */
                float dS = smh_rn16(P * (dP - D[r]));
                for (int64_t d = 0; d < W; d++) dQ[r][d] = dQ[r][d] + dS * Kj[d];
            }
        }
    for (int64_t r = 0; r < B; r++) {
        int64_t i = tile * B + r;
        for (int64_t d = 0; d < W; d++)
            tl_store(L, SQH_R_DQ, (h * T + i) * W + d, bug == SQH_NO_S_SCALE ? dQ[r][d] : dQ[r][d] * sc, tl_f32());
        tl_store(L, SQH_R_D, h * T + i, D[r], tl_f32());
    }
}

static inline int sqh_query(const td_abi_launch *L, int bug) {
    int64_t B = TL_I(L, SQH_P_B), W = TL_I(L, SQH_P_W), order = TL_I(L, SQH_P_ORDER);
    if (B < 1 || W < 1 || B > SMH_MAX_B || W > SMH_MAX_W) {
        snprintf(L->err, L->errlen, "tile and head width must be 16, 32 or 64");
        return 1;
    }
    int64_t tiles = TL_I(L, SQH_P_T) / B;
    for (uint32_t z = 0; z < L->grid[2]; z++)
        for (uint32_t y = 0; y < L->grid[1]; y++)
            for (uint32_t x = 0; x < L->grid[0]; x++) {
                if (order == 0) sqh_block(L, x, y, z, bug);
                else sqh_block(L, tiles - 1 - (int64_t)z, x, y, bug);
            }
    return 0;
}

/* streamingAttentionKeySM86: block (key sub-tile kb, K/V head kv, group g).  Its sub keys
 * are independent (each its own dK, dV), so the block walks the queries once and updates
 * every key at each query, each key's sums in the kernel's order (query sub-tiles from the
 * last down, ascending within): every binary16 operand is converted once per block. */
static inline void skh_block(const td_abi_launch *L, int64_t kb, int64_t kv, int64_t g, int bug) {
    int64_t T = TL_I(L, SKH_P_T), heads = TL_I(L, SKH_P_HEADS), kvh = TL_I(L, SKH_P_KVHEADS);
    int64_t W = TL_I(L, SKH_P_W), sub = TL_I(L, SKH_P_SUB), h = kv * (heads / kvh) + g;
    float c = TL_R(L, SKH_P_C), sc = TL_R(L, SKH_P_S);
    float K[SMH_MAX_B][SMH_MAX_W], V[SMH_MAX_B][SMH_MAX_W], dK[SMH_MAX_B][SMH_MAX_W], dV[SMH_MAX_B][SMH_MAX_W];
    float Qi[SMH_MAX_W], dOi[SMH_MAX_W];
    for (int64_t jj = 0; jj < sub; jj++) {
        int64_t j = kb * sub + jj;
        smh_row(L, SKH_R_K, (kv * T + j) * W, W, K[jj]);
        smh_row(L, SKH_R_V, (kv * T + j) * W, W, V[jj]);
        for (int64_t d = 0; d < W; d++) dK[jj][d] = dV[jj][d] = 0.0f;
    }
    for (int64_t qs = T / sub - 1; qs >= kb + (bug == SKH_SKIP_DIAG ? 1 : 0); qs--)
        for (int64_t ii = 0; ii < sub; ii++) {
            int64_t i = qs * sub + ii;
            smh_row(L, SKH_R_Q, (h * T + i) * W, W, Qi);
            smh_row(L, SKH_R_DO, (h * T + i) * W, W, dOi);
            float Li = tl_load(L, SKH_R_L, h * T + i), Di = tl_load(L, SKH_R_D, h * T + i);
            for (int64_t jj = 0; jj < sub; jj++) {
                int64_t j = kb * sub + jj;
                float S = sbh_dot_rows(K[jj], Qi, W), dP = sbh_dot_rows(V[jj], dOi, W);
                if (qs == kb && i < j) S = -INFINITY; /* the diagonal sub-tile keeps query >= key */
                float P = exp2f(fmaf(S, c, -Li));
                float dS = P * (dP - Di);
                float p16 = smh_rn16(P), ds16 = smh_rn16(dS);
                for (int64_t d = 0; d < W; d++) {
                    dV[jj][d] = dV[jj][d] + p16 * dOi[d];
                    dK[jj][d] = dK[jj][d] + ds16 * Qi[d];
                }
            }
        }
    for (int64_t jj = 0; jj < sub; jj++) {
        int64_t j = kb * sub + jj;
        for (int64_t d = 0; d < W; d++) {
            tl_store(L, SKH_R_DK, (h * T + j) * W + d, dK[jj][d] * sc, tl_f32());
            tl_store(L, SKH_R_DVT, (h * W + d) * T + j, bug == SKH_DV_SCALED ? dV[jj][d] * sc : dV[jj][d], tl_f32());
        }
    }
}

static inline int skh_key(const td_abi_launch *L, int bug) {
    int64_t sub = TL_I(L, SKH_P_SUB), W = TL_I(L, SKH_P_W);
    if (sub < 1 || W < 1 || sub > SMH_MAX_B || W > SMH_MAX_W) {
        snprintf(L->err, L->errlen, "sub_tile and head width out of range");
        return 1;
    }
    for (uint32_t z = 0; z < L->grid[2]; z++)
        for (uint32_t y = 0; y < L->grid[1]; y++)
            for (uint32_t x = 0; x < L->grid[0]; x++) skh_block(L, x, y, z, bug);
    return 0;
}

/* streamingAttentionReduceGroupedGradientSM86: 128 threads per block, one element each */
static inline int srh_reduce(const td_abi_launch *L, int bug) {
    int64_t T = TL_I(L, SRH_P_T), heads = TL_I(L, SRH_P_HEADS), kvh = TL_I(L, SRH_P_KVHEADS), W = TL_I(L, SRH_P_W);
    int64_t groups = heads / kvh, plane = W * T;
    for (uint32_t y = 0; y < L->grid[1]; y++)
        for (uint32_t x = 0; x < L->grid[0]; x++)
            for (int64_t tid = 0; tid < 128; tid++) {
                int64_t e = (int64_t)x * 128 + tid;
                float acc = 0.0f;
                for (int64_t g = 0; g < groups - (bug == SRH_LAST_SKIPPED ? 1 : 0); g++) {
                    int64_t hsrc = bug == SRH_STRIDED_GROUPS ? (int64_t)y + g * kvh : (int64_t)y * groups + g;
                    acc = acc + tl_load(L, SRH_R_SRC, hsrc * plane + e);
                }
                tl_store(L, SRH_R_DST, (int64_t)y * plane + e, acc, tl_f32());
            }
    return 0;
}

#endif
