/* chunk_retention_ops: the chunked retention state kernels, forward and backward
 * (catalogue part C, src lines 2544-2577).
 *
 *   cro_fwd_h_exec_genuine (hHk hHv hHtH; hsigma: BV <= s_h_t; hFit: (K-1)*s_h_t + V <=
 *     K*V; hBVV: BV <= V): h[croHOffset(t, idx)] = croState(t) for t < NT on croActive
 *     lanes, ht[croHtOffset] = croState(NT) when STORE_FINAL_STATE.  The kernel is
 *     statement for statement chunk_retention's chunk_retention_fwd_kernel_h (the Lean's
 *     preamble; checked against chunk_retention_ops.py): contracts/chunk_retention.c
 *     derives its reading and error model, chunk_retention_common.{h,spec.h} hold them.
 *   cro_bwd_dh_exec_genuine (hDq: dh != q; hDdo: dh != do_; hsigma: BV <= s_h_t; hFit):
 *     dh[croHOffset(t, idx)] = croDhCarry(NT - 1 - t) for t < NT on croActive lanes:
 *     D_0 = 0, D_{c+1} = d_b D_c + sum_c (scale q[e, uBT+c]) (do[uBT+c, p] d_i[c]), u =
 *     NT-1-c, d_b = 2^(BT b_b), d_i[c] = 2^((c+1) b_b) (never rebound: no ragged gate on
 *     the backward side), b_b = log2(1 - 2^(-5-i_h)).
 *
 * Checked against bench/tritonbench_g/chunk_retention_ops/ (the .py and
 * ChunkRetentionOps.lean): the backward stores dh[i_t] BEFORE chunk i_t's update while
 * descending (dh[NT-1] = 0), reads q as a (K, T) block with the forward's strides,
 * b_q = (b_q * scale) rounded to q's dtype (binary32 here), and stores [BK, BV] tiles at
 * the forward's h offsets; the launch grid is the host's (cdiv(K, BK), cdiv(V, BV), B*H).
 * Unrolled, croDhCarry(NT-1-t) = sum_{s >= (t+1)BT, s < T} gamma^(s-(t+1)BT+1) (scale q_s)
 * do_s^T: a reverse linear recurrence (chunk_retention_ops.spec.h), the retention
 * backward state (dh_t = dL/dh_t of the forward's chunk states, RetNet's gradient).
 * Inputs binary32 (the .to casts identities), stores exact.
 *
 * Error model: see chunk_retention.c (forward) and chunk_retention_ops.spec.h (backward):
 * oracle/lrec.h per step (3u M_t), td_sh_lrec_any for an any-order chunk of any size,
 * decay powers as exp2(n b_b) or repeated products by the math model, one rounding per
 * product (q scale, then do).  No atol/rtol anywhere.
 * Special values: finite inputs |x| <= 8, scale in [1/16, 2]: every state stays finite.
 */
#include "gen.h"
#include "gen_far.h"

enum { P_SQK_H, P_SQK_T, P_SQK_D, P_SVO_H, P_SVO_T, P_SVO_D, P_SH_H, P_SH_T, P_H, P_T, P_K, P_V, P_BT, P_BK, P_BV,
       P_NT, P_USE_INIT, P_STORE_FINAL, NP };
enum { R_K, R_V, R_H, R_H0, R_HT, NR };
enum { O_H, O_HT };
/* the backward: the forward's strides, then scale, then the forward's sizes (index + 1) */
enum { PO_SQK_H, PO_SQK_T, PO_SQK_D, PO_SVO_H, PO_SVO_T, PO_SVO_D, PO_SH_H, PO_SH_T, PO_SCALE, PO_H, PO_T, PO_K,
       PO_V, PO_BT, PO_BK, PO_BV, PO_NT, NPO };
enum { RO_Q, RO_DO, RO_DH, NRO };

#define TD_SPEC_FILE "chunk_retention_ops.spec.h"
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
static const td_param_decl params_b[NPO] = {
    {"s_qk_h", TD_P_INT}, {"s_qk_t", TD_P_INT}, {"s_qk_d", TD_P_INT}, {"s_vo_h", TD_P_INT}, {"s_vo_t", TD_P_INT},
    {"s_vo_d", TD_P_INT}, {"s_h_h", TD_P_INT},  {"s_h_t", TD_P_INT},  {"scale", TD_P_REAL}, {"H", TD_P_INT},
    {"T", TD_P_INT},      {"K", TD_P_INT},      {"V", TD_P_INT},      {"BT", TD_P_INT},     {"BK", TD_P_INT},
    {"BV", TD_P_INT},     {"NT", TD_P_INT}};
static const td_region_decl regions_b[NRO] = {
    {"q", TD_F32, TD_R_IN}, {"do_", TD_F32, TD_R_IN}, {"dh", TD_F32, TD_R_OUT}};

/* the backward's shape is the forward's (crt_shape, sizes at index + 1) */
static void cro_bwd_gen(td_producer *p, td_case *c) {
    int64_t BH;
    int padded = 0;
    crt_shape(p, c, &BH, &padded, 1);
    int64_t T = c->p[PO_T].i, K = c->p[PO_K].i, V = c->p[PO_V].i, NT = c->p[PO_NT].i;
    c->p[PO_SCALE].r = td_prod_bool(p) ? (double)(float)(1 / sqrt((double)K)) : td_gen_real(p, 0.0625, 2);
    td_case_alloc(c, RO_Q, crt_span(c, PO_SQK_H, PO_SQK_T, PO_SQK_D, BH, T, K));
    td_case_alloc(c, RO_DO, crt_span(c, PO_SVO_H, PO_SVO_T, PO_SVO_D, BH, T, V));
    td_case_alloc(c, RO_DH, (size_t)((BH - 1) * c->p[PO_SH_H].i + NT * K * V) + 3);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    td_vgen_fill(&g, c, RO_Q);
    td_vgen_fill(&g, c, RO_DO);
    c->classes |= (padded ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) |
                  (c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0);
}

static const char *cro_bwd_check(const td_case *c) {
    const char *e = crt_shape_check(c, 1);
    if (e) return e;
    int64_t T = c->p[PO_T].i, K = c->p[PO_K].i, V = c->p[PO_V].i, NT = c->p[PO_NT].i, BH = c->grid[2];
    if ((double)(float)c->p[PO_SCALE].r != c->p[PO_SCALE].r || !isfinite(c->p[PO_SCALE].r)) return "scale is binary32";
    if (c->r[RO_Q].len < crt_span(c, PO_SQK_H, PO_SQK_T, PO_SQK_D, BH, T, K) ||
        c->r[RO_DO].len < crt_span(c, PO_SVO_H, PO_SVO_T, PO_SVO_D, BH, T, V))
        return "q, do hold every head's [T, K] / [T, V] block";
    if (c->r[RO_DH].len < (size_t)((BH - 1) * c->p[PO_SH_H].i + NT * K * V)) return "dh holds NT chunks per head";
    return NULL;
}

static void cro_bwd_far(td_producer *p, td_case *c) { crt_far(p, c, 1); }

static void cro_bwd_writes(const td_case *c, td_wset *ws) { crt_h_writes(c, ws, 1, RO_DH, 0); }

static const td_intent fwd_intent = {
    .operation = "RetNet's chunkwise recurrent state per head h: R_0 = h0 or 0, R_{i+1} = gamma^B R_i + "
                 "K_[i]^T (V_[i] * zeta), zeta_c = gamma^(B-c-1), gamma = 1 - 2^(-5-h): the state entering each "
                 "chunk of B = BT steps, and the final state",
    .definition = "Sun et al. 2023, Retentive Network, the chunkwise recurrent representation (sec. 2.3) with "
                  "gamma = 1 - 2^(-5-arange(0, h))",
    TD_SPECS(crt_fwd_intent),
};
static const td_intent bwd_intent = {
    .operation = "the gradient of sum_n <do_n, o_n>, o_n = (scale q_n) S_n of RetNet's recurrent state S_n = gamma "
                 "S_{n-1} + k_n^T v_n, with respect to the state entering chunk t (after step tBT): "
                 "sum_{n >= (t+1)BT} gamma^(n - (t+1)BT + 1) scale q_n^T do_n",
    .definition = "Sun et al. 2023, Retentive Network (recurrent form, gamma = 1 - 2^(-5-h)); reverse-mode gradient "
                  "of the chunkwise form's inter-chunk state (FLA chunk_retention backward dh)",
    TD_SPECS(cro_dh_intent),
};

const td_contract td_c_chunk_retention_ops_fwd_h = {
    .id = "chunk_retention_ops.cro_fwd_h_exec_genuine",
    .file = "chunk_retention_ops",
    .family = "recurrence",
    .io_class = "exec existential (configured)",
    .kind = "exact",
    .formula = "h[t] = croState(t) (t < NT), ht = croState(NT); croState(t+1) = 2^(len b_b) croState(t) + "
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

const td_contract td_c_chunk_retention_ops_bwd_dh = {
    .id = "chunk_retention_ops.cro_bwd_dh_exec_genuine",
    .file = "chunk_retention_ops",
    .family = "recurrence",
    .io_class = "exec existential (configured)",
    .kind = "exact",
    .formula = "dh[t] = croDhCarry(NT-1-t): D_0 = 0, D_{c+1} = 2^(BT b_b) D_c + (scale q_u)^T (do_u * 2^((c+1) b_b)), "
               "u = NT-1-c",
    .nparams = NPO,
    .params = params_b,
    .nregions = NRO,
    .regions = regions_b,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs |x| <= 8, scale in [1/16, 2]: every state stays finite",
    .error_model = "a reverse linear recurrence by lrec.h (3u M per step) + lrec_any (any-order chunks), decay "
                   "powers exp2(n b_b) or repeated products (math model), q*scale and *do one rounding each",
    .classes = CRT_FWD_CLASSES,
    .gen = cro_bwd_gen,
    .far = cro_bwd_far,
    .check = cro_bwd_check,
    .writes = cro_bwd_writes,
    TD_SPECS(cro_dh),
    .intent = &bwd_intent,
};
