/* chunk_gla_fwd: the output stage of chunked gated linear attention,
 * chunk_gla_fwd_kernel_o (catalogue part 2, src lines 2392-2405).
 *
 *   chunk_gla_fwd_o_exec_genuine (hInj : outOffset injective): the launch terminates and
 *     every active lane (t < T, p < V) of o at i_bh*s_v_h + t*s_v_t + p is
 *     cgfOutput = sum_{e < K} ((q[t,e] * scale) * exp(g[t,e])) * h_c[e,p]
 *                 + sum_{cs <= s <= t} A[t, s - cs] * v[s,p]
 *     with c = t / BT, cs = c*BT, q and g at i_bh*s_k_h + t*s_k_t + e, h_c at
 *     i_bh*s_h_h + c*K*V + e*s_h_t + p, A at i_bh*T*BT + t*BT + j (A supplied).
 *
 * Checked against bench/tritonbench_g/chunk_gla_fwd (the .py and ChunkGlaFwd.lean): grid
 * (NV, NT, B*H) = (cdiv(V, BV), cdiv(T, BT), B*H); the K loop runs over cdiv(K, BK)
 * blocks (several: the Lean's numKB, not only K = BK), each b_q = q * scale, b_qg = b_q
 * * exp(g) (g is [B*H, T, K] on q's layout: a per-channel gate), b_o += b_qg h; then
 * b_A = where(i >= j, A, 0) (the diagonal kept) and b_o += b_A v; the `if i_k >= 0`
 * guard is always true; `.to(...)` is the identity for binary32 operands; rows past T
 * and lanes past K, V load 0 (aMasked's row guard; its column guard is vacuous).  The
 * A-building kernels of the file are outside the theorem: A is an input, read only on
 * and below the diagonal (the generator fills the upper triangle too, so a kernel
 * that reads it is caught).
 *
 * Error model (contracts/chunk_gla_fwd.spec.h): per inter term, q * scale one rounding,
 * exp(g) the math model's budget (exp or exp2(g log2 e), oracle/budget.c), the product
 * by the gate one rounding, the product by h one rounding (a product of three factors
 * in any association has the same first-order bound: 2u relative for the two roundings,
 * so q * (scale * exp(g)) and (q * exp(g)) * scale are covered); the intra terms one
 * rounding each; the output one sum in any order of the K inter and (t - cs + 1) intra
 * terms (b_o accumulates both dots: any order, split over K blocks included):
 * gamma_{n-1} sum |terms| (Higham 4.2), FMA covered; the binary32 store exact.
 * Special values: finite inputs |x| <= 8, gates from contracts/gla_gates.h (|g| <= 8
 * where free; exp(g) <= 1 where g is a cumulative log decay): every term finite; exp
 * of a very negative gate underflows to subnormals and 0 (charged by the shadow's exp).
 */
#include "gla_gates.h"
#include "gen_far.h"

enum { P_SKH, P_SKT, P_SVH, P_SVT, P_SHH, P_SHT, P_SCALE, P_T, P_K, P_V, P_BT, P_BK, P_BV, NP };
enum { R_Q, R_V, R_G, R_H, R_O, R_A, NR };

#define TD_SPEC_FILE "chunk_gla_fwd.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"s_k_h", TD_P_INT}, {"s_k_t", TD_P_INT}, {"s_v_h", TD_P_INT}, {"s_v_t", TD_P_INT}, {"s_h_h", TD_P_INT},
    {"s_h_t", TD_P_INT}, {"scale", TD_P_REAL}, {"T", TD_P_INT}, {"K", TD_P_INT}, {"V", TD_P_INT},
    {"BT", TD_P_INT}, {"BK", TD_P_INT}, {"BV", TD_P_INT}};
static const td_region_decl regions[NR] = {{"q", TD_F32, TD_R_IN}, {"v", TD_F32, TD_R_IN}, {"g", TD_F32, TD_R_IN},
                                           {"h", TD_F32, TD_R_IN}, {"o", TD_F32, TD_R_OUT}, {"A", TD_F32, TD_R_IN}};

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

static void cgf_lens(const td_case *c, size_t *lqk, size_t *lv, size_t *lh) {
    int64_t BH = c->grid[2], T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, NT = cdiv(T, c->p[P_BT].i);
    *lqk = (size_t)((BH - 1) * c->p[P_SKH].i + (T - 1) * c->p[P_SKT].i + K);
    *lv = (size_t)((BH - 1) * c->p[P_SVH].i + (T - 1) * c->p[P_SVT].i + V);
    *lh = (size_t)((BH - 1) * c->p[P_SHH].i + (NT - 1) * K * V + (K - 1) * c->p[P_SHT].i + V);
}

/* Shape: K 1..12 with BK a power of two up to 8 (several K blocks), V 1..12, BV up to
 * 16, BT up to 32, B*H 1..3, T by td_gen_count over BT up to 64; one case in 16 a long
 * sequence (200..512 steps, K, V <= 2, one head).  Strides padded in one case in 4. */
static void gen(td_producer *p, td_case *c) {
    int long_seq = td_prod_u32(p, 0, 15) == 0;
    int64_t K = td_prod_u32(p, 1, long_seq ? 2 : 12), BK = td_gen_pow2(p, 0, 3), BT = td_gen_pow2(p, 0, 5);
    int64_t BV = td_gen_pow2(p, 0, 4), V = td_prod_u32(p, 1, long_seq ? 2 : 12), BH = td_prod_u32(p, 1, 3);
    uint64_t cls = 0;
    int64_t T = (int64_t)td_gen_count(p, (uint64_t)BT, 64, &cls);
    uint32_t tl = td_prod_u32(p, 200, 512);
    if (long_seq) T = tl, BH = 1;
    int pad = td_prod_u32(p, 0, 3) == 0;
    int64_t pk = pad ? td_prod_u32(p, 0, 3) : 0, pv = pad ? td_prod_u32(p, 0, 3) : 0, ph = pad ? td_prod_u32(p, 0, 3) : 0;
    c->p[P_T].i = T, c->p[P_K].i = K, c->p[P_BK].i = BK, c->p[P_V].i = V, c->p[P_BT].i = BT, c->p[P_BV].i = BV;
    c->p[P_SKT].i = K + pk, c->p[P_SKH].i = T * (K + pk) + pk;
    c->p[P_SVT].i = V + pv, c->p[P_SVH].i = T * (V + pv) + pv;
    c->p[P_SHT].i = V + ph, c->p[P_SHH].i = cdiv(T, BT) * K * V + K * ph;
    c->p[P_SCALE].r = td_prod_bool(p) ? (double)(float)(1 / sqrt((double)K)) : td_gen_real(p, 0.0625, 2);
    c->grid[0] = (uint32_t)cdiv(V, BV), c->grid[1] = (uint32_t)cdiv(T, BT), c->grid[2] = (uint32_t)BH;
    size_t lqk, lv, lh;
    cgf_lens(c, &lqk, &lv, &lh);
    td_case_alloc(c, R_Q, lqk), td_case_alloc(c, R_G, lqk), td_case_alloc(c, R_V, lv), td_case_alloc(c, R_H, lh);
    td_case_alloc(c, R_A, (size_t)(BH * T * BT)), td_case_alloc(c, R_O, lv + 3);
    int gk = (int)td_prod_u32(p, 0, GLA_G_KINDS - 1);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    static const int ins[] = {R_Q, R_V, R_H, R_A};
    for (int i = 0; i < 4; i++) td_vgen_fill(&g, c, ins[i]);
    for (int64_t bh = 0; bh < BH; bh++) /* one gate column per key channel e, along time */
        for (int64_t e = 0; e < K; e++)
            gla_fill_gates(c, R_G, (size_t)(bh * c->p[P_SKH].i + e), (size_t)c->p[P_SKT].i, T, BT, &g.rng, gk);
    c->classes |= (T * V * BH == 1 ? TD_BC(TD_BC_SINGLE_LANE) : 0) |
                  (cls & (TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_EXACT_MULTIPLE) |
                          TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N))) |
                  (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (T > BT || K > BK ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (T == 1 ? TD_BC(TD_BC_SEQ_SINGLE) : 0) |
                  (T >= BT - 1 && T <= BT + 1 && BT > 1 ? TD_BC(TD_BC_SEQ_BLOCK_EDGE) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0) |
                  (gk == GLA_G_ONE || gk == GLA_G_STEEP || c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS heads of q and g at s_k_h and h at s_h_h
 * near 2^31 (one stride), over sparse regions, as a kernel forming i_bh * s_k_h in int32 gets
 * wrong; v and o keep s_v_h (o is an output: dense). */
static void far(td_producer *p, td_case *c) {
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, NT = cdiv(T, c->p[P_BT].i);
    int64_t R = c->grid[2] < TD_FAR_MAX_ROWS ? c->grid[2] : TD_FAR_MAX_ROWS, wk = (T - 1) * c->p[P_SKT].i + K;
    int64_t wh = (NT - 1) * K * V + (K - 1) * c->p[P_SHT].i + V;
    const td_far_reg r[3] = {{R_Q, P_SKH, wk}, {R_G, P_SKH, wk}, {R_H, P_SHH, wh}};
    (void)td_far_heads(p, c, 2, R, r, 3);
}

static const char *check(const td_case *c) {
    for (int i = 0; i < NP; i++)
        if (i != P_SCALE && c->p[i].i < 0) return "parameters are Nat";
    int64_t T = c->p[P_T].i, V = c->p[P_V].i, BT = c->p[P_BT].i, BK = c->p[P_BK].i, BV = c->p[P_BV].i;
    if (BT <= 0 || BK <= 0 || BV <= 0 || (BT & (BT - 1)) || (BK & (BK - 1)) || (BV & (BV - 1)))
        return "BT, BK, BV are powers of two (tl.arange, block pointers)";
    if (T <= 0 || V <= 0 || c->p[P_K].i <= 0) return "T, K, V > 0";
    if (c->grid[0] != (uint32_t)cdiv(V, BV) || c->grid[1] != (uint32_t)cdiv(T, BT) || c->grid[2] == 0)
        return "grid = (cdiv(V, BV), cdiv(T, BT), B*H)";
    if (c->p[P_SVT].i < V || c->p[P_SVH].i < (T - 1) * c->p[P_SVT].i + V)
        return "hInj: outOffset injective (s_v_t >= V, s_v_h >= (T-1)*s_v_t + V)";
    if ((double)(float)c->p[P_SCALE].r != c->p[P_SCALE].r || !isfinite(c->p[P_SCALE].r)) return "scale is binary32";
    size_t lqk, lv, lh;
    cgf_lens(c, &lqk, &lv, &lh);
    if (c->r[R_Q].len < lqk || c->r[R_G].len < lqk || c->r[R_V].len < lv || c->r[R_O].len < lv ||
        c->r[R_H].len < lh || c->r[R_A].len < (size_t)c->grid[2] * (size_t)(T * BT))
        return "q, g, v, o, h, A hold every lane the kernel reads and writes";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t T = c->p[P_T].i, V = c->p[P_V].i, BT = c->p[P_BT].i, BV = c->p[P_BV].i;
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
                for (int64_t i = 0; i < BT; i++)
                    for (int64_t r = 0; r < BV; r++) {
                        int64_t t = p1 * BT + i, v = p0 * BV + r;
                        if (t >= T || v >= V) continue;
                        td_olane l = {.region = R_O, .off = (uint64_t)(p2 * c->p[P_SVH].i + t * c->p[P_SVT].i + v),
                                      .pid = {p0, p1, p2}, .t = (uint32_t)t, .j = (uint64_t)(i * BV + r),
                                      .idx = {p2, t, v}};
                        td_wset_add(ws, &l);
                    }
}

const td_contract td_c_chunk_gla_fwd_o = {
    .id = "chunk_gla_fwd.chunk_gla_fwd_o_exec_genuine",
    .file = "chunk_gla_fwd",
    .family = "linear-attention",
    .io_class = "exec existential (chunk_gla_fwd_kernel_o, the whole launch; A supplied)",
    .kind = "exact",
    .formula = "o[t,p] = sum_e ((q[t,e]*scale) exp(g[t,e])) h_c[e,p] + sum_{cs<=s<=t} A[t, s-cs] v[s,p]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8, log-space gates (contracts/gla_gates.h): every term finite; A's upper "
               "triangle is never read",
    .error_model = "q*scale, the gate product and the h product one rounding each, exp's math budget (exp or "
                   "exp2), the output one sum in any order of the K inter and the s <= t intra terms",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_TAIL_BELOW) |
               TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) |
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SEQ_SINGLE) |
               TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(cgf_out),
};
