/* seed_fa1: VeriTile's FlashAttention-1 forward (seed 000, "Step 4 of issue #39":
 * VeriTile.Examples.FlashAttention1.NaiveRefinement), five contracts.
 *
 *   seed_fa1.fa1_boundaryD_refines_naive_reference_exec_views
 *   seed_fa1.fa1_causal_boundaryD_refines_naive_reference_exec_views
 *       The tiled online-softmax kernels fa1ForwardKernelStrided{,Causal}BoundaryD
 *       (Examples/FlashAttention1/Common/Kernels.lean) refine the naive reference
 *       attentionReal4D{,Causal} = softmax(Q K^T scale) V per (batch, head):
 *         0 < Bk, 0 < S_k <= Bk * numKVBlocks (surplus, fully masked KV blocks
 *         allowed), D <= Bd; pid2 < B, pid1 < H;
 *       for every lane (row, col) of the [M, Bd] tile with pid0*M + row < S_q and
 *       col < D, out[pid2*sOB + pid1*sOH + (pid0*M+row)*sOM + col*sOD] =
 *         sum_j w_ij V[j, col],  w_ij = exp(s_ij) / sum_j' exp(s_ij'),
 *         s_ij = scale * sum_{d < D} Q[i,d] K[j,d],
 *       j over keys < S_k (causal: also j <= i, top-left on absolute indices, so
 *       row i sees keys 0..min(i, S_k - 1) whatever S_q and S_k are).
 *   seed_fa1.naive_reference_correctness
 *   seed_fa1.naive_causal_reference_correctness
 *       The naive single-block kernels fa1NaiveForwardKernelStrided{,Causal}BoundaryD
 *       (NaiveKernel.lean, fa1NaiveDirectOut_eq_attentionReal): no KV loop, one tile
 *       of arange(S_k) keys, p = exp(scores) with NO max subtraction, out =
 *       dot(p, v) / sum(p).  Correct over the reals (the Lean theorem), but binary32
 *       exp overflows for scores above 88.72 (and the sum underflows for rows far
 *       below -87): the contract states the theorem on the naive kernel's binary32
 *       domain, a checked hypothesis `hnaive` (every row's maximum score in [-80, 80]
 *       and sum_j exp(s_ij) (1 + max_d |V[j,d]|) <= 2^126), which its generator meets
 *       by construction (it halves K until the rows are inside).
 *   seed_fa1.naive_reference_overflow
 *       The same real statement outside that domain: every row's scores lie in
 *       [100, 2000] (landscapes SHIFT and RAMP).  The online kernel (variant
 *       "triton", non-causal) must pass; the naive kernel, registered here as
 *       variant "naive" with `.mutant` = "known limitation: ...", is FLAGGED: exp
 *       overflows to inf, sum(p) = inf and dot(p, v) = +-inf or NaN, out = NaN, a
 *       non-finite output where the exact value is finite (class nonfinite under the
 *       REAL policy).  That flag is the expected, documented result: the kernel is
 *       proved correct over the reals and is not a binary32 kernel for such scores.
 *       tests/test_seed_fa1.c asserts both halves on the same inputs.  The contract
 *       takes the online kernel's parameter list; the naive kernel ignores Bk and
 *       numKVBlocks (it reads arange(S_k) keys in one tile).
 *
 * Parameters, in the Lean kernels' argument order: M Bd Bk numKVBlocks S_q S_k D (the
 * naive kernels: M Bd S_q S_k D), the 16 Nat strides (Q, K, V, out; axes b, h, s, d),
 * scale (the kernel's binary32 value of the real scale).  B and H are the grid's z and
 * y extents (hPidB, hPidH); grid x may exceed cdiv(S_q, M) (surplus query programs
 * store nothing).
 *
 * Checked against the Lean definitions (Common/Kernels.lean, NaiveKernel.lean,
 * Triton/Math/Attention.lean): Q/K/V loads masked by offs < S and offs_d < D with
 * other = 0, scores = dot(q, k^T) * scale, causal `where(offs_m >= offs_n, s, -inf)`
 * then the tail `where(offs_n < S_k, s, -inf)`, m_i = -inf, l_i = 0, o = 0; per block
 * m_new = max(m_i, rowmax), alpha = exp(m_i - m_new), p = exp(s - m_new),
 * l = alpha*l + sum(p), o = alpha*o + dot(p, v); out = o / l under the (S_q, D) store
 * mask.  The loop walks ALL numKVBlocks blocks (no causal block skipping).  The
 * specification declarations' reading (attentionReal4D, no max subtraction, harmless
 * over the reals) is the reference the MPFR oracle evaluates; the catalogue has no
 * [named] reading for these seeds.
 *
 * Platform choices of the ports: M, Bd and Bk are powers of two (tl.arange); tl.dot
 * is an IEEE binary32 dot product (input_precision "ieee": Triton's TF32 default
 * would be another contract), accumulated over the contraction index from +0; the
 * naive tile is arange(S_k) exactly as the DSL writes it (not padded to a power of
 * two).
 *
 * Error model: the spec is the kernel's algorithm (the online form for the online
 * kernels), each operation one binary32 rounding in the kernel's order:
 *   s_j   = RN(RN-dot_{d<D}(q_d k_d) * scale): a D-term dot in any order
 *           (gamma_{D-1} over the rounded products; padded lanes add exact zeros);
 *   per KV block with a valid key: m_blk = max (exact), m_new = max(m_i, m_blk),
 *           alpha = exp(m_i - m_new), p_j = exp(s_j - m_new) (exp charged the
 *           backend's budget), l = alpha*l + tl.sum(p) with tl.sum the pairwise tree
 *           over the valid prefix of the block (ceil(log2 n) roundings),
 *           o = alpha*o + dot(p, v) (any order over the valid keys);
 *   blocks without a valid key (surplus blocks, causal future blocks) are exact
 *           no-ops in binary32 (alpha = exp(0) = 1, p = exp(-inf) = 0, l*1 + 0 = l)
 *           and are skipped; the first block's alpha = exp(-inf) = 0 multiplies
 *           l = o = 0, so its l and o are exactly its own sums;
 *   out   = RN(o / l).
 * The shadow carries every score's error into the exponentials, so the common
 * factor exp(m_kernel - m_exact) that cancels in o/l is charged twice (once in o,
 * once in l): the bound is at most about twice the centred first-order bound
 * sum_j w_j rho_j |v_j - out| of the research notes, and exact where V is constant.
 * Naive kernels: p_j = exp(s_j), l = sum p (any order: arange(S_k) need not be a
 * power of two, so the tree's depth is not ceil(log2 n)), o = dot(p, v), out = o / l.
 *
 * Special values: REAL.  Valid Q/K/V cells are finite; cells the kernels must not
 * read (head-dim padding d >= D, rows >= S_q or >= S_k up to the padded extents, gaps
 * of padded layouts) hold NaN or 1e30 poison.  Every row has key 0, so l >= 1 in the
 * online kernels; the naive domain keeps exp finite and sum(p) normal.
 */
#include "attn_common.h"
#include "gen_far.h"

/* the online kernels' parameters (and naive_reference_overflow's) */
enum {
    P_M, P_BD, P_BK, P_NKV, P_SQ, P_SK, P_D,
    P_SQB, P_SQH, P_SQS, P_SQD, P_SKB, P_SKH, P_SKN, P_SKD,
    P_SVB, P_SVH, P_SVN, P_SVD, P_SOB, P_SOH, P_SOM, P_SOD,
    P_SCALE, NP
};
/* the naive kernels' */
enum {
    PN_M, PN_BD, PN_SQ, PN_SK, PN_D,
    PN_SQB, PN_SQH, PN_SQS, PN_SQD, PN_SKB, PN_SKH, PN_SKN, PN_SKD,
    PN_SVB, PN_SVH, PN_SVN, PN_SVD, PN_SOB, PN_SOH, PN_SOM, PN_SOD,
    PN_SCALE, NPN
};
enum { R_Q, R_K, R_V, R_OUT, NR };
enum { T_Q, T_K, T_V, T_O };

#define FA1_MAX_S 64 /* S_q, S_k the generator draws (the spec's row buffers) */
#define FA1_MAX_D 32

typedef struct fa1_geo {
    int naive, causal;
    int64_t M, Bd, Bk, nkv, Sq, Sk, D;
    int64_t st[4][4]; /* [Q, K, V, out][b, h, s, d] */
    double scale;
    int64_t nqb, H, B; /* grid x, y, z */
} fa1_geo;

static void fa1_geo_get(const td_case *c, int naive_layout, int naive, int causal, fa1_geo *g) {
    memset(g, 0, sizeof *g);
    g->naive = naive;
    g->causal = causal;
    if (naive_layout) {
        g->M = c->p[PN_M].i, g->Bd = c->p[PN_BD].i, g->Sq = c->p[PN_SQ].i, g->Sk = c->p[PN_SK].i, g->D = c->p[PN_D].i;
        for (int t = 0; t < 16; t++) g->st[t / 4][t % 4] = c->p[PN_SQB + t].i;
        g->scale = c->p[PN_SCALE].r;
        g->Bk = g->Sk, g->nkv = 1;
    } else {
        g->M = c->p[P_M].i, g->Bd = c->p[P_BD].i, g->Bk = c->p[P_BK].i, g->nkv = c->p[P_NKV].i;
        g->Sq = c->p[P_SQ].i, g->Sk = c->p[P_SK].i, g->D = c->p[P_D].i;
        for (int t = 0; t < 16; t++) g->st[t / 4][t % 4] = c->p[P_SQB + t].i;
        g->scale = c->p[P_SCALE].r;
    }
    g->nqb = c->grid[0], g->H = c->grid[1], g->B = c->grid[2];
}

static inline int64_t fa1_off(const fa1_geo *g, int t, int64_t b, int64_t h, int64_t s, int64_t d) {
    return b * g->st[t][0] + h * g->st[t][1] + s * g->st[t][2] + d * g->st[t][3];
}

/* keys row i attends to: 0 .. nvalid-1 */
static inline int64_t fa1_nvalid(const fa1_geo *g, int64_t i) {
    return g->causal ? (i + 1 < g->Sk ? i + 1 : g->Sk) : g->Sk;
}

#define FA1_TAG_P 1
#define FA1_TAG_A 2
#define FA1_TAG_L 3
#define FA1_TAG_PM 4 /* naive kernels: the weight bounds e^(s_j - max s) of the online form */

#define TD_SPEC_FILE "seed_fa1.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"M", TD_P_INT},         {"Bd", TD_P_INT},        {"Bk", TD_P_INT},        {"numKVBlocks", TD_P_INT},
    {"S_q", TD_P_INT},       {"S_k", TD_P_INT},       {"D", TD_P_INT},         {"stride_qb", TD_P_INT},
    {"stride_qh", TD_P_INT}, {"stride_qs", TD_P_INT}, {"stride_qd", TD_P_INT}, {"stride_kb", TD_P_INT},
    {"stride_kh", TD_P_INT}, {"stride_kn", TD_P_INT}, {"stride_kd", TD_P_INT}, {"stride_vb", TD_P_INT},
    {"stride_vh", TD_P_INT}, {"stride_vn", TD_P_INT}, {"stride_vd", TD_P_INT}, {"stride_ob", TD_P_INT},
    {"stride_oh", TD_P_INT}, {"stride_om", TD_P_INT}, {"stride_od", TD_P_INT}, {"scale", TD_P_REAL}};
static const td_param_decl params_naive[NPN] = {
    {"M", TD_P_INT},         {"Bd", TD_P_INT},        {"S_q", TD_P_INT},       {"S_k", TD_P_INT},
    {"D", TD_P_INT},         {"stride_qb", TD_P_INT}, {"stride_qh", TD_P_INT}, {"stride_qs", TD_P_INT},
    {"stride_qd", TD_P_INT}, {"stride_kb", TD_P_INT}, {"stride_kh", TD_P_INT}, {"stride_kn", TD_P_INT},
    {"stride_kd", TD_P_INT}, {"stride_vb", TD_P_INT}, {"stride_vh", TD_P_INT}, {"stride_vn", TD_P_INT},
    {"stride_vd", TD_P_INT}, {"stride_ob", TD_P_INT}, {"stride_oh", TD_P_INT}, {"stride_om", TD_P_INT},
    {"stride_od", TD_P_INT}, {"scale", TD_P_REAL}};
static const td_region_decl regions[NR] = {
    {"q", TD_F32, TD_R_IN}, {"k", TD_F32, TD_R_IN}, {"v", TD_F32, TD_R_IN}, {"out", TD_F32, TD_R_OUT}};

/* ---- generator ---- */
enum { FA1_GEN_ONLINE, FA1_GEN_NAIVE, FA1_GEN_OVERFLOW };

/* A layout of a [B, H, S, D] tensor whose index space is padded to [B, H, Sp, Dp]:
 * contiguous BHSD or BSHD with padded row pitches, head-dim-major (B, H, D, S), and for
 * inputs stride 0 on the head (MQA) or batch axis.  Writes the strides. */
static void fa1_layout(td_producer *p, int64_t B, int64_t H, int64_t Sp, int64_t Dp, int input, int64_t st[4],
                       uint64_t *classes) {
    static const int64_t pads[] = {0, 0, 1, 5};
    int64_t pad = pads[td_prod_u32(p, 0, 3)];
    if (pad) *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    switch (td_prod_u32(p, 0, input ? 5 : 3)) {
    case 1: /* BSHD */
        st[3] = 1, st[1] = Dp + pad, st[2] = H * st[1], st[0] = Sp * st[2];
        break;
    case 2: /* B H D S: the head dim strided */
        st[2] = 1, st[3] = Sp + pad, st[1] = Dp * st[3], st[0] = H * st[1];
        break;
    case 4: /* MQA: every head reads the same K/V */
        st[3] = 1, st[2] = Dp + pad, st[1] = 0, st[0] = Sp * st[2];
        break;
    case 5: /* every batch reads the same K/V */
        st[3] = 1, st[2] = Dp + pad, st[1] = Sp * st[2], st[0] = 0;
        break;
    default: /* BHSD */
        st[3] = 1, st[2] = Dp + pad, st[1] = Sp * st[2], st[0] = H * st[1];
        break;
    }
}

static size_t fa1_extent(const int64_t st[4], int64_t B, int64_t H, int64_t S, int64_t D) {
    if (B < 1 || H < 1 || S < 1 || D < 1) return 0;
    return (size_t)((B - 1) * st[0] + (H - 1) * st[1] + (S - 1) * st[2] + (D - 1) * st[3] + 1);
}

/* scores of row (b, h, i) from the case's data, binary64 (close to the exact reals) */
static double fa1_score_f64(const td_case *c, const fa1_geo *g, int64_t b, int64_t h, int64_t i, int64_t j) {
    double s = 0;
    for (int64_t d = 0; d < g->D; d++)
        s += td_get(c, R_Q, (size_t)fa1_off(g, T_Q, b, h, i, d)) * td_get(c, R_K, (size_t)fa1_off(g, T_K, b, h, j, d));
    return s * g->scale;
}

/* hnaive for one row: max score in [-80, 80] and sum_j exp(s_j)(1 + max_d |v_jd|) <= 2^126 */
static int fa1_naive_row_ok(const td_case *c, const fa1_geo *g, int64_t b, int64_t h, int64_t i) {
    int64_t n = fa1_nvalid(g, i);
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < n; j++) {
        double s = fa1_score_f64(c, g, b, h, i, j), vm = 0;
        if (s > mx) mx = s;
        for (int64_t d = 0; d < g->D; d++) {
            double v = fabs(td_get(c, R_V, (size_t)fa1_off(g, T_V, b, h, j, d)));
            if (v > vm) vm = v;
        }
        sum += exp(s) * (1 + vm);
    }
    return mx >= -80 && mx <= 80 && sum <= 0x1p126;
}

static double fa1_row_max(const td_case *c, const fa1_geo *g, int64_t b, int64_t h, int64_t i) {
    double mx = -INFINITY;
    for (int64_t j = 0; j < fa1_nvalid(g, i); j++) {
        double s = fa1_score_f64(c, g, b, h, i, j);
        if (s > mx) mx = s;
    }
    return mx;
}

static void fa1_gen(td_producer *p, td_case *c, int naive, int causal, int mode) {
    int naive_layout = naive && mode != FA1_GEN_OVERFLOW;
    /* the overflow demonstration runs every lane of the naive kernel through MPFR
     * (its outputs are NaN): smaller tensors */
    int64_t maxS = mode == FA1_GEN_OVERFLOW ? 32 : FA1_MAX_S;
    int64_t M = td_gen_pow2(p, 0, 5), Bd = td_gen_pow2(p, 0, mode == FA1_GEN_OVERFLOW ? 4 : 5);
    int64_t D;
    switch (td_prod_u32(p, 0, 4)) {
    case 0: D = 1; break;
    case 1: D = Bd; break;
    case 2: D = Bd > 1 ? Bd - 1 : 1; break;
    default: D = td_prod_u32(p, 1, (uint32_t)Bd); break;
    }
    if (D < Bd) c->classes |= TD_BC(TD_BC_TAIL);
    int64_t Bk = naive_layout ? 8 : td_gen_pow2(p, 0, 5);
    int64_t Sk = (int64_t)td_gen_count(p, (uint64_t)Bk, (uint64_t)maxS, &c->classes);
    int64_t nkv = at_cdiv(Sk, Bk);
    static const unsigned surplus_w[] = {5, 2, 1, 1};
    int64_t surplus = naive_layout ? 0 : td_prod_pick(p, surplus_w, 4);
    if (surplus) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    nkv += surplus;
    if (nkv > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    int64_t Sq;
    if (causal && td_prod_u32(p, 0, 2) == 0) Sq = Sk; /* square causal; otherwise S_q != S_k is likely */
    else Sq = (int64_t)td_gen_count(p, (uint64_t)M, (uint64_t)maxS, &c->classes);
    int64_t nqb = at_cdiv(Sq, M) + (td_prod_u32(p, 0, 5) == 0 ? 1 : 0);
    if (nqb == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    int64_t H = td_prod_u32(p, 1, 3), B = td_prod_u32(p, 1, 2);
    while (B * H * Sq * Sk * D > (1 << 17) && H > 1) H--;
    while (B * H * Sq * Sk * D > (1 << 17) && B > 1) B--;
    /* layouts over the padded index spaces (masked loads may name these cells) */
    int64_t Sqp = nqb * M, Skp = naive_layout ? Sk : nkv * Bk;
    if (Sqp < Sq) Sqp = Sq;
    int64_t st[4][4];
    fa1_layout(p, B, H, Sqp, Bd, 1, st[T_Q], &c->classes);
    fa1_layout(p, B, H, Skp, Bd, 1, st[T_K], &c->classes);
    fa1_layout(p, B, H, Skp, Bd, 1, st[T_V], &c->classes);
    fa1_layout(p, B, H, Sqp, Bd, 0, st[T_O], &c->classes);
    if (st[T_K][1] == 0 || st[T_K][0] == 0 || st[T_V][1] == 0 || st[T_V][0] == 0)
        c->classes |= TD_BC(TD_BC_META_EXTREME);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 4);
    td_rng *r = &g.rng;
    double scale;
    switch (td_rng_below(r, 8)) {
    case 0: scale = 1.0; break;
    case 1: scale = at_f32(at_unif(r, 0.01, 2)); break;
    case 2: scale = mode == FA1_GEN_OVERFLOW ? 1.0 : (td_rng_below(r, 2) ? 0.0 : -(double)(1.0f / sqrtf((float)D))); break;
    default: scale = (double)(1.0f / sqrtf((float)D)); break;
    }
    /* parameters */
    if (naive_layout) {
        c->p[PN_M].i = M, c->p[PN_BD].i = Bd, c->p[PN_SQ].i = Sq, c->p[PN_SK].i = Sk, c->p[PN_D].i = D;
        for (int t = 0; t < 16; t++) c->p[PN_SQB + t].i = st[t / 4][t % 4];
        c->p[PN_SCALE].r = scale;
    } else {
        c->p[P_M].i = M, c->p[P_BD].i = Bd, c->p[P_BK].i = Bk, c->p[P_NKV].i = nkv;
        c->p[P_SQ].i = Sq, c->p[P_SK].i = Sk, c->p[P_D].i = D;
        for (int t = 0; t < 16; t++) c->p[P_SQB + t].i = st[t / 4][t % 4];
        c->p[P_SCALE].r = scale;
    }
    c->grid[0] = (uint32_t)nqb, c->grid[1] = (uint32_t)H, c->grid[2] = (uint32_t)B;
    fa1_geo geo;
    fa1_geo_get(c, naive_layout, naive, causal, &geo);
    /* regions cover the padded index spaces, poisoned; then every valid cell */
    size_t slack = td_rng_below(r, 2) ? 3 : 0;
    size_t nq = fa1_extent(st[T_Q], B, H, Sqp, Bd), nk = fa1_extent(st[T_K], B, H, Skp, Bd);
    size_t nv = fa1_extent(st[T_V], B, H, Skp, Bd), no = fa1_extent(st[T_O], B, H, Sqp, Bd);
    td_case_alloc(c, R_Q, nq + slack);
    td_case_alloc(c, R_K, nk + slack);
    td_case_alloc(c, R_V, nv + slack);
    td_case_alloc(c, R_OUT, no + slack);
    double poison = td_rng_below(r, 4) ? NAN : 1e30;
    for (int t = R_Q; t <= R_V; t++)
        for (size_t e = 0; e < c->r[t].len; e++) td_set(c, t, e, poison);
    at_land_opts lo = {AT_LM_ALL, -100, 400, 4, TD_F32};
    if (mode == FA1_GEN_NAIVE) lo.sig_lo = -70, lo.sig_hi = 70;
    if (mode == FA1_GEN_OVERFLOW) lo.kinds = AT_LM(AT_L_SHIFT) | AT_LM(AT_L_RAMP), lo.sig_lo = 100, lo.sig_hi = 2000;
    double *qa = at_calloc((size_t)(Sq * D), sizeof *qa), *ka = at_calloc((size_t)(Sk * D), sizeof *ka);
    double *va = at_calloc((size_t)(Sk * D), sizeof *va);
    double vbound = mode == FA1_GEN_ONLINE ? 0x1p16 : 64;
    unsigned vkinds = (1u << AT_V_MENU) | (1u << AT_V_DISTINCT) | (1u << AT_V_CONST) | (1u << AT_V_TINY);
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++) {
            at_fill_qk(&g, qa, Sq, ka, Sk, D, scale, &lo, &c->classes);
            at_fill_v(&g, va, Sk, D, TD_F32, vbound, vkinds);
            for (int64_t i = 0; i < Sq; i++)
                for (int64_t d = 0; d < D; d++) td_set(c, R_Q, (size_t)fa1_off(&geo, T_Q, b, h, i, d), qa[i * D + d]);
            for (int64_t j = 0; j < Sk; j++)
                for (int64_t d = 0; d < D; d++) {
                    td_set(c, R_K, (size_t)fa1_off(&geo, T_K, b, h, j, d), ka[j * D + d]);
                    td_set(c, R_V, (size_t)fa1_off(&geo, T_V, b, h, j, d), va[j * D + d]);
                }
        }
    free(qa);
    free(ka);
    free(va);
    if (mode == FA1_GEN_NAIVE) {
        /* the naive kernel's binary32 domain: shrink K (exactly, by halves) until every
         * row is inside; K -> 0 takes every score to 0, so this ends */
        for (int it = 0; it < 400; it++) {
            int ok = 1;
            for (int64_t b = 0; b < B && ok; b++)
                for (int64_t h = 0; h < H && ok; h++)
                    for (int64_t i = 0; i < Sq && ok; i++) ok = fa1_naive_row_ok(c, &geo, b, h, i);
            if (ok) break;
            for (int64_t b = 0; b < B; b++)
                for (int64_t h = 0; h < H; h++)
                    for (int64_t j = 0; j < Sk; j++)
                        for (int64_t d = 0; d < D; d++) {
                            size_t o = (size_t)fa1_off(&geo, T_K, b, h, j, d);
                            td_set(c, R_K, o, at_f32(td_get(c, R_K, o) * 0.5));
                        }
        }
    }
}

/* ---- checkers ---- */
static const char *fa1_check_geo(const td_case *c, const fa1_geo *g) {
    if (!at_is_pow2(g->M) || !at_is_pow2(g->Bd)) return "M, Bd are powers of two (tl.arange)";
    if (!g->naive) {
        if (!(g->Bk > 0) || !at_is_pow2(g->Bk)) return "hBk: 0 < Bk (a power of two: tl.arange)";
        if (g->Sk > g->Bk * g->nkv) return "hSkLe: S_k <= Bk * numKVBlocks";
    }
    if (!(g->Sk > 0)) return "hSk: 0 < S_k";
    if (g->D > g->Bd || g->D < 0) return "hDLe: D <= Bd";
    if (g->Sq < 0) return "S_q : Nat";
    if (g->Sk > FA1_MAX_S || g->Sq > FA1_MAX_S) return "S_q, S_k <= 64 (the sizes the generator draws)";
    if (g->H < 1 || g->B < 1) return "hPidB, hPidH: grid = (query blocks, H, B) with B, H >= 1";
    if (g->nqb * g->M < g->Sq) return "grid x covers S_q (cdiv(S_q, M) query blocks or more)";
    for (int t = 0; t < 4; t++)
        for (int a = 0; a < 4; a++)
            if (g->st[t][a] < 0) return "strides : Nat";
    if (!isfinite(g->scale) || at_f32(g->scale) != g->scale) return "scale is the kernel's binary32 value";
    /* TensorView.loaded: the views hold real values */
    for (int64_t b = 0; b < g->B; b++)
        for (int64_t h = 0; h < g->H; h++) {
            for (int64_t i = 0; i < g->Sq; i++)
                for (int64_t d = 0; d < g->D; d++) {
                    int64_t o = fa1_off(g, T_Q, b, h, i, d);
                    if ((size_t)o >= c->r[R_Q].len || !isfinite(td_get(c, R_Q, (size_t)o)))
                        return "Q's view holds a real value at every (b, h, i < S_q, d < D)";
                }
            for (int64_t j = 0; j < g->Sk; j++)
                for (int64_t d = 0; d < g->D; d++) {
                    int64_t ok = fa1_off(g, T_K, b, h, j, d), ov = fa1_off(g, T_V, b, h, j, d);
                    if ((size_t)ok >= c->r[R_K].len || !isfinite(td_get(c, R_K, (size_t)ok)) ||
                        (size_t)ov >= c->r[R_V].len || !isfinite(td_get(c, R_V, (size_t)ov)))
                        return "K's and V's views hold real values at every (b, h, j < S_k, d < D)";
                }
        }
    return NULL; /* the out lanes' range and injectivity: the harness checks the write set */
}

static const char *check_online(const td_case *c) {
    fa1_geo g;
    fa1_geo_get(c, 0, 0, 0, &g);
    return fa1_check_geo(c, &g);
}
static const char *check_online_causal(const td_case *c) {
    fa1_geo g;
    fa1_geo_get(c, 0, 0, 1, &g);
    return fa1_check_geo(c, &g);
}
static const char *check_naive_common(const td_case *c, int causal) {
    fa1_geo g;
    fa1_geo_get(c, 1, 1, causal, &g);
    const char *e = fa1_check_geo(c, &g);
    if (e) return e;
    for (int64_t b = 0; b < g.B; b++)
        for (int64_t h = 0; h < g.H; h++)
            for (int64_t i = 0; i < g.Sq; i++)
                if (!fa1_naive_row_ok(c, &g, b, h, i))
                    return "hnaive: every row's maximum score in [-80, 80] and sum_j exp(s_j) (1 + |V_j|) <= 2^126 "
                           "(the naive kernel's binary32 domain; naive_reference_overflow shows what lies beyond)";
    return NULL;
}
static const char *check_naive(const td_case *c) { return check_naive_common(c, 0); }
static const char *check_naive_causal(const td_case *c) { return check_naive_common(c, 1); }
static const char *check_overflow(const td_case *c) {
    fa1_geo g;
    fa1_geo_get(c, 0, 0, 0, &g);
    const char *e = fa1_check_geo(c, &g);
    if (e) return e;
    for (int64_t b = 0; b < g.B; b++)
        for (int64_t h = 0; h < g.H; h++)
            for (int64_t i = 0; i < g.Sq; i++)
                if (fa1_row_max(c, &g, b, h, i) > 88.73) return NULL;
    return "hover: some row's maximum score exceeds 88.73 (where binary32 exp(score) overflows)";
}

/* Offsets beyond 2^31 (gen_far.h): with B = 2 (grid axis 2) the batch axis, with one
 * batch the head axis (grid axis 1, H <= 3), of Q moves to a stride near 2^31 over a
 * sparse region (td_far_axis), then K's and V's, each at its own stride, where it fits
 * (not a K or V every batch or head shares, stride 0, nor heads inside the rows); Out
 * stays dense at its own strides.  The views' checks read only the cells they name. */
static void fa1_far(td_producer *p, td_case *c, int sqb) {
    int ax = c->grid[2] >= 2 ? 0 : 1;
    int64_t rows = ax ? c->grid[1] : c->grid[2];
    const int q = R_Q, sq = sqb + ax;
    if (!td_far_axis(p, c, 1, &q, &sq, rows)) return;
    for (int t = 1; t <= 2; t++) {
        const int r = R_Q + t, st = sqb + 4 * t + ax;
        td_far_axis(p, c, 1, &r, &st, rows);
    }
}
static void far_online(td_producer *p, td_case *c) { fa1_far(p, c, P_SQB); }
static void far_naive(td_producer *p, td_case *c) { fa1_far(p, c, PN_SQB); }

static void gen_online(td_producer *p, td_case *c) { fa1_gen(p, c, 0, 0, FA1_GEN_ONLINE); }
static void gen_online_causal(td_producer *p, td_case *c) { fa1_gen(p, c, 0, 1, FA1_GEN_ONLINE); }
static void gen_naive(td_producer *p, td_case *c) { fa1_gen(p, c, 1, 0, FA1_GEN_NAIVE); }
static void gen_naive_causal(td_producer *p, td_case *c) { fa1_gen(p, c, 1, 1, FA1_GEN_NAIVE); }
static void gen_overflow(td_producer *p, td_case *c) { fa1_gen(p, c, 0, 0, FA1_GEN_OVERFLOW); }

/* ---- write set: (pid0*M + row < S_q) and (col < D) ---- */
static void fa1_writes(const td_case *c, td_wset *ws, int naive_layout) {
    fa1_geo g;
    fa1_geo_get(c, naive_layout, 0, 0, &g);
    for (int64_t b = 0; b < g.B; b++)
        for (int64_t h = 0; h < g.H; h++)
            for (int64_t pid0 = 0; pid0 < g.nqb; pid0++)
                for (int64_t row = 0; row < g.M; row++) {
                    int64_t i = pid0 * g.M + row;
                    if (i >= g.Sq) break;
                    for (int64_t col = 0; col < g.D; col++) {
                        td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)fa1_off(&g, T_O, b, h, i, col),
                                      .pid = {(uint32_t)pid0, (uint32_t)h, (uint32_t)b}, .j = (uint64_t)(row * g.Bd + col),
                                      .idx = {b, h, i, col}};
                        td_wset_add(ws, &l);
                    }
                }
}
static void writes_online(const td_case *c, td_wset *ws) { fa1_writes(c, ws, 0); }
static void writes_naive(const td_case *c, td_wset *ws) { fa1_writes(c, ws, 1); }

#define FA1_CLASSES                                                                                             \
    (TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_OFFSET_2_31))
#define FA1_COMMON                                                                                              \
    .file = "seed_fa1", .family = "attention-seeds", .kind = "exact", .nregions = NR, .regions = regions,       \
    .sv = TD_SV_REAL

/* The intents (docs/intent.md): each theorem's value is torch.nn.functional.
 * scaled_dot_product_attention on its (b, h) slice, the causal theorems with is_causal
 * (key j <= query i); the scale is the theorem's own parameter, taken exactly. */
#define FA1_DEF                                                                                                 \
    "torch.nn.functional.scaled_dot_product_attention(Q, K, V, scale=scale) (PyTorch documentation: softmax(q "  \
    "k^T * scale + mask) v), exact (no intermediate rounding)"
#define FA1_DEF_CAUSAL                                                                                          \
    "torch.nn.functional.scaled_dot_product_attention(Q, K, V, is_causal=True, scale=scale) (PyTorch "           \
    "documentation: softmax(q k^T * scale + mask) v, mask keeping key j <= query i), exact (no intermediate "     \
    "rounding)"
#define FA1_OP "scaled dot-product attention softmax(Q K^T * scale) V of each (batch, head, query) row"
#define FA1_OP_CAUSAL "causal scaled dot-product attention softmax(Q K^T * scale + causal mask) V of each row"
static const td_intent i_online = {.operation = FA1_OP, .definition = FA1_DEF, TD_SPECS(fa1_online_intent)};
static const td_intent i_online_causal = {
    .operation = FA1_OP_CAUSAL, .definition = FA1_DEF_CAUSAL, TD_SPECS(fa1_online_causal_intent)};
static const td_intent i_naive = {.operation = FA1_OP, .definition = FA1_DEF, TD_SPECS(fa1_naive_intent)};
static const td_intent i_naive_causal = {
    .operation = FA1_OP_CAUSAL, .definition = FA1_DEF_CAUSAL, TD_SPECS(fa1_naive_causal_intent)};

const td_contract td_c_seed_fa1_boundaryD = {
    .id = "seed_fa1.fa1_boundaryD_refines_naive_reference_exec_views",
    .io_class = "Realizes_without_Rounding (FA1Views4D, boundary + head-dim tail masks)",
    .formula = "out[b,h,i,d] = sum_{j<S_k} exp(s_ij) V[b,h,j,d] / sum_{j<S_k} exp(s_ij), s_ij = scale * Q[b,h,i,:] . "
               "K[b,h,j,:] (online softmax over numKVBlocks blocks of Bk keys)",
    .nparams = NP,
    .params = params,
    .sv_note = "finite Q/K/V views, NaN/1e30 poison outside them; key 0 in every row, so l >= 1",
    .error_model = "the online recurrence as the kernel evaluates it: D-term dots, exp budgets, tl.sum trees, "
                   "alpha rescaling per block with a valid key, one division",
    .classes = FA1_CLASSES | TD_BC(TD_BC_FULLY_MASKED),
    .gen = gen_online,
    .far = far_online,
    .check = check_online,
    .writes = writes_online,
    FA1_COMMON,
    TD_SPECS(fa1_online),
    .intent = &i_online,
};

const td_contract td_c_seed_fa1_causal_boundaryD = {
    .id = "seed_fa1.fa1_causal_boundaryD_refines_naive_reference_exec_views",
    .io_class = "Realizes_without_Rounding (FA1Views4D, causal top-left, boundary + head-dim tail masks)",
    .formula = "out[b,h,i,d] = sum_{j<=min(i,S_k-1)} exp(s_ij) V[b,h,j,d] / sum_{j<=min(i,S_k-1)} exp(s_ij) (online "
               "softmax over all numKVBlocks blocks)",
    .nparams = NP,
    .params = params,
    .sv_note = "finite Q/K/V views, NaN/1e30 poison outside them; key 0 is in every row (top-left), so l >= 1",
    .error_model = "the online recurrence as the kernel evaluates it over the row's valid keys; blocks past the "
                   "diagonal are exact no-ops",
    .classes = FA1_CLASSES | TD_BC(TD_BC_FULLY_MASKED),
    .gen = gen_online_causal,
    .far = far_online,
    .check = check_online_causal,
    .writes = writes_online,
    FA1_COMMON,
    TD_SPECS(fa1_online_causal),
    .intent = &i_online_causal,
};

const td_contract td_c_seed_fa1_naive = {
    .id = "seed_fa1.naive_reference_correctness",
    .io_class = "Realizes_without_Rounding (fa1NaiveForwardKernelStridedBoundaryD, single KV tile)",
    .formula = "out[b,h,i,d] = dot(exp(s_i,:), V[:,d]) / sum_j exp(s_ij), no max subtraction (hnaive: scores in "
               "the binary32 domain of exp)",
    .nparams = NPN,
    .params = params_naive,
    .sv_note = "hnaive keeps exp(score) finite and the row sum normal; outside it see naive_reference_overflow",
    .error_model = "p = exp(s) charged relative to |s|'s error, sums in any order, one division",
    .classes = FA1_CLASSES,
    .gen = gen_naive,
    .far = far_naive,
    .check = check_naive,
    .writes = writes_naive,
    FA1_COMMON,
    TD_SPECS(fa1_naive),
    .intent = &i_naive,
};

const td_contract td_c_seed_fa1_naive_causal = {
    .id = "seed_fa1.naive_causal_reference_correctness",
    .io_class = "Realizes_without_Rounding (fa1NaiveForwardKernelStridedCausalBoundaryD, single KV tile)",
    .formula = "out[b,h,i,d] = dot(exp(s_i,:), V[:,d]) / sum_{j<=i} exp(s_ij), causal top-left, no max subtraction",
    .nparams = NPN,
    .params = params_naive,
    .sv_note = "hnaive keeps exp(score) finite and the row sum normal; masked keys exp(-inf) = 0",
    .error_model = "p = exp(s) charged relative to |s|'s error, sums in any order, one division",
    .classes = FA1_CLASSES,
    .gen = gen_naive_causal,
    .far = far_naive,
    .check = check_naive_causal,
    .writes = writes_naive,
    FA1_COMMON,
    TD_SPECS(fa1_naive_causal),
    .intent = &i_naive_causal,
};

const td_contract td_c_seed_fa1_naive_overflow = {
    .id = "seed_fa1.naive_reference_overflow",
    .io_class = "Realizes_without_Rounding (attentionReal4D) on scores in [100, 2000]",
    .formula = "out[b,h,i,d] = softmax(s_i,:) . V[:,d] with every score beyond 88.72: the online kernel passes, "
               "the naive kernel overflows (expected, documented)",
    .nparams = NP,
    .params = params,
    .sv_note = "REAL: the exact output is finite; a naive kernel's exp(s) = inf gives NaN, a nonfinite finding",
    .error_model = "the online recurrence (as fa1_boundaryD_refines_naive_reference_exec_views); large scores "
                   "carry |s|-proportional errors into p",
    .classes = FA1_CLASSES | TD_BC(TD_BC_FULLY_MASKED),
    .gen = gen_overflow,
    .far = far_online,
    .check = check_overflow,
    .writes = writes_online,
    FA1_COMMON,
    TD_SPECS(fa1_online),
    .intent = &i_online,
};
