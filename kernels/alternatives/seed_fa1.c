/* Alternatives for seed_fa1 (VeriTile's FA-1 forward: out = softmax(Q K^T scale) V per
 * (batch, head), keys j < S_k, causal: also j <= i on absolute indices; lanes
 * pid0*M + r < S_q, d < D of programs (pid0, pid1 = head, pid2 = batch)).
 *
 * One row-wise program written independently of the ports' tile programs: per query
 * row, scores s_j = RN(dot(q, k_j) * scale) with the dot over d < D as an FMA chain,
 * then the online softmax over key blocks of C keys (running max, running sum and
 * running output row rescaled by exp(m_old - m_new)), the causal mask applied key by
 * key inside that block structure (another block size than the kernel's Bk, so the
 * diagonal falls elsewhere in a block), out = o_d * (1/l).
 *
 *   online kernels (boundaryD, causal boundaryD, naive_reference_overflow),
 *     alt_kv4_exp2    C = 4 keys per block whatever Bk is, exp as exp2f of the binary32
 *                     product x * log2 e (Triton's lowering).  Admissible: another KV
 *                     block size and causal block boundary, FMA dots, the exp2 lowering,
 *                     reciprocal-multiply.
 *   naive kernels (plain and causal),
 *     alt_online16    the naive kernel has no max subtraction; this one is the stable
 *                     online form with C = 16 and libm expf: the spec (softmax over the
 *                     reals) is the same, the evaluation safer.
 * Parameters: online M Bd Bk numKVBlocks S_q S_k D, 16 strides, scale; naive M Bd S_q S_k
 * D, 16 strides, scale.  Regions: Q, K, V, Out. */
#include "alt_a_softmax.h"

enum { R_Q, R_K, R_V, R_OUT };

typedef struct fa_geo {
    int64_t M, Sq, Sk, D, st[4][4]; /* [q, k, v, out][b, h, s, d] */
    float scale;
} fa_geo;

static void fa_geo_get(const td_abi_launch *L, int online, fa_geo *g) {
    int k = 0;
    g->M = TL_I(L, k++);
    k++; /* Bd: the tile width, not needed row by row */
    if (online) k += 2; /* Bk, numKVBlocks: the kernel's blocking, not the spec's */
    g->Sq = TL_I(L, k++), g->Sk = TL_I(L, k++), g->D = TL_I(L, k++);
    for (int t = 0; t < 16; t++) g->st[t / 4][t % 4] = TL_I(L, k++);
    g->scale = TL_R(L, k);
}

static int64_t fa_off(const fa_geo *g, int t, int64_t b, int64_t h, int64_t s, int64_t d) {
    return b * g->st[t][0] + h * g->st[t][1] + s * g->st[t][2] + d * g->st[t][3];
}

/* one query row i of head (b, h) into o[0..D) */
static void fa_row(const td_abi_launch *L, const fa_geo *g, int64_t b, int64_t h, int64_t i, int causal, int64_t C,
                   aa_expfn ex, float *o, float *s) {
    int64_t nk = causal && i + 1 < g->Sk ? i + 1 : g->Sk;
    float m = -INFINITY, l = 0.0f;
    for (int64_t d = 0; d < g->D; d++) o[d] = 0.0f;
    for (int64_t j0 = 0; j0 < nk; j0 += C) {
        int64_t n = nk - j0 < C ? nk - j0 : C;
        for (int64_t j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int64_t d = 0; d < g->D; d++)
                acc = fmaf(tl_load(L, R_Q, fa_off(g, 0, b, h, i, d)), tl_load(L, R_K, fa_off(g, 1, b, h, j0 + j, d)), acc);
            s[j] = acc * g->scale;
        }
        float mn = aa_max_seq(s, n);
        mn = mn > m ? mn : m;
        float alpha = m == mn ? 1.0f : ex(m - mn);
        l = l * alpha;
        for (int64_t d = 0; d < g->D; d++) o[d] = o[d] * alpha;
        for (int64_t j = 0; j < n; j++) {
            float p = ex(s[j] - mn);
            l = l + p;
            for (int64_t d = 0; d < g->D; d++) o[d] = fmaf(p, tl_load(L, R_V, fa_off(g, 2, b, h, j0 + j, d)), o[d]);
        }
        m = mn;
    }
    float r = 1.0f / l;
    for (int64_t d = 0; d < g->D; d++) o[d] = o[d] * r;
}

static int fa_run(const td_abi_launch *L, int online, int causal, int64_t C, aa_expfn ex) {
    fa_geo g;
    fa_geo_get(L, online, &g);
    float *o, *s;
    TL_ALLOC(L, o, g.D + C);
    s = o + g.D;
    for (uint32_t b = 0; b < L->grid[2]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++)
            for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
                for (int64_t r = 0; r < g.M; r++) {
                    int64_t i = (int64_t)p0 * g.M + r;
                    if (i >= g.Sq) continue;
                    fa_row(L, &g, b, h, i, causal, C, ex, o, s);
                    for (int64_t d = 0; d < g.D; d++) tl_store(L, R_OUT, fa_off(&g, 3, b, h, i, d), o[d], tl_f32());
                }
    free(o);
    return 0;
}

static int fa_online(const td_abi_launch *L) { return fa_run(L, 1, 0, 4, aa_exp_tl); }
static int fa_online_causal(const td_abi_launch *L) { return fa_run(L, 1, 1, 4, aa_exp_tl); }
static int fa_naive(const td_abi_launch *L) { return fa_run(L, 0, 0, 16, expf); }
static int fa_naive_causal(const td_abi_launch *L) { return fa_run(L, 0, 1, 16, expf); }

TD_KERNEL(td_a_seed_fa1_kv4_exp2) = {"seed_fa1.fa1_boundaryD_refines_naive_reference_exec_views", "alt_kv4_exp2",
                                     TD_ABI_HOST, NULL, NULL, NULL, 24, 4, fa_online, NULL};
TD_KERNEL(td_a_seed_fa1_causal_kv4_exp2) = {"seed_fa1.fa1_causal_boundaryD_refines_naive_reference_exec_views",
                                            "alt_kv4_exp2", TD_ABI_HOST, NULL, NULL, NULL, 24, 4, fa_online_causal,
                                            NULL};
TD_KERNEL(td_a_seed_fa1_overflow_kv4_exp2) = {"seed_fa1.naive_reference_overflow", "alt_kv4_exp2", TD_ABI_HOST, NULL,
                                              NULL, NULL, 24, 4, fa_online, NULL};
TD_KERNEL(td_a_seed_fa1_naive_online16) = {"seed_fa1.naive_reference_correctness", "alt_online16", TD_ABI_HOST, NULL,
                                           NULL, NULL, 22, 4, fa_naive, NULL};
TD_KERNEL(td_a_seed_fa1_naive_causal_online16) = {"seed_fa1.naive_causal_reference_correctness", "alt_online16",
                                                  TD_ABI_HOST, NULL, NULL, NULL, 22, 4, fa_naive_causal, NULL};
