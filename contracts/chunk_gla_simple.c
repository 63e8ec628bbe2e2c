/* chunk_gla_simple: the output stage of simple gated linear attention (catalogue part 2,
 * src lines 2407-2473).
 *
 *   chunk_gla_simple_output_summary_general (hKBK : K = BK) (0 < BK, BT) (hundef)
 *     (hInj : outOffset injective): every active lane (t < T, v < V) of o is
 *     glaOutput = ( (sum_e q[t,e] h_c[e,v]) exp(g_t)
 *                   + sum_{cs <= s <= t} (sum_e q[t,e] k[s,e]) exp(g_t - g_s) v[s,v] ) scale
 *     at i_bh*s_v_h + t*s_v_t + v, with c = t / BT the chunk, cs = c*BT its start,
 *     h_c = h + i_bh*s_h_h + c*K*V (rows of stride s_h_t), g at i_bh*T + t.
 *   chunk_gla_simple_io_correctness, StreamMasked3DKernelIO_5 (chunkGlaSimpleIO), outDType
 *     .real: the same closed form (chunkGlaSimpleIOOutSpec) off the five streamed tiles
 *     (read1..read5 are the block-pointer addresses above, mask5 = writeMask =
 *     p1*BT + j/BV < T && p0*BV + j%BV < V).
 *
 * Checked against bench/tritonbench_g/chunk_gla_simple (the .py and ChunkGlaSimple.lean):
 * grid (NV, NT, B*H) = (cdiv(V, BV), cdiv(T, BT), B*H); q, k are [B*H, T, K] of strides
 * (s_k_h, s_k_t, 1), v, o [B*H, T, V] of (s_v_h, s_v_t, 1), g [B*H, T] (stride T, not a
 * parameter), h [B*H, NT, K, V] read at i_bh*s_h_h + i_t*K*V + e*s_h_t + v (the chunk
 * offset is K*V, not a stride); the scores are masked by o_i[:, None] >= o_i[None, :]
 * (s <= t inclusive) AFTER the decay, so exp(g_t - g_s) of a masked pair (possibly +inf)
 * never reaches the output; rows past T load 0 (boundary_check) and are never stored;
 * `.to(b_v.dtype)` is the identity for binary32 v.  The Lean proves it for K = BK (one
 * key block), the hypothesis the checker enforces.  The IO theorem's Tt is T.  Both
 * theorems are one launch of the same kernel: the contracts share generator and spec and
 * differ in kind (the IO one is the rounding statement with outDType .real: a binary32
 * store of the binary32 result, exact).
 *
 * Error model (the spec, contracts/chunk_gla_simple.spec.h, one operation per rounding
 * every implementation makes):
 *   - each dot product (q h over K, q k over K) a sum in any order and blocking: gamma_{K-1}
 *     sum |q_e h_e| plus u per product (or none with FMA: the acc charges the products'
 *     rounding, Higham 3.5);
 *   - exp(g_t), exp(g_t - g_s): the math model's budget (oracle/budget.c: it covers exp
 *     and exp2(x log2 e), ex2.approx included), g_t - g_s one rounding (its error is
 *     amplified by |exp'| = exp: that is in the propagated term), the products by the
 *     gate one rounding each;
 *   - the output sum of the inter term and the s <= t weighted values in any order
 *     (b_o + tl.dot(b_s, b_v) accumulates in any order): gamma_{n-1} over n = (t - cs + 2)
 *     terms; the product by scale one rounding.
 * A kernel that factors exp(g_t - g_s) as exp(g_t) exp(-g_s) is not covered (it
 * overflows where the subtraction does not: the reason the original subtracts first).
 * Special values: finite inputs |x| <= 8, g from contracts/gla_gates.h (|g_t - g_s| <= 8
 * where g is not monotone, g_t - g_s <= 0 on every kept pair otherwise): every kept
 * term below 8*8*K*e^8*... far inside binary32; exp of a very negative g underflows to
 * subnormals and 0 (the shadow's exp charges the absolute underflow).
 */
#include "gla_gates.h"
#include "gen_far.h"

enum { P_SKH, P_SKT, P_SVH, P_SVT, P_SHH, P_SHT, P_SCALE, P_T, P_K, P_V, P_BT, P_BK, P_BV, NP };
enum { R_Q, R_K, R_V, R_H, R_G, R_O, NR };

#define TD_SPEC_FILE "chunk_gla_simple.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"s_k_h", TD_P_INT}, {"s_k_t", TD_P_INT}, {"s_v_h", TD_P_INT}, {"s_v_t", TD_P_INT}, {"s_h_h", TD_P_INT},
    {"s_h_t", TD_P_INT}, {"scale", TD_P_REAL}, {"T", TD_P_INT}, {"K", TD_P_INT}, {"V", TD_P_INT},
    {"BT", TD_P_INT}, {"BK", TD_P_INT}, {"BV", TD_P_INT}};
static const td_region_decl regions[NR] = {{"q", TD_F32, TD_R_IN}, {"k", TD_F32, TD_R_IN}, {"v", TD_F32, TD_R_IN},
                                           {"h", TD_F32, TD_R_IN}, {"g", TD_F32, TD_R_IN}, {"o", TD_F32, TD_R_OUT}};

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* the smallest region lengths the layout needs (checker and allocation) */
static void cgs_lens(const td_case *c, size_t *lqk, size_t *lv, size_t *lh) {
    int64_t BH = c->grid[2], T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, NT = cdiv(T, c->p[P_BT].i);
    *lqk = (size_t)((BH - 1) * c->p[P_SKH].i + (T - 1) * c->p[P_SKT].i + K);
    *lv = (size_t)((BH - 1) * c->p[P_SVH].i + (T - 1) * c->p[P_SVT].i + V);
    *lh = (size_t)((BH - 1) * c->p[P_SHH].i + (NT - 1) * K * V + (K - 1) * c->p[P_SHT].i + V);
}

/* Shape: K = BK in 1..8, BT 1..32, BV 1..16, V 1..12, B*H 1..3, T by td_gen_count over
 * BT (one step, BT - 1, BT, BT + 1, several chunks, up to 64); one case in 16 a long
 * sequence (200..512 steps, K, V <= 2, one head).  Strides padded in one case in 4. */
static void gen(td_producer *p, td_case *c) {
    int long_seq = td_prod_u32(p, 0, 15) == 0;
    int64_t K = td_gen_pow2(p, 0, long_seq ? 1 : 3), BT = td_gen_pow2(p, 0, 5), BV = td_gen_pow2(p, 0, 4);
    int64_t V = td_prod_u32(p, 1, long_seq ? 2 : 12), BH = td_prod_u32(p, 1, 3);
    uint64_t cls = 0;
    int64_t T = (int64_t)td_gen_count(p, (uint64_t)BT, 64, &cls);
    uint32_t tl = td_prod_u32(p, 200, 512);
    if (long_seq) T = tl, BH = 1;
    int pad = td_prod_u32(p, 0, 3) == 0;
    int64_t pk = pad ? td_prod_u32(p, 0, 3) : 0, pv = pad ? td_prod_u32(p, 0, 3) : 0, ph = pad ? td_prod_u32(p, 0, 3) : 0;
    c->p[P_T].i = T, c->p[P_K].i = K, c->p[P_BK].i = K, c->p[P_V].i = V, c->p[P_BT].i = BT, c->p[P_BV].i = BV;
    c->p[P_SKT].i = K + pk, c->p[P_SKH].i = T * (K + pk) + pk;
    c->p[P_SVT].i = V + pv, c->p[P_SVH].i = T * (V + pv) + pv;
    c->p[P_SHT].i = V + ph, c->p[P_SHH].i = cdiv(T, BT) * K * V + (K - 1) * ph + ph;
    c->p[P_SCALE].r = td_prod_bool(p) ? (double)(float)(1 / sqrt((double)K)) : td_gen_real(p, 0.0625, 2);
    c->grid[0] = (uint32_t)cdiv(V, BV), c->grid[1] = (uint32_t)cdiv(T, BT), c->grid[2] = (uint32_t)BH;
    size_t lqk, lv, lh;
    cgs_lens(c, &lqk, &lv, &lh);
    td_case_alloc(c, R_Q, lqk), td_case_alloc(c, R_K, lqk), td_case_alloc(c, R_V, lv);
    td_case_alloc(c, R_H, lh), td_case_alloc(c, R_G, (size_t)(BH * T)), td_case_alloc(c, R_O, lv + 3);
    int gk = (int)td_prod_u32(p, 0, GLA_G_KINDS - 1);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    static const int ins[] = {R_Q, R_K, R_V, R_H};
    for (int i = 0; i < 4; i++) td_vgen_fill(&g, c, ins[i]);
    for (int64_t bh = 0; bh < BH; bh++) gla_fill_gates(c, R_G, (size_t)(bh * T), 1, T, BT, &g.rng, gk);
    c->classes |= (T * V * BH == 1 ? TD_BC(TD_BC_SINGLE_LANE) : 0) |
                  (cls & (TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) |
                          TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N))) |
                  (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (T > BT ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (T == 1 ? TD_BC(TD_BC_SEQ_SINGLE) : 0) |
                  (T >= BT - 1 && T <= BT + 1 && BT > 1 ? TD_BC(TD_BC_SEQ_BLOCK_EDGE) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0) |
                  (gk == GLA_G_ONE || gk == GLA_G_STEEP || c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS heads of q and k at s_k_h and h at s_h_h
 * near 2^31 (one stride), over sparse regions, as a kernel forming i_bh * s_k_h in int32 gets
 * wrong; v and o keep s_v_h (o is an output: dense). */
static void far(td_producer *p, td_case *c) {
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, NT = cdiv(T, c->p[P_BT].i);
    int64_t R = c->grid[2] < TD_FAR_MAX_ROWS ? c->grid[2] : TD_FAR_MAX_ROWS, wk = (T - 1) * c->p[P_SKT].i + K;
    int64_t wh = (NT - 1) * K * V + (K - 1) * c->p[P_SHT].i + V;
    const td_far_reg r[3] = {{R_Q, P_SKH, wk}, {R_K, P_SKH, wk}, {R_H, P_SHH, wh}};
    (void)td_far_heads(p, c, 2, R, r, 3);
}

static const char *check(const td_case *c) {
    for (int i = 0; i < NP; i++)
        if (i != P_SCALE && c->p[i].i < 0) return "parameters are Nat";
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, BT = c->p[P_BT].i, BK = c->p[P_BK].i, BV = c->p[P_BV].i;
    if (K != BK) return "hKBK: K = BK";
    if (BK <= 0) return "hBK: 0 < BK";
    if (BT <= 0) return "hBT: 0 < BT";
    if (BV <= 0 || (BT & (BT - 1)) || (BK & (BK - 1)) || (BV & (BV - 1))) return "BT, BK, BV are powers of two (tl.arange)";
    if (T <= 0 || V <= 0) return "T, V > 0";
    if (c->grid[0] != (uint32_t)cdiv(V, BV) || c->grid[1] != (uint32_t)cdiv(T, BT) || c->grid[2] == 0)
        return "grid = (cdiv(V, BV), cdiv(T, BT), B*H)";
    if (c->p[P_SVT].i < V || c->p[P_SVH].i < (T - 1) * c->p[P_SVT].i + V)
        return "hInj: outOffset injective (s_v_t >= V, s_v_h >= (T-1)*s_v_t + V)";
    if ((double)(float)c->p[P_SCALE].r != c->p[P_SCALE].r || !isfinite(c->p[P_SCALE].r)) return "scale is binary32";
    size_t lqk, lv, lh;
    cgs_lens(c, &lqk, &lv, &lh);
    if (c->r[R_Q].len < lqk || c->r[R_K].len < lqk || c->r[R_V].len < lv || c->r[R_O].len < lv || c->r[R_H].len < lh ||
        c->r[R_G].len < (size_t)c->grid[2] * (size_t)T)
        return "q, k, v, o, h, g hold every lane the kernel reads and writes";
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

#define CGS_COMMON                                                                                                  \
    .file = "chunk_gla_simple", .family = "linear-attention", .nparams = NP, .params = params, .nregions = NR,       \
    .regions = regions, .sv = TD_SV_REAL,                                                                           \
    .sv_note = "finite inputs |x| <= 8, log-space gates (contracts/gla_gates.h): every kept term finite; the "      \
               "masked pairs' exp(g_t - g_s) (maybe +inf) is discarded by the causal where",                        \
    .error_model = "dots over K in any order, exp's math budget (exp or exp2), g_t - g_s one rounding, the "        \
                   "output sum of the inter term and the s <= t values in any order, scale one rounding",           \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_TAIL_BELOW) |                      \
               TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) |                          \
               TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) |                     \
               TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_VALUES_SPECIAL) |                \
               TD_BC(TD_BC_OFFSET_2_31),                                                                            \
    .gen = gen, .far = far, .check = check, .writes = writes, TD_SPECS(cgs_out)

const td_contract td_c_chunk_gla_simple_summary = {
    .id = "chunk_gla_simple.chunk_gla_simple_output_summary_general",
    .kind = "exact",
    .io_class = "Realizes_without_Rounding (full per-program kernel, K = BK)",
    .formula = "o[t,v] = ((q_t . h_c[:,v]) exp(g_t) + sum_{cs<=s<=t} (q_t . k_s) exp(g_t - g_s) v[s,v]) * scale",
    CGS_COMMON,
};
const td_contract td_c_chunk_gla_simple_io = {
    .id = "chunk_gla_simple.chunk_gla_simple_io_correctness",
    .kind = "rounding",
    .io_class = "StreamMasked3DKernelIO_5 (chunkGlaSimpleIO), outDType .real",
    .formula = "out[j] = chunkGlaSimpleIOOutSpec(scale, q, k^T, h, g, v, j) (= glaOutput; .real store exact)",
    CGS_COMMON,
};
