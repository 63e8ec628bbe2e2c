/* cross_entropy1.cross_entropy_fwd_correctness  (catalogue part 1, src lines 3166-3210)
 *
 *   crossEntropyFwdIO loss lse logits labels smoothing lse_square_scale ignored_index
 *     total_classes class_start_idx n_cols n_rows logits_row_stride BLOCK_SIZE HAS_SMOOTHING SPLIT ⊨
 *   fun _ pid1 lab xs g => if pid1*BLOCK_SIZE < n_cols
 *       then (ceLossLocal ... pid1 lab xs g, ceBlockLSE n_cols BLOCK_SIZE pid1 xs) else (0, 0)
 *   MetaGatherMasked2DKernelIO_2x2: label slot labels[pid0]; read = pid0*logits_row_stride
 *   + pid1*BLOCK_SIZE + j, mask = pid1*BLOCK_SIZE + j < n_cols; gather g at
 *   pid0*logits_row_stride + (lab - class_start_idx) when lab != ignored_index and the
 *   label falls in the block; write1 = write2 = pid1*n_rows + pid0.
 *
 * Checked against bench/tritonbench_g/cross_entropy1 (the .py and CrossEntropy1.lean):
 * the [named] reading is right.  ceBlockLSE = log sum_{valid j} exp(x_j) (the kernel's
 * stable form m + log sum exp(x - m) collapses to it); ceLossLocal is the kernel's
 * five-way branch: ignored label -> 0; label in this block -> (lse | 0 if SPLIT)
 * - smoothing*sum/total_classes - (1-smoothing)*x_label with smoothing, (lse | 0) - x_label
 * without; label elsewhere -> smoothing*((lse | 0) - sum/total_classes) or 0; plus
 * lse_square_scale*lse*lse unless SPLIT (inside the not-ignored branch: an ignored
 * row's loss is exactly 0).  HAS_SMOOTHING and SPLIT are free Bool parameters of the
 * contract (the heuristic smoothing > 0 is not modelled), so both are drawn apart from
 * smoothing.
 *
 * Error model (reduce_common.h): log-sum-exp as the kernel evaluates it, the smoothing
 * sum as tl.sum's tree, then the loss operations in the kernel's order and grouping
 * ((lse - (s*sum)/tc) - (1-s)*x_label) + (lss*lse)*lse; `0.0 - a` (SPLIT) is exact.
 * Labels are int64 (torch's), the ignore index -100, -1 or a real class.
 *
 * Special values: the grid is the host's (n_rows, cdiv(n_cols, BLOCK)), so every
 * program has a valid lane; Lean's (0, 0) for programs past the row end is never
 * launched (binary32 would store log(sum exp(-inf - -inf)) = NaN there, not 0).
 * total_classes >= 1 (Lean's x/0 = 0 is not binary32's).  Logits |x| <= 2^40: rows
 * far above 88.7 are drawn, and lse^2 stays finite.
 */
#include "reduce_common.h"

enum { P_SMOOTHING, P_LSS, P_IGNORED, P_TOTAL, P_CSI, P_NCOLS, P_NROWS, P_STRIDE, P_BLOCK, P_HAS_SMOOTHING, P_SPLIT, NP };
enum { R_LOSS, R_LSE, R_LOGITS, R_LABELS, NR };

static const rc_ce_layout CE1 = {P_SMOOTHING, -1,     P_LSS,  P_IGNORED, P_TOTAL,  P_CSI,    P_NCOLS, P_NROWS, P_STRIDE,
                                 P_BLOCK,     P_HAS_SMOOTHING, P_SPLIT, R_LOSS, R_LSE, -1, R_LOGITS, R_LABELS};

#define TD_SPEC_FILE "cross_entropy1.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"smoothing", TD_P_REAL}, {"lse_square_scale", TD_P_REAL}, {"ignored_index", TD_P_INT},
    {"total_classes", TD_P_INT}, {"class_start_idx", TD_P_INT}, {"n_cols", TD_P_INT},
    {"n_rows", TD_P_INT},       {"logits_row_stride", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT},
    {"HAS_SMOOTHING", TD_P_BOOL}, {"SPLIT", TD_P_BOOL}};
static const td_region_decl regions[NR] = {{"loss_ptr", TD_F32, TD_R_OUT},
                                           {"lse_ptr", TD_F32, TD_R_OUT},
                                           {"logits_ptr", TD_F32, TD_R_IN},
                                           {"labels_ptr", TD_I64, TD_R_META}};

static void gen(td_producer *p, td_case *c) { rc_ce_gen(p, c, &CE1); }
static const char *check(const td_case *c) { return rc_ce_check(c, &CE1); }
static void writes(const td_case *c, td_wset *ws) { rc_ce_writes(c, ws, &CE1); }
static void far(td_producer *p, td_case *c) { rc_ce_far(p, c, &CE1); }

static const char *ce_partial(const td_case *c) { return rc_ce_partial(c, &CE1); }
static const td_intent ce_intent = {
    .operation = "cross-entropy of each row over its n_cols classes (label smoothing, ignore_index), plus the "
                 "z-loss lse_square_scale * lse^2, with its log-sum-exp",
    .definition = "torch.nn.functional.cross_entropy(logits, labels, label_smoothing, ignore_index, "
                  "reduction='none') and torch.logsumexp; the z-loss as flash-attn's CrossEntropyLoss documents it",
    TD_SPECS(ce1_intent),
    .partial = ce_partial,
};

const td_contract td_c_cross_entropy1_fwd = {
    .id = "cross_entropy1.cross_entropy_fwd_correctness",
    .file = "cross_entropy1",
    .family = "loss",
    .io_class = "MetaGatherMasked2DKernelIO_2x2 (crossEntropyFwdIO)",
    .kind = "exact",
    .formula = "lse[b*R+r] = log sum_{j in block b} exp(x[r,j]); loss[b*R+r] = ceLossLocal (ignore / in-block / "
               "smoothing / SPLIT / + lss*lse^2)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "grid = (n_rows, cdiv(n_cols, BLOCK)): no fully masked program (Lean's (0,0) would be NaN in "
               "binary32); ignored label -> loss exactly 0; total_classes >= 1; |logits| <= 2^40",
    .error_model = "max-shifted log-sum-exp with tl.sum trees, exp/log budgets, loss ops in the kernel's order",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(ce1),
    .intent = &ce_intent,
};
