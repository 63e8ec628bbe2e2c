/* rope_transform.rope_transform_output_summary_general  (catalogue part 2; Liger's `_triton_rope`, forward)
 *
 *   ComputeCorrect x4 over the full surface (BACKWARD_PASS = false) + 4 head IO classes:
 *     q0' = q0*c - q1*sn, q1' = q1*c + q0*sn, k0' = k0*c - k1*sn, k1' = k1*c + k0*sn,
 *     writeIf activeQFull (h < n_qh & d < hd/2) at qFullFirstOffset / qFullSecondOffset
 *     (second = first + hd/2); K likewise with n_kh; hqk: Q != K.
 *
 * Checked against the original (bench/tritonbench_g/rope_transform/: .py and RopeTransform.lean):
 *   - the full-surface specs are the kernel's forward stores with cos_row = pid mod sl, heads
 *     at h*hd from the row (row stride q_row_stride / k_row_stride), columns d < hd//2 of
 *     the pad_hd//2 tile, head rows h < n_qh (n_kh) of the pad_n_qh (pad_n_kh) tile;
 *   - the head IO classes (parameters HEAD_IDX, COS_ROW_IDX, HEAD_HALF, BLOCK_HALF) are
 *     proof slices of one head and one cos row; they index the statement, not the kernel,
 *     which takes the 13 parameters below: this contract states the full surface (every
 *     row, every head, both halves), of which each head slice is a subset;
 *   - every tile is loaded before the first store, so the in-place composition holds.
 * Error model (every admissible implementation; rope_common.spec.h): per lane
 *   |err| <= e(a*c) + e(b*s) + u*(|r| + e(a*c) + e(b*s)) + subnormal terms,
 * e(p) the exact rounding error of the binary32 product (0 if fused into an FMA),
 * u = 2^-24.  Special values: |q|, |k| <= 2^100, tables in [-1, 1]: all finite. */
#include "rope_liger_common.h"

#define TD_SPEC_FILE "rope_transform.spec.h"
#include "spec_instantiate.h"

static const char *check(const td_case *c) { return rl_check(c); }
static void writes(const td_case *c, td_wset *ws) { rl_writes(c, ws, 0); }

/* ---- intent (docs/intent.md; the definitions in rope_common.h) ---- */
static const char *rope_gap(const td_case *c) { return rope_odd_gap(c->p[RL_HD].i); }
static const td_intent i_one = {
    .operation = "GPT-NeoX rotary embedding of q (n_qh heads) and k (n_kh heads) in place: pairs (i, i + hd/2), angle of row mod sl",
    .definition = ROPE_DEF_NEOX,
    TD_SPECS(rope_tf_intent),
    .gap = rope_gap,
};

const td_contract td_c_rope_transform = {
    .id = "rope_transform.rope_transform_output_summary_general",
    .file = "rope_transform",
    .family = "rotary",
    .io_class = "ComputeCorrect x4 (full surface, BACKWARD_PASS = false) + 4 head IO classes",
    .kind = "exact",
    .formula = "x1' = x1*cos - x2*sin; x2' = x2*cos + x1*sin for q (n_qh heads) and k (n_kh), cos row = pid mod sl",
    .nparams = RL_NP,
    .params = rl_params,
    .nregions = RL_NR,
    .regions = rl_regions,
    .sv = TD_SV_REAL,
    .sv_note = "|q|, |k| <= 2^100, tables in [-1, 1]: every intermediate is finite",
    .error_model = "two binary32 products (exact rounding errors) + one rounded sum: any order, FMA or not",
    .classes = RL_CLASSES,
    .gen = rl_gen,
    .far = rl_far,
    .check = check,
    .writes = writes,
    TD_SPECS(rope_tf),
    .intent = &i_one,
};
