/* attention_fwd_triton1: attention_fwd_kernel, chunked linear attention with a matrix carry
 * (catalogue part 1, src lines 215-277).
 *
 *   attention_fwd_triton1_output_summary_general  lowering of the 4 STORE/IFCOND surfaces, termination,
 *                                                 Realizes_without_Rounding of the default branch
 *   attention_fwd_triton1_io_correctness          attentionFwdTriton1KernelIO (StreamEmitMasked2DKernelIO_3) |=[R]
 *   launch: s_qt = BD, s_qd = 1 (Q, K, V, O contiguous [T, BD] per head), T = NT*BT, STORE = IFCOND = false,
 *   hBT: 0 < BT, O distinct from Q, K, V, H;
 *   O[p0*s_qh + (c*BT + t)*BD + d] (chunk c < NT, row t < BT, lane d < BD)
 *     = sum_{tk<BT} (sum_{e<BD} (Q[c,t,e]*scale) K[c,tk,e]) V[c,tk,d]          (localTerm)
 *     + sum_{d'<BD} (Q[c,t,d']*scale) sum_{u<c} sum_{tk<BT} K[u,tk,d'] V[u,tk,d]   (recurrentTerm, pre-update carry)
 *   X[u,t,e] = X[p0*s_qh + (u*BT + t)*BD + e] for X in Q, K, V; every load and store unmasked.
 *
 * Checked against bench/tritonbench_g/attention_fwd_triton1/attention_fwd_triton1.py and
 * AttentionFwdTriton1.lean (outputClosedForm, aft1StreamSpec): program i_bh walks the chunks;
 * b_q = (q * scale).to(q.dtype), b_s = dot(b_q, b_k) (no mask inside the chunk: this is linear
 * attention, not causal softmax), b_o = dot(b_s, b_v) + dot(b_q, b_h) with b_h the carry
 * before b_h += dot(b_k, b_v), stored at p_o.  K's block pointer (shape (BD, T), strides
 * (s_qd, s_qt) = (1, BD)) reads the same row-major [T, BD] layout as Q.  The reading matches
 * the kernel.  With STORE = false nothing reads or writes H: it is an output region with an
 * empty write set (a kernel that stores the carry is flagged by its sentinels).
 *
 * Rounding.  Both theorems are over the reals (outDType .real; the .to(dtype) casts erased);
 * the launcher's tensors are binary32 (the test's torch.float), so every cast of the kernel is
 * the identity except the binary32 arithmetic itself.  Error model, per output, any
 * admissible implementation (shadow, oracle/shadow.h):
 *   q'      = RN(q * scale)                               u|q'| per lane (the kernel's own rounding; an
 *                                                          implementation scaling later is within it)
 *   s_tk    = q' . k_tk in any order                      gamma_{BD-1} sum |q' k|
 *   h[d',d] = sum over the earlier chunks' keys, any order  gamma_{cBT-1} sum |k v|
 *   O       = the BT local terms s_tk v_tk and the BD recurrent terms q'_d' h[d',d] in one sum in any
 *             order (tl.dot accumulating into b_o, or two dots and an add)   gamma sum |terms|, plus u
 *             per product.
 * An implementation may instead form every key's score q' . k_j and sum s_j v_j over all the
 * keys up to the end of the chunk (the quadratic, parallel form of linear attention, no carry):
 * the recurrent products associate the other way, (q' . k_j) v_j for q' . (sum_j k_j v_j), and
 * their roundings fall elsewhere -- with the menu's tiny values a product underflows in one
 * association and not in the other (seen: a subnormal output 1.1 bounds off under the carried
 * form alone).  Both forms are the contract's value in exact arithmetic, so the spec gives both
 * to N(either) (kernels/alternatives/attention_fwd_triton1.c runs the quadratic form).  No
 * other tolerance.
 *
 * Special values (TD_SV_REAL): finite inputs with |x| <= 16 (and the menu's special finite
 * values), so every output is finite (|O| <= T*BD*16^3*|scale|, far inside binary32).
 *
 * Generator: BD in 1..16, BT in 1..32 (powers of two), 1..4 chunks (a single chunk: no carry),
 * 1..3 heads with a head stride at or above T*BD, the scale d_head^-0.5 and others, and the
 * value menu (including large, integer and special values).
 */
#include <math.h>

#include "gen.h"
#include "gen_far.h"

enum { P_SQH, P_SHH, P_SHT, P_SCALE, P_BT, P_BD, P_NT, NP };
enum { R_Q, R_K, R_V, R_H, R_O, NR };

#define A1_P(c, k) ((c)->p[(k)].i)
#define A1_BOUND 16.0
/* X[u, t, e] of head p0 (every tensor row-major [T, BD]) */
static inline size_t a1_off(const td_case *c, int64_t p0, int64_t u, int64_t t, int64_t e) {
    return (size_t)(p0 * A1_P(c, P_SQH) + (u * A1_P(c, P_BT) + t) * A1_P(c, P_BD) + e);
}
/* memo key of the carry h[c][d'][d] of head p0 (tag 1; fields disjoint: p0 < 2^10, c < 2^10, lane < 2^20) */
static inline uint64_t a1_key(int64_t p0, int64_t c, int64_t dd, int64_t d, int64_t bd) {
    return ((uint64_t)1 << 58) | ((uint64_t)p0 << 40) | ((uint64_t)c << 30) | (uint64_t)(dd * bd + d);
}

#define TD_SPEC_FILE "attention_fwd_triton1.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"s_qh", TD_P_INT}, {"s_hh", TD_P_INT}, {"s_ht", TD_P_INT},
                                         {"scale", TD_P_REAL}, {"BT", TD_P_INT},  {"BD", TD_P_INT},
                                         {"NT", TD_P_INT}};
static const td_region_decl regions[NR] = {{"Q", TD_F32, TD_R_IN},
                                           {"K", TD_F32, TD_R_IN},
                                           {"V", TD_F32, TD_R_IN},
                                           {"H", TD_F32, TD_R_OUT},
                                           {"O", TD_F32, TD_R_OUT}};

static double a1_scale(td_producer *p, int64_t bd) {
    static const unsigned w[] = {6, 2, 4, 1};
    switch (td_prod_pick(p, w, 4)) {
    case 0: return (double)(float)(1.0 / sqrt((double)bd));
    case 1: return 1.0;
    case 2: return (double)(float)td_gen_real(p, -2, 2);
    default: return 0.0;
    }
}

static void gen(td_producer *p, td_case *c) {
    int64_t bd = (int64_t)td_gen_pow2(p, 0, 4), bt = (int64_t)td_gen_pow2(p, 0, 5);
    int64_t nt = td_prod_u32(p, 1, (uint32_t)(64 / bt < 4 ? 64 / bt : 4)), T = nt * bt;
    int64_t G = td_prod_u32(p, 0, 2) == 0 ? 1 : td_prod_u32(p, 2, 3);
    while (G * T * bd * T * bd > (1 << 18) && bd > 1) bd /= 2;
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 7) : 0;
    int64_t s_qh = T * bd + pad, s_ht = bd + (td_prod_bool(p) ? td_prod_u32(p, 1, 3) : 0);
    int64_t s_hh = nt * bd * s_ht + (td_prod_bool(p) ? td_prod_u32(p, 1, 5) : 0);
    A1_P(c, P_SQH) = s_qh, A1_P(c, P_SHH) = s_hh, A1_P(c, P_SHT) = s_ht;
    A1_P(c, P_BT) = bt, A1_P(c, P_BD) = bd, A1_P(c, P_NT) = nt;
    c->p[P_SCALE].r = a1_scale(p, bd);
    c->grid[0] = (uint32_t)G;
    td_gen_mark_shape((uint64_t)(T * bd), (uint64_t)(bt * bd), (uint64_t)nt, &c->classes);
    if (G > 1) c->classes &= ~TD_BC(TD_BC_ONE_PROGRAM);
    if (bt * bd == 1 && nt == 1 && G == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    if (pad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    size_t len = (size_t)((G - 1) * s_qh + T * bd);
    for (int r = R_Q; r <= R_V; r++) td_case_alloc(c, r, len);
    td_case_alloc(c, R_O, len + td_prod_u32(p, 0, 3));
    td_case_alloc(c, R_H, (size_t)((G - 1) * s_hh + (nt * bd - 1) * s_ht + bd));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, A1_BOUND);
    for (int r = R_Q; r <= R_V; r++) td_vgen_fill(&g, c, r);
}

static const char *check(const td_case *c) {
    int64_t bt = A1_P(c, P_BT), bd = A1_P(c, P_BD), nt = A1_P(c, P_NT), G = (int64_t)c->grid[0];
    for (int k = 0; k < NP; k++)
        if (k != P_SCALE && A1_P(c, k) < 0) return "parameters are naturals";
    if (bt <= 0) return "hBT: 0 < BT";
    if (bd <= 0 || nt <= 0 || G <= 0) return "a launch: BD, NT and the grid positive";
    if (bd > 16) return "domain: BD <= 16 (the generator's head widths; the spec keeps a row of q)";
    if ((double)(float)c->p[P_SCALE].r != c->p[P_SCALE].r) return "scale is a binary32 value";
    int64_t T = nt * bt, len = (G - 1) * A1_P(c, P_SQH) + T * bd;
    if (G > 1 && A1_P(c, P_SQH) < T * bd) return "O writes injective: s_qh >= T*BD (heads do not overlap)";
    for (int r = R_Q; r <= R_V; r++)
        if ((int64_t)c->r[r].len < len) return "Q, K, V hold every chunk of every head (reads unmasked)";
    if ((int64_t)c->r[R_O].len < len) return "O holds every chunk of every head (stores unmasked)";
    for (int r = R_Q; r <= R_V; r++) /* of a far case's sparse region, its written pages */
        if (!td_region_abs_le(c, r, A1_BOUND)) return "domain: |Q|, |K|, |V| <= 16 (finite outputs)";
    return NULL;
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS heads i_bh at a head stride s_qh
 * near 2^31, as a kernel forming i_bh * s_qh in int32 (the original's int32 program id
 * times an int32 stride) gets wrong.  Q, K, V and O share s_qh, so all four move: Q, K, V
 * as sparse read-only regions, O as a sparse output (engine/harness.c judges it over its
 * write pages).  H (STORE = false: nothing written) keeps its own s_hh and stays dense. */
static void far(td_producer *p, td_case *c) {
    static const int regs[] = {R_Q, R_K, R_V, R_O};
    td_far_rows(p, c, regs, 4, P_SQH, A1_P(c, P_NT) * A1_P(c, P_BT) * A1_P(c, P_BD));
}

/* every (chunk, row, lane) of every program: O at p0*s_qh + (c*BT + t)*BD + d */
static void writes(const td_case *c, td_wset *ws) {
    int64_t bt = A1_P(c, P_BT), bd = A1_P(c, P_BD), nt = A1_P(c, P_NT);
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (int64_t u = 0; u < nt; u++)
            for (int64_t t = 0; t < bt; t++)
                for (int64_t d = 0; d < bd; d++) {
                    td_olane l = {.o = 0, .region = R_O, .off = a1_off(c, p0, u, t, d), .pid = {p0, 0, 0},
                                  .t = (uint32_t)u, .j = (uint64_t)(t * bd + d), .idx = {p0, u, t, d}};
                    td_wset_add(ws, &l);
                }
}

#define A1_COMMON                                                                                                  \
    .file = "attention_fwd_triton1", .family = "attention", .nparams = NP, .params = params, .nregions = NR,      \
    .regions = regions, .sv = TD_SV_REAL, .gen = gen, .far = far, .check = check, .writes = writes,               \
    TD_SPECS(a1_out),                                                                                              \
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) |                \
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_LARGE) |                 \
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31),                                             \
    .sv_note = "finite inputs with |x| <= 16: every output finite; no division, no exp",                          \
    .error_model = "q*scale rounded (u); dots and the carry in any order (gamma over their leaves); local and "     \
                   "recurrent terms in one any-order sum, or the quadratic form (N(either)); binary32 outputs"

const td_contract td_c_attention_fwd_triton1_os = {
    .id = "attention_fwd_triton1.attention_fwd_triton1_output_summary_general",
    .io_class = "Realizes_without_Rounding (4 surfaces lower; the default branch terminates)",
    .kind = "exact",
    .formula = "O[c,t,d] = sum_tk ((scale Q[c,t]) . K[c,tk]) V[c,tk,d] + sum_d' scale Q[c,t,d'] sum_{u<c,tk} K[u,tk,d'] V[u,tk,d]",
    A1_COMMON,
};

const td_contract td_c_attention_fwd_triton1_io = {
    .id = "attention_fwd_triton1.attention_fwd_triton1_io_correctness",
    .io_class = "StreamEmitMasked2DKernelIO_3 (attentionFwdTriton1KernelIO), outDType .real",
    .kind = "rounding",
    .formula = "out(t)[j] = aft1StreamSpec(scale, NT, BT, BD, qs, ks, vs, t, j)",
    A1_COMMON,
};
