/* fused_layernorm_triton: Inductor's fused native layer norm with a Welford reduction
 * (catalogue part 1, src lines 4631-4693).
 *
 *   fused_layernorm_triton_output_summary_general (bundle; hLe: rnumel <= RBLOCK,
 *   hMeanRstd: out_ptr0 ≠ in_out_ptr0):
 *     (2) the reduce slice writes out_ptr0[pid] = rowMeanSpec = sum_{r<rnumel} x[pid, r] / rnumel
 *         and in_out_ptr0[pid] = rowRstdSpec = 1 / sqrt(rowVarSpec + 1e-05),
 *         rowVarSpec = sum (x - mean)^2 / rnumel (genuine closed forms, FusedLayernormTriton.lean);
 *     (3) given genuine mean / rstd cells, the normalize slice writes
 *         out_ptr1[r + rnumel*pid] = ((x - mean) * rstd) * in_ptr1[r] + in_ptr2[r] (rowYSpec).
 *     (1), the lowering of the surface, is not a run-time property.
 *   fused_layernorm_triton_normalize_io_correctness (Scalar2Tile3KernelIO):
 *     out_ptr1[p1*RBLOCK + i + rnumel*p0] = ((x - m1) * m2) * w + b with m1 = out_ptr0[p0],
 *     m2 = in_out_ptr0[p0] SUPPLIED (the generator gives the row's own statistics,
 *     rounded, or free values); mask p1*RBLOCK + i < rnumel.
 *
 * The kernel (bench/tritonbench_g/fused_layernorm_triton/fused_layernorm_triton.py,
 * triton_red_fused_native_layer_norm_0): XBLOCK = 1 in both autotune configs, so the
 * summary is one program per row; with hLe the first loop runs once: welford_reduce from
 * the zero state gives every active lane (mean, m2, weight) = (x, 0, 1), masked lanes keep
 * (0, 0, 0); then triton_helpers.welford reduces the RBLOCK lanes with welford_combine
 *     delta = mean2 - mean1;  w = w1 + w2;  r = (w == 0) ? 0 : w2 / w
 *     mean = mean1 + delta * r;  m2 = (m2_1 + m2_2) + ((delta * delta) * w1) * r
 * stores the mean, rstd = libdevice.rsqrt(m2 / rnumel + 1e-05) (the literal rounded to
 * binary32), and the normalize loop writes ((x - mean) * rstd) * w + b.
 *
 * Which program: the Lean reduce slice replaces the Welford combine by the moment
 * identity sum(m2 + w*mean^2) - W*M^2 (equal over the reals, catastrophically cancelling
 * in binary32: a shifted row c + noise loses the variance entirely).  The host and CUDA
 * kernels port the Python program (the Welford tree); the Lean transcription's
 * evaluation is a mutant (mut_naive_moments) and the checker flags it.
 *
 * Error model, in the kernel's order (the "where a kernel family fixes its
 * order (Welford), its model says so"): the spec evaluates the same Welford combine
 * tree (tl.reduce as the host's pairwise halving tree over the RBLOCK lanes; a
 * combine with an empty side is exact and skipped), so each node's mean and m2 carry
 * the errors of their subtrees and the combine's own roundings; weights are exact
 * integers.  Then the division by rnumel, the literal 1e-05 (one rounding), rsqrt with
 * the backend's budget (host 1.0f/sqrtf; ln_rsqrt_floor), and the normalize ops in
 * order.  In the launch the normalize loop consumes the mean and rstd the reduction
 * just produced (faces (2) and (3) composed): Y's tolerance carries their kernel
 * errors, its reference uses the genuine closed forms.  eps is the kernel's fixed
 * literal: there is no eps parameter to vary.
 * Special values: rnumel >= 1 (Lean's 0/0 = 0 avoided); |x| <= 2^40.
 */
#include "layernorm_common.h"

enum { P_XNUMEL, P_RNUMEL, P_XBLOCK, P_RBLOCK, NP };
enum { R_IO0, R_IN0, R_IN1, R_IN2, R_OUT0, R_OUT1, NR }; /* summary: in_out_ptr0 = rstd, out_ptr0 = mean */
enum { PN_RNUMEL, PN_RBLOCK, NPN };
enum { RN_OUT0, RN_IO0, RN_IN0, RN_IN1, RN_IN2, RN_OUT1, NRN }; /* normalize slice order */

#define TD_SPEC_FILE "fused_layernorm_triton.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"xnumel", TD_P_INT}, {"rnumel", TD_P_INT}, {"XBLOCK", TD_P_INT}, {"RBLOCK", TD_P_INT}};
static const td_region_decl regions[NR] = {{"in_out_ptr0", TD_F32, TD_R_OUT}, {"in_ptr0", TD_F32, TD_R_IN},
                                           {"in_ptr1", TD_F32, TD_R_IN},      {"in_ptr2", TD_F32, TD_R_IN},
                                           {"out_ptr0", TD_F32, TD_R_OUT},    {"out_ptr1", TD_F32, TD_R_OUT}};
static const td_param_decl params_n[NPN] = {{"rnumel", TD_P_INT}, {"RBLOCK", TD_P_INT}};
static const td_region_decl regions_n[NRN] = {{"out_ptr0", TD_F32, TD_R_IN}, {"in_out_ptr0", TD_F32, TD_R_IN},
                                              {"in_ptr0", TD_F32, TD_R_IN},  {"in_ptr1", TD_F32, TD_R_IN},
                                              {"in_ptr2", TD_F32, TD_R_IN},  {"out_ptr1", TD_F32, TD_R_OUT}};

static const ln_ind_map map_s = {P_XNUMEL, P_RNUMEL, P_XBLOCK, P_RBLOCK, R_OUT0, R_IO0, R_IN0, R_IN1, R_IN2, R_OUT1};
static const ln_ind_map map_n = {-1, PN_RNUMEL, -1, PN_RBLOCK, RN_OUT0, RN_IO0, RN_IN0, RN_IN1, RN_IN2, RN_OUT1};

static void gen_s(td_producer *p, td_case *c) { ln_ind_gen_summary(p, c, &map_s); }
static const char *check_s(const td_case *c) { return ln_ind_check_summary(c, &map_s); }
static void writes_s(const td_case *c, td_wset *ws) { ln_ind_writes_summary(c, ws, &map_s); }
static void gen_n(td_producer *p, td_case *c) { ln_ind_gen_norm(p, c, &map_n); }
static const char *check_n(const td_case *c) { return ln_ind_check_norm(c, &map_n); }
static void writes_n(const td_case *c, td_wset *ws) { ln_ind_writes_norm(c, ws, &map_n); }
static void large_s(td_producer *p, td_case *c) { ln_ind_large(p, c, &map_s); }
static void large_n(td_producer *p, td_case *c) { ln_ind_large(p, c, &map_n); }

static const td_intent intent = {
    .operation = "layer norm of each row over its rnumel columns (biased variance, eps 1e-5), with its mean and 1/std",
    .definition = "torch.nn.LayerNorm(rnumel) (PyTorch documentation; what Inductor compiled these kernels from)",
    TD_SPECS(intent),
};

const td_contract td_c_fused_ln_summary = {
    .id = "fused_layernorm_triton.fused_layernorm_triton_output_summary_general",
    .file = "fused_layernorm_triton",
    .family = "layernorm",
    .io_class = "Realizes_without_Rounding bundle (reduce + normalize slices)",
    .kind = "exact",
    .formula = "out_ptr0[pid] = mean;  in_out_ptr0[pid] = 1/sqrt(var + 1e-05);  out_ptr1[r + rnumel*pid] = "
               "((x_r - mean) * rstd) * in_ptr1[r] + in_ptr2[r];  mean, var over the rnumel columns",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "rnumel >= 1 (Lean's x/0 = 0 is avoided); |x| <= 2^40: every m2 finite",
    .error_model = "the kernel's Welford combine tree (pairwise over RBLOCK lanes) for mean and m2, / rnumel, + the "
                   "binary32 literal 1e-05, rsqrt budget, then ((x-mean)*rstd)*w+b",
    /* one RBLOCK tile per row (rnumel <= RBLOCK): n = k RBLOCK + 1 cannot occur */
    .classes = TD_BCLASSES_TILED & ~TD_BC(TD_BC_TAIL_ABOVE),
    .gen = gen_s,
    .large = large_s,
    /* no far hook (offset-2^31): the row offset rnumel * x0 strides by the row's own length
     * (a dense [xnumel, rnumel] tensor, every element read), so an offset past 2^31 needs 2^31
     * elements read: the large tier's (`large`, rows of rnumel; the original's r1 + rnumel * x0 is int32) */
    .check = check_s,
    .writes = writes_s,
    TD_SPECS(summary),
    .intent = &intent,
};

const td_contract td_c_fused_ln_normalize = {
    .id = "fused_layernorm_triton.fused_layernorm_triton_normalize_io_correctness",
    .file = "fused_layernorm_triton",
    .family = "layernorm",
    .io_class = "Scalar2Tile3KernelIO (fusedNormalizeIO)",
    .kind = "exact",
    .formula = "out_ptr1[p1*RBLOCK + i + rnumel*p0] = ((x - out_ptr0[p0]) * in_out_ptr0[p0]) * in_ptr1[c] + in_ptr2[c]",
    .nparams = NPN,
    .params = params_n,
    .nregions = NRN,
    .regions = regions_n,
    .sv = TD_SV_REAL,
    .sv_note = "supplied inputs finite, |v| <= 2^40 (|rstd| <= 2^20): every intermediate finite",
    .error_model = "four binary32 operations in the kernel's order on exact inputs",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED),
    .gen = gen_n,
    .large = large_n,
    /* no far hook (offset-2^31): the row offset rnumel * x0 strides by the row's own length
     * (a dense [xnumel, rnumel] tensor, every element read), so an offset past 2^31 needs 2^31
     * elements read: the large tier's (`large`, rows of rnumel; the original's r1 + rnumel * x0 is int32) */
    .check = check_n,
    .writes = writes_n,
    TD_SPECS(normalize),
};
