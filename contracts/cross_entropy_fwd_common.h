/* The contract cross_entropy_fwd_correctness as cross_entropy2.c and cross_entropy_ops.c
 * state it: the two catalogue files hold the same Triton source and the same statement,
 * so everything but the contract's id and .file lives here (the code itself is
 * reduce_common.h's rc_ce_*).  Such a file includes this header only: it
 * instantiates cross_entropy_fwd_common.spec.h itself.
 *
 *   crossEntropyFwdIO loss lse z_loss logits labels smoothing logit_scale lse_square_scale
 *     ignored_index total_classes class_start_idx n_cols n_rows logits_row_stride BLOCK_SIZE
 *     HAS_SMOOTHING SPLIT ⊨ fun _ pid1 lab xs g => if pid1*BLOCK_SIZE < n_cols
 *       then (ceLossLocal ..., ceBlockLSE n_cols BLOCK_SIZE pid1 logit_scale xs, ceZLossLocal ...)
 *       else (0, 0, 0)
 *   MetaMasked2DKernelIO_2x3 (with the label gather gwin/gmask of cross_entropy1):
 *   read = pid0*logits_row_stride + pid1*BLOCK_SIZE + j, mask = pid1*BLOCK_SIZE + j < n_cols,
 *   write1 = write2 = write3 = pid1*n_rows + pid0, writeMask3 = (SPLIT = false).
 *
 * Checked against bench/tritonbench_g/cross_entropy2 and cross_entropy_ops (the .py and
 * the Lean files): the [named] reading is right.  Every logit is scaled once, z = RN32(x * logit_scale), before
 * the max, the smoothing sum and the label gather (the gathered label logit is
 * multiplied again by the same scale: the same rounding).  ceBlockLSE = log sum_{valid j}
 * exp(x_j * logit_scale); ceLossLocal is cross_entropy1's five-way loss over the
 * scaled logits; ceZLossLocal = lse_square_scale*lse*lse, 0 for an ignored label.  The
 * kernel adds z_loss to the loss and stores z_loss only when not SPLIT (writeMask3):
 * under SPLIT the z_loss cells are outside the write set and must keep the sentinel.
 * cross_entropy2 and cross_entropy_ops hold the same Triton source and statement.
 *
 * Error model (reduce_common.h): log-sum-exp of the scaled logits as the kernel
 * evaluates it (tl.max, tl.sum trees, exp/log budgets), the loss in the kernel's
 * order ((lse - (s*sum)/tc) - (1-s)*z_label) + (lss*lse)*lse.  Labels are int32 (the
 * source's own test passes int32 labels); the ignore index is -100, -1 or a real class.
 *
 * Special values: grid = (n_rows, cdiv(n_cols, BLOCK)) as the host launches it, so no
 * program is fully masked (Lean's (0,0,0); binary32 would give NaN).  logit_scale > 0:
 * the kernel multiplies the -inf of masked lanes by it, which stays -inf only for a
 * positive scale (Lean's masked lanes are bottom for any scale).  total_classes >= 1.
 */
#include "gen_far.h"
#include "reduce_common.h"

enum {
    P_SMOOTHING,
    P_SCALE,
    P_LSS,
    P_IGNORED,
    P_TOTAL,
    P_CSI,
    P_NCOLS,
    P_NROWS,
    P_STRIDE,
    P_BLOCK,
    P_HAS_SMOOTHING,
    P_SPLIT,
    NP
};
enum { R_LOSS, R_LSE, R_ZLOSS, R_LOGITS, R_LABELS, NR };

static const rc_ce_layout CE = {P_SMOOTHING, P_SCALE, P_LSS,  P_IGNORED, P_TOTAL, P_CSI,   P_NCOLS,  P_NROWS, P_STRIDE,
                                P_BLOCK,     P_HAS_SMOOTHING, P_SPLIT, R_LOSS, R_LSE, R_ZLOSS, R_LOGITS, R_LABELS};

#define TD_SPEC_FILE "cross_entropy_fwd_common.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"smoothing", TD_P_REAL},     {"logit_scale", TD_P_REAL},       {"lse_square_scale", TD_P_REAL},
    {"ignored_index", TD_P_INT},  {"total_classes", TD_P_INT},      {"class_start_idx", TD_P_INT},
    {"n_cols", TD_P_INT},         {"n_rows", TD_P_INT},             {"logits_row_stride", TD_P_INT},
    {"BLOCK_SIZE", TD_P_INT},     {"HAS_SMOOTHING", TD_P_BOOL},     {"SPLIT", TD_P_BOOL}};
static const td_region_decl regions[NR] = {{"loss_ptr", TD_F32, TD_R_OUT},
                                           {"lse_ptr", TD_F32, TD_R_OUT},
                                           {"z_loss_ptr", TD_F32, TD_R_OUT},
                                           {"logits_ptr", TD_F32, TD_R_IN},
                                           {"labels_ptr", TD_I32, TD_R_META}};

static void gen(td_producer *p, td_case *c) { rc_ce_gen(p, c, &CE); }
static const char *check(const td_case *c) { return rc_ce_check(c, &CE); }
static void writes(const td_case *c, td_wset *ws) { rc_ce_writes(c, ws, &CE); }

static const char *ce_partial(const td_case *c) { return rc_ce_partial(c, &CE); }
static const td_intent ce_intent = {
    .operation = "cross-entropy of each row over its n_cols classes (label smoothing, ignore_index), plus the "
                 "z-loss lse_square_scale * lse^2, with its log-sum-exp",
    .definition = "torch.nn.functional.cross_entropy(logits * logit_scale, labels, label_smoothing, ignore_index, "
                  "reduction='none') and torch.logsumexp; the z-loss as flash-attn's CrossEntropyLoss documents it",
    TD_SPECS(ce_intent),
    .partial = ce_partial,
};

/* Offsets beyond 2^31: rc_ce_far (reduce_common.h). */
static void far(td_producer *p, td_case *c) { rc_ce_far(p, c, &CE); }

/* The contract's fields after its .id and .file */
#define CE_FWD_FIELDS                                                                                              \
    .family = "loss", .io_class = "MetaMasked2DKernelIO_2x3 (crossEntropyFwdIO)", .kind = "exact",                 \
    .formula = "lse[b*R+r] = log sum_{j in block b} exp(x[r,j]*scale); loss = ceLossLocal (+ z_loss unless SPLIT); " \
               "z_loss = lss*lse^2 (0 if ignored; stored unless SPLIT)",                                            \
    .nparams = NP, .params = params, .nregions = NR, .regions = regions, .sv = TD_SV_REAL,                         \
    .sv_note = "grid = (n_rows, cdiv(n_cols, BLOCK)): no fully masked program (Lean's (0,0,0) would be NaN in "    \
               "binary32); logit_scale > 0; ignored label -> loss = z_loss = 0 exactly; total_classes >= 1",       \
    .error_model = "scaled logits, max-shifted log-sum-exp with tl.sum trees, exp/log budgets, loss ops in the "   \
                   "kernel's order",                                                                               \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) |                       \
               TD_BC(TD_BC_OFFSET_2_31),                                                                            \
    .gen = gen, .far = far,                                                                                         \
    .check = check, .writes = writes, TD_SPECS(ce), .intent = &ce_intent
