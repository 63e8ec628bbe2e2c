/* chunk_linear_attn: the chunk-state recurrences of chunked linear attention, forward
 * (chunk_linear_attn_fwd_kernel_h) and backward (chunk_linear_attn_bwd_kernel_dh)
 * (catalogue part 2, src lines 2475-2508).
 *
 *   cla_fwd_h_exec_genuine (h != k, v; ht != h; hsigma : BV <= s_h_t;
 *     hFit : (K-1)*s_h_t + V <= K*V; hBVV : BV <= V): the launch terminates and for every
 *     chunk t < NT and active lane (e, p) (claActive: e < K, p < V)
 *       h[i_bh*s_h_h + t*K*V + e*s_h_t + p] = claHState(t)
 *         = (USE_INITIAL_STATE ? h0[i_bh*K*V + e*V + p] : 0)
 *           + sum_{u < t} sum_{c < BT, u*BT + c < T} k[u*BT+c, e] v[u*BT+c, p],
 *     and, if STORE_FINAL_STATE, ht[i_bh*K*V + e*V + p] = claHState(NT).
 *   cla_bwd_dh_exec_genuine (dh != q, do; hsigma; hFit): for every t < NT, active (e, p)
 *       dh[i_bh*s_h_h + t*K*V + e*s_h_t + p] = claDhState(t)
 *         = sum_{t < u < NT} sum_{c < BT, u*BT + c < T} (q[u*BT+c, e] * scale) do[u*BT+c, p].
 *   k, q at i_bh*s_qk_h + t*s_qk_t + e*s_qk_d, v, do at i_bh*s_vo_h + t*s_vo_t + p*s_vo_d.
 *
 * Checked against bench/tritonbench_g/chunk_linear_attn (the .py and ChunkLinearAttn.lean):
 * grid (NK, NV, B*H) = (cdiv(K, BK), cdiv(V, BV), B*H) for both kernels (pid 0 the K
 * block, pid 1 the V block); the state tile is STORED before the chunk's tl.dot is
 * added (chunk t receives the state of the chunks before it: an exclusive scan over
 * chunks); the backward loop descends from NT - 1, so dh[t] sums the strictly later
 * chunks; q is scaled before the dot (b_q * scale, one rounding per element, then the
 * product); rows past T load 0.  NT is the host's cdiv(T, BT) (the theorem takes it
 * as a parameter; the generator passes the host's value and the checker requires it).
 * The preconditions force BV <= s_h_t <= V (K > 1): the generator uses the host's
 * s_h_t = V (h.stride(2)) and BV a power of two <= V, s_h_h >= NT*K*V (h.stride(1),
 * padded in some cases) so the chunk blocks of every head are disjoint.
 *
 * Error model: every state is one sum, in any order, of the initial state and all the
 * products k v (q scale . do) of the chunks it covers: a kernel may form it chunk by
 * chunk (the original: the carried tile plus a tl.dot of BT terms), token by token
 * (the recurrent form), or as any tree.  The spec writes each state as one sum of all
 * its leaves, charged gamma_{n-1} sum |leaves| for its n leaves (Higham 4.2, any order),
 * each product one rounding (u|k v|, or none with FMA: the sum's charge covers it),
 * q*scale one rounding; binary32 stores are exact.  Cost O(t BT) per lane at chunk t
 * (contracts/chunk_linear_attn.spec.h says why not a memoised chain).
 * Special values: finite inputs |x| <= 8; |state| <= 64 T + 8 far inside binary32.
 */
#include "gen.h"
#include "gen_far.h"

enum { P_SQKH, P_SQKT, P_SQKD, P_SVOH, P_SVOT, P_SVOD, P_SHH, P_SHT, P_T, P_K, P_V, P_BT, P_BK, P_BV, P_NT,
       P_USE_INIT, P_STORE_FINAL, NP };
enum { R_K, R_V, R_H, R_H0, R_HT, NR };
/* the backward contract's parameters and regions */
enum { PB_SQKH, PB_SQKT, PB_SQKD, PB_SVOH, PB_SVOT, PB_SVOD, PB_SHH, PB_SHT, PB_SCALE, PB_T, PB_K, PB_V, PB_BT,
       PB_BK, PB_BV, PB_NT, NPB };
enum { RB_Q, RB_DO, RB_DH, NRB };
enum { O_H, O_HT };

#define TD_SPEC_FILE "chunk_linear_attn.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"s_qk_h", TD_P_INT}, {"s_qk_t", TD_P_INT}, {"s_qk_d", TD_P_INT}, {"s_vo_h", TD_P_INT}, {"s_vo_t", TD_P_INT},
    {"s_vo_d", TD_P_INT}, {"s_h_h", TD_P_INT},  {"s_h_t", TD_P_INT},  {"T", TD_P_INT},      {"K", TD_P_INT},
    {"V", TD_P_INT},      {"BT", TD_P_INT},     {"BK", TD_P_INT},     {"BV", TD_P_INT},     {"NT", TD_P_INT},
    {"USE_INITIAL_STATE", TD_P_BOOL}, {"STORE_FINAL_STATE", TD_P_BOOL}};
static const td_region_decl regions[NR] = {{"k", TD_F32, TD_R_IN}, {"v", TD_F32, TD_R_IN}, {"h", TD_F32, TD_R_OUT},
                                           {"h0", TD_F32, TD_R_IN}, {"ht", TD_F32, TD_R_OUT}};
static const td_param_decl params_b[NPB] = {
    {"s_qk_h", TD_P_INT}, {"s_qk_t", TD_P_INT}, {"s_qk_d", TD_P_INT}, {"s_vo_h", TD_P_INT}, {"s_vo_t", TD_P_INT},
    {"s_vo_d", TD_P_INT}, {"s_h_h", TD_P_INT},  {"s_h_t", TD_P_INT},  {"scale", TD_P_REAL},  {"T", TD_P_INT},
    {"K", TD_P_INT},      {"V", TD_P_INT},      {"BT", TD_P_INT},     {"BK", TD_P_INT},     {"BV", TD_P_INT},
    {"NT", TD_P_INT}};
static const td_region_decl regions_b[NRB] = {
    {"q", TD_F32, TD_R_IN}, {"do_", TD_F32, TD_R_IN}, {"dh", TD_F32, TD_R_OUT}};

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* the layout parameters shared by both kernels, at their positions in each table */
typedef struct cla_layout {
    int sqkh, sqkt, sqkd, svoh, svot, svod, shh, sht, T, K, V, BT, BK, BV, NT;
} cla_layout;
static const cla_layout LF = {P_SQKH, P_SQKT, P_SQKD, P_SVOH, P_SVOT, P_SVOD, P_SHH, P_SHT,
                              P_T,    P_K,    P_V,    P_BT,   P_BK,   P_BV,   P_NT};
static const cla_layout LB = {PB_SQKH, PB_SQKT, PB_SQKD, PB_SVOH, PB_SVOT, PB_SVOD, PB_SHH, PB_SHT,
                              PB_T,    PB_K,    PB_V,    PB_BT,   PB_BK,   PB_BV,   PB_NT};
#define LP(c, f) ((c)->p[lay->f].i)

/* the element count a [BH, T, D] operand of strides (sh, st, sd) needs */
static size_t cla_len(int64_t BH, int64_t T, int64_t D, int64_t sh, int64_t st, int64_t sd) {
    return (size_t)((BH - 1) * sh + (T - 1) * st + (D - 1) * sd + 1);
}

/* strides of a [BH, T, D] operand: rows of D (s_d = 1) or, one case in 4, transposed
 * (s_t = 1, columns of T); padded in one case in 4 */
static void cla_strides(td_producer *p, td_case *c, const cla_layout *lay, int vo, int64_t T, int64_t D,
                        uint64_t *cls) {
    int trans = td_prod_u32(p, 0, 3) == 0, pad = td_prod_u32(p, 0, 3) == 0;
    int64_t pd = pad ? td_prod_u32(p, 1, 3) : 0, st, sd, sh;
    if (trans) sd = T + pd, st = 1, sh = D * sd + pd;
    else st = D + pd, sd = 1, sh = T * st + pd;
    c->p[vo ? lay->svoh : lay->sqkh].i = sh, c->p[vo ? lay->svot : lay->sqkt].i = st;
    c->p[vo ? lay->svod : lay->sqkd].i = sd;
    *cls |= pad || trans ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0;
}

/* Shape: K, V 1..6, BK a power of two up to 8, BV a power of two <= V (hsigma), BT
 * 1..32, T by td_gen_count over BT up to 96, B*H 1..2; one case in 16 a long sequence
 * (1024..4096 steps, BT 64, K, V <= 2, one head): the spec costs NT^2 BT K V / 2
 * products per case (at most ~3*10^5). */
static void cla_shape(td_producer *p, td_case *c, const cla_layout *lay) {
    int long_seq = td_prod_u32(p, 0, 15) == 0;
    int64_t K = td_prod_u32(p, 1, long_seq ? 2 : 6), V = td_prod_u32(p, 1, long_seq ? 2 : 6);
    int64_t BK = td_gen_pow2(p, 0, 3), BV = 1, BT = td_gen_pow2(p, long_seq ? 6 : 0, long_seq ? 6 : 5);
    int64_t bvmax = td_prod_u32(p, 0, 3), BH = td_prod_u32(p, 1, 2);
    while (BV * 2 <= V && bvmax-- > 0) BV *= 2;
    uint64_t cls = 0;
    int64_t T = (int64_t)td_gen_count(p, (uint64_t)BT, 96, &cls);
    uint32_t tl = td_prod_u32(p, 1024, 4096);
    if (long_seq) T = tl, BH = 1;
    int64_t NT = cdiv(T, BT);
    c->p[lay->T].i = T, c->p[lay->K].i = K, c->p[lay->V].i = V, c->p[lay->BT].i = BT, c->p[lay->BK].i = BK;
    c->p[lay->BV].i = BV, c->p[lay->NT].i = NT;
    cla_strides(p, c, lay, 0, T, K, &cls);
    cla_strides(p, c, lay, 1, T, V, &cls);
    int padh = td_prod_u32(p, 0, 3) == 0;
    c->p[lay->sht].i = V, c->p[lay->shh].i = NT * K * V + (padh ? td_prod_u32(p, 1, 7) : 0);
    c->grid[0] = (uint32_t)cdiv(K, BK), c->grid[1] = (uint32_t)cdiv(V, BV), c->grid[2] = (uint32_t)BH;
    c->classes |= (cls & (TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_EXACT_MULTIPLE) |
                          TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_STRIDE_GT_ROW))) |
                  (padh ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (NT > 1 ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (T == 1 ? TD_BC(TD_BC_SEQ_SINGLE) : 0) |
                  (BT > 1 && T >= BT - 1 && T <= BT + 1 ? TD_BC(TD_BC_SEQ_BLOCK_EDGE) : 0) |
                  (BK >= 4 * K ? TD_BC(TD_BC_BLOCK_GT_N) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0);
}

static void cla_fill(td_producer *p, td_case *c, const int *ins, int nins) {
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    for (int i = 0; i < nins; i++) td_vgen_fill(&g, c, ins[i]);
    c->classes |= c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0;
}

static void gen_fwd(td_producer *p, td_case *c) {
    const cla_layout *lay = &LF;
    cla_shape(p, c, lay);
    c->p[P_USE_INIT].i = td_prod_bool(p);
    c->p[P_STORE_FINAL].i = td_prod_bool(p);
    int64_t BH = c->grid[2], T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i;
    td_case_alloc(c, R_K, cla_len(BH, T, K, LP(c, sqkh), LP(c, sqkt), LP(c, sqkd)));
    td_case_alloc(c, R_V, cla_len(BH, T, V, LP(c, svoh), LP(c, svot), LP(c, svod)));
    td_case_alloc(c, R_H, (size_t)(BH * c->p[P_SHH].i) + 3);
    td_case_alloc(c, R_H0, (size_t)(BH * K * V)), td_case_alloc(c, R_HT, (size_t)(BH * K * V) + 3);
    static const int ins[] = {R_K, R_V, R_H0};
    cla_fill(p, c, ins, 3);
}

static void gen_bwd(td_producer *p, td_case *c) {
    const cla_layout *lay = &LB;
    cla_shape(p, c, lay);
    c->p[PB_SCALE].r = td_prod_bool(p) ? (double)(float)(1 / sqrt((double)c->p[PB_K].i)) : td_gen_real(p, 0.0625, 2);
    int64_t BH = c->grid[2], T = c->p[PB_T].i, K = c->p[PB_K].i, V = c->p[PB_V].i;
    td_case_alloc(c, RB_Q, cla_len(BH, T, K, LP(c, sqkh), LP(c, sqkt), LP(c, sqkd)));
    td_case_alloc(c, RB_DO, cla_len(BH, T, V, LP(c, svoh), LP(c, svot), LP(c, svod)));
    td_case_alloc(c, RB_DH, (size_t)(BH * c->p[PB_SHH].i) + 3);
    static const int ins[] = {RB_Q, RB_DO};
    cla_fill(p, c, ins, 2);
}

/* Offsets beyond 2^31 (gen_far.h): both heads (B*H <= 2) of the two inputs at s_qk_h
 * (region 0: k or q) and s_vo_h (region 1: v or do) near 2^31, one stride, over sparse
 * regions, as a kernel forming i_bh * s_qk_h in int32 gets wrong; the state outputs keep
 * their layout (i_bh * s_h_h, i_bh * K * V). */
static void cla_far(td_producer *p, td_case *c, const cla_layout *lay) {
    int64_t T = LP(c, T), K = LP(c, K), V = LP(c, V), R = c->grid[2] < TD_FAR_MAX_ROWS ? c->grid[2] : TD_FAR_MAX_ROWS;
    const td_far_reg r[2] = {{0, lay->sqkh, (T - 1) * LP(c, sqkt) + (K - 1) * LP(c, sqkd) + 1},
                             {1, lay->svoh, (T - 1) * LP(c, svot) + (V - 1) * LP(c, svod) + 1}};
    (void)td_far_heads(p, c, 2, R, r, 2);
}
static void far_fwd(td_producer *p, td_case *c) { cla_far(p, c, &LF); }
static void far_bwd(td_producer *p, td_case *c) { cla_far(p, c, &LB); }

static const char *cla_check(const td_case *c, const cla_layout *lay, int rk, int rv, int rh) {
    for (int i = 0; i < (rh == R_H ? NP : NPB); i++)
        if (c->p[i].i < 0 && !(rh == RB_DH && i == PB_SCALE)) return "parameters are Nat";
    int64_t T = LP(c, T), K = LP(c, K), V = LP(c, V), BT = LP(c, BT), BK = LP(c, BK), BV = LP(c, BV);
    if (BT <= 0 || BK <= 0 || BV <= 0 || (BT & (BT - 1)) || (BK & (BK - 1)) || (BV & (BV - 1)))
        return "BT, BK, BV are powers of two (tl.arange, block pointers)";
    if (T <= 0 || K <= 0 || V <= 0) return "T, K, V > 0";
    if (LP(c, NT) != cdiv(T, BT)) return "NT = cdiv(T, BT) (the host's chunk count)";
    if (BV > LP(c, sht)) return "hsigma: BV <= s_h_t";
    if ((K - 1) * LP(c, sht) + V > K * V) return "hFit: (K-1)*s_h_t + V <= K*V";
    if (rh == R_H && BV > V) return "hBVV: BV <= V";
    if (LP(c, shh) < LP(c, NT) * K * V) return "s_h_h >= NT*K*V (each head's chunk blocks disjoint)";
    if (c->grid[0] != (uint32_t)cdiv(K, BK) || c->grid[1] != (uint32_t)cdiv(V, BV) || c->grid[2] == 0)
        return "grid = (cdiv(K, BK), cdiv(V, BV), B*H)";
    int64_t BH = c->grid[2];
    if (c->r[rk].len < cla_len(BH, T, K, LP(c, sqkh), LP(c, sqkt), LP(c, sqkd)) ||
        c->r[rv].len < cla_len(BH, T, V, LP(c, svoh), LP(c, svot), LP(c, svod)) ||
        c->r[rh].len < (size_t)(BH * LP(c, shh)))
        return "the operands hold every lane the kernel reads and writes";
    return NULL; /* h != k, v, ht != h (dh != q, do): distinct regions */
}
static const char *check_fwd(const td_case *c) {
    const char *e = cla_check(c, &LF, R_K, R_V, R_H);
    if (e) return e;
    size_t n = (size_t)c->grid[2] * (size_t)(c->p[P_K].i * c->p[P_V].i);
    return c->r[R_H0].len < n || c->r[R_HT].len < n ? "h0, ht hold B*H*K*V" : NULL;
}
static const char *check_bwd(const td_case *c) {
    const char *e = cla_check(c, &LB, RB_Q, RB_DO, RB_DH);
    if (e) return e;
    if ((double)(float)c->p[PB_SCALE].r != c->p[PB_SCALE].r || !isfinite(c->p[PB_SCALE].r)) return "scale is binary32";
    return NULL;
}

/* the state lanes of every program at chunk t (t = NT with ht: the final state) */
static void cla_lanes(const td_case *c, const cla_layout *lay, td_wset *ws, int rh, uint32_t o, int64_t t) {
    int64_t K = LP(c, K), V = LP(c, V), BK = LP(c, BK), BV = LP(c, BV);
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
                for (int64_t r = 0; r < BK; r++)
                    for (int64_t cc = 0; cc < BV; cc++) {
                        int64_t e = p0 * BK + r, pv = p1 * BV + cc;
                        if (e >= K || pv >= V) continue;
                        int64_t off = o == O_HT ? p2 * K * V + e * V + pv
                                                : p2 * LP(c, shh) + t * K * V + e * LP(c, sht) + pv;
                        td_olane l = {.o = o, .region = (uint32_t)rh, .off = (uint64_t)off, .pid = {p0, p1, p2},
                                      .t = (uint32_t)t, .j = (uint64_t)(r * BV + cc), .idx = {p2, t, e, pv}};
                        td_wset_add(ws, &l);
                    }
}
static void writes_fwd(const td_case *c, td_wset *ws) {
    for (int64_t t = 0; t < c->p[P_NT].i; t++) cla_lanes(c, &LF, ws, R_H, O_H, t); /* increasing t: the memo fills in order */
    if (c->p[P_STORE_FINAL].i) cla_lanes(c, &LF, ws, R_HT, O_HT, c->p[P_NT].i);
}
static void writes_bwd(const td_case *c, td_wset *ws) {
    for (int64_t t = c->p[PB_NT].i - 1; t >= 0; t--) cla_lanes(c, &LB, ws, RB_DH, O_H, t); /* decreasing: the memo */
}

#define CLA_CLASSES                                                                                                \
    TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) |   \
        TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) |      \
        TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31)

/* The intents (contracts/chunk_linear_attn.spec.h): causal linear attention's state at
 * the chunk starts and its chunked backward's state gradient.  The h, dh lanes of a
 * program with several K or V blocks are still whole values (the state is elementwise
 * in (e, p)): never partial. */
static const td_intent intent_fwd = {
    .operation = "causal linear attention's running state before each chunk: S_n = S_0 + sum_{s<n} k_s^T v_s at "
                 "n = t*BT (S_0 = initial_state or 0), and the final state S_T",
    .definition = "Katharopoulos et al. 2020, Transformers are RNNs, eq. (9)-(10) (the recurrent form's S_i)",
    TD_SPECS(cla_intent_fwd),
};
static const td_intent intent_bwd = {
    .operation = "the gradient of L = sum_n <do_n, o_n>, o_n = scale q_n S_{n+1}, with respect to the state "
                 "increment of chunk t as the later chunks read it: sum_{n >= (t+1)*BT} scale q_n^T do_n",
    .definition = "Katharopoulos et al. 2020, eq. (9)-(10), reverse-mode gradient through the chunked recurrence",
    TD_SPECS(cla_intent_bwd),
};

const td_contract td_c_chunk_linear_attn_fwd_h = {
    .id = "chunk_linear_attn.cla_fwd_h_exec_genuine",
    .file = "chunk_linear_attn",
    .family = "recurrence",
    .io_class = "exec existential (chunk_linear_attn_fwd_kernel_h, the whole launch)",
    .kind = "exact",
    .formula = "h[t] = (USE_INITIAL_STATE ? h0 : 0) + sum_{u<t} K_u^T V_u (state before chunk t), "
               "ht = h[NT] if STORE_FINAL_STATE",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8: every state finite",
    .error_model = "each state one sum in any order of h0 and all the products of the chunks before it "
                   "(chunked, recurrent or tree forms): gamma_{n-1} sum |leaves| (sum-of-sums rule)",
    .classes = CLA_CLASSES,
    .gen = gen_fwd,
    .far = far_fwd,
    .check = check_fwd,
    .writes = writes_fwd,
    TD_SPECS(cla_fwd),
    .intent = &intent_fwd,
};
const td_contract td_c_chunk_linear_attn_bwd_dh = {
    .id = "chunk_linear_attn.cla_bwd_dh_exec_genuine",
    .file = "chunk_linear_attn",
    .family = "recurrence",
    .io_class = "exec existential (chunk_linear_attn_bwd_kernel_dh, the whole launch)",
    .kind = "exact",
    .formula = "dh[t] = sum_{t<u<NT} (scale Q_u)^T dO_u (reverse accumulation, strictly later chunks)",
    .nparams = NPB,
    .params = params_b,
    .nregions = NRB,
    .regions = regions_b,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8, scale <= 2: every state finite",
    .error_model = "each state one sum in any order of the products (q scale) do of the later chunks: "
                   "q*scale one rounding, gamma_{n-1} sum |leaves| (sum-of-sums rule)",
    .classes = CLA_CLASSES,
    .gen = gen_bwd,
    .far = far_bwd,
    .check = check_bwd,
    .writes = writes_bwd,
    TD_SPECS(cla_bwd),
    .intent = &intent_bwd,
};
