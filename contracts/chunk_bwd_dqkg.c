/* chunk_bwd_dqkg: the simple-GLA chunked backward for dq, dk and dg,
 * chunk_simple_gla_bwd_kernel_dqkg (catalogue part 1, src lines 1866-1891).
 *
 *   chunk_bwd_dqkg_exec_genuine (hV: 0 < V <= BV; dq, dk, dg distinct; hInj: cbdQkAddr
 *     injective): the launch terminates and for every active lane (t < T, kk < K) of the
 *     program (i_k, i_t, i_bh), with c = i_t, cs = c*BT, ce = min(cs + BT, T), col =
 *     c*K + kk, g_last = g[bh*T + ce - 1],
 *       ds(t,s) = (sum_a do[t,a] v[s,a]) * scale * exp(g_t - g_s)            (s <= t)
 *       dq[t,kk] = (sum_a do[t,a] h[col,a]) exp(g_t) scale + sum_{cs<=s<=t} ds(t,s) k[s,kk]
 *       dkg(t,kk) = (sum_a v[t,a] dh[col,a]) exp(-g_t + g_last)
 *       dk[t,kk] = dkg(t,kk) + sum_{t<=s<ce} ds(s,t) q[s,kk]
 *       dg[(i_k*BH + bh)*T + t] = sum_{kk in block i_k} (q dq - k dk)
 *                                 + [t = ce - 1] dgLast(c, i_k)
 *       dgLast = (sum_{a<V, e<BK, col'<NT*K} h[col',a] dh[col',a]) exp(g_last)
 *                + sum_{cs<=s<ce, kk in block} dkg(s,kk) k[s,kk],  col' = c*K + i_k*BK + e
 *     q, k, dq, dk at bh*s_k_h + t*s_k_t + kk; v, do at bh*s_v_h + t*s_v_t + a; h, dh the
 *     (V, NT*K) view at bh*s_h_h + a + col*s_h_t; g at bh*T + t.
 *
 * Checked against bench/tritonbench_g/chunk_bwd_dqkg (the .py and ChunkBwdDqkg.lean:
 * dqSpec, dkSpec, dgSpec, dgLastFinal, the masked accessors gElem, gLastElem, voElem,
 * hElem, qkElem): grid (NK, NT, B*H), pid 0 the key block; the value loop is one pass
 * (hV: V <= BV, the launcher's BV = min(next_pow2(V), 64) regime, the Lean's scope);
 * the mask is o_i[:, None] >= o_i[None, :] (diagonal kept); g_last is the chunk's last
 * IN-RANGE row (min(i_t*BT + BT, T) - 1, an unmasked load); dk's gate is exp(-g + g_last);
 * b_dg_last takes sum(b_dk * b_k) at the GATED dk, BEFORE the ds contraction (the Lean's
 * dkGated); the h/dh column guard is NT*K, not K, so in a tail key block the h*dh sum
 * reads the next chunk's rows (hElem; faithful, not "fixed"); dg row r receives b_dg_last
 * when not r < min(BT, T - i_t*BT) - 1, i.e. at the last in-range row only (rows past T
 * are not stored); dg's address (i_k*n_bh + i_bh)*T + t (cbdDgAddr), one dg row per key
 * block (the host sums them); .to(...) is the identity on binary32 operands.  tl.dot's
 * TF32 input rounding on a GPU is outside the contract (binary32 dots, as the sibling
 * GLA contracts).
 *
 * Error model (contracts/chunk_bwd_dqkg.spec.h): every dot product and tl.sum ONE sum in
 * any order of its products (gamma_{n-1} sum |terms|, Higham 4.2; FMA and any blocking
 * covered); the products one rounding each; exp the math model's budget (exp or
 * exp2(x log2 e), oracle/budget.c); g_t - g_s and -g_t + g_last one rounding each; the
 * three-factor products (acc * exp * scale, acc * scale * exp) one rounding per product
 * (any association: the same first-order bound, 2u relative); dq = gated term + the
 * ds k dot as one sum in any order (the += of tl.dot, fused or not); likewise dk and
 * dgLast; dg = one sum in any order of the K-block differences q dq - k dk (one
 * rounding for the difference, each product one; an FMA form has fewer) and dgLast
 * (the final + b_dg_last); the intermediates carry their own bounds (shadow
 * propagation); the binary32 stores exact.
 * Special values: finite inputs |x| <= 8, gates from contracts/gla_gates.h (free gates
 * |g| <= 4: exp(g_t - g_s), exp(g_last - g_t) <= e^8; cumulative log decays: both <= 1)
 * saturated at g >= -80 (CBD_G_MIN below: a precondition the checker enforces; the
 * original kernel is NaN below -88.7 in tail chunks, see there); exp(g) and exp(g_t -
 * g_s) down to e^-80 and their products below FLT_MIN (subnormals, 0) charged by the
 * shadow.
 */
#include "gla_gates.h"
#include "gen_far.h"

enum { P_SKH, P_SKT, P_SVH, P_SVT, P_SHH, P_SHT, P_SCALE, P_T, P_K, P_V, P_BT, P_BK, P_BV, P_NT, NP };
enum { R_Q, R_K, R_V, R_H, R_G, R_DO, R_DH, R_DQ, R_DK, R_DG, NR };

/* memo key of a spec intermediate: kind, head, two indices (< 2^24 each) */
static inline uint64_t cbd_key(uint64_t kind, int64_t bh, int64_t a, int64_t b) {
    return kind << 56 | (uint64_t)bh << 48 | (uint64_t)a << 24 | (uint64_t)b;
}

#define TD_SPEC_FILE "chunk_bwd_dqkg.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"s_k_h", TD_P_INT}, {"s_k_t", TD_P_INT}, {"s_v_h", TD_P_INT}, {"s_v_t", TD_P_INT}, {"s_h_h", TD_P_INT},
    {"s_h_t", TD_P_INT}, {"scale", TD_P_REAL}, {"T", TD_P_INT},   {"K", TD_P_INT},     {"V", TD_P_INT},
    {"BT", TD_P_INT},    {"BK", TD_P_INT},    {"BV", TD_P_INT},     {"NT", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"q", TD_F32, TD_R_IN},   {"k", TD_F32, TD_R_IN},   {"v", TD_F32, TD_R_IN},   {"h", TD_F32, TD_R_IN},
    {"g", TD_F32, TD_R_IN},   {"do", TD_F32, TD_R_IN},  {"dh", TD_F32, TD_R_IN},  {"dq", TD_F32, TD_R_OUT},
    {"dk", TD_F32, TD_R_OUT}, {"dg", TD_F32, TD_R_OUT}};

/* Gates below G_MIN are outside the contract: in a tail chunk the kernel's padded rows
 * (t >= T) read b_g = 0 and keep ds = 0 * scale * exp(0 - g_s) under the mask (i >= j),
 * which is 0 * inf = NaN in binary32 once g_s < -88.7 (exp overflows), and the NaN
 * reaches dk[s] through ds^T q (NaN * 0) and dg.  The Lean theorem is over reals (0 there);
 * the original kernel in binary32 diverges from it below -88.7 (reported, not modelled).
 * -80 keeps exp(-g) <= e^80 < FLT_MAX with margin for the exp budget. */
#define CBD_G_MIN (-80.0)

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

static void cbd_lens(const td_case *c, size_t *lqk, size_t *lv, size_t *lh) {
    int64_t BH = c->grid[2], T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, NT = c->p[P_NT].i;
    *lqk = (size_t)((BH - 1) * c->p[P_SKH].i + (T - 1) * c->p[P_SKT].i + K);
    *lv = (size_t)((BH - 1) * c->p[P_SVH].i + (T - 1) * c->p[P_SVT].i + V);
    *lh = (size_t)((BH - 1) * c->p[P_SHH].i + (NT * K - 1) * c->p[P_SHT].i + V);
}

/* Shape: K 1..12 with BK a power of two up to 8 (several key blocks, tail blocks), V
 * 1..12 with BV = next_pow2(V) or twice that (V <= BV), BT up to 32, B*H 1..3, T by
 * td_gen_count over BT up to 64; one case in 16 a long sequence (100..300 steps, K, V
 * <= 2, one head; the kernel has no cross-chunk state, so length adds chunks, not
 * error).  Strides padded in one case in 4. */
static void gen(td_producer *p, td_case *c) {
    int long_seq = td_prod_u32(p, 0, 15) == 0;
    int64_t K = td_prod_u32(p, 1, long_seq ? 2 : 12), BK = td_gen_pow2(p, 0, 3), BT = td_gen_pow2(p, 0, 5);
    int64_t V = td_prod_u32(p, 1, long_seq ? 2 : 12), BV = 1, BH = td_prod_u32(p, 1, 3);
    while (BV < V) BV *= 2;
    BV <<= td_prod_u32(p, 0, 1);
    uint64_t cls = 0;
    int64_t T = (int64_t)td_gen_count(p, (uint64_t)BT, 64, &cls);
    uint32_t tl = td_prod_u32(p, 100, 300);
    if (long_seq) T = tl, BH = 1;
    int64_t NT = cdiv(T, BT);
    int pad = td_prod_u32(p, 0, 3) == 0;
    int64_t pk = pad ? td_prod_u32(p, 0, 3) : 0, pv = pad ? td_prod_u32(p, 0, 3) : 0, ph = pad ? td_prod_u32(p, 0, 3) : 0;
    c->p[P_T].i = T, c->p[P_K].i = K, c->p[P_BK].i = BK, c->p[P_V].i = V, c->p[P_BT].i = BT, c->p[P_BV].i = BV;
    c->p[P_NT].i = NT;
    c->p[P_SKT].i = K + pk, c->p[P_SKH].i = T * (K + pk) + pk;
    c->p[P_SVT].i = V + pv, c->p[P_SVH].i = T * (V + pv) + pv;
    c->p[P_SHT].i = V + ph, c->p[P_SHH].i = NT * K * (V + ph) + ph;
    c->p[P_SCALE].r = td_prod_bool(p) ? (double)(float)(1 / sqrt((double)K)) : td_gen_real(p, 0.0625, 2);
    c->grid[0] = (uint32_t)cdiv(K, BK), c->grid[1] = (uint32_t)NT, c->grid[2] = (uint32_t)BH;
    size_t lqk, lv, lh;
    cbd_lens(c, &lqk, &lv, &lh);
    td_case_alloc(c, R_Q, lqk), td_case_alloc(c, R_K, lqk), td_case_alloc(c, R_V, lv), td_case_alloc(c, R_DO, lv);
    td_case_alloc(c, R_H, lh), td_case_alloc(c, R_DH, lh), td_case_alloc(c, R_G, (size_t)(BH * T));
    td_case_alloc(c, R_DQ, lqk + 3), td_case_alloc(c, R_DK, lqk + 3);
    td_case_alloc(c, R_DG, (size_t)(c->grid[0] * BH * T));
    int gk = (int)td_prod_u32(p, 0, GLA_G_KINDS - 1);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    static const int ins[] = {R_Q, R_K, R_V, R_H, R_DO, R_DH};
    for (int i = 0; i < 6; i++) td_vgen_fill(&g, c, ins[i]);
    for (int64_t bh = 0; bh < BH; bh++) gla_fill_gates(c, R_G, (size_t)(bh * T), 1, T, BT, &g.rng, gk);
    for (size_t x = 0; x < (size_t)(BH * T); x++) /* the G_MIN precondition: decays saturate there */
        if (td_get(c, R_G, x) < CBD_G_MIN) td_set(c, R_G, x, CBD_G_MIN);
    c->classes |= (T * K * BH == 1 ? TD_BC(TD_BC_SINGLE_LANE) : 0) |
                  (cls & (TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_EXACT_MULTIPLE) |
                          TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N))) |
                  (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (T > BT || K > BK ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (T == 1 ? TD_BC(TD_BC_SEQ_SINGLE) : 0) |
                  (T >= BT - 1 && T <= BT + 1 && BT > 1 ? TD_BC(TD_BC_SEQ_BLOCK_EDGE) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0) |
                  (gk == GLA_G_ONE || gk == GLA_G_STEEP || c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS heads of v and do at s_v_h and of
 * h and dh at s_h_h near 2^31 (one stride), over sparse regions, as a kernel forming
 * i_bh * s_v_h in int32 gets wrong; q and k keep s_k_h (dq, dk, outputs, share it: dense). */
static void far(td_producer *p, td_case *c) {
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, NT = c->p[P_NT].i;
    int64_t R = c->grid[2] < TD_FAR_MAX_ROWS ? c->grid[2] : TD_FAR_MAX_ROWS;
    int64_t wv = (T - 1) * c->p[P_SVT].i + V, wh = (NT * K - 1) * c->p[P_SHT].i + V;
    const td_far_reg r[4] = {{R_V, P_SVH, wv}, {R_DO, P_SVH, wv}, {R_H, P_SHH, wh}, {R_DH, P_SHH, wh}};
    (void)td_far_heads(p, c, 2, R, r, 4);
}

static const char *check(const td_case *c) {
    for (int i = 0; i < NP; i++)
        if (i != P_SCALE && c->p[i].i < 0) return "parameters are Nat";
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, BT = c->p[P_BT].i, BK = c->p[P_BK].i;
    int64_t BV = c->p[P_BV].i;
    if (BT <= 0 || BK <= 0 || BV <= 0 || (BT & (BT - 1)) || (BK & (BK - 1)) || (BV & (BV - 1)))
        return "BT, BK, BV are powers of two (tl.arange, block pointers)";
    if (BT > 64 || BK > 64) return "BT, BK <= 64 (the launcher's blocks)";
    if (T <= 0 || K <= 0) return "T, K > 0";
    if (V <= 0 || V > BV) return "hV: 0 < V <= BV (one value block)";
    if (c->p[P_NT].i != cdiv(T, BT)) return "NT = cdiv(T, BT)";
    if (c->grid[0] != (uint32_t)cdiv(K, BK) || c->grid[1] != (uint32_t)cdiv(T, BT) || c->grid[2] == 0)
        return "grid = (cdiv(K, BK), cdiv(T, BT), B*H)";
    if (c->p[P_SKT].i < K || c->p[P_SKH].i < (T - 1) * c->p[P_SKT].i + K)
        return "hInj: cbdQkAddr injective (s_k_t >= K, s_k_h >= (T-1)*s_k_t + K)";
    for (size_t x = 0; x < (size_t)c->grid[2] * (size_t)T && x < c->r[R_G].len; x++)
        if (!(td_get(c, R_G, x) >= CBD_G_MIN)) return "g >= -80 (binary32 domain: padded rows evaluate exp(-g))";
    if ((double)(float)c->p[P_SCALE].r != c->p[P_SCALE].r || !isfinite(c->p[P_SCALE].r)) return "scale is binary32";
    size_t lqk, lv, lh;
    cbd_lens(c, &lqk, &lv, &lh);
    if (c->r[R_Q].len < lqk || c->r[R_K].len < lqk || c->r[R_DQ].len < lqk || c->r[R_DK].len < lqk ||
        c->r[R_V].len < lv || c->r[R_DO].len < lv || c->r[R_H].len < lh || c->r[R_DH].len < lh ||
        c->r[R_G].len < (size_t)c->grid[2] * (size_t)T || c->r[R_DG].len < (size_t)c->grid[0] * c->grid[2] * (size_t)T)
        return "q, k, v, h, g, do, dh, dq, dk, dg hold every lane the kernel reads and writes";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, BT = c->p[P_BT].i, BK = c->p[P_BK].i, BH = c->grid[2];
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
                for (int64_t i = 0; i < BT && p1 * BT + i < T; i++) {
                    int64_t t = p1 * BT + i;
                    for (int64_t e = 0; e < BK && p0 * BK + e < K; e++) {
                        int64_t kk = p0 * BK + e;
                        for (uint32_t o = 0; o < 2; o++) {
                            td_olane l = {.o = o, .region = o ? R_DK : R_DQ,
                                          .off = (uint64_t)(p2 * c->p[P_SKH].i + t * c->p[P_SKT].i + kk),
                                          .pid = {p0, p1, p2}, .t = (uint32_t)t, .j = (uint64_t)(i * BK + e),
                                          .idx = {p2, t, kk}};
                            td_wset_add(ws, &l);
                        }
                    }
                    td_olane l = {.o = 2, .region = R_DG, .off = (uint64_t)((p0 * BH + p2) * T + t),
                                  .pid = {p0, p1, p2}, .t = (uint32_t)t, .j = (uint64_t)i, .idx = {p2, t, p0}};
                    td_wset_add(ws, &l);
                }
}

const td_contract td_c_chunk_bwd_dqkg = {
    .id = "chunk_bwd_dqkg.chunk_bwd_dqkg_exec_genuine",
    .file = "chunk_bwd_dqkg",
    .family = "linear-attention",
    .io_class = "exec existential (chunk_simple_gla_bwd_kernel_dqkg, the whole launch; V <= BV)",
    .kind = "exact",
    .formula = "dq = (do h) e^g scale + ds k; dk = (v dh) e^(g_last-g) + ds^T q; dg = sum_e (q dq - k dk) "
               "+ [last row] dgLast, ds = mask(do v^T) scale e^(g_t-g_s)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8, log-space gates (contracts/gla_gates.h) saturated at g >= -80: every "
               "term finite (below -88.7 the original kernel's padded tail rows give 0 * inf = NaN in dk)",
    .error_model = "every dot and tl.sum one sum in any order, products one rounding each, exp's math budget "
                   "(exp or exp2), gate differences one rounding; dq, dk, dgLast, dg each one sum in any order of "
                   "their terms, intermediates propagated",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_TAIL_BELOW) |
               TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) |
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SEQ_SINGLE) |
               TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(cbd),
};
