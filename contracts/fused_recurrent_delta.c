/* fused_recurrent_delta: the delta-rule recurrence's output step (catalogue part 2,
 * src lines 4848-4879).
 *
 *   fused_recurrent_delta_output_step_io_correctness (hOutInj: for all p0 p1 p2,
 *     jv -> (p2 + p1*B*H)*s_vo_h + p0*BV + jv + t*V injective),
 *     Masked3DTileShapedKernelIO_2 (outputStepIO): o[jv] = sum_{jk < BK, p1*BK + jk < K}
 *     HNext[jv, jk] * q[jk]  (o_t = h_t q_t for one K block); read1 (HNext) =
 *     p2*K*V + (p1*BK + jk)*V + p0*BV + jv, read2 (q) = p2*s_qk_h + p1*BK + jk + t*K,
 *     write = (p2 + p1*B*H)*s_vo_h + p0*BV + jv + t*V; mask1 p1*BK + jk < K &&
 *     p0*BV + jv < V, mask2 p1*BK + jk < K, writeMask p0*BV + jv < V.
 *
 * Checked against bench/tritonbench_g/fused_recurrent_delta (the .py's forward loop:
 * `_o = h * b_q[None, :]; _o = tl.sum(_o, axis=1)` stored at p_o, p_o += V per step;
 * FusedRecurrentDelta.lean's outputStepIO): the slice is the step's output with the
 * state read from the fiction region HNext (the [BV, BK] tile of the flat state
 * layout) and q unscaled (scale = 1 passed to the slice, as the catalogue notes).
 * hOutInj holds when s_vo_h >= (t + 1) * V (every block's rows apart); the generator
 * draws it so and the checker verifies that sufficient condition.
 * Error model: a dot product of the active BK terms, exact binary32 inputs, any order
 * (gamma_{n-1} over the products' magnitudes plus their roundings).
 * Special values: finite inputs |x| <= 2^60: the products and sums stay finite.
 * The summary theorem (11 conjuncts over the forward and backward surfaces) is the
 * second contract of this file (below).
 */
#include <stdlib.h>

#include "gen.h"
#include "gen_far.h"

enum { P_T, P_SQK, P_SVO, P_B, P_H, P_K, P_V, P_BK, P_BV, NP };
enum { R_HNEXT, R_Q, R_O, NR };

/* the summary bundle (fused_recurrent_delta_output_summary_general) */
enum { SP_HEADWISE, SP_USE_INIT, SP_STORE_FINAL, SP_USE_DH0, SP_USE_DHT, SP_SQK, SP_SVO, SP_NK, SP_B, SP_H, SP_T,
       SP_K, SP_V, SP_BK, SP_BV, SP_M, SP_SCALE, NSP };
enum { SR_Q, SR_K, SR_V, SR_BETA, SR_O, SR_H0, SR_HT, SR_DHT, SR_DH0, SR_DO, SR_DQ, SR_DK, SR_DV, SR_DBETA, SR_HPREV,
       SR_HOUT, SR_DHPREV, SR_HREC, NSR };
/* the summary's output channels (td_olane.o) */
enum { SO_VNEW, SO_O, SO_HT, SO_HOUT, SO_DQ, SO_DK, SO_DV, SO_DBETA, SO_DH0 };

#define TD_SPEC_FILE "fused_recurrent_delta.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"t", TD_P_INT}, {"s_qk_h", TD_P_INT}, {"s_vo_h", TD_P_INT},
                                         {"B", TD_P_INT}, {"H", TD_P_INT},      {"K", TD_P_INT},
                                         {"V", TD_P_INT}, {"BK", TD_P_INT},     {"BV", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"HNext", TD_F32, TD_R_IN}, {"q", TD_F32, TD_R_IN}, {"o", TD_F32, TD_R_OUT}};

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

static void gen(td_producer *p, td_case *c) {
    int64_t K = td_prod_u32(p, 1, 70), V = td_prod_u32(p, 1, 70), BK = td_gen_pow2(p, 0, 6), BV = td_gen_pow2(p, 0, 6);
    int64_t B = td_prod_u32(p, 1, 2), H = td_prod_u32(p, 1, 3), T = td_prod_u32(p, 1, 4), t = td_prod_u32(p, 0, (uint32_t)(T - 1));
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 5) : 0, BH = B * H, NK = cdiv(K, BK);
    int64_t v[NP] = {t, T * K + pad, T * V + pad, B, H, K, V, BK, BV};
    for (int i = 0; i < NP; i++) c->p[i].i = v[i];
    c->grid[0] = (uint32_t)cdiv(V, BV), c->grid[1] = (uint32_t)NK, c->grid[2] = (uint32_t)BH;
    td_case_alloc(c, R_HNEXT, (size_t)(BH * K * V));
    td_case_alloc(c, R_Q, (size_t)(BH * v[P_SQK]));
    td_case_alloc(c, R_O, (size_t)(NK * BH * v[P_SVO]) + 3);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p60);
    td_vgen_fill(&g, c, R_HNEXT);
    td_vgen_fill(&g, c, R_Q);
    c->classes |= (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (NK > 1 ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (K % BK || V % BV ? TD_BC(TD_BC_TAIL) : TD_BC(TD_BC_EXACT_MULTIPLE)) |
                  (BK >= 4 * K || BV >= 4 * V ? TD_BC(TD_BC_BLOCK_GT_N) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0) |
                  (c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0) |
                  (c->menu == TD_V_LARGE ? TD_BC(TD_BC_VALUES_LARGE) : 0);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS heads (B*H, H dividing them) of q
 * at s_qk_h near 2^31 (rows 0..t), over a sparse region, as a kernel forming i_bh * s_qk_h
 * in int32 gets wrong; HNext keeps i_bh * K * V, o keeps s_vo_h. */
static void far(td_producer *p, td_case *c) {
    int64_t H = c->p[P_H].i, R = td_far_bh_rows(c->grid[2], &H);
    const td_far_reg r = {R_Q, P_SQK, (c->p[P_T].i + 1) * c->p[P_K].i};
    if (td_far_heads(p, c, 2, R, &r, 1)) c->p[P_H].i = H, c->p[P_B].i = R / H;
}

static const char *check(const td_case *c) {
    for (int i = 0; i < NP; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t t = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, BK = c->p[P_BK].i, BV = c->p[P_BV].i;
    int64_t BH = c->p[P_B].i * c->p[P_H].i;
    if (K <= 0 || V <= 0 || BK <= 0 || BV <= 0 || (BK & (BK - 1)) || (BV & (BV - 1))) return "K, V > 0, BK, BV powers of two";
    if (c->grid[0] != (uint32_t)cdiv(V, BV) || c->grid[1] != (uint32_t)cdiv(K, BK) || c->grid[2] != (uint32_t)BH)
        return "grid = (cdiv(V, BV), cdiv(K, BK), B*H)";
    if (c->p[P_SVO].i < (t + 1) * V) return "hOutInj: s_vo_h >= (t + 1) * V keeps every block's rows apart";
    if (c->r[R_HNEXT].len < (size_t)(BH * K * V) || c->r[R_Q].len < (size_t)((BH - 1) * c->p[P_SQK].i + t * K + K) ||
        c->r[R_O].len < (size_t)((c->grid[1] * BH - 1) * c->p[P_SVO].i + t * V + V))
        return "HNext, q, o hold the lanes read and written";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t t = c->p[P_T].i, V = c->p[P_V].i, BV = c->p[P_BV].i, BH = c->grid[2];
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
                for (int64_t jv = 0; jv < BV && p0 * BV + jv < V; jv++) {
                    td_olane l = {.region = R_O, .off = (uint64_t)((p2 + p1 * BH) * c->p[P_SVO].i + p0 * BV + jv + t * V),
                                  .pid = {p0, p1, p2}, .j = (uint64_t)jv};
                    td_wset_add(ws, &l);
                }
}

/* The intent (contracts/fused_recurrent_delta.spec.h): the delta rule's readout of the
 * given state.  o is [NK, B*H] blocks, each the readout over one K block, which the
 * host sums (o.sum(0)): with NK > 1 the lanes are partials, set apart. */
static const char *frd_partial(const td_case *c) {
    return c->grid[1] > 1 ? "cdiv(K, BK) > 1: o holds per-K-block partials the host sums (o.sum(0))" : NULL;
}
static const td_intent intent = {
    .operation = "the delta rule's readout o_t = S_t q_t of head p2's given state S_t (HNext, S_t^T as [K, V]) over "
                 "its K keys, q as passed",
    .definition = "DeltaNet, Schlag et al. 2021 (fast weight programmers, the delta update) and Yang et al. 2024 "
                  "(parallelizing linear transformers with the delta rule): o_t = S_t q_t",
    TD_SPECS(frd_intent),
    .partial = frd_partial,
};

const td_contract td_c_fused_recurrent_delta_output_step = {
    .id = "fused_recurrent_delta.fused_recurrent_delta_output_step_io_correctness",
    .file = "fused_recurrent_delta",
    .family = "recurrence",
    .io_class = "Masked3DTileShapedKernelIO_2 (outputStepIO)",
    .kind = "exact",
    .formula = "o[jv] = sum_{jk < BK, p1*BK + jk < K} HNext[jv, jk] * q[jk]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 2^60: products and sums finite",
    .error_model = "a dot product of the active BK terms in any order (gamma_{n-1})",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) |
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) |
               TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(frd_out),
    .intent = &intent,
};

/* ---- the summary bundle (fused_recurrent_delta_output_summary_general) ----
 * One launch runs fused_recurrent_fwd_kernel then fused_recurrent_bwd_kernel on every
 * program (i_v, i_k, i_bh) of the grid (cdiv(V, BV), NK, B*H); the forward overwrites
 * v's rows with v_new, which the backward reads (v is in-out).  Checked against the
 * .py and FusedRecurrentDelta.lean (deltaState, vNewClosed, outputClosed,
 * dkStepSpec, dvStepSpec, dbetaStepSpec, dbetaScalarStepSpec, dkCorrClosed,
 * dqStepSpec, the offsets vRowOffset, outOffset, stateOffset, dkRowOffset,
 * dbetaRowOffset, dbetaScalarOffset):
 *   - forward, per step: v_new = v - h k (stored BEFORE the beta scaling), h += k (v_new
 *     beta), o = h_{t+1} (q scale) (post-update state, outputClosed(m) reads
 *     deltaState(m+1)); HOut (the Lean's carry register) = deltaState(m+1);
 *   - backward loop 1 (t = T-1 .. 0): d_h += (q scale) do^T; dk = d_h (v beta) with the
 *     STORED v (v_new); dv = (d_h^T k) beta; dbeta = (d_h^T k) v (headwise) or its sum
 *     over the program's value block (scalar); d_h -= k dv; dh0 = d_h at the end;
 *   - backward loop 2 (t = 0 .. T-1): dk -= h dv with h the state rebuilt from h0 and
 *     the stored v_new * beta (= deltaState(t), dkCorrClosed), then h += k (v beta) and
 *     dq = (h do) scale (dqStepSpec on deltaState(t+1));
 *   - the headwise dbeta row is (i_bh + i_k B H + i_v B H NK) s_vo_h + jv + t V, jv
 *     WITHOUT i_v*BV (the Lean's dbetaRowOffset says the same: the .py's dbeta.sum((0,
 *     1)) then misplaces blocks past the first when V > BV; the contract checks the
 *     kernel's layout); the scalar dbeta store is unmasked (one per program and step).
 * The forward's v_new store races when NK > 1 (each K block stores its own partial
 * v - h k into the same row): the launcher asserts NK == 1, and hBK (BK <= K) with NK =
 * cdiv(K, BK) = 1 forces BK = K (K a power of two); hBV: BV <= V.
 * HPrev, DHPrev and HRec are the hypotheses' carried states, the kernel's registers in a
 * full launch: scratch regions (guard zones only).
 *
 * Error model: every operation of the two programs by the shadow's ops (first-order,
 * componentwise), sums in any order (acc, TD_ORDER_ANY), each carried value (S, d_h,
 * v_new, d_v) one materialised term; binary32 stores exact.  The delta rule's carry
 * S_{t+1} = S_t (I - beta k k^T) + beta v k^T propagates a componentwise error by up to
 * (1 + |beta| ||k||_1^2) per step (the backward's d_h the same), so over T steps the
 * bound grows as prod_t (1 + |beta_t| ||k_t||_1^2) <= exp(rho), rho = sum_t max|beta_t|
 * ||k_t||_1^2.  The generator keeps rho <= 1/2 (|beta| <= 1, |k| <= sqrt(1/(2T))/K),
 * which the checker verifies: with k of DeltaNet's unit L2 norm the componentwise bound
 * would grow like (1 + K)^T, meaningless past T ~ 16 (the 2-norm contraction of
 * I - beta k k^T, beta ||k||^2 in [0, 2], is not what the shadow tracks).
 * Special values: finite inputs |x| <= 8: every state and sum stays finite.
 * Not covered: NK > 1 (racy, asserted away by the launcher), K not a power of two
 * (hBK with NK = 1).  No intent spec yet (see the output step's). */
static const td_param_decl sparams[NSP] = {
    {"IS_HEADWISE_BETA", TD_P_BOOL}, {"USE_INITIAL_STATE", TD_P_BOOL}, {"STORE_FINAL_STATE", TD_P_BOOL},
    {"USE_DH0", TD_P_BOOL},          {"USE_DHT", TD_P_BOOL},           {"s_qk_h", TD_P_INT},
    {"s_vo_h", TD_P_INT},            {"NK", TD_P_INT},                 {"B", TD_P_INT},
    {"H", TD_P_INT},                 {"T", TD_P_INT},                  {"K", TD_P_INT},
    {"V", TD_P_INT},                 {"BK", TD_P_INT},                 {"BV", TD_P_INT},
    {"m", TD_P_INT},                 {"scale", TD_P_REAL}};
static const td_region_decl sregions[NSR] = {
    {"q", TD_F32, TD_R_IN},        {"k", TD_F32, TD_R_IN},       {"v", TD_F32, TD_R_INOUT},
    {"beta", TD_F32, TD_R_IN},     {"o", TD_F32, TD_R_OUT},      {"h0", TD_F32, TD_R_IN},
    {"ht", TD_F32, TD_R_OUT},      {"dht", TD_F32, TD_R_IN},     {"dh0", TD_F32, TD_R_OUT},
    {"do_", TD_F32, TD_R_IN},      {"dq", TD_F32, TD_R_OUT},     {"dk", TD_F32, TD_R_OUT},
    {"dv", TD_F32, TD_R_OUT},      {"dbeta", TD_F32, TD_R_OUT},  {"HPrev", TD_F32, TD_R_SCRATCH},
    {"HOut", TD_F32, TD_R_OUT},    {"DHPrev", TD_F32, TD_R_SCRATCH}, {"HRec", TD_F32, TD_R_SCRATCH}};

/* Shape: K = BK in {1, 2, 4, 8} (NK = 1), V 1..10 with BV a power of two <= V, T from
 * the list (1, 2, 3, 7, 8, 9, 16, 17) on up to 6 heads; one case in 16 a long sequence
 * (1024..2100 steps) with K = 1, V <= 2 on one or two heads (~10^4 lanes). */
static void frd_sum_shape(td_producer *p, td_case *c) {
    int long_seq = td_prod_u32(p, 0, 15) == 0;
    int64_t K = long_seq ? 1 : td_gen_pow2(p, 0, 3), V = td_prod_u32(p, 1, long_seq ? 2 : 10), BV = 1;
    int64_t bvmax = td_prod_u32(p, 0, 3);
    while (BV * 2 <= V && bvmax-- > 0) BV *= 2;
    int64_t B = td_prod_u32(p, 1, 2), H = td_prod_u32(p, 1, long_seq ? 1 : 3);
    static const uint32_t Ts[] = {1, 2, 3, 7, 8, 9, 16, 17};
    uint32_t ti = td_prod_u32(p, 0, 7), tl = td_prod_u32(p, 1024, 2100);
    int64_t T = long_seq ? tl : Ts[ti];
    int pad = td_prod_u32(p, 0, 3) == 0;
    int64_t v[NSP] = {0};
    v[SP_SQK] = T * K + (pad ? td_prod_u32(p, 1, 5) : 0), v[SP_SVO] = T * V + (pad ? td_prod_u32(p, 1, 5) : 0);
    v[SP_NK] = 1, v[SP_B] = B, v[SP_H] = H, v[SP_T] = T, v[SP_K] = K, v[SP_V] = V, v[SP_BK] = K, v[SP_BV] = BV;
    for (int i = SP_SQK; i < SP_SCALE; i++) c->p[i].i = v[i];
    c->grid[0] = (uint32_t)cdiv(V, BV), c->grid[1] = 1, c->grid[2] = (uint32_t)(B * H);
    c->classes |= (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) | (T > 1 ? TD_BC(TD_BC_MULTI_TILE) : TD_BC(TD_BC_SEQ_SINGLE)) |
                  (V % BV ? TD_BC(TD_BC_TAIL) : TD_BC(TD_BC_EXACT_MULTIPLE)) | TD_BC(TD_BC_INPLACE) |
                  (c->grid[0] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0);
}

/* |k| <= sqrt(1 / (2T)) / K and |beta| <= 1 keep rho = sum_t max|beta_t| ||k_t||_1^2 <= 1/2 */
static double frd_kmax(int64_t T, int64_t K) { return sqrt(0.5 / (double)T) / (double)K; }

static void frd_sum_gen(td_producer *p, td_case *c) {
    frd_sum_shape(p, c);
    for (int i = SP_HEADWISE; i <= SP_USE_DHT; i++) c->p[i].i = td_prod_bool(p);
    int64_t T = c->p[SP_T].i, K = c->p[SP_K].i, V = c->p[SP_V].i, BH = c->grid[2], NV = c->grid[0];
    c->p[SP_M].i = td_prod_u32(p, 0, (uint32_t)(T - 1));
    c->p[SP_SCALE].r = td_prod_bool(p) ? (double)(float)(1 / sqrt((double)K)) : (double)(float)td_gen_real(p, 0.0625, 2);
    size_t sqk = (size_t)(BH * c->p[SP_SQK].i), svo = (size_t)(BH * c->p[SP_SVO].i), st = (size_t)(BH * K * V);
    int hw = (int)c->p[SP_HEADWISE].i;
    td_case_alloc(c, SR_Q, sqk), td_case_alloc(c, SR_K, sqk), td_case_alloc(c, SR_V, svo), td_case_alloc(c, SR_DO, svo);
    td_case_alloc(c, SR_BETA, hw ? svo : (size_t)(BH * T));
    td_case_alloc(c, SR_O, svo + 3), td_case_alloc(c, SR_DV, svo + 3);
    td_case_alloc(c, SR_DQ, (size_t)NV * sqk + 3), td_case_alloc(c, SR_DK, (size_t)NV * sqk + 3);
    td_case_alloc(c, SR_DBETA, (hw ? (size_t)NV * svo : (size_t)(NV * BH * T)) + 3);
    static const int sts[] = {SR_H0, SR_HT, SR_DHT, SR_DH0, SR_HPREV, SR_HOUT, SR_DHPREV, SR_HREC};
    for (int i = 0; i < 8; i++) td_case_alloc(c, sts[i], st + (sregions[sts[i]].role == TD_R_OUT ? 3 : 0));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    int menu = c->menu;
    static const int ins[] = {SR_Q, SR_V, SR_DO, SR_H0, SR_DHT};
    for (int i = 0; i < 5; i++) td_vgen_fill(&g, c, ins[i]);
    td_vgen_init(&g, p, c, TD_VM_ALL, frd_kmax(T, K));
    td_vgen_fill(&g, c, SR_K);
    td_vgen_init(&g, p, c, TD_VM_ALL, 1);
    td_vgen_fill(&g, c, SR_BETA);
    c->menu = menu;
    c->classes |= menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0;
}

/* Offsets beyond 2^31 (gen_far.h, td_far_slabs): q and k are read at i_bh * s_qk_h, dq and
 * dk written at (i_bh + i_v*B*H) * s_qk_h (products the original forms in int32 from its
 * program ids).  Keeps R heads (H dividing them) with NV*R <= TD_FAR_MAX_ROWS slabs of dq
 * and dk (nothing moves when NV > TD_FAR_MAX_ROWS or there is one slab) and moves q, k
 * (R heads) and dq, dk (NV*R slabs, sparse outputs) to one far s_qk_h: the last
 * program's dq and dk rows start past 2^31.  v (in-out, never sparse), do, o, dv and
 * dbeta keep s_vo_h; beta and the states their head offsets (heads below R as they were). */
static void frd_sum_far(td_producer *p, td_case *c) {
    int64_t H = c->p[SP_H].i, NV = c->grid[0];
    if (NV > TD_FAR_MAX_ROWS) return;
    int64_t cap = TD_FAR_MAX_ROWS / NV, R = td_far_bh_rows(c->grid[2] < cap ? c->grid[2] : cap, &H);
    static const int regs[4] = {SR_Q, SR_K, SR_DQ, SR_DK};
    const int64_t rows[4] = {R, R, NV * R, NV * R};
    if (NV * R < 2 || !td_far_slabs(p, c, 4, regs, rows, SP_SQK, c->p[SP_T].i * c->p[SP_K].i, NV * R)) return;
    c->p[SP_H].i = H, c->p[SP_B].i = R / H, c->grid[2] = (uint32_t)R;
}

static const char *frd_sum_check_shape(const td_case *c) {
    for (int i = SP_SQK; i <= SP_M; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t T = c->p[SP_T].i, K = c->p[SP_K].i, V = c->p[SP_V].i, BK = c->p[SP_BK].i, BV = c->p[SP_BV].i;
    int64_t BH = c->p[SP_B].i * c->p[SP_H].i;
    if (K <= 0 || V <= 0 || BV <= 0 || (BK & (BK - 1)) || (BV & (BV - 1))) return "K, V > 0, BK, BV powers of two";
    if (BK > K || BV > V) return "hBK: BK <= K, hBV: BV <= V";
    if (c->p[SP_NK].i != 1 || cdiv(K, BK) != 1) return "NK = cdiv(K, BK) = 1 (the launcher's assert: v_new races otherwise)";
    if (c->grid[0] != (uint32_t)cdiv(V, BV) || c->grid[1] != 1 || c->grid[2] != (uint32_t)BH || BH <= 0)
        return "grid = (cdiv(V, BV), NK, B*H)";
    if (T <= 0 || c->p[SP_M].i >= T) return "0 <= m < T";
    if (c->p[SP_SQK].i < T * K || c->p[SP_SVO].i < T * V) return "s_qk_h >= T*K, s_vo_h >= T*V (rows of a head)";
    if ((double)(float)c->p[SP_SCALE].r != c->p[SP_SCALE].r || !isfinite(c->p[SP_SCALE].r)) return "scale is binary32";
    /* q, k, dq, dk: the heads' (blocks') rows t < T up to the last (their exact span: a far
     * s_qk_h leaves no room after the last head's rows) */
    size_t NV = c->grid[0], svo = (size_t)(BH * c->p[SP_SVO].i), st = (size_t)(BH * K * V);
    size_t sqk = (size_t)((BH - 1) * c->p[SP_SQK].i + T * K), dqk = (size_t)(((int64_t)NV * BH - 1) * c->p[SP_SQK].i + T * K);
    if (c->r[SR_Q].len < sqk || c->r[SR_K].len < sqk || c->r[SR_V].len < svo || c->r[SR_DO].len < svo ||
        c->r[SR_BETA].len < (c->p[SP_HEADWISE].i ? svo : (size_t)(BH * T)))
        return "q, k, v, do_, beta hold every head's rows";
    if (c->r[SR_O].len < svo || c->r[SR_DV].len < svo || c->r[SR_DQ].len < dqk || c->r[SR_DK].len < dqk ||
        c->r[SR_DBETA].len < (c->p[SP_HEADWISE].i ? NV * svo : NV * (size_t)(BH * T)))
        return "o, dv hold NK blocks, dq, dk, dbeta NV (x NK) blocks";
    for (int r = SR_H0; r < NSR; r++)
        if ((r == SR_H0 || r == SR_HT || r == SR_DHT || r == SR_DH0 || r >= SR_HPREV) && c->r[r].len < st)
            return "the state regions hold B*H*K*V";
    return NULL;
}

static const char *frd_sum_check(const td_case *c) {
    const char *e = frd_sum_check_shape(c);
    if (e) return e;
    int64_t T = c->p[SP_T].i, K = c->p[SP_K].i, V = c->p[SP_V].i, sqk = c->p[SP_SQK].i, svo = c->p[SP_SVO].i;
    for (int64_t bh = 0; bh < (int64_t)c->grid[2]; bh++) { /* the error model's coupling (header) */
        double rho = 0;
        for (int64_t t = 0; t < T; t++) {
            double k1 = 0, bmax = 0;
            for (int64_t k = 0; k < K; k++) k1 += fabs(td_get(c, SR_K, (size_t)(bh * sqk + k + t * K)));
            for (int64_t v = 0; v < (c->p[SP_HEADWISE].i ? V : 1); v++)
                bmax = fmax(bmax, fabs(td_get(c, SR_BETA, (size_t)(c->p[SP_HEADWISE].i ? bh * svo + v + t * V : bh * T + t))));
            rho += bmax * k1 * k1;
        }
        if (!(rho <= 0.5 * (1 + 0x1p-20))) return "sum_t max|beta_t| ||k_t||_1^2 <= 1/2 (the error model's coupling)";
    }
    return NULL;
}

static void frd_add(td_wset *ws, uint32_t o, int reg, int64_t off, const uint32_t pid[3], int64_t bh, int64_t a,
                    int64_t b, int64_t t, int64_t j) {
    td_olane l = {.o = o, .region = (uint32_t)reg, .off = (uint64_t)off, .pid = {pid[0], pid[1], pid[2]},
                  .t = (uint32_t)t, .j = (uint64_t)j, .idx = {bh, a, b, t}};
    td_wset_add(ws, &l);
}
static void frd_state_lanes(const td_case *c, td_wset *ws, const uint32_t pid[3], uint32_t o, int reg, int64_t step) {
    int64_t K = c->p[SP_K].i, V = c->p[SP_V].i, BV = c->p[SP_BV].i;
    for (int64_t r = 0; r < BV; r++)
        for (int64_t k = 0; k < K; k++) {
            int64_t v = pid[0] * BV + r;
            if (v < V) frd_add(ws, o, reg, ((int64_t)pid[2] * K + k) * V + v, pid, pid[2], k, v, step, r * K + k);
        }
}
static void frd_sum_writes(const td_case *c, td_wset *ws) {
    int64_t T = c->p[SP_T].i, K = c->p[SP_K].i, V = c->p[SP_V].i, BV = c->p[SP_BV].i, BH = c->grid[2];
    int64_t sqk = c->p[SP_SQK].i, svo = c->p[SP_SVO].i, hw = c->p[SP_HEADWISE].i;
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++) {
            const uint32_t pid[3] = {p0, 0, p2};
            for (int64_t t = 0; t < T; t++) {
                for (int64_t r = 0; r < BV; r++) {
                    int64_t v = p0 * BV + r, off = p2 * svo + v + t * V;
                    if (v >= V) continue;
                    frd_add(ws, SO_VNEW, SR_V, off, pid, p2, 0, v, t, r);
                    frd_add(ws, SO_O, SR_O, off, pid, p2, 0, v, t, r);
                    frd_add(ws, SO_DV, SR_DV, off, pid, p2, 0, v, t, r);
                    if (hw) frd_add(ws, SO_DBETA, SR_DBETA, (p2 + p0 * BH) * svo + r + t * V, pid, p2, 0, v, t, r);
                }
                if (!hw) frd_add(ws, SO_DBETA, SR_DBETA, (p2 + p0 * BH) * T + t, pid, p2, 0, p0, t, 0);
                for (int64_t k = 0; k < K; k++) {
                    frd_add(ws, SO_DQ, SR_DQ, (p2 + p0 * BH) * sqk + k + t * K, pid, p2, k, p0, t, k);
                    frd_add(ws, SO_DK, SR_DK, (p2 + p0 * BH) * sqk + k + t * K, pid, p2, k, p0, t, k);
                }
            }
            frd_state_lanes(c, ws, pid, SO_HOUT, SR_HOUT, c->p[SP_M].i + 1);
            if (c->p[SP_STORE_FINAL].i) frd_state_lanes(c, ws, pid, SO_HT, SR_HT, T);
            if (c->p[SP_USE_DH0].i) frd_state_lanes(c, ws, pid, SO_DH0, SR_DH0, 0);
        }
}

const td_contract td_c_fused_recurrent_delta_summary = {
    .id = "fused_recurrent_delta.fused_recurrent_delta_output_summary_general",
    .file = "fused_recurrent_delta",
    .family = "recurrence",
    .io_class = "Realizes_without_Rounding bundle (v_new, state, output, dk, dv, dbeta, dk correction, dq step slices) "
                "+ lowering",
    .kind = "exact",
    .formula = "v_new_t = v_t - S_t k_t (stored into v), S_{t+1} = S_t + (beta_t v_new_t) k_t^T, o_t = S_{t+1} (q_t "
               "scale); D_t = C_{t+1} + (q_t scale) do_t^T, dv_t = beta_t D_t^T k_t, dbeta_t = (D_t^T k_t) v_new_t, "
               "C_t = D_t - k_t dv_t, dk_t = D_t (v_new_t beta_t) - S_t dv_t, dq_t = S_{t+1} do_t scale",
    .nparams = NSP,
    .params = sparams,
    .nregions = NSR,
    .regions = sregions,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8: every state and sum stays finite",
    .error_model = "every op by the shadow (componentwise, first order), sums in any order, carried values one term; "
                   "generator keeps sum_t |beta| ||k||_1^2 <= 1/2 so the carried error grows at most e^(1/2)",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_INPLACE) |
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = frd_sum_gen,
    .far = frd_sum_far,
    .check = frd_sum_check,
    .writes = frd_sum_writes,
    TD_SPECS(frd_summary),
};
