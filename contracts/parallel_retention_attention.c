/* parallel_retention_attention: chunk-parallel retention attention, forward o and the
 * backward dk/dv helper (catalogue part C, src lines 8025-8052).
 *
 *   pra_fwd_o_exec_genuine (hSd: s_vo_d = 1; hsigma: BV <= s_vo_t; hBTS: BTL % BTS = 0;
 *     0 < BTS): o[praOOffset] = praOOut(a, p) on praOActive lanes (row i_c BTL + a < T,
 *     column i_v BV + p < V): sum_{t < (i_c+1) BTL, t <= i} 2^((i-t) b_b) score(a, t)
 *     v[t, p], score = sum_{x in the K window} (q[i, x] scale) k[t, x] (masked lanes 0),
 *     i = i_c BTL + a, i_k = i_kv // NV, i_v = i_kv % NV, b_b = log2(1 - 2^(-5 - i_bh % H));
 *     the store at (i_bh + B H i_k) s_vo_h + row s_vo_t + column s_vo_d.
 *   pra_bwd_dkv_exec_genuine (hDkDv; hSkd: s_qk_d = 1; hSvd: s_vo_d = 1; hsigmak: BK <=
 *     s_qk_t; hsigmav: BV <= s_vo_t; hBTS; 0 < BTS): for the given scalars i_bh i_c i_k
 *     i_v i_h, dk[prbDkOffset] = prbDkOut(r, e), dv[prbDvOffset] = prbDvOut(r, p) on the
 *     active lanes: sum over the kept keys t >= i (t < T) of 2^((t-i) b_b) scale
 *     (v[i]·do[t]) q[t, e] (dk), (k[i]·q[t]) do[t, p] (dv), i = i_c BTL + r, the dots
 *     over the program's V / K windows, b_b from i_h.
 *
 * Checked against bench/tritonbench_g/parallel_retention_attention/ (the .py and
 * ParallelRetentionAttention.lean): the forward streams the blocks below the diagonal
 * with b_o *= 2^(b_b BTS) before each block's dot and d_h = 2^((BTS - j) b_b) on its
 * keys, scales by d_q = 2^(a b_b), then the diagonal block with d_s = 2^((a - j) b_b)
 * where a >= j else 0 (the Lean's Nat-truncated negative exponents sit on masked lanes
 * only); praOOut_split shows the sum is the closed form above.  o is a per-K-block
 * partial (the host sums o over NK; stored at head block i_bh + B H i_k).  The backward
 * helper is a standalone JIT the shell calls with i_h = i_bh % H: the theorem takes the
 * five scalars as parameters, so a case is one invocation (grid 1x1x1) of the helper
 * with scalars drawn in range (i_bh < B H, i_c < cdiv(T, BTL), i_k < cdiv(K, BK), i_v <
 * cdiv(V, BV), i_h = i_bh % H, sometimes another head's i_h: the statement allows any).
 * Its descending loop runs over the blocks i >= (i_c+1) BTL from cdiv(T, BTS) BTS - BTS
 * down, with b_kd = k 2^((BTL-r) b_b), do 2^(j b_b), b_dk, b_dv *= 2^(BTS b_b) per
 * block, then b_dk *= 2^((BTL-r) b_b) scale, b_dv *= scale, then the diagonal blocks
 * with d_s = 2^((j - r) b_b) scale where r <= j.  Inputs binary32 (the .to casts
 * identities), stores exact.
 *
 * Error model (parallel_retention_attention.spec.h): the flattened sum of 5-factor
 * products, gamma_{N-1} in any order, 4 roundings per product, gamma^n as the chain of
 * the per-step decay (covers exp2(n b_b), the kernel's factorization into <= n powers,
 * repeated products), underflow of intermediates and of rescaled partial sums.  No
 * atol/rtol anywhere.  Special values: finite inputs |x| <= 8, T <= 65: sums stay finite.
 */
#include "gen.h"
#include "gen_far.h"
#include "parallel_common.h"

enum { PF_SQK_H, PF_SQK_T, PF_SQK_D, PF_SVO_H, PF_SVO_T, PF_SVO_D, PF_SCALE, PF_B, PF_H, PF_T, PF_K, PF_V, PF_BTL,
       PF_BTS, PF_BK, PF_BV, NPF };
enum { RF_Q, RF_K, RF_V, RF_O, NRF };
enum { PB_IBH, PB_IC, PB_IK, PB_IV, PB_IH, PB_SQK_H, PB_SQK_T, PB_SQK_D, PB_SVO_H, PB_SVO_T, PB_SVO_D, PB_SCALE, PB_B,
       PB_H, PB_T, PB_K, PB_V, PB_BTL, PB_BTS, PB_BK, PB_BV, NPB };
enum { RB_Q, RB_K, RB_V, RB_DO, RB_DK, RB_DV, NRB };

#define TD_SPEC_FILE "parallel_retention_attention.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_f[NPF] = {
    {"s_qk_h", TD_P_INT}, {"s_qk_t", TD_P_INT}, {"s_qk_d", TD_P_INT}, {"s_vo_h", TD_P_INT},
    {"s_vo_t", TD_P_INT}, {"s_vo_d", TD_P_INT}, {"scale", TD_P_REAL}, {"B", TD_P_INT},
    {"H", TD_P_INT},      {"T", TD_P_INT},      {"K", TD_P_INT},      {"V", TD_P_INT},
    {"BTL", TD_P_INT},    {"BTS", TD_P_INT},    {"BK", TD_P_INT},     {"BV", TD_P_INT}};
static const td_region_decl regions_f[NRF] = {
    {"q", TD_F32, TD_R_IN}, {"k", TD_F32, TD_R_IN}, {"v", TD_F32, TD_R_IN}, {"o", TD_F32, TD_R_OUT}};
static const td_param_decl params_b[NPB] = {
    {"i_bh", TD_P_INT},   {"i_c", TD_P_INT},    {"i_k", TD_P_INT},    {"i_v", TD_P_INT},    {"i_h", TD_P_INT},
    {"s_qk_h", TD_P_INT}, {"s_qk_t", TD_P_INT}, {"s_qk_d", TD_P_INT}, {"s_vo_h", TD_P_INT}, {"s_vo_t", TD_P_INT},
    {"s_vo_d", TD_P_INT}, {"scale", TD_P_REAL}, {"B", TD_P_INT},      {"H", TD_P_INT},      {"T", TD_P_INT},
    {"K", TD_P_INT},      {"V", TD_P_INT},      {"BTL", TD_P_INT},    {"BTS", TD_P_INT},    {"BK", TD_P_INT},
    {"BV", TD_P_INT}};
static const td_region_decl regions_b[NRB] = {{"q", TD_F32, TD_R_IN},   {"k", TD_F32, TD_R_IN},
                                              {"v", TD_F32, TD_R_IN},   {"do_", TD_F32, TD_R_IN},
                                              {"dk", TD_F32, TD_R_OUT}, {"dv", TD_F32, TD_R_OUT}};


/* the shared shape, parameter indices from sh (the index of B): B, H, T, K, V, BTL, BTS, BK, BV and the classes.  BTL a power of
 * two in 2..32, BTS a power of two dividing it; T from the block-edge list (1, BTL - 1,
 * BTL, BTL + 1, 2 BTL + 1, BTS + 1); K, V in 1..6, BK, BV powers of two <= 8; H from
 * {1, 2, 3, 21} (head 20's decay rounds to 1 in binary32; K, V <= 2 there). */
static void pra_shape(td_producer *p, td_case *c, int64_t *BH, int sh) {
    int64_t BTL = td_gen_pow2(p, 1, 5), BTS = td_gen_pow2(p, 0, 5);
    if (BTS > BTL) BTS = BTL;
    int64_t K = td_prod_u32(p, 1, 6), V = td_prod_u32(p, 1, 6), BK = td_gen_pow2(p, 0, 3), BV = td_gen_pow2(p, 0, 3);
    static const uint32_t Hs[] = {1, 2, 3, 21};
    int64_t H = Hs[td_prod_u32(p, 0, 3)], B = H > 3 ? 1 : td_prod_u32(p, 1, 2);
    if (H > 3) K = 1 + K % 2, V = 1 + V % 2; /* 21 heads: widths <= 2 keep a case below ~10^4 lanes */
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
static void pra_fwd_gen(td_producer *p, td_case *c) {
    int64_t BH;
    pra_shape(p, c, &BH, PF_B);
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
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    for (int r = RF_Q; r <= RF_V; r++) td_vgen_fill(&g, c, r);
    c->classes |= (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS heads (B*H, H dividing them) of
 * q and k at s_qk_h near 2^31 (one parameter), over sparse regions, as a kernel forming
 * i_bh * s_qk_h in int32 gets wrong; v keeps s_vo_h (o, an output, shares it: dense). */
static void pra_fwd_far(td_producer *p, td_case *c) {
    int64_t H = c->p[PF_H].i, R = td_far_bh_rows(c->grid[2], &H), T = c->p[PF_T].i, K = c->p[PF_K].i;
    int64_t w = (T - 1) * c->p[PF_SQK_T].i + (K - 1) * c->p[PF_SQK_D].i + 1;
    const td_far_reg r[2] = {{RF_Q, PF_SQK_H, w}, {RF_K, PF_SQK_H, w}};
    if (td_far_heads(p, c, 2, R, r, 2)) c->p[PF_H].i = H, c->p[PF_B].i = R / H;
}

static const char *pra_fwd_check(const td_case *c) {
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
    return NULL;
}

static void pra_fwd_writes(const td_case *c, td_wset *ws) {
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
                    }
}

/* ---- the backward dk/dv helper: one invocation with the drawn scalars ---- */
static void pra_bwd_gen(td_producer *p, td_case *c) {
    int64_t BH;
    pra_shape(p, c, &BH, PB_B);
    int64_t T = c->p[PB_T].i, K = c->p[PB_K].i, V = c->p[PB_V].i, BK = c->p[PB_BK].i, BV = c->p[PB_BV].i;
    int64_t NK = par_cdiv(K, BK), NV = par_cdiv(V, BV), NC = par_cdiv(T, c->p[PB_BTL].i);
    int pad = par_layout(p, c, PB_SQK_H, PB_SQK_T, PB_SQK_D, T, K, BK, 0);
    pad |= par_layout(p, c, PB_SVO_H, PB_SVO_T, PB_SVO_D, T, V, BV, 0);
    c->p[PB_IBH].i = td_prod_u32(p, 0, (uint32_t)(BH - 1));
    c->p[PB_IC].i = td_prod_bool(p) ? NC - 1 : td_prod_u32(p, 0, (uint32_t)(NC - 1));
    c->p[PB_IK].i = td_prod_u32(p, 0, (uint32_t)(NK - 1));
    c->p[PB_IV].i = td_prod_u32(p, 0, (uint32_t)(NV - 1));
    c->p[PB_IH].i = td_prod_u32(p, 0, 7) ? c->p[PB_IBH].i % c->p[PB_H].i : td_prod_u32(p, 0, 23);
    c->p[PB_SCALE].r = td_prod_bool(p) ? (double)(float)(1 / sqrt((double)K)) : td_gen_real(p, 0.0625, 2);
    c->grid[0] = c->grid[1] = c->grid[2] = 1;
    size_t sq = par_span(c, PB_SQK_H, PB_SQK_T, PB_SQK_D, BH, T, K), sv = par_span(c, PB_SVO_H, PB_SVO_T, PB_SVO_D, BH, T, V);
    td_case_alloc(c, RB_Q, sq), td_case_alloc(c, RB_K, sq), td_case_alloc(c, RB_V, sv), td_case_alloc(c, RB_DO, sv);
    td_case_alloc(c, RB_DK, par_span(c, PB_SQK_H, PB_SQK_T, PB_SQK_D, NV * BH, T, K) + 3);
    td_case_alloc(c, RB_DV, par_span(c, PB_SVO_H, PB_SVO_T, PB_SVO_D, NK * BH, T, V) + 3);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    for (int r = RB_Q; r <= RB_DO; r++) td_vgen_fill(&g, c, r);
    c->classes |= (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0) |
                  TD_BC(TD_BC_ONE_PROGRAM); /* one invocation of the helper */
}

/* Offsets beyond 2^31 (parallel_common.h, par_bwd_far): q, k and dk at one far s_qk_h. */
static void pra_bwd_far(td_producer *p, td_case *c) {
    static const par_bwd_ix x = {PB_IBH, PB_IV, PB_IH, PB_SQK_H, PB_SQK_T, PB_B, PB_H, PB_T, PB_K, PB_V, PB_BV,
                                 RB_Q, RB_K, RB_DK};
    par_bwd_far(p, c, &x);
}

static const char *pra_bwd_check(const td_case *c) {
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
    if (c->p[PB_IH].i > 40) return "i_h <= 40 (2^(-5-i_h) a binary32 normal)";
    if ((double)(float)c->p[PB_SCALE].r != c->p[PB_SCALE].r || !isfinite(c->p[PB_SCALE].r)) return "scale is binary32";
    if (c->p[PB_SQK_T].i < K || c->p[PB_SVO_T].i < V) return "rows hold K / V columns";
    size_t sq = par_span(c, PB_SQK_H, PB_SQK_T, PB_SQK_D, BH, T, K), sv = par_span(c, PB_SVO_H, PB_SVO_T, PB_SVO_D, BH, T, V);
    if (c->r[RB_Q].len < sq || c->r[RB_K].len < sq || c->r[RB_V].len < sv || c->r[RB_DO].len < sv ||
        c->r[RB_DK].len < par_span(c, PB_SQK_H, PB_SQK_T, PB_SQK_D, NV * BH, T, K) ||
        c->r[RB_DV].len < par_span(c, PB_SVO_H, PB_SVO_T, PB_SVO_D, NK * BH, T, V))
        return "q, k, v, do hold every head; dk NV, dv NK blocks of B*H heads";
    return NULL;
}

/* idx = {row i, column}; o = 0 dk, 1 dv */
static void pra_bwd_writes(const td_case *c, td_wset *ws) {
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

#define PRA_CLASSES                                                                                              \
    (TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) |      \
     TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SEQ_SINGLE) |   \
     TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_ONE_PROGRAM))

static const char *pra_partial(const td_case *c) {
    return par_cdiv(c->p[PF_K].i, c->p[PF_BK].i) > 1 ? "cdiv(K, BK) > 1: o is a per-K-block partial the host sums (o.sum(0))" : NULL;
}
static const td_intent fwd_intent = {
    .operation = "RetNet's parallel retention per head h: o_i = sum_{t <= i} gamma^(i-t) (scale q_i . k_t) v_t, "
                 "gamma = 1 - 2^(-5-h) (the decay mask D_it = gamma^(i-t) for i >= t, 0 otherwise)",
    .definition = "Sun et al. 2023, Retentive Network, the parallel representation Retention(X) = (Q K^T * D) V "
                  "(eq. 5) with gamma = 1 - 2^(-5-arange(0, h)) and q scaled by scale",
    TD_SPECS(pra_o),
    .partial = pra_partial,
};

const td_contract td_c_parallel_retention_fwd_o = {
    .id = "parallel_retention_attention.pra_fwd_o_exec_genuine",
    .file = "parallel_retention_attention",
    .family = "attention",
    .io_class = "exec existential over TileIndex [BTL, BV] (configured)",
    .kind = "exact",
    .formula = "o[i, p] = sum_{t <= i} 2^((i-t) b_b) (sum_x (q[i, x] scale) k[t, x]) v[t, p], b_b = log2(1 - 2^(-5 - i_bh % H))",
    .nparams = NPF,
    .params = params_f,
    .nregions = NRF,
    .regions = regions_f,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8: every sum stays finite",
    .error_model = "the flattened sum of 5-factor products in any order (gamma_{N-1}, 4 roundings each), gamma^n "
                   "as the chain of the per-step decay (exp2 / repeated products, math model), underflow terms",
    .classes = PRA_CLASSES | TD_BC(TD_BC_OFFSET_2_31),
    .gen = pra_fwd_gen,
    .far = pra_fwd_far,
    .check = pra_fwd_check,
    .writes = pra_fwd_writes,
    TD_SPECS(pra_o),
    .intent = &fwd_intent,
};

const td_contract td_c_parallel_retention_bwd_dkv = {
    .id = "parallel_retention_attention.pra_bwd_dkv_exec_genuine",
    .file = "parallel_retention_attention",
    .family = "attention",
    .io_class = "exec existential over TileIndex [BTL, BK], [BTL, BV] (configured; explicit program scalars)",
    .kind = "exact",
    .formula = "dk[i, e] = sum_{t >= i} 2^((t-i) b_b) scale (v[i] . do[t]) q[t, e]; dv[i, p] = sum_{t >= i} "
               "2^((t-i) b_b) scale (k[i] . q[t]) do[t, p]; b_b = log2(1 - 2^(-5 - i_h))",
    .nparams = NPB,
    .params = params_b,
    .nregions = NRB,
    .regions = regions_b,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8: every sum stays finite",
    .error_model = "the flattened sum of 5-factor products in any order (gamma_{N-1}, 4 roundings each), gamma^n "
                   "as the chain of the per-step decay (exp2 / repeated products, math model), underflow terms",
    .classes = PRA_CLASSES | TD_BC(TD_BC_OFFSET_2_31),
    .gen = pra_bwd_gen,
    .far = pra_bwd_far,
    .check = pra_bwd_check,
    .writes = pra_bwd_writes,
    TD_SPECS(pra_dkv),
};
