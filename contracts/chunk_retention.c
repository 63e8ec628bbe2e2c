/* chunk_retention: the chunked retention state kernels, forward and backward
 * (catalogue part C, src lines 2510-2542).
 *
 *   crh_fwd_h_exec_genuine (hHk hHv hHtH: distinct regions; hsigma: BV <= s_h_t;
 *     hFit: (K-1)*s_h_t + V <= K*V; hBVV: BV <= V): exec terminates and, for t < NT,
 *     h[crhHOffset(t, idx)] = crhState(t)(e, p) on crhActive lanes, ht[crhHtOffset] =
 *     crhState(NT) when STORE_FINAL_STATE; crhState(0) = h0 (USE_INITIAL_STATE) or 0,
 *     crhState(t+1) = d_b(t) crhState(t) + sum_c k[e, tBT+c] v[tBT+c, p] d_i(t)[c],
 *     d_b(t) = 2^(len(t) b_b), d_i(t)[c] = 2^((len(t)-c-1) b_b), b_b = log2(1 - 2^(-5-i_h)),
 *     len(t) = T % BT on a ragged last chunk, else BT; k, v lanes outside (K, T) / (T, V) 0.
 *   crh_bwd_dh_exec_genuine (hsigma: BT <= s_h_t): exec terminates and dh[crhDhOffset] =
 *     crhDhOut(x, y) = d_b sum_t sum_r (do[tBT+x, i_v BT+r] d_i[x]) v[tBT+r, i_v BT+y] on
 *     crhDhActive lanes (i_v BT + x < K, y < V), d_i[x] = 2^((x+1) b_b), d_b = 2^(BT b_b),
 *     the store at i_bh*s_h_h + i_k*K*V + (i_v BT + x)*s_h_t + y.
 *
 * Checked against bench/tritonbench_g/chunk_retention/ (chunk_retention.py and
 * ChunkRetention.lean): the forward stores h[t] BEFORE chunk t's update (crhState(t), t <
 * NT), the ragged last chunk rebinds d_b / d_i to T % BT, and the Lean's crhDi truncates
 * (T%BT - c - 1) at 0 (Nat) where the kernel's integer tile goes negative -- invisible only
 * because those v rows are masked, which holds when NT >= cdiv(T, BT) (the host's NT): the
 * checker requires it.  crhState is the per-step recurrence h_{s+1} = gamma h_s + k_s v_s
 * sampled at chunk starts (gamma^len H + sum_c gamma^(len-c-1) x_c is len steps), which is
 * how the spec evaluates it (chunk_retention_common.spec.h).  The backward kernel is the
 * upstream one as it is (the Lean's preamble): Triton compiles its tl.dot only when BK =
 * BT = BV, so it is stated with one block size BT; its contraction is scrambled (do's V
 * columns against v's T rows), it accumulates every chunk without decay between them and
 * stores ONE [BT, BT] block at offsets (i_v*BT, i_t*BT) with the post-loop i_t = 0; its
 * dh loads are dead (not transcribed by our ports: nothing reads them).  The launch is the
 * host's grid (cdiv(K, BT), cdiv(V, BT), B*H); the theorem is per program, so the
 * generator keeps the programs' stores disjoint (s_h_t in [BT, V] when several K blocks,
 * s_h_h past a head's blocks).  The input dtype is binary32 (the .to(dtype) casts are
 * identities); the state and the stores are binary32 (exact stores).
 *
 * Error model.  Forward: oracle/lrec.h per step (td_sh_lrec_step: 3u of the magnitude
 * state per step -- sequential scan, FMA, the chunked scan carrying the state with any
 * chunk size), the product k v one rounding, the decay's error (crt_decay: exp2(n b_b) or
 * repeated products, math-model budgets) propagated step by step, and td_sh_lrec_any(n):
 * the chunk's tl.dot in any order (C + 1 roundings on a term's way to the chunk's end,
 * C <= n steps so far).  Backward: a sum of NT*BT terms in any order (gamma_{n-1} sum
 * |terms|, Higham 4.2), each term two roundings plus d_i's error, one rounding of the
 * product by d_b plus its error.  No atol/rtol anywhere.
 * Special values: finite inputs |x| <= 8; |h| <= 64 T stays far below binary32's range.
 */
#include "gen.h"
#include "gen_far.h"

enum { P_SQK_H, P_SQK_T, P_SQK_D, P_SVO_H, P_SVO_T, P_SVO_D, P_SH_H, P_SH_T, P_H, P_T, P_K, P_V, P_BT, P_BK, P_BV,
       P_NT, P_USE_INIT, P_STORE_FINAL, NP };
enum { R_K, R_V, R_H, R_H0, R_HT, NR };
enum { O_H, O_HT };
enum { PB_SVO_H, PB_SVO_T, PB_SVO_D, PB_SH_H, PB_SH_T, PB_H, PB_T, PB_K, PB_V, PB_BT, PB_NT, NPB };
enum { RB_V, RB_DO, RB_DH, NRB };

#define TD_SPEC_FILE "chunk_retention.spec.h"
#include "spec_instantiate.h"
#include "chunk_retention_common.h"

static const td_param_decl params[NP] = {
    {"s_qk_h", TD_P_INT}, {"s_qk_t", TD_P_INT}, {"s_qk_d", TD_P_INT}, {"s_vo_h", TD_P_INT}, {"s_vo_t", TD_P_INT},
    {"s_vo_d", TD_P_INT}, {"s_h_h", TD_P_INT},  {"s_h_t", TD_P_INT},  {"H", TD_P_INT},      {"T", TD_P_INT},
    {"K", TD_P_INT},      {"V", TD_P_INT},      {"BT", TD_P_INT},     {"BK", TD_P_INT},     {"BV", TD_P_INT},
    {"NT", TD_P_INT},     {"USE_INITIAL_STATE", TD_P_BOOL}, {"STORE_FINAL_STATE", TD_P_BOOL}};
static const td_region_decl regions[NR] = {{"k", TD_F32, TD_R_IN},
                                           {"v", TD_F32, TD_R_IN},
                                           {"h", TD_F32, TD_R_OUT},
                                           {"h0", TD_F32, TD_R_IN},
                                           {"ht", TD_F32, TD_R_OUT}};
static const td_param_decl params_b[NPB] = {
    {"s_vo_h", TD_P_INT}, {"s_vo_t", TD_P_INT}, {"s_vo_d", TD_P_INT}, {"s_h_h", TD_P_INT},
    {"s_h_t", TD_P_INT},  {"H", TD_P_INT},      {"T", TD_P_INT},      {"K", TD_P_INT},
    {"V", TD_P_INT},      {"BT", TD_P_INT},     {"NT", TD_P_INT}};
static const td_region_decl regions_b[NRB] = {
    {"v", TD_F32, TD_R_IN}, {"do_", TD_F32, TD_R_IN}, {"dh", TD_F32, TD_R_OUT}};

/* ---- the backward dh kernel ---- */
static int64_t crh_dh_span(const td_case *c) { /* one program block: rows < K, columns < min(BT, V) */
    int64_t K = c->p[PB_K].i, V = c->p[PB_V].i, BT = c->p[PB_BT].i;
    return (int64_t)(c->grid[0] - 1) * K * V + (K - 1) * c->p[PB_SH_T].i + (BT < V ? BT : V);
}

/* Shape: K, V in 1..6, BT a power of two <= 8 (both block sizes); T from the chunk-edge
 * list or, in one case in 16, 2048..4095 steps on width <= 2.  s_h_t = V when BT <= V
 * (several K blocks stay disjoint: hFit's span), else BT (+pad) with K <= BT (one K
 * block).  NT = cdiv(T, BT), one more in one case in 8. */
static void crh_bwd_gen(td_producer *p, td_case *c) {
    int long_seq = td_prod_u32(p, 0, 15) == 0, padded = 0;
    int64_t K = td_prod_u32(p, 1, long_seq ? 2 : 6), V = td_prod_u32(p, 1, long_seq ? 2 : 6);
    int64_t BT = td_gen_pow2(p, 0, 3);
    static const uint32_t Hs[] = {1, 2, 21};
    int64_t H = Hs[td_prod_u32(p, 0, 2)], B = H > 2 ? 1 : td_prod_u32(p, 1, 2);
    if (long_seq) H = 2, B = 1;
    uint32_t ti = td_prod_u32(p, 0, 5), tl = td_prod_u32(p, 2048, 4095);
    const int64_t Ts[] = {1, BT > 1 ? BT - 1 : 2, BT, BT + 1, 2 * BT + 1, 33};
    int64_t T = long_seq ? tl : Ts[ti], BH = B * H;
    int64_t NT = crt_cdiv(T, BT) + (td_prod_u32(p, 0, 7) == 0);
    if (BT > V && K > BT) K = BT;
    c->p[PB_H].i = H, c->p[PB_T].i = T, c->p[PB_K].i = K, c->p[PB_V].i = V, c->p[PB_BT].i = BT, c->p[PB_NT].i = NT;
    crt_layout(p, c, PB_SVO_H, PB_SVO_T, PB_SVO_D, T, V, &padded);
    c->p[PB_SH_T].i = BT <= V ? (td_prod_bool(p) ? V : BT) : BT + (td_prod_bool(p) ? td_prod_u32(p, 1, 3) : 0);
    c->grid[0] = (uint32_t)crt_cdiv(K, BT), c->grid[1] = (uint32_t)crt_cdiv(V, BT), c->grid[2] = (uint32_t)BH;
    c->p[PB_SH_H].i = crh_dh_span(c) + (td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, 4) : 0);
    if (c->p[PB_SH_T].i > V) padded = 1;
    td_case_alloc(c, RB_V, crt_span(c, PB_SVO_H, PB_SVO_T, PB_SVO_D, BH, T, V));
    td_case_alloc(c, RB_DO, crt_span(c, PB_SVO_H, PB_SVO_T, PB_SVO_D, BH, T, V));
    td_case_alloc(c, RB_DH, (size_t)(BH * c->p[PB_SH_H].i) + 3);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    td_vgen_fill(&g, c, RB_V);
    td_vgen_fill(&g, c, RB_DO);
    c->classes |= (padded ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (T > BT ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (T == 1 ? TD_BC(TD_BC_SEQ_SINGLE) : 0) | (T % BT == 0 ? TD_BC(TD_BC_EXACT_MULTIPLE) : TD_BC(TD_BC_TAIL)) |
                  (T < BT && T > 1 ? TD_BC(TD_BC_SEQ_BLOCK_EDGE) : 0) | (BT >= 4 * V ? TD_BC(TD_BC_BLOCK_GT_N) : 0) |
                  (NT > crt_cdiv(T, BT) ? TD_BC(TD_BC_FULLY_MASKED) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0) |
                  (c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS heads (H divides them) of v and
 * do at s_vo_h near 2^31 (one parameter for both), over sparse regions, as a kernel
 * forming i_bh * s_vo_h in int32 gets wrong; dh keeps its layout (i_bh * s_h_h). */
static void crh_bwd_far(td_producer *p, td_case *c) {
    int64_t T = c->p[PB_T].i, V = c->p[PB_V].i, H = c->p[PB_H].i, R = td_far_bh_rows(c->grid[2], &H);
    int64_t w = (T - 1) * c->p[PB_SVO_T].i + (V - 1) * c->p[PB_SVO_D].i + 1;
    const td_far_reg r[2] = {{RB_V, PB_SVO_H, w}, {RB_DO, PB_SVO_H, w}};
    if (td_far_heads(p, c, 2, R, r, 2)) c->p[PB_H].i = H;
}

static const char *crh_bwd_check(const td_case *c) {
    for (int i = 0; i < NPB; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t H = c->p[PB_H].i, T = c->p[PB_T].i, K = c->p[PB_K].i, V = c->p[PB_V].i, BT = c->p[PB_BT].i;
    int64_t NT = c->p[PB_NT].i, BH = c->grid[2];
    if (crt_pow2(BT)) return crt_pow2(BT);
    if (H <= 0 || T <= 0 || K <= 0 || V <= 0 || BH <= 0 || BH % H) return "H, T, K, V > 0; grid axis 2 = B*H";
    if (BT > c->p[PB_SH_T].i) return "hsigma: BT <= s_h_t";
    if (NT < crt_cdiv(T, BT)) return "NT >= cdiv(T, BT) (the host's NT)";
    if (c->grid[0] != (uint32_t)crt_cdiv(K, BT) || c->grid[1] != (uint32_t)crt_cdiv(V, BT))
        return "grid = (cdiv(K, BT), cdiv(V, BT), B*H)";
    if (c->grid[0] > 1 && (K - 1) * c->p[PB_SH_T].i + (BT < V ? BT : V) > K * V)
        return "the K blocks' stores disjoint: (K-1)*s_h_t + min(BT, V) <= K*V when cdiv(K, BT) > 1";
    if (c->p[PB_SH_H].i < crh_dh_span(c)) return "s_h_h past a head's stores";
    size_t sv = crt_span(c, PB_SVO_H, PB_SVO_T, PB_SVO_D, BH, T, V);
    if (c->r[RB_V].len < sv || c->r[RB_DO].len < sv) return "v, do hold every head's [T, V] block";
    if (c->r[RB_DH].len < (size_t)(BH * c->p[PB_SH_H].i)) return "dh holds B*H*s_h_h";
    return NULL;
}

static void crh_bwd_writes(const td_case *c, td_wset *ws) {
    int64_t K = c->p[PB_K].i, V = c->p[PB_V].i, BT = c->p[PB_BT].i;
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
                for (int64_t x = 0; x < BT; x++)
                    for (int64_t y = 0; y < BT; y++) {
                        if (p1 * BT + x >= K || y >= V) continue; /* crhDhActive */
                        int64_t off = p2 * c->p[PB_SH_H].i + p0 * K * V + (p1 * BT + x) * c->p[PB_SH_T].i + y;
                        td_olane l = {.region = RB_DH, .off = (uint64_t)off, .pid = {p0, p1, p2},
                                      .j = (uint64_t)(x * BT + y), .idx = {p2, x, y}};
                        td_wset_add(ws, &l);
                    }
}

static const td_intent fwd_intent = {
    .operation = "RetNet's chunkwise recurrent state per head h: R_0 = h0 or 0, R_{i+1} = gamma^B R_i + "
                 "K_[i]^T (V_[i] * zeta), zeta_c = gamma^(B-c-1), gamma = 1 - 2^(-5-h): the state entering each "
                 "chunk of B = BT steps, and the final state",
    .definition = "Sun et al. 2023, Retentive Network, the chunkwise recurrent representation (sec. 2.3) with "
                  "gamma = 1 - 2^(-5-arange(0, h)); equal to the recurrent S_n = gamma S_{n-1} + k_n^T v_n "
                  "sampled at chunk starts",
    TD_SPECS(crt_fwd_intent),
};

const td_contract td_c_chunk_retention_fwd_h = {
    .id = "chunk_retention.crh_fwd_h_exec_genuine",
    .file = "chunk_retention",
    .family = "recurrence",
    .io_class = "exec existential (configured)",
    .kind = "exact",
    .formula = "h[t] = crhState(t) (t < NT), ht = crhState(NT); crhState(t+1) = 2^(len b_b) crhState(t) + "
               "k_t^T (v_t * 2^((len-c-1) b_b)), b_b = log2(1 - 2^(-5 - i_bh % H))",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8: every state stays finite",
    .error_model = "lrec.h per step (3u M_t, any FMA, chunked with the state carried) + lrec_any (a chunk of up "
                   "to n steps in any order); decay powers exp2(n b_b) or repeated products (math model)",
    .classes = CRT_FWD_CLASSES,
    .gen = crt_fwd_gen,
    .far = crt_fwd_far,
    .check = crt_fwd_check,
    .writes = crt_fwd_writes,
    TD_SPECS(crt_fwd),
    .intent = &fwd_intent,
};

const td_contract td_c_chunk_retention_bwd_dh = {
    .id = "chunk_retention.crh_bwd_dh_exec_genuine",
    .file = "chunk_retention",
    .family = "recurrence",
    .io_class = "exec existential (configured)",
    .kind = "exact",
    .formula = "dh[(i_v BT + x) s_h_t + y] = 2^(BT b_b) sum_t sum_r do[tBT+x, i_v BT+r] 2^((x+1) b_b) "
               "v[tBT+r, i_v BT+y]  (the upstream kernel's scrambled contraction)",
    .nparams = NPB,
    .params = params_b,
    .nregions = NRB,
    .regions = regions_b,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8: every sum stays finite",
    .error_model = "a sum of NT*BT products in any order (gamma_{n-1}), decay powers exp2(n b_b) or repeated "
                   "products (math model), one rounding per product",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) |
               TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) |
               TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_FULLY_MASKED) |
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = crh_bwd_gen,
    .far = crh_bwd_far,
    .check = crh_bwd_check,
    .writes = crh_bwd_writes,
    TD_SPECS(crh_dh),
};
