/* parallel_attention: the chunk-parallel rebased attention (squared-dot feature map),
 * forward o/z and the backward dk/dv helper (catalogue part C, src lines 7983-8024).
 *
 *   pa_fwd_o_exec_genuine (hOZ: o != z; hSd: s_vo_d = 1; hsigma: BV <= s_vo_t; hBTS:
 *     BTL % BTS = 0; 0 < BTS): o[paOOffset] = paOOut(a, p) on paOActive lanes, z[paZOffset]
 *     = paZOut(a) for rows i_c BTL + a < T: o = sum_{t <= i} score(i, t)^2 v[t, p], z =
 *     sum_{t <= i} score(i, t)^2, score = sum_{x in the K window} (q[i, x] scale) k[t, x],
 *     i = i_c BTL + a; o at (i_bh + B H i_k) s_vo_h + row s_vo_t + column, z at
 *     (i_bh + B H i_k) T + row.
 *   pa_bwd_dkv_exec_genuine (hDkDv; hSkd: s_k_d = 1; hSvd: s_v_d = 1; hsigmak, hsigmav;
 *     hBTS; 0 < BTS; hundef: clean inputs): for the given scalars i_bh i_c i_k i_v i_h,
 *     dv[i, p] = sum_{t >= i} s(i, t)^2 do[t, p], dk[i, e] = sum_{t >= i} 2 ds(i, t) s(i, t)
 *     q[t, e], s = (sum_x k[i, x] q[t, x]) scale over the K window, ds = (sum_x v[i, x]
 *     do[t, x] + [i_v = 0] dz[i_bh T + t]) scale over the V window.
 *
 * Checked against bench/tritonbench_g/parallel_attention/ (parallel_attention.py, the
 * fla parallel_REBASED kernels, and ParallelAttention.lean): the forward squares the
 * score tile (b_s * b_s) before tl.sum for z and tl.dot with v, the diagonal blocks mask
 * the squared score where o_q >= o_k; no normalisation o / z in the kernel (the host
 * does it).  z is stored by every i_v program of a K block with the same values (a
 * benign duplicate store the write set claims once, from i_v = 0).  The backward helper
 * reads the five program scalars as parameters (one invocation per case, grid 1x1x1);
 * i_h is unused (the shell passes i_bh % H).  Its descending loop forms ds as dot(v, do)
 * scale + dz scale, the diagonal loop as (dot(v, do) + dz) scale: both forms are given to
 * N(either).  o, z, dk, dv are per-block partials (the host sums over NK / NV).  Inputs
 * binary32 (the .to casts identities), stores exact.
 *
 * Error model (parallel_attention.spec.h): each score a dot product in any order
 * (gamma_{n-1}), q scale one rounding; the square and each later product one rounding,
 * charged again as 2u |term| for another association (the spec's may be exact where a
 * kernel's is not) with the underflow of an intermediate (2 eta prod max(1, |f|)); the
 * sums over keys in any order (gamma_{N-1}).  No atol/rtol anywhere.
 * Special values: finite inputs |x| <= 8, T <= 65: |o| <= 65 (8 * 8 * 2 * 6)^2 * 8 stays finite.
 */
#include "gen.h"
#include "gen_far.h"
#include "parallel_common.h"

enum { PF_SQK_H, PF_SQK_T, PF_SQK_D, PF_SVO_H, PF_SVO_T, PF_SVO_D, PF_SCALE, PF_B, PF_H, PF_T, PF_K, PF_V, PF_BTL,
       PF_BTS, PF_BK, PF_BV, NPF };
enum { RF_Q, RF_K, RF_V, RF_O, RF_Z, NRF };
enum { PB_IBH, PB_IC, PB_IK, PB_IV, PB_IH, PB_SQK_H, PB_SQK_T, PB_SQK_D, PB_SVO_H, PB_SVO_T, PB_SVO_D, PB_SCALE, PB_B,
       PB_H, PB_T, PB_K, PB_V, PB_BTL, PB_BTS, PB_BK, PB_BV, NPB };
enum { RB_Q, RB_K, RB_V, RB_DO, RB_DZ, RB_DK, RB_DV, NRB };

#define TD_SPEC_FILE "parallel_attention.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_f[NPF] = {
    {"s_qk_h", TD_P_INT}, {"s_qk_t", TD_P_INT}, {"s_qk_d", TD_P_INT}, {"s_vo_h", TD_P_INT},
    {"s_vo_t", TD_P_INT}, {"s_vo_d", TD_P_INT}, {"scale", TD_P_REAL}, {"B", TD_P_INT},
    {"H", TD_P_INT},      {"T", TD_P_INT},      {"K", TD_P_INT},      {"V", TD_P_INT},
    {"BTL", TD_P_INT},    {"BTS", TD_P_INT},    {"BK", TD_P_INT},     {"BV", TD_P_INT}};
static const td_region_decl regions_f[NRF] = {
    {"q", TD_F32, TD_R_IN}, {"k", TD_F32, TD_R_IN}, {"v", TD_F32, TD_R_IN}, {"o", TD_F32, TD_R_OUT}, {"z", TD_F32, TD_R_OUT}};
static const td_param_decl params_b[NPB] = {
    {"i_bh", TD_P_INT},   {"i_c", TD_P_INT},    {"i_k", TD_P_INT},    {"i_v", TD_P_INT},    {"i_h", TD_P_INT},
    {"s_qk_h", TD_P_INT}, {"s_qk_t", TD_P_INT}, {"s_qk_d", TD_P_INT}, {"s_vo_h", TD_P_INT}, {"s_vo_t", TD_P_INT},
    {"s_vo_d", TD_P_INT}, {"scale", TD_P_REAL}, {"B", TD_P_INT},      {"H", TD_P_INT},      {"T", TD_P_INT},
    {"K", TD_P_INT},      {"V", TD_P_INT},      {"BTL", TD_P_INT},    {"BTS", TD_P_INT},    {"BK", TD_P_INT},
    {"BV", TD_P_INT}};
static const td_region_decl regions_b[NRB] = {{"q", TD_F32, TD_R_IN},   {"k", TD_F32, TD_R_IN},
                                              {"v", TD_F32, TD_R_IN},   {"do_", TD_F32, TD_R_IN},
                                              {"dz", TD_F32, TD_R_IN},  {"dk", TD_F32, TD_R_OUT},
                                              {"dv", TD_F32, TD_R_OUT}};


/* the shared shape, parameter indices from sh (the index of B): B, H, T, K, V, BTL, BTS, BK, BV and the classes.  BTL a power of
 * two in 2..32, BTS a power of two dividing it; T from the block-edge list (1, BTL - 1,
 * BTL, BTL + 1, 2 BTL + 1, BTS + 1); K, V in 1..6, BK, BV powers of two <= 8; H from
 * {1, 2, 3, 4} (no per-head decay here). */
static void pa_shape(td_producer *p, td_case *c, int64_t *BH, int sh) {
    int64_t BTL = td_gen_pow2(p, 1, 5), BTS = td_gen_pow2(p, 0, 5);
    if (BTS > BTL) BTS = BTL;
    int64_t K = td_prod_u32(p, 1, 6), V = td_prod_u32(p, 1, 6), BK = td_gen_pow2(p, 0, 3), BV = td_gen_pow2(p, 0, 3);
    int64_t H = td_prod_u32(p, 1, 4), B = H > 2 ? 1 : td_prod_u32(p, 1, 2);
    const int64_t Ts[] = {1, BTL - 1, BTL, BTL + 1, 2 * BTL + 1, BTS + 1};
    int64_t T = Ts[td_prod_u32(p, 0, 5)];
    *BH = B * H;
    c->classes |= (T > BTL ? TD_BC(TD_BC_MULTI_TILE) : 0) | (T == 1 ? TD_BC(TD_BC_SEQ_SINGLE) : 0) |
                  (T % BTL == 0 ? TD_BC(TD_BC_EXACT_MULTIPLE) : 0) | (T % BTL == BTL - 1 ? TD_BC(TD_BC_TAIL_BELOW) : 0) |
                  (T % BTL == 1 && T > BTL ? TD_BC(TD_BC_TAIL_ABOVE) : 0) |
                  (K % BK || V % BV ? TD_BC(TD_BC_TAIL) : 0) | (BK >= 4 * K || BV >= 4 * V ? TD_BC(TD_BC_BLOCK_GT_N) : 0);
    c->p[sh].i = B, c->p[sh + 1].i = H, c->p[sh + 2].i = T, c->p[sh + 3].i = K, c->p[sh + 4].i = V;
    c->p[sh + 5].i = BTL, c->p[sh + 6].i = BTS, c->p[sh + 7].i = BK, c->p[sh + 8].i = BV;
}

/* ---- the forward ---- */
static void pa_fwd_gen(td_producer *p, td_case *c) {
    int64_t BH;
    pa_shape(p, c, &BH, PF_B);
    int64_t T = c->p[PF_T].i, K = c->p[PF_K].i, V = c->p[PF_V].i, NK = par_cdiv(K, c->p[PF_BK].i);
    int pad = par_layout(p, c, PF_SQK_H, PF_SQK_T, PF_SQK_D, T, K, 1, 1);
    pad |= par_layout(p, c, PF_SVO_H, PF_SVO_T, PF_SVO_D, T, V, c->p[PF_BV].i, 0);
    c->p[PF_SCALE].r = td_prod_bool(p) ? (double)(float)(1 / sqrt((double)K)) : td_gen_real(p, 0.0625, 2);
    c->grid[0] = (uint32_t)(NK * par_cdiv(V, c->p[PF_BV].i)), c->grid[1] = (uint32_t)par_cdiv(T, c->p[PF_BTL].i);
    c->grid[2] = (uint32_t)BH;
    td_case_alloc(c, RF_Q, par_span(c, PF_SQK_H, PF_SQK_T, PF_SQK_D, BH, T, K));
    td_case_alloc(c, RF_K, par_span(c, PF_SQK_H, PF_SQK_T, PF_SQK_D, BH, T, K));
    td_case_alloc(c, RF_V, par_span(c, PF_SVO_H, PF_SVO_T, PF_SVO_D, BH, T, V));
    td_case_alloc(c, RF_O, par_span(c, PF_SVO_H, PF_SVO_T, PF_SVO_D, NK * BH, T, V) + 3);
    td_case_alloc(c, RF_Z, (size_t)(NK * BH * T) + 3);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    for (int r = RF_Q; r <= RF_V; r++) td_vgen_fill(&g, c, r);
    c->classes |= (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0);
}

/* Offsets beyond 2^31 (gen_far.h): the B*H heads (grid axis 2, at most 4) of q and k
 * (one s_qk_h, outermost in both layouts) move to a stride near 2^31 over sparse regions
 * (td_far_axis).  v stays: o is written at v's s_vo_h, and outputs stay dense.  The
 * kernel forms q + i_bh * s_qk_h in Triton's int32. */
static void pa_fwd_far(td_producer *p, td_case *c) {
    const int reg[2] = {RF_Q, RF_K}, st[2] = {PF_SQK_H, PF_SQK_H};
    td_far_axis(p, c, 2, reg, st, c->grid[2]);
}

static const char *pa_fwd_check(const td_case *c) {
    for (int i = 0; i < NPF; i++)
        if (i != PF_SCALE && c->p[i].i < 0) return "parameters are Nat";
    const char *e = par_check_shape(c, PF_B);
    if (e) return e;
    int64_t T = c->p[PF_T].i, K = c->p[PF_K].i, V = c->p[PF_V].i, BH = c->p[PF_B].i * c->p[PF_H].i;
    int64_t NK = par_cdiv(K, c->p[PF_BK].i), NV = par_cdiv(V, c->p[PF_BV].i);
    if (c->p[PF_SVO_D].i != 1) return "hSd: s_vo_d = 1";
    if (c->p[PF_BV].i > c->p[PF_SVO_T].i) return "hsigma: BV <= s_vo_t";
    if (c->p[PF_SVO_T].i < V || c->p[PF_SVO_H].i < T * c->p[PF_SVO_T].i) return "o's rows and heads disjoint (s_vo_t >= V, s_vo_h >= T s_vo_t)";
    if ((double)(float)c->p[PF_SCALE].r != c->p[PF_SCALE].r || !isfinite(c->p[PF_SCALE].r)) return "scale is binary32";
    if (c->grid[0] != (uint32_t)(NK * NV) || c->grid[1] != (uint32_t)par_cdiv(T, c->p[PF_BTL].i) || c->grid[2] != (uint32_t)BH)
        return "grid = (NK*NV, cdiv(T, BTL), B*H)";
    size_t sq = par_span(c, PF_SQK_H, PF_SQK_T, PF_SQK_D, BH, T, K);
    if (c->r[RF_Q].len < sq || c->r[RF_K].len < sq || c->r[RF_V].len < par_span(c, PF_SVO_H, PF_SVO_T, PF_SVO_D, BH, T, V) ||
        c->r[RF_O].len < par_span(c, PF_SVO_H, PF_SVO_T, PF_SVO_D, NK * BH, T, V))
        return "q, k, v hold every head; o NK blocks of B*H heads";
    if (c->r[RF_Z].len < (size_t)(NK * BH * T)) return "z holds NK blocks of B*H rows of T";
    return NULL;
}

static void pa_fwd_writes(const td_case *c, td_wset *ws) {
    int64_t T = c->p[PF_T].i, V = c->p[PF_V].i, BTL = c->p[PF_BTL].i, BV = c->p[PF_BV].i, NV = par_cdiv(V, BV);
    int64_t BH = c->grid[2];
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
                for (int64_t a = 0; a < BTL; a++)
                    for (int64_t q = 0; q < BV; q++) {
                        int64_t ik = p0 / NV, iv = p0 % NV, row = p1 * BTL + a, col = iv * BV + q;
                        if (row >= T || col >= V) continue;
                        int64_t off = (p2 + BH * ik) * c->p[PF_SVO_H].i + row * c->p[PF_SVO_T].i + col;
                        td_olane l = {.region = RF_O, .off = (uint64_t)off, .pid = {p0, p1, p2},
                                      .j = (uint64_t)(a * BV + q), .idx = {p2, ik, row, col}};
                        td_wset_add(ws, &l);
                        /* z: every i_v program of a K block stores the same row sums at the
                         * same cells (a benign duplicate store); claimed once, from i_v = 0 */
                        if (iv == 0 && q == 0) {
                            td_olane z = {.o = 1, .region = RF_Z, .off = (uint64_t)((p2 + BH * ik) * T + row),
                                          .pid = {p0, p1, p2}, .j = (uint64_t)a, .idx = {p2, ik, row, 0}};
                            td_wset_add(ws, &z);
                        }
                    }
}

/* ---- the backward dk/dv helper: one invocation with the drawn scalars ---- */
static void pa_bwd_gen(td_producer *p, td_case *c) {
    int64_t BH;
    pa_shape(p, c, &BH, PB_B);
    int64_t T = c->p[PB_T].i, K = c->p[PB_K].i, V = c->p[PB_V].i, BK = c->p[PB_BK].i, BV = c->p[PB_BV].i;
    int64_t NK = par_cdiv(K, BK), NV = par_cdiv(V, BV), NC = par_cdiv(T, c->p[PB_BTL].i);
    int pad = par_layout(p, c, PB_SQK_H, PB_SQK_T, PB_SQK_D, T, K, BK, 0);
    pad |= par_layout(p, c, PB_SVO_H, PB_SVO_T, PB_SVO_D, T, V, BV, 0);
    c->p[PB_IBH].i = td_prod_u32(p, 0, (uint32_t)(BH - 1));
    c->p[PB_IC].i = td_prod_bool(p) ? NC - 1 : td_prod_u32(p, 0, (uint32_t)(NC - 1));
    c->p[PB_IK].i = td_prod_u32(p, 0, (uint32_t)(NK - 1));
    c->p[PB_IV].i = td_prod_u32(p, 0, (uint32_t)(NV - 1));
    c->p[PB_IH].i = c->p[PB_IBH].i % c->p[PB_H].i; /* unused by the helper (the shell passes it) */
    c->p[PB_SCALE].r = td_prod_bool(p) ? (double)(float)(1 / sqrt((double)K)) : td_gen_real(p, 0.0625, 2);
    c->grid[0] = c->grid[1] = c->grid[2] = 1;
    size_t sq = par_span(c, PB_SQK_H, PB_SQK_T, PB_SQK_D, BH, T, K), sv = par_span(c, PB_SVO_H, PB_SVO_T, PB_SVO_D, BH, T, V);
    td_case_alloc(c, RB_Q, sq), td_case_alloc(c, RB_K, sq), td_case_alloc(c, RB_V, sv), td_case_alloc(c, RB_DO, sv);
    td_case_alloc(c, RB_DZ, (size_t)(BH * T));
    td_case_alloc(c, RB_DK, par_span(c, PB_SQK_H, PB_SQK_T, PB_SQK_D, NV * BH, T, K) + 3);
    td_case_alloc(c, RB_DV, par_span(c, PB_SVO_H, PB_SVO_T, PB_SVO_D, NK * BH, T, V) + 3);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    for (int r = RB_Q; r <= RB_DZ; r++) td_vgen_fill(&g, c, r);
    c->classes |= (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0) |
                  TD_BC(TD_BC_ONE_PROGRAM); /* one invocation of the helper */
}

/* Offsets beyond 2^31 (parallel_common.h, par_bwd_far): q, k and dk at one far s_qk_h. */
static void pa_bwd_far(td_producer *p, td_case *c) {
    static const par_bwd_ix x = {PB_IBH, PB_IV, PB_IH, PB_SQK_H, PB_SQK_T, PB_B, PB_H, PB_T, PB_K, PB_V, PB_BV,
                                 RB_Q, RB_K, RB_DK};
    par_bwd_far(p, c, &x);
}

static const char *pa_bwd_check(const td_case *c) {
    for (int i = 0; i < NPB; i++)
        if (i != PB_SCALE && c->p[i].i < 0) return "parameters are Nat";
    const char *e = par_check_shape(c, PB_B);
    if (e) return e;
    int64_t T = c->p[PB_T].i, K = c->p[PB_K].i, V = c->p[PB_V].i, BH = c->p[PB_B].i * c->p[PB_H].i;
    int64_t NK = par_cdiv(K, c->p[PB_BK].i), NV = par_cdiv(V, c->p[PB_BV].i);
    if (c->p[PB_SQK_D].i != 1) return "hSkd: s_qk_d = 1";
    if (c->p[PB_SVO_D].i != 1) return "hSvd: s_vo_d = 1";
    if (c->p[PB_BK].i > c->p[PB_SQK_T].i) return "hsigmak: BK <= s_qk_t";
    if (c->p[PB_BV].i > c->p[PB_SVO_T].i) return "hsigmav: BV <= s_vo_t";
    if (c->p[PB_IBH].i >= BH || c->p[PB_IC].i >= par_cdiv(T, c->p[PB_BTL].i) || c->p[PB_IK].i >= NK || c->p[PB_IV].i >= NV)
        return "the scalars in range (i_bh < B*H, i_c < cdiv(T, BTL), i_k < NK, i_v < NV): the regions hold their blocks";
    if ((double)(float)c->p[PB_SCALE].r != c->p[PB_SCALE].r || !isfinite(c->p[PB_SCALE].r)) return "scale is binary32";
    if (c->p[PB_SQK_T].i < K || c->p[PB_SVO_T].i < V) return "rows hold K / V columns";
    size_t sq = par_span(c, PB_SQK_H, PB_SQK_T, PB_SQK_D, BH, T, K), sv = par_span(c, PB_SVO_H, PB_SVO_T, PB_SVO_D, BH, T, V);
    if (c->r[RB_Q].len < sq || c->r[RB_K].len < sq || c->r[RB_V].len < sv || c->r[RB_DO].len < sv ||
        c->r[RB_DK].len < par_span(c, PB_SQK_H, PB_SQK_T, PB_SQK_D, NV * BH, T, K) ||
        c->r[RB_DV].len < par_span(c, PB_SVO_H, PB_SVO_T, PB_SVO_D, NK * BH, T, V))
        return "q, k, v, do hold every head; dk NV, dv NK blocks of B*H heads";
    if (c->r[RB_DZ].len < (size_t)(BH * T)) return "dz holds B*H rows of T";
    return NULL;
}

/* idx = {row i, column}; o = 0 dk, 1 dv */
static void pa_bwd_writes(const td_case *c, td_wset *ws) {
    int64_t T = c->p[PB_T].i, BTL = c->p[PB_BTL].i, BH = c->p[PB_B].i * c->p[PB_H].i, bh = c->p[PB_IBH].i;
    for (int o = 0; o < 2; o++) {
        int64_t Bc = o ? c->p[PB_BV].i : c->p[PB_BK].i, D = o ? c->p[PB_V].i : c->p[PB_K].i;
        int64_t ib = o ? c->p[PB_IV].i : c->p[PB_IK].i, other = o ? c->p[PB_IK].i : c->p[PB_IV].i;
        int64_t sh = o ? c->p[PB_SVO_H].i : c->p[PB_SQK_H].i, st = o ? c->p[PB_SVO_T].i : c->p[PB_SQK_T].i;
        for (int64_t r = 0; r < BTL; r++)
            for (int64_t x = 0; x < Bc; x++) {
                int64_t row = c->p[PB_IC].i * BTL + r, col = ib * Bc + x;
                if (row >= T || col >= D) continue;
                td_olane l = {.o = (uint32_t)o, .region = o ? RB_DV : RB_DK,
                              .off = (uint64_t)((bh + BH * other) * sh + row * st + col),
                              .j = (uint64_t)(r * Bc + x), .idx = {row, col}};
                td_wset_add(ws, &l);
            }
    }
}

#define PA_CLASSES                                                                                              \
    (TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) |      \
     TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SEQ_SINGLE) |   \
     TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_ONE_PROGRAM))

#define PA_CLASSES                                                                                              \
    (TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) |      \
     TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SEQ_SINGLE) |   \
     TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_ONE_PROGRAM))

const td_contract td_c_parallel_attention_fwd_o = {
    .id = "parallel_attention.pa_fwd_o_exec_genuine",
    .file = "parallel_attention",
    .family = "attention",
    .io_class = "exec existential over TileIndex [BTL, BV] and Fin BTL (configured)",
    .kind = "exact",
    .formula = "o[i, p] = sum_{t <= i} (sum_x (q[i, x] scale) k[t, x])^2 v[t, p]; z[i] = sum_{t <= i} (...)^2",
    .nparams = NPF,
    .params = params_f,
    .nregions = NRF,
    .regions = regions_f,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8, T <= 65: every sum stays finite",
    .error_model = "scores as any-order dot products, the square and the products by v one rounding each (any "
                   "association), the sums over keys in any order (gamma_{N-1}), underflow terms",
    .classes = PA_CLASSES | TD_BC(TD_BC_OFFSET_2_31),
    .gen = pa_fwd_gen,
    .far = pa_fwd_far,
    .check = pa_fwd_check,
    .writes = pa_fwd_writes,
    TD_SPECS(pa_oz),
};

const td_contract td_c_parallel_attention_bwd_dkv = {
    .id = "parallel_attention.pa_bwd_dkv_exec_genuine",
    .file = "parallel_attention",
    .family = "attention",
    .io_class = "exec existential over TileIndex [BTL, BK], [BTL, BV] (configured; explicit program scalars)",
    .kind = "exact",
    .formula = "dv[i, p] = sum_{t >= i} s^2 do[t, p]; dk[i, e] = sum_{t >= i} 2 ds s q[t, e]; s = (k[i] . q[t]) scale, "
               "ds = (v[i] . do[t] + [i_v = 0] dz[t]) scale",
    .nparams = NPB,
    .params = params_b,
    .nregions = NRB,
    .regions = regions_b,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8, T <= 65: every sum stays finite",
    .error_model = "s, ds as any-order dot products (ds: (dot + dz) scale or dot scale + dz scale), the products "
                   "one rounding each (any association), the sums over keys in any order, underflow terms",
    .classes = PA_CLASSES | TD_BC(TD_BC_OFFSET_2_31),
    .gen = pa_bwd_gen,
    .far = pa_bwd_far,
    .check = pa_bwd_check,
    .writes = pa_bwd_writes,
    TD_SPECS(pa_dkv),
};
