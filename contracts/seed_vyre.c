/* seed_vyre.flash_attention_2_matches_reference: vyre-libs 0.7.2's FlashAttention-2
 * (seed 002, vyre-libs::nn::flash_attention_2) and its scalar parity oracle
 * (flash_attention_2_reference) as two implementations of one contract.
 *
 *   q, k, v, out: [seq_len, head_dim] binary32, row-major, one head, non-causal,
 *   S_q = S_k = seq_len; out[i, d] = sum_j w_ij v[j, d] with w the softmax of
 *   s_ij = scale * q[i,:] . k[j,:], scale = 1.0f32 / (head_dim as f32).sqrt() (an f32
 *   square root and an f32 division: the kernels' binary32 constant), computed through
 *   vyre's stability primitives (vyre-primitives nn/attention_stability.rs and
 *   f32_stability.rs, read at santhreal/vyre; they match the seed's calls):
 *     bounded_score(x)        NaN stays; +-inf -> -80; finite unchanged
 *     bounded_exp_arg(x)      NaN stays; +-inf -> -80; else clamp to [-80, 0]
 *     positive_denominator(x) NaN stays; finite x > 2^-126 unchanged; else 2^-126
 *     flush_tiny(x)           |x| <= 2^-126 -> +0.0 (the sign is lost), else x
 *   Kernel "tiled" (flash_attention_2 on tiled_online_softmax_body): one query row per
 *   invocation, workgroups of 64 lanes (grid = cdiv(seq_len, 64)); m = f32::MIN (a
 *   finite start), l = 0, o = 0; per tile of tile_len = min(tile_size, seq_len - start)
 *   keys: dot from 0.0 sequentially over d, score = bounded_score(dot * scale);
 *   tile_max = fold of select(s > tm, s, tm) from f32::MIN; m_new = select(tile_max > m,
 *   tile_max, m); rescale = exp(bounded_exp_arg(m - m_new)); tile_sum = sum from 0.0 of
 *   exp(bounded_exp_arg(s_j - m_new)); l = rescale*l + tile_sum; per d, weighted = sum
 *   from 0.0 of exp(bounded_exp_arg(s_j - m_new)) * v[j, d] (the exp recomputed),
 *   o[d] = rescale*o[d] + weighted; m = m_new; out = flush_tiny(o / positive_denominator(l)).
 *   Kernel "scalar_reference": the same recurrence one key at a time (m_new =
 *   select(score > m, score, m), l = rescale*l + prob, o = rescale*o + prob*v).
 *
 * One spec for both.  The reference is the tiled recurrence at tile_size = 1 value for
 * value (tile_max = select(s > f32::MIN, s, f32::MIN) = s, 0 + prob = prob, 0 + prob*v =
 * prob*v up to the sign of a zero).  But with the clamps the recurrence's exact value
 * depends on the tiling: bounded_exp_arg floors every exponent at -80 relative to the
 * running maximum of the key's own tile, so a key far below the row maximum weighs
 * e^-80 against its tile's maximum, not against the row's.  The spec therefore
 * evaluates the recurrence at the contract's tile_size (its exact value is the MPFR
 * reference) and at tile_size = 1, and bounds a kernel's value by the larger of the
 * tiled bound and (distance between the two evaluations + the T = 1 bound): whichever
 * recurrence a kernel runs, its value is within the bound of the reference.  That
 * distance is 0 where no exponent reaches the floor, and shows only with |v| >~ 1e30 on
 * keys far below the maximum (the research notes' "floor" case, which the generator
 * draws).
 *
 * Overflowing dot products.  bounded_score maps a non-finite dot to -80, a property of
 * the binary32 evaluation, not of the reals.  The contract decides it from the inputs:
 * a dot whose products sum in magnitude to at most 2^126 is finite in binary32 (so is
 * dot * scale, scale <= 1); a dot with one product of magnitude >= 2^128 (it rounds to
 * inf) and opposite-sign products summing to less than 2^126 is certainly +-inf, so its
 * score is exactly -80; hdot, a checked hypothesis, excludes everything in between.
 *
 * Error model (the tiled recurrence as the kernel evaluates it): dots sequential over d
 * (gamma_{d-1} over rounded products), one rounding for * scale; tile_max and m_new
 * exact; rescale and p = exp(clamp(x)) with the lower clamp a comparison whose outcome
 * the shadow widens where it cannot decide it (the upper clamp never acts: RN(a - b) <= 0
 * for a <= b); the first tile's rescale = e^-80 multiplies l = o = 0, so its l and o are
 * its own sums exactly; tile_sum and weighted sequential from 0.0; l and o one product
 * and one sum per tile; positive_denominator a comparison (l >= 1: the tile that raises
 * the maximum holds p = e^0 = 1); the division, then flush_tiny as a comparison.
 * The run summary's "worst err/tol 1" (0.99999 on the lane behind it) is flush_tiny's
 * comparison: where o / l lies within its error bound of 2^-126 the shadow cannot tell
 * which side the kernel lands on, so the tolerance covers both branches (+0 and a value
 * near 2^-126); the exact value flushed to +0 and the kernel's did not (2^-126 (1 +
 * 2^-23)), an error of that one branch's width.  Without such a lane (200 cases) the
 * worst is 0.066.
 *
 * Invalid sizes trap: seq_len, head_dim or tile_size 0, and the planner's u32 overflows
 * (seq_len*head_dim, 64*head_dim, 64*tile_size, the split span, the shared scratch);
 * the reference traps on zero sizes and seq_len*head_dim overflow.  The ports return
 * the trap as a launch error (tests/test_seed_vyre.c); the generator draws valid sizes.
 *
 * Special values: REAL (finite inputs; the clamps keep every intermediate finite).
 */
#include "attn_common.h"

enum { P_SEQ, P_HD, P_TILE, NP };
enum { R_Q, R_K, R_V, R_OUT, NR };

#define VY_MAX_S 64
#define VY_LANES 64 /* COOPERATIVE_TILED_WORKGROUP_LANES */
#define VY_MINPOS 0x1p-126
#define VY_TAG_P 1
#define VY_TAG_R 2
#define VY_TAG_L 3

typedef struct vy_geo {
    int64_t S, D, T;
    double scale;
} vy_geo;

/* the kernels' scale: 1.0f32 / (head_dim as f32).sqrt() */
static inline double vy_scale(int64_t D) { return (double)(1.0f / sqrtf((float)D)); }

static void vy_geo_get(const td_case *c, vy_geo *g) {
    g->S = c->p[P_SEQ].i, g->D = c->p[P_HD].i, g->T = c->p[P_TILE].i;
    g->scale = g->D > 0 ? vy_scale(g->D) : 0;
}

enum { VY_DOT_FINITE, VY_DOT_INF, VY_DOT_UNDECIDED };
/* Is q_i . k_j finite in binary32, certainly +-inf, or neither? (exact from the inputs) */
static int vy_dot_class(const td_case *c, const vy_geo *g, int64_t i, int64_t j) {
    double P = 0, N = 0, Pmax = 0, Nmax = 0;
    for (int64_t d = 0; d < g->D; d++) {
        double t = td_get(c, R_Q, (size_t)(i * g->D + d)) * td_get(c, R_K, (size_t)(j * g->D + d)); /* exact */
        if (t > 0) P += t, Pmax = t > Pmax ? t : Pmax;
        else N -= t, Nmax = -t > Nmax ? -t : Nmax;
    }
    if (P + N <= 0x1p126) return VY_DOT_FINITE;
    if ((Pmax >= 0x1p128 && N < 0x1p126) || (Nmax >= 0x1p128 && P < 0x1p126)) return VY_DOT_INF;
    return VY_DOT_UNDECIDED;
}

#define TD_SPEC_FILE "seed_vyre.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"seq_len", TD_P_INT}, {"head_dim", TD_P_INT}, {"tile_size", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"q", TD_F32, TD_R_IN}, {"k", TD_F32, TD_R_IN}, {"v", TD_F32, TD_R_IN}, {"out", TD_F32, TD_R_OUT}};

static void gen(td_producer *p, td_case *c) {
    static const int64_t tiles[] = {1, 2, 3, 4, 5, 7, 8, 16, 32, 64, 100};
    int64_t T = tiles[td_prod_u32(p, 0, 10)];
    int64_t S = (int64_t)td_gen_count(p, (uint64_t)T, VY_MAX_S, &c->classes);
    if (at_cdiv(S, T) > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    int64_t D;
    switch (td_prod_u32(p, 0, 4)) {
    case 0: D = 1; break;
    case 1: D = 7; break;
    default: D = td_prod_u32(p, 1, 32); break;
    }
    c->p[P_SEQ].i = S, c->p[P_HD].i = D, c->p[P_TILE].i = T;
    c->grid[0] = (uint32_t)at_cdiv(S, VY_LANES), c->grid[1] = c->grid[2] = 1;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 4);
    td_rng *r = &g.rng;
    size_t slack = td_rng_below(r, 2) ? 5 : 0;
    for (int t = R_Q; t <= R_OUT; t++) td_case_alloc(c, t, (size_t)(S * D) + slack);
    double scale = vy_scale(D);
    at_land_opts lo = {AT_LM_ALL, -100, 400, 4, TD_F32};
    double *qa = at_calloc((size_t)(S * D), sizeof *qa), *ka = at_calloc((size_t)(S * D), sizeof *ka);
    double *va = at_calloc((size_t)(S * D), sizeof *va);
    at_fill_qk(&g, qa, S, ka, S, D, scale, &lo, &c->classes);
    unsigned vk = (1u << AT_V_MENU) | (1u << AT_V_DISTINCT) | (1u << AT_V_CONST) | (1u << AT_V_TINY);
    if (at_fill_v(&g, va, S, D, TD_F32, 0x1p20, vk) == AT_V_TINY) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
    switch (td_rng_below(r, 8)) {
    case 0: { /* dot products that overflow binary32: channel d0 of every q row holds +-[2, 4), one or two
               * keys hold +-2^127 there, so their products are >= 2^128 (inf) */
        int64_t d0 = (int64_t)td_rng_below(r, (uint64_t)D);
        for (int64_t i = 0; i < S; i++) { /* sign, then magnitude: sequenced */
            double sgn = td_rng_below(r, 2) ? 1 : -1;
            qa[i * D + d0] = sgn * at_f32(at_unif(r, 2, 4));
        }
        for (int64_t n = 0; n < 2; n++) {
            int64_t j = (int64_t)td_rng_below(r, (uint64_t)S);
            for (int64_t d = 0; d < D; d++) ka[j * D + d] = d == d0 ? 0.0 : at_f32(at_unif(r, -1, 1));
            double sgn = td_rng_below(r, 2) ? 1 : -1; /* sign, then magnitude: sequenced */
            ka[j * D + d0] = sgn * ldexp(at_f32(at_unif(r, 1, 1.9)), 127);
        }
        c->classes |= TD_BC(TD_BC_VALUES_LARGE);
        break;
    }
    case 1: /* a few keys' values near 1e30: the e^-80 floor of keys far below the maximum shows */
        for (int64_t n = 0; n < 2; n++) {
            int64_t j = (int64_t)td_rng_below(r, (uint64_t)S);
            for (int64_t d = 0; d < D; d++) va[j * D + d] = at_f32(at_unif(r, -1, 1) * 1e30);
        }
        c->classes |= TD_BC(TD_BC_VALUES_LARGE);
        break;
    default: break;
    }
    for (int64_t e = 0; e < S * D; e++) {
        td_set(c, R_Q, (size_t)e, qa[e]);
        td_set(c, R_K, (size_t)e, ka[e]);
        td_set(c, R_V, (size_t)e, va[e]);
    }
    free(qa);
    free(ka);
    free(va);
}

/* The planner's and the reference's validity conditions (the kernels trap otherwise). */
static const char *check(const td_case *c) {
    vy_geo g;
    vy_geo_get(c, &g);
    if (g.S < 1 || g.D < 1 || g.T < 1) return "seq_len, head_dim, tile_size > 0 (a trap program otherwise)";
    if (g.S * g.D > 0xffffffffLL || VY_LANES * g.D > 0xffffffffLL || VY_LANES * g.T > 0xffffffffLL)
        return "the planner's u32 products (seq_len*head_dim, 64*head_dim, 64*tile_size) do not overflow";
    if (g.S > VY_MAX_S) return "seq_len <= 64 (the sizes the generator draws)";
    if (c->grid[0] != (uint64_t)at_cdiv(g.S, VY_LANES) || c->grid[1] != 1 || c->grid[2] != 1)
        return "grid = cdiv(seq_len, 64) workgroups of 64 lanes";
    for (int t = R_Q; t <= R_V; t++) {
        if (c->r[t].len < (size_t)(g.S * g.D)) return "q, k, v hold seq_len * head_dim elements";
        for (size_t e = 0; e < (size_t)(g.S * g.D); e++)
            if (!isfinite(td_get(c, t, e))) return "q, k, v hold real values";
    }
    if (c->r[R_OUT].len < (size_t)(g.S * g.D)) return "out holds seq_len * head_dim elements";
    for (int64_t i = 0; i < g.S; i++)
        for (int64_t j = 0; j < g.S; j++)
            if (vy_dot_class(c, &g, i, j) == VY_DOT_UNDECIDED)
                return "hdot: every q_i . k_j is finite in binary32 (sum |q k| <= 2^126) or certainly +-inf (one "
                       "product >= 2^128, the opposite sign summing < 2^126)";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    vy_geo g;
    vy_geo_get(c, &g);
    for (int64_t i = 0; i < g.S; i++)
        for (int64_t d = 0; d < g.D; d++) {
            td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)(i * g.D + d),
                          .pid = {(uint32_t)(i / VY_LANES), 0, 0}, .j = (uint64_t)((i % VY_LANES) * g.D + d),
                          .idx = {i, d}};
            td_wset_add(ws, &l);
        }
}

/* The intent: the operation both kernels are read as, torch.nn.functional.
 * scaled_dot_product_attention(q, k, v) (non-causal, default scale 1/sqrt(head_dim),
 * taken exactly as in seed_sdpa: the kernels' 1.0f / sqrtf is a binary32 rounding of
 * it).  The stability primitives (bounded_score's -80 for an overflowing dot, the -80
 * floor of bounded_exp_arg, flush_tiny) are the kernel's, not the operation's. */
static const td_intent intent = {
    .operation = "scaled dot-product attention softmax(q k^T / sqrt(head_dim)) v of each query row",
    .definition = "torch.nn.functional.scaled_dot_product_attention(q, k, v) (PyTorch documentation: softmax(q k^T "
                  "* scale + mask) v, default scale 1/sqrt(E), no mask), exact (scale unrounded, no intermediate "
                  "rounding, no clamps)",
    TD_SPECS(vyre_intent),
};

const td_contract td_c_seed_vyre = {
    .id = "seed_vyre.flash_attention_2_matches_reference",
    .file = "seed_vyre",
    .family = "attention-seeds",
    .io_class = "one query row per invocation (64-lane workgroups); tiled and scalar online softmax",
    .kind = "exact",
    .formula = "out[i,d] = flush_tiny(o_i[d] / positive_denominator(l_i)), (m, l, o) the online-softmax recurrence "
               "over tiles of tile_size keys with scores bounded_score(scale q_i.k_j) and weights "
               "exp(bounded_exp_arg(s - m_new))",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs; overflowing dots score -80 (hdot decides them from the inputs); the clamps keep the "
               "recurrence finite; |out| <= 2^-126 is stored as +0",
    .error_model = "the tiled recurrence as the kernel evaluates it (sequential dots and sums, exp budgets, the "
                   "clamps as comparisons), merged with its tile_size = 1 evaluation for the scalar reference",
    .classes = TD_BCLASSES_TILED,
    /* no far hook: no strides; one dense [seq_len, head_dim] head (the seed: row * head_dim + d in u32,
     * seq_len * head_dim checked to fit u32), so an offset past 2^31 means seq_len * head_dim > 2^31
     * elements, never a sparse stride.  No large hook either, for its cost: every query reads every key of
     * the one head (no batch or head axis to repeat), so the kernel's work is seq_len^2 * head_dim
     * multiply-adds for the dots and as many for the weighted values = seq_len * 2^31 and more; the tiled
     * kernel's u32 scratch (2*64*head_dim + 64*tile_size, hence the precondition's 64*head_dim) keeps
     * head_dim < 2^25, so seq_len >= 65 and a case costs >= 65 x 2^31 x 2 ~ 2.8e11 multiply-adds (plus
     * seq_len^2 exps), and check's hdot decision as many again: minutes to hours on the host, not the
     * tier's seconds.  (The scalar reference alone would allow seq_len = 1, head_dim = 2^31, but both
     * kernels share the contract.) */
    .gen = gen,
    .check = check,
    .writes = writes,
    TD_SPECS(vyre),
    .intent = &intent,
};
