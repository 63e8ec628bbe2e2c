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
 * The summary theorem (11 conjuncts over the forward and backward surfaces) is not
 * covered here.
 */
#include "gen.h"

enum { P_T, P_SQK, P_SVO, P_B, P_H, P_K, P_V, P_BK, P_BV, NP };
enum { R_HNEXT, R_Q, R_O, NR };

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
               TD_BC(TD_BC_VALUES_LARGE),
    .gen = gen,
    .check = check,
    .writes = writes,
    TD_SPECS(frd_out),
    .intent = &intent,
};
