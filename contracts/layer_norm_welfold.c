/* layer_norm_welfold: Inductor's fused native layer norm WITHOUT Welford (two passes)
 * (catalogue part 2, src lines 6525-6590).
 *
 *   layer_norm_welfold_output_summary_general (hLe: rnumel <= RBLOCK, hMeanRstd:
 *   in_out_ptr0 ≠ in_out_ptr1, hInMean: in_ptr0 ≠ in_out_ptr0):
 *     (2) the reduce slice writes in_out_ptr0[pid] = rowMeanSpec = sum_{r<rnumel} x / rnumel
 *         and in_out_ptr1[pid] = rowRstdSpec = 1 / sqrt(rowVarSpec + 1e-05);
 *     (3) given genuine mean / rstd, the normalize slice writes
 *         out_ptr0[r + rnumel*pid] = ((x - mean) * rstd) * in_ptr1[r] + in_ptr2[r].
 *   layer_norm_welfold_normalize_io_correctness (Scalar2Tile3KernelIO): the normalize
 *     slice with in_out_ptr0 / in_out_ptr1 SUPPLIED per row (the generator gives the
 *     row's own statistics, rounded, or free values), grid (rows, chunks).
 *
 * The kernel (bench/tritonbench_g/layer_norm_welfold/layer_norm_welfold.py,
 * triton_red_fused_native_layer_norm_no_welford; XBLOCK = 1 in both autotune configs):
 *     _tmp3 += x tile;  mean = tl.sum(_tmp3) / rnumel;  store in_out_ptr0
 *     _tmp12 += (x - mean)^2;  rstd = rsqrt(tl.sum(_tmp12) / rnumel + 1e-05);  store in_out_ptr1
 *     out = ((x - mean) * rstd) * w + b
 * The theorem is about the Lean slices, and the Lean reduce slice guards the squared
 * deviations with tl.where(rmask, ., 0) (its docstring: the surface's unguarded sum
 * "relies on ... RBLOCK | rnumel").  The Python loop as published has NO guard: when
 * rnumel < RBLOCK its masked lanes load 0 and add (0 - mean)^2 each, which violates
 * rowVarSpec (the genuine variance).  So the host / CUDA kernels port the slice the
 * theorem names (the guard included), and the published Python's unguarded loop is a
 * mutant (mut_unguarded_tail) that the checker flags: a real bug of the benchmark
 * kernel for rows shorter than RBLOCK.
 * The catalogue's [named] readings match the Lean rowMeanSpec / rowRstdSpec / rowYSpec.
 *
 * Error model: layernorm_common.h ln_tile_stats without padding terms (tree mean over
 * the active prefix, tree variance of the guarded squares), the binary32 literal
 * 1e-05 (one rounding), rsqrt with the backend's budget (ln_rsqrt_floor); then the
 * normalize ops in order.  With hLe each loop runs once and _tmp3 = 0 + x is exact.
 * In the launch the normalize loop consumes the mean and rstd the reduction just
 * produced (faces (2) and (3) composed): Y's tolerance carries their kernel errors,
 * its reference uses the genuine closed forms.
 * Values: the checkers accept |x| <= 2^40, the generator draws |x| <= 2^24
 * (layernorm_common.h).
 * Special values: rnumel >= 1 (Lean's 0/0 = 0 avoided).
 */
#include "layernorm_common.h"

enum { P_XNUMEL, P_RNUMEL, P_XBLOCK, P_RBLOCK, NP };
enum { R_IO0, R_IO1, R_IN0, R_IN1, R_IN2, R_OUT0, NR }; /* both contracts: in_out_ptr0 = mean, in_out_ptr1 = rstd */
enum { PN_RNUMEL, PN_RBLOCK, NPN };

#define TD_SPEC_FILE "layer_norm_welfold.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"xnumel", TD_P_INT}, {"rnumel", TD_P_INT}, {"XBLOCK", TD_P_INT}, {"RBLOCK", TD_P_INT}};
static const td_region_decl regions[NR] = {{"in_out_ptr0", TD_F32, TD_R_OUT}, {"in_out_ptr1", TD_F32, TD_R_OUT},
                                           {"in_ptr0", TD_F32, TD_R_IN},      {"in_ptr1", TD_F32, TD_R_IN},
                                           {"in_ptr2", TD_F32, TD_R_IN},      {"out_ptr0", TD_F32, TD_R_OUT}};
static const td_param_decl params_n[NPN] = {{"rnumel", TD_P_INT}, {"RBLOCK", TD_P_INT}};
static const td_region_decl regions_n[NR] = {{"in_out_ptr0", TD_F32, TD_R_IN}, {"in_out_ptr1", TD_F32, TD_R_IN},
                                             {"in_ptr0", TD_F32, TD_R_IN},     {"in_ptr1", TD_F32, TD_R_IN},
                                             {"in_ptr2", TD_F32, TD_R_IN},     {"out_ptr0", TD_F32, TD_R_OUT}};

static const ln_ind_map map_s = {P_XNUMEL, P_RNUMEL, P_XBLOCK, P_RBLOCK, R_IO0, R_IO1, R_IN0, R_IN1, R_IN2, R_OUT0};
static const ln_ind_map map_n = {-1, PN_RNUMEL, -1, PN_RBLOCK, R_IO0, R_IO1, R_IN0, R_IN1, R_IN2, R_OUT0};

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

const td_contract td_c_welfold_summary = {
    .id = "layer_norm_welfold.layer_norm_welfold_output_summary_general",
    .file = "layer_norm_welfold",
    .family = "layernorm",
    .io_class = "ComputeCorrect (BlockState, pids 2-D) + lowering (reduce + normalize slices)",
    .kind = "exact",
    .formula = "in_out_ptr0[pid] = mean;  in_out_ptr1[pid] = 1/sqrt(var + 1e-05);  out_ptr0[r + rnumel*pid] = "
               "((x_r - mean) * rstd) * in_ptr1[r] + in_ptr2[r];  mean, var over the rnumel columns",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "rnumel >= 1 (Lean's x/0 = 0 is avoided); |x| <= 2^40: every sum of squares is finite",
    .error_model = "two-pass tree mean and guarded tree variance, / rnumel, + the binary32 literal 1e-05, rsqrt "
                   "budget, then ((x-mean)*rstd)*w+b; the mean's error carried into the deviations",
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

const td_contract td_c_welfold_normalize = {
    .id = "layer_norm_welfold.layer_norm_welfold_normalize_io_correctness",
    .file = "layer_norm_welfold",
    .family = "layernorm",
    .io_class = "Scalar2Tile3KernelIO (normalizeIO)",
    .kind = "exact",
    .formula = "out_ptr0[p1*RBLOCK + i + rnumel*p0] = ((x - in_out_ptr0[p0]) * in_out_ptr1[p0]) * in_ptr1[c] + in_ptr2[c]",
    .nparams = NPN,
    .params = params_n,
    .nregions = NR,
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
