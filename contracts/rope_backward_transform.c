/* rope_backward_transform.rope_backward_python_backward_output_summary_general
 *   (catalogue part 2; Liger's `_triton_rope` with BACKWARD_PASS = true, rope_backward)
 *
 *   ComputeCorrect over TileIndex [pad_n_qh|pad_n_kh, pad_hd/2] x4 + 4 head IO classes:
 *     q0' = q0*c + q1*sn, q1' = q1*c - q0*sn, k0' = k0*c + k1*sn, k1' = k1*c - k0*sn,
 *     writeIf activeQFull n_qh hd idx (h < n_qh & d < hd/2) at qFullFirstOffset /
 *     qFullSecondOffset (second = first + hd/2), K likewise; hqk: Q != K.
 *
 * Checked against the original (bench/tritonbench_g/rope_backward_transform/: .py and
 * RopeBackwardTransform.lean): the same kernel as rope_transform with the backward branch
 * (`q_tile_1 * cos_row + q_tile_2 * sin_row`, `q_tile_2 * cos_row - q_tile_1 * sin_row`),
 * the rotation by -angle that the gradient of the forward rotation is; everything else
 * (head slices vs. the full surface, tile padding, composition) as in rope_transform.c.
 * Error model (every admissible implementation; rope_common.spec.h): per lane
 *   |err| <= e(a*c) + e(b*s) + u*(|r| + e(a*c) + e(b*s)) + subnormal terms,
 * e(p) the exact rounding error of the binary32 product (0 if fused into an FMA),
 * u = 2^-24.  Special values: |dq|, |dk| <= 2^100, tables in [-1, 1]: all finite. */
#include "rope_liger_common.h"

#define TD_SPEC_FILE "rope_backward_transform.spec.h"
#include "spec_instantiate.h"

static const char *check(const td_case *c) { return rl_check(c); }
static void writes(const td_case *c, td_wset *ws) { rl_writes(c, ws, 1); }

/* ---- intent (docs/intent.md; the definitions in rope_common.h) ---- */
static const char *rope_gap(const td_case *c) { return rope_odd_gap(c->p[RL_HD].i); }
static const td_intent i_one = {
    .operation = "the input gradient of the GPT-NeoX rotary embedding on dq and dk: pairs (i, i + hd/2) rotated by -angle of row mod sl",
    .definition = ROPE_DEF_NEOX_BWD,
    TD_SPECS(rope_btf_intent),
    .gap = rope_gap,
};

const td_contract td_c_rope_backward_transform = {
    .id = "rope_backward_transform.rope_backward_python_backward_output_summary_general",
    .file = "rope_backward_transform",
    .family = "rotary",
    .io_class = "ComputeCorrect over TileIndex [pad_n_qh|pad_n_kh, pad_hd/2] x4 + 4 head IO classes",
    .kind = "exact",
    .formula = "x1' = x1*cos + x2*sin; x2' = x2*cos - x1*sin for q (n_qh heads) and k (n_kh), cos row = pid mod sl",
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
    TD_SPECS(rope_btf),
    .intent = &i_one,
};
