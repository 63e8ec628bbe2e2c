/* fused_rwkv6_kernel: RWKV-6's recurrent forward, per-channel log-space decays and the
 * bonus u (catalogue part 2, src lines 5210-5304).
 *
 *   fused_recurrent_rwkv6_output_summary_general (hBV : BV <= V) (hBK : BK <= K)
 *     (hBVpos : 0 < BV): the surface lowers; under BHPrev = stateClosed(m):
 *     o[m, jv] = outputClosed(m) = sum_{jk active} (h_m[jv, jk] + k_m[jk] v_m[jv] u[jk])
 *     * (scale q_m[jk]) at outStepOffset (mask_bv); BHOut = stateClosed(m+1) with
 *     h_{m+1}[v, k] = h_m[v, k] exp(w_m[k]) + k_m[k] v_m[v] (mask_kv); and the carry fold:
 *     T state steps in place on C from stateSeed (h0 or 0) reach stateClosed(T).
 *   fused_recurrent_rwkv6_state_step_io_correctness (hOutInj), Masked3DTileShaped4KernelIO:
 *     BHOut[v, k] = BHPrev[v, k] * exp(w[k]) + k[k] * v[v] at p2*K*V + (p1*BK + kk)*V +
 *     p0*BV + vv; k, w at p2*s_k_h + p1*BK + kk + t*K, v at p2*s_v_h + p0*BV + vv + t*V;
 *     mask p0*BV + vv < V && p1*BK + kk < K.
 *
 * Checked against bench/tritonbench_g/fused_rwkv6_kernel (the .py and
 * FusedRwkv6Kernel.lean): grid (NV, NK, B*H); q, k, w rows K apart in heads of stride
 * s_k_h, v rows V apart in heads of stride s_v_h; o is [NK, B*H] blocks of head stride
 * s_v_h (o = (i_bh + i_k*B*H)*s_v_h + i_v*BV + j + t*V); u is [H, K] read at i_h*K + k
 * (i_h = i_bh % H); h0 / ht [B*H, K, V] at k*V + v.  The loop stores o_t from the state
 * BEFORE step t's update (the Lean's outputClosed(m) reads stateClosed(m): checked), with
 * the bonus k_t v_t u; q is multiplied by scale once loaded (the Lean's qVal = scale*q);
 * the decay is exp(w_t[k]) of the loaded w: w is the log-space decay (RWKV-6 feeds
 * w = -exp(.) < 0).  REVERSE is the exported default false (the Lean fixes it).  The
 * [named] readings stateClosed / outputClosed agree with the loop (stateClosed_succ is
 * the loop body).  o is the per-K-block partial (the host's o.sum(0) is outside).
 * The summary runs as ONE launch (what tilediff runs): every (i_v, i_k, i_bh) program
 * writes every o row t (the Lean's clause 2 at every m), BHOut after step m (clause 3),
 * C after all T steps (clause 4's fold: the kernel's register is the in-place carry; its
 * value after T steps is stateClosed(T)) and ht when STORE_FINAL_STATE (the same value;
 * the Lean deleted that face, the kernel still stores it).  BHPrev is the hypotheses'
 * carried state: scratch.
 *
 * Error model.  The state is the linear recurrence of oracle/lrec.h, a = exp(w) (the
 * math model's budget: exp or exp2(w log2 e), __expf's argument-dependent error), b =
 * RN(k v): td_sh_lrec_step charges 3u per step of the magnitude state M_t (sequential
 * scan, FMA, chunked with the state carried and the decays as a running product).
 * Decays computed the other way -- the chunked kernels (fla's chunk_rwkv6) take the
 * cumulative log decay G_t = sum_{c <= j <= t} w_j inside a chunk of C <= 64 steps and
 * form every decay as exp(G_t - G_s) -- and the chunk's matrix form (every term of a
 * chunk summed in any order, C + 3 roundings: k * decay, * v, C additions, the carried
 * state's product) are charged by a widening per step (fused_rwkv6_kernel.spec.h):
 *     L_t M_t,  L_t = gamma_{C+3} + expm1((2 gamma_C + u) W_t) + rel_exp(W_t),
 * W_t = sum of |w_j| over the 64 steps ending at t (>= |G_t|, |G_s|: the cumsum's error
 * in any order is gamma_C W_t for each, the subtraction u |G_t - G_s|, e^delta - 1 ~ delta
 * relative on every decay; the decayed terms add up to <= M_t), rel_exp the math model's
 * relative exp budget at |x| = W_t, and its absolute part times (C + 1) max M.  The
 * widening is propagated (decayed) like every other error; chunks longer than 64 steps
 * in log space are not covered (their error grows with C W: see the header of
 * oracle/lrec.h for the same limit of the product form).
 * Outputs: q * scale one rounding (or scale applied after the sum: N(either)), the bonus
 * (k v) u or (k u) v (N(either)), h + bonus, the product, and the tile sum over BK in any
 * order (gamma_{BK-1}).  Stores binary32: exact.  State-step IO: one exp, two products,
 * one addition (FMA covered).
 * Special values: finite inputs |x| <= 8; decays <= e^(2^-9) per step over <= 4095 steps:
 * |h| <= 64 * 4095 * e^8 stays far inside binary32 (TD_SV_REAL).
 */
#include "gen.h"
#include "gen_far.h"

enum { P_USE_INIT, P_STORE_FINAL, P_SKH, P_SVH, P_B, P_H, P_T, P_K, P_V, P_BK, P_BV, P_M, P_SCALE, NP };
enum { R_Q, R_K, R_V, R_W, R_U, R_O, R_H0, R_HT, R_BHPREV, R_BHOUT, R_C, NR };
enum { O_O, O_HT, O_BHOUT, O_C }; /* the summary's output channels */
enum { PS_T, PS_SKH, PS_SVH, PS_K, PS_V, PS_BK, PS_BV, NPS }; /* the state-step IO */
enum { RS_BHPREV, RS_K, RS_V, RS_W, RS_BHOUT, NRS };

#define TD_SPEC_FILE "fused_rwkv6_kernel.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"USE_INITIAL_STATE", TD_P_BOOL}, {"STORE_FINAL_STATE", TD_P_BOOL}, {"s_k_h", TD_P_INT}, {"s_v_h", TD_P_INT},
    {"B", TD_P_INT}, {"H", TD_P_INT}, {"T", TD_P_INT}, {"K", TD_P_INT}, {"V", TD_P_INT}, {"BK", TD_P_INT},
    {"BV", TD_P_INT}, {"m", TD_P_INT}, {"scale", TD_P_REAL}};
static const td_region_decl regions[NR] = {
    {"q", TD_F32, TD_R_IN},       {"k", TD_F32, TD_R_IN},  {"v", TD_F32, TD_R_IN},
    {"w", TD_F32, TD_R_IN},       {"u", TD_F32, TD_R_IN},  {"o", TD_F32, TD_R_OUT},
    {"h0", TD_F32, TD_R_IN},      {"ht", TD_F32, TD_R_OUT}, {"BHPrev", TD_F32, TD_R_SCRATCH},
    {"BHOut", TD_F32, TD_R_OUT},  {"C", TD_F32, TD_R_OUT}};
static const td_param_decl params_step[NPS] = {{"t", TD_P_INT},  {"s_k_h", TD_P_INT}, {"s_v_h", TD_P_INT},
                                               {"K", TD_P_INT},  {"V", TD_P_INT},     {"BK", TD_P_INT},
                                               {"BV", TD_P_INT}};
static const td_region_decl regions_step[NRS] = {{"BHPrev", TD_F32, TD_R_IN}, {"k", TD_F32, TD_R_IN},
                                                 {"v", TD_F32, TD_R_IN},      {"w", TD_F32, TD_R_IN},
                                                 {"BHOut", TD_F32, TD_R_OUT}};

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* one log-space decay w of class k (5: each element its own class) */
static double logdecay(td_rng *r, int k) {
    if (k == 5) k = (int)td_rng_below(r, 5);
    double z = td_rng_unit(r);
    switch (k) {
    case 0: return (float)-exp(7.5 * z - 6); /* RWKV-6: w = -exp(x), decays e^-4.5 .. 0.9975 */
    case 1: return 0;                        /* decay exactly 1 */
    case 2: return (float)(-1e-5 * z);       /* decay just below 1 */
    case 3: return (float)(-20 - 90 * z);    /* decay near 0; below e^-103 it underflows in binary32 */
    default: return (float)(0x1p-9 * z);     /* a decay that amplifies */
    }
}

/* K, V, BK <= K and BV <= V powers of two (hBK, hBV), T, B*H and the head strides; one
 * case in 16 a long sequence (2048..4095 steps) on <= 2 heads of width <= 2 */
static void gen_shape(td_producer *p, td_case *c) {
    int long_seq = td_prod_u32(p, 0, 15) == 0;
    int64_t K = td_prod_u32(p, 1, long_seq ? 2 : 8), V = td_prod_u32(p, 1, long_seq ? 2 : 8), BK = 1, BV = 1;
    uint32_t bk = td_prod_u32(p, 0, 3), bv = td_prod_u32(p, 0, 3);
    while (BK * 2 <= K && bk-- > 0) BK *= 2;
    while (BV * 2 <= V && bv-- > 0) BV *= 2;
    int64_t H = td_prod_u32(p, 1, 3), B = td_prod_u32(p, 1, 2);
    static const uint32_t Ts[] = {1, 2, 3, 15, 16, 17, 63, 64, 65};
    uint32_t ti = td_prod_u32(p, 0, 8), tl = td_prod_u32(p, 2048, 4095);
    int64_t T = long_seq ? tl : Ts[ti];
    if (long_seq) B = 1, H = td_prod_u32(p, 1, 2);
    int pad = td_prod_u32(p, 0, 3) == 0;
    c->p[P_B].i = B, c->p[P_H].i = H, c->p[P_T].i = T, c->p[P_K].i = K, c->p[P_V].i = V;
    c->p[P_BK].i = BK, c->p[P_BV].i = BV;
    c->p[P_SKH].i = T * K + (pad ? td_prod_u32(p, 1, 5) : 0);
    c->p[P_SVH].i = T * V + (pad ? td_prod_u32(p, 1, 5) : 0);
    c->grid[0] = (uint32_t)cdiv(V, BV), c->grid[1] = (uint32_t)cdiv(K, BK), c->grid[2] = (uint32_t)(B * H);
    c->classes |= (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (T > 1 ? TD_BC(TD_BC_MULTI_TILE) : TD_BC(TD_BC_SEQ_SINGLE)) |
                  (T >= 63 && T <= 65 ? TD_BC(TD_BC_SEQ_BLOCK_EDGE) : 0) |
                  (K % BK || V % BV ? TD_BC(TD_BC_TAIL) : TD_BC(TD_BC_EXACT_MULTIPLE)) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0);
}

static void gen(td_producer *p, td_case *c) {
    gen_shape(p, c);
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, BH = c->grid[2], NK = c->grid[1];
    c->p[P_USE_INIT].i = td_prod_bool(p);
    c->p[P_STORE_FINAL].i = td_prod_bool(p);
    c->p[P_M].i = td_prod_u32(p, 0, (uint32_t)(T - 1));
    c->p[P_SCALE].r = td_prod_bool(p) ? (double)(float)(1 / sqrt((double)K)) : td_gen_real(p, 0.0625, 2);
    int wk = (int)td_prod_u32(p, 0, 5);
    size_t skh = (size_t)(BH * c->p[P_SKH].i), svh = (size_t)(BH * c->p[P_SVH].i), st = (size_t)(BH * K * V);
    td_case_alloc(c, R_Q, skh), td_case_alloc(c, R_K, skh), td_case_alloc(c, R_W, skh), td_case_alloc(c, R_V, svh);
    td_case_alloc(c, R_U, (size_t)(c->p[P_H].i * K)), td_case_alloc(c, R_O, (size_t)NK * svh + 3);
    td_case_alloc(c, R_H0, st);
    for (int r = R_HT; r <= R_C; r++) td_case_alloc(c, r, st + 3);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    static const int ins[] = {R_Q, R_K, R_V, R_U, R_H0};
    for (int i = 0; i < 5; i++) td_vgen_fill(&g, c, ins[i]);
    for (size_t i = 0; i < skh; i++) td_set(c, R_W, i, logdecay(&g.rng, wk));
    c->classes |= c->menu == TD_V_SPECIAL || wk == 1 || wk == 3 ? TD_BC(TD_BC_VALUES_SPECIAL) : 0;
}

/* 1 when every log decay w of region `reg` below element n is <= 2^-9 (finite); of a
 * sparse (far) region only the written pages are read: the others hold zeros */
typedef struct w_scan {
    const td_case *c;
    int reg, bad;
    size_t n;
} w_scan;
static void w_span(void *u, size_t lo, size_t hi) {
    w_scan *q = u;
    for (size_t i = lo / 4; i < hi / 4 && i < q->n && !q->bad; i++) q->bad = !(td_get(q->c, q->reg, i) <= 0x1p-9);
}
static int w_ok(const td_case *c, int reg, size_t n) {
    w_scan q = {c, reg, 0, n};
    if (c->r[reg].mapped) td_touched_pages(c->r[reg].data, c->r[reg].len * 4, w_span, &q);
    else w_span(&q, 0, n * 4);
    return !q.bad;
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS heads (B*H, H dividing them) of
 * q, k and w at s_k_h near 2^31 (one parameter), over sparse regions, as a kernel forming
 * i_bh * s_k_h in int32 gets wrong; v keeps s_v_h (o, an output, shares it: dense). */
static void far(td_producer *p, td_case *c) {
    int64_t H = c->p[P_H].i, R = td_far_bh_rows(c->grid[2], &H), w = c->p[P_T].i * c->p[P_K].i;
    const td_far_reg r[3] = {{R_Q, P_SKH, w}, {R_K, P_SKH, w}, {R_W, P_SKH, w}};
    if (H == c->p[P_H].i && td_far_heads(p, c, 2, R, r, 3)) c->p[P_B].i = R / H; /* u is [H, K]: H kept */
}

static const char *check_tiles(const td_case *c, int64_t K, int64_t V, int64_t BK, int64_t BV) {
    if (BV <= 0) return "hBVpos: 0 < BV";
    if (BK <= 0 || (BK & (BK - 1)) || (BV & (BV - 1))) return "BK, BV are powers of two (tl.arange)";
    if (BV > V) return "hBV: BV <= V";
    if (BK > K) return "hBK: BK <= K";
    if (c->grid[0] != (uint32_t)cdiv(V, BV) || c->grid[1] != (uint32_t)cdiv(K, BK) || c->grid[2] == 0)
        return "grid = (cdiv(V, BV), cdiv(K, BK), B*H)";
    return NULL;
}

static const char *check(const td_case *c) {
    for (int i = P_SKH; i <= P_M; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, BH = c->p[P_B].i * c->p[P_H].i;
    const char *e = check_tiles(c, K, V, c->p[P_BK].i, c->p[P_BV].i);
    if (e) return e;
    if (T <= 0 || c->p[P_M].i >= T) return "0 <= m < T";
    if (c->p[P_H].i <= 0 || c->grid[2] != (uint32_t)BH) return "grid axis 2 = B*H, H > 0";
    if (c->p[P_SKH].i < T * K || c->p[P_SVH].i < T * V) return "s_k_h >= T*K, s_v_h >= T*V (rows of a head)";
    if ((double)(float)c->p[P_SCALE].r != c->p[P_SCALE].r || !isfinite(c->p[P_SCALE].r)) return "scale is binary32";
    /* q, k, w: up to the last head's last row (a far s_k_h leaves no whole last head) */
    size_t skh = (size_t)((BH - 1) * c->p[P_SKH].i + T * K), svh = (size_t)(BH * c->p[P_SVH].i);
    size_t st = (size_t)(BH * K * V);
    if (c->r[R_Q].len < skh || c->r[R_K].len < skh || c->r[R_W].len < skh || c->r[R_V].len < svh)
        return "q, k, w, v hold every head's rows";
    if (c->r[R_U].len < (size_t)(c->p[P_H].i * K) || c->r[R_O].len < c->grid[1] * svh) return "u [H, K], o NK blocks";
    for (int r = R_H0; r <= R_C; r++)
        if (c->r[r].len < st) return "the state regions hold B*H*K*V";
    if (!w_ok(c, R_W, skh)) return "log decays w <= 2^-9 (finite)";
    return NULL;
}

static void add(td_wset *ws, uint32_t o, int reg, int64_t off, const uint32_t pid[3], int64_t t, int64_t a,
                int64_t b, int64_t j) {
    td_olane l = {.o = o, .region = (uint32_t)reg, .off = (uint64_t)off, .pid = {pid[0], pid[1], pid[2]},
                  .t = (uint32_t)t, .j = (uint64_t)j, .idx = {pid[2], a, b, t}};
    td_wset_add(ws, &l);
}

/* the state lanes of one program (mask_kv): idx = {bh, k, v, steps} */
static void state_lanes(const td_case *c, td_wset *ws, const uint32_t pid[3], uint32_t o, int reg, int64_t steps) {
    int64_t K = c->p[P_K].i, V = c->p[P_V].i, BK = c->p[P_BK].i, BV = c->p[P_BV].i;
    for (int64_t r = 0; r < BV; r++)
        for (int64_t cc = 0; cc < BK; cc++) {
            int64_t k = pid[1] * BK + cc, v = pid[0] * BV + r;
            if (k < K && v < V) add(ws, o, reg, (int64_t)pid[2] * K * V + k * V + v, pid, steps, k, v, r * BK + cc);
        }
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t T = c->p[P_T].i, V = c->p[P_V].i, BV = c->p[P_BV].i, BH = c->grid[2], svh = c->p[P_SVH].i;
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++) {
                const uint32_t pid[3] = {p0, p1, p2};
                for (int64_t t = 0; t < T; t++) /* increasing t: the spec's memo is filled in order */
                    for (int64_t r = 0; r < BV; r++) {
                        int64_t v = p0 * BV + r;
                        if (v < V) add(ws, O_O, R_O, (p2 + p1 * BH) * svh + v + t * V, pid, t, p1, v, r);
                    }
                state_lanes(c, ws, pid, O_BHOUT, R_BHOUT, c->p[P_M].i + 1);
                state_lanes(c, ws, pid, O_C, R_C, T);
                if (c->p[P_STORE_FINAL].i) state_lanes(c, ws, pid, O_HT, R_HT, T);
            }
}

/* ---- the state-step IO ---- */
static void gen_step(td_producer *p, td_case *c) {
    int64_t K = td_prod_u32(p, 1, 40), V = td_prod_u32(p, 1, 40), BK = td_gen_pow2(p, 0, 5), BV = td_gen_pow2(p, 0, 5);
    while (BK > K) BK /= 2;
    while (BV > V) BV /= 2;
    int64_t BH = td_prod_u32(p, 1, 3), T = td_prod_u32(p, 1, 4), t = td_prod_u32(p, 0, (uint32_t)(T - 1));
    int pad = td_prod_u32(p, 0, 3) == 0;
    int64_t skh = T * K + (pad ? td_prod_u32(p, 1, 7) : 0), svh = T * V + (pad ? td_prod_u32(p, 1, 7) : 0);
    c->p[PS_T].i = t, c->p[PS_SKH].i = skh, c->p[PS_SVH].i = svh, c->p[PS_K].i = K, c->p[PS_V].i = V;
    c->p[PS_BK].i = BK, c->p[PS_BV].i = BV;
    c->grid[0] = (uint32_t)cdiv(V, BV), c->grid[1] = (uint32_t)cdiv(K, BK), c->grid[2] = (uint32_t)BH;
    int wk = (int)td_prod_u32(p, 0, 5);
    td_case_alloc(c, RS_BHPREV, (size_t)(BH * K * V)), td_case_alloc(c, RS_BHOUT, (size_t)(BH * K * V) + 3);
    td_case_alloc(c, RS_K, (size_t)(BH * skh)), td_case_alloc(c, RS_W, (size_t)(BH * skh));
    td_case_alloc(c, RS_V, (size_t)(BH * svh));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 256);
    td_vgen_fill(&g, c, RS_BHPREV), td_vgen_fill(&g, c, RS_K), td_vgen_fill(&g, c, RS_V);
    for (size_t i = 0; i < (size_t)(BH * skh); i++) td_set(c, RS_W, i, logdecay(&g.rng, wk));
    c->classes |= (K % BK || V % BV ? TD_BC(TD_BC_TAIL) : TD_BC(TD_BC_EXACT_MULTIPLE)) |
                  (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (c->grid[0] * c->grid[1] > 1 ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0) |
                  (c->menu == TD_V_SPECIAL || wk == 1 || wk == 3 ? TD_BC(TD_BC_VALUES_SPECIAL) : 0);
}
/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS heads of k and w at s_k_h and of
 * v at s_v_h near 2^31 (one stride), rows 0..t of each, over sparse regions, as a kernel
 * forming p2 * s_k_h in int32 gets wrong; BHPrev and BHOut keep p2 * K * V. */
static void far_step(td_producer *p, td_case *c) {
    int64_t t1 = c->p[PS_T].i + 1, K = c->p[PS_K].i, V = c->p[PS_V].i;
    int64_t R = c->grid[2] < TD_FAR_MAX_ROWS ? c->grid[2] : TD_FAR_MAX_ROWS;
    const td_far_reg r[3] = {{RS_K, PS_SKH, t1 * K}, {RS_W, PS_SKH, t1 * K}, {RS_V, PS_SVH, t1 * V}};
    (void)td_far_heads(p, c, 2, R, r, 3);
}

static const char *check_step(const td_case *c) {
    for (int i = 0; i < NPS; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t K = c->p[PS_K].i, V = c->p[PS_V].i, t = c->p[PS_T].i, BH = c->grid[2];
    if (K <= 0 || V <= 0) return "K, V > 0";
    if (c->p[PS_BK].i <= 0 || c->p[PS_BV].i <= 0 || c->p[PS_BK].i > K || c->p[PS_BV].i > V)
        return "0 < BK <= K, 0 < BV <= V (the hOutInj tile inside a row)";
    if (c->grid[0] != (uint32_t)cdiv(V, c->p[PS_BV].i) || c->grid[1] != (uint32_t)cdiv(K, c->p[PS_BK].i) || BH == 0)
        return "grid = (cdiv(V, BV), cdiv(K, BK), B*H)";
    if (c->p[PS_SKH].i < (t + 1) * K || c->p[PS_SVH].i < (t + 1) * V) return "row t inside each head";
    /* k, w, v: up to row t of the last head (a far head stride leaves no whole last head) */
    size_t skh = (size_t)((BH - 1) * c->p[PS_SKH].i + (t + 1) * K), st = (size_t)(BH * K * V);
    if (c->r[RS_BHPREV].len < st || c->r[RS_BHOUT].len < st || c->r[RS_K].len < skh || c->r[RS_W].len < skh ||
        c->r[RS_V].len < (size_t)((BH - 1) * c->p[PS_SVH].i + (t + 1) * V))
        return "regions hold every program's tiles";
    if (!w_ok(c, RS_W, skh)) return "log decays w <= 2^-9 (finite)";
    return NULL;
}
static void writes_step(const td_case *c, td_wset *ws) {
    int64_t K = c->p[PS_K].i, V = c->p[PS_V].i, BK = c->p[PS_BK].i, BV = c->p[PS_BV].i;
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
                for (int64_t r = 0; r < BV; r++)
                    for (int64_t cc = 0; cc < BK; cc++) {
                        int64_t k = p1 * BK + cc, v = p0 * BV + r;
                        if (k >= K || v >= V) continue;
                        td_olane l = {.region = RS_BHOUT, .off = (uint64_t)(p2 * K * V + k * V + v),
                                      .pid = {p0, p1, p2}, .j = (uint64_t)(r * BK + cc), .idx = {p2, k, v}};
                        td_wset_add(ws, &l);
                    }
}

const td_contract td_c_fused_rwkv6_step = {
    .id = "fused_rwkv6_kernel.fused_recurrent_rwkv6_state_step_io_correctness",
    .file = "fused_rwkv6_kernel",
    .family = "recurrence",
    .io_class = "Masked3DTileShaped4KernelIO (stateStepIO)",
    .kind = "exact",
    .formula = "BHOut[p2*K*V + k*V + v] = BHPrev[same] * exp(w[p2*s_k_h + k + t*K]) + k[same] * v[p2*s_v_h + v + t*V]"
               "  (mask k < K && v < V)",
    .nparams = NPS,
    .params = params_step,
    .nregions = NRS,
    .regions = regions_step,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 256, log decays w <= 2^-9: every value finite",
    .error_model = "exp by the math model (exp or exp2), two products and one addition (FMA covered)",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_step,
    .far = far_step,
    .check = check_step,
    .writes = writes_step,
    TD_SPECS(rwkv6_step),
};

/* The intent (fused_rwkv6_kernel.spec.h): RWKV-6's WKV recurrence.  o is a per-K-block
 * partial (the host sums the NK blocks, o.sum(0)): a case with more than one K block is
 * set apart. */
static const char *rwkv6_partial(const td_case *c) {
    return c->grid[1] > 1 ? "cdiv(K, BK) > 1: o is a per-K-block partial the host sums (o.sum(0))" : NULL;
}
static const td_intent intent = {
    .operation = "RWKV-6 WKV per head: o_t = sum_k r_t[k] scale (S_t[k, :] + u[k] k_t[k] v_t), "
                 "S_{t+1} = diag(exp(w_t)) S_t + k_t v_t^T, S_0 = h0 or 0; the final state S_T",
    .definition = "Peng et al. 2024, Eagle and Finch (RWKV-5/6), the Finch time-mixing WKV: "
                  "wkv_t = diag(u) k_t^T v_t + sum_{i<t} diag(prod_{j=i+1}^{t-1} w_j) k_i^T v_i, o_t = r_t wkv_t, "
                  "with the data-dependent decay w_t = exp(-exp(.)) given here in log space (w = log decay)",
    TD_SPECS(rwkv6_intent),
    .partial = rwkv6_partial,
};

const td_contract td_c_fused_rwkv6_summary = {
    .id = "fused_rwkv6_kernel.fused_recurrent_rwkv6_output_summary_general",
    .file = "fused_rwkv6_kernel",
    .family = "recurrence",
    .io_class = "Realizes_without_Rounding bundle (output step, state step, in-place carry fold) + lowering",
    .kind = "exact",
    .formula = "h_{t+1}[v,k] = h_t[v,k] exp(w_t[k]) + k_t[k] v_t[v], h_0 = h0 or 0; "
               "o_t[v] = sum_{k in tile} (h_t[v,k] + k_t[k] v_t[v] u[i_h,k]) (scale q_t[k]); BHOut = h_{m+1}; C, ht = h_T",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8, log decays <= 2^-9: every state and sum stays finite",
    .error_model = "linear recurrence by oracle/lrec.h (3u per step of the magnitude state), widened per step for "
                   "log-space cumulative decays and the chunk matrix form (chunks <= 64 steps); exp by the math "
                   "model; the tile sum in any order; scale and bonus in either association",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) |
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(rwkv6_summary),
    .intent = &intent,
};
