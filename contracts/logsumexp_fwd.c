/* logsumexp_fwd.logsumexp_fwd_kernel_correctness  (catalogue part 2)
 *
 *   logsumexpIO x z D B HAS_SCALE scale ⊨ fun _ i_d xs _ =>
 *       if i_d * B < D then blockLSE_local D B i_d HAS_SCALE scale xs else 0     (hB : 0 < B)
 *   Masked2DKernelIO₁, grid (i_n, i_d): read = i_n*D + (i_d*B + j), mask i_d*B + j < D,
 *   write = i_n * cdiv(D, B) + i_d, writeMask j = 0 (one scalar per program).
 *   blockLSE_local = log(sum_{j : i_d*B + j < D} exp(s * x_j)), s = scale if HAS_SCALE.
 *
 * The Triton kernel (bench/tritonbench_g/logsumexp_fwd, flash-linear-attention's
 * partial LSE): program (i_n, i_d) loads its block of row i_n (other = -inf), multiplies
 * by scale when HAS_SCALE, b_m = tl.max, b_z = log(tl.sum(exp(b_x - b_m))) + b_m, and
 * stores b_z unmasked.  The named spec (LogsumexpFwd.lean) is log of the sum of
 * exp(scaled x) over the block's active lanes, which is the kernel's value in the
 * reals (log sum exp(y - m) + m = log sum exp(y)); the catalogue's reading agrees.
 * The host reduces the per-block partial LSEs afterwards; that is outside the
 * contract.
 *
 * Error model: as the kernel evaluates it: y_j = x_j * scale (one rounding, when
 * HAS_SCALE), m = max y_j (exact), exp(y_j - m), a pairwise-tree sum over the block's
 * w = min(B, D - i_d*B) lanes, the backend's log, + m (one rounding).  With a scale,
 * the shift m is the binary32 number max_j RN32(x_j * scale) the kernel holds (see
 * sm_max: the log-sum-exp is shift invariant, so the reals are unchanged), so the
 * argmax lane's y - m costs only y's own rounding error, which the model knows
 * exactly.  The log-sum-exp is 1-Lipschitz in the y_j, so the kernel's error is about
 * the largest rounding error of a y_j; to keep that below 2^-4 (where the additive
 * error propagation through exp, sum and log stays meaningful) the generator keeps
 * |x * scale| <= 2^20 by dividing the drawn x by |scale| when |scale| > 1.
 *
 * Special values: TD_SV_IEEE, two places where Lean's ⊥ arithmetic and binary32
 * differ, both a property of the kernel:
 *   - a program with i_d * B >= D (a surplus block: every lane masked) stores
 *     log(sum exp(-inf - -inf)) + -inf = NaN; Lean's spec says 0 there;
 *   - with HAS_SCALE and scale <= 0, the masked lanes of a tail block hold
 *     -inf * scale = +inf (or NaN for scale = 0): b_m = +inf and the block's LSE is
 *     NaN, where Lean's ⊥ * scale = ⊥ keeps them out.
 * On those programs the lane is flagged (domain edge) and NaN is accepted; everywhere
 * else the bound applies.  Surplus blocks are generated with a single row (with more
 * rows program (i_n, cdiv) would write row i_n + 1's first cell: the write set is not
 * injective, and the host never launches them), and D = 0 (every block surplus).
 * |x| <= 2^20 and |scale| <= 2^10 keep x * scale finite.
 */
#include "gen_large.h"
#include "softmax_common.h"

enum { P_D, P_B, P_HAS_SCALE, P_SCALE, NP };
enum { R_X, R_Z, NR };

static inline int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

#define TD_SPEC_FILE "logsumexp_fwd.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"D", TD_P_INT}, {"B", TD_P_INT}, {"HAS_SCALE", TD_P_BOOL}, {"scale", TD_P_REAL}};
static const td_region_decl regions[NR] = {{"x", TD_F32, TD_R_IN}, {"z", TD_F32, TD_R_OUT}};

static void gen(td_producer *p, td_case *c) {
    int64_t B = td_gen_pow2(p, 0, 12), D, k = td_prod_u32(p, 2, 8);
    static const unsigned w[] = {2, 3, 3, 3, 3, 3, 3, 1};
    switch (td_prod_pick(p, w, 8)) {
    case 0: D = 1; break;
    case 1: D = B > 1 ? B - 1 : 1; break;
    case 2: D = B; break;
    case 3: D = B + 1; break;
    case 4: D = k * B + (int64_t)td_prod_u32(p, 0, 2) - 1; break;
    case 5: D = 1 + td_prod_u32(p, 0, (uint32_t)(B / 4 > 0 ? B / 4 - 1 : 0)); break; /* B >> D */
    case 6: D = 1 + td_prod_u32(p, 0, (uint32_t)(8 * B - 1)); break;
    default: D = 0; break;
    }
    if (D > 16384) D = 16384;
    td_gen_mark_shape((uint64_t)D, (uint64_t)B, (uint64_t)(cdiv(D, B) ? cdiv(D, B) : 1), &c->classes);
    int64_t ND = cdiv(D, B), rows = td_prod_u32(p, 1, (uint32_t)sm_max_rows(D, 16)), surplus = 0;
    if (rows == 1 && (D == 0 || td_prod_u32(p, 0, 3) == 0)) surplus = td_prod_u32(p, 1, 2);
    if (surplus) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    c->grid[0] = (uint32_t)rows;
    c->grid[1] = (uint32_t)(ND + surplus);
    if (rows * (ND + surplus) == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    c->p[P_D].i = D;
    c->p[P_B].i = B;
    c->p[P_HAS_SCALE].i = td_prod_u32(p, 0, 3) != 0;
    static const double scales[] = {0.125, 0.08838834764831845, 1.0, 0.5, 2.0, 0.0, -1.0, -0.25};
    int sk = td_prod_u32(p, 0, 9);
    c->p[P_SCALE].r = sk < 8 ? sm_f32(scales[sk]) : td_gen_real(p, sk == 8 ? 0 : -4, sk == 8 ? 1024 : 4);
    int64_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, 8) : 0;
    sm_vals v;
    sm_vals_init(&v, p, c, 0x1p20);
    td_case_alloc(c, R_X, (size_t)(rows * D + slack));
    sm_fill_all(&v, c, R_X);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t d = 0; d < ND; d++) {
            int64_t lo = d * B, n = D - lo < B ? D - lo : B;
            sm_fill_row(&v, c, R_X, (uint64_t)(r * D + lo), 1, n);
        }
    double sc = fabs(c->p[P_SCALE].r);
    if (c->p[P_HAS_SCALE].i && sc > 1) /* |x * scale| <= 2^20 */
        for (size_t i = 0; i < c->r[R_X].len; i++) td_set(c, R_X, i, sm_f32(td_get(c, R_X, i) / sc));
    td_case_alloc(c, R_Z, (size_t)(rows * ND + surplus + slack));
}

static const char *check(const td_case *c) {
    int64_t D = c->p[P_D].i, B = c->p[P_B].i;
    if (B <= 0) return "hB: 0 < B";
    if (D < 0) return "D : Nat";
    if ((double)(float)c->p[P_SCALE].r != c->p[P_SCALE].r) return "scale : tl.float32 (the kernel's scalar type)";
    int64_t ND = cdiv(D, B), rows = c->grid[0], G = c->grid[1];
    if (rows > 1 && G > ND) return "distinct programs write distinct cells (surplus blocks only with one row)";
    if (rows * D > (int64_t)c->r[R_X].len) return "x holds every active lane's read";
    if ((rows - 1) * ND + G > (int64_t)c->r[R_Z].len) return "z holds every program's write";
    return NULL;
}

/* A large case: the rows of its windows; the other rows' cells only counted. */
static void writes(const td_case *c, td_wset *ws) {
    int64_t ND = cdiv(c->p[P_D].i, c->p[P_B].i);
    uint64_t seen = 0;
    for (uint64_t in = td_large_row_next(c, 0); in < c->grid[0]; in = td_large_row_next(c, in + 1), seen++)
        for (uint32_t id = 0; id < c->grid[1]; id++) {
            td_olane l = {.region = R_Z, .off = in * (uint64_t)ND + id, .pid = {(uint32_t)in, id, 0}, .j = 0,
                          .idx = {(int64_t)in, id}};
            td_wset_add(ws, &l);
        }
    if (c->nwin) ws->dropped += (c->grid[0] - seen) * (uint64_t)c->grid[1];
}

/* The large tier (gen_large.h, td_rows_large): more than 2^31 / D rows, so row i_n's
 * offset i_n * D passes 2^31 (the original converts both program ids to int64 for
 * it; D and the row count are unbounded in its signature).  Each row keeps the drawn
 * row's columns; a row narrower than TD_ROWS_LARGE_MIN_LEN is widened to that
 * width (the new columns read zero: x's precondition is per element), and
 * surplus programs are left out (with more than one row their writes collide, check). */
static void large(td_producer *p, td_case *c) {
    int64_t D0 = c->p[P_D].i, B = c->p[P_B].i, D = D0;
    if (D < TD_ROWS_LARGE_MIN_LEN) D = TD_ROWS_LARGE_MIN_LEN;
    int64_t ND = cdiv(D, B);
    td_rows_region rr[2] = {{R_X, (uint64_t)D, (uint64_t)D0}, {R_Z, (uint64_t)ND, 0}};
    uint64_t R;
    if (td_rows_large(p, c, c->grid[0], rr, 2, &R) != 0) return;
    c->p[P_D].i = D;
    c->grid[0] = (uint32_t)R;
    c->grid[1] = (uint32_t)ND;
    c->classes &= ~TD_BC(TD_BC_FULLY_MASKED);
    if (D != D0) td_gen_mark_shape((uint64_t)D, (uint64_t)B, (uint64_t)ND, &c->classes);
}

/* ---- intent (docs/intent.md) ----
 * torch.logsumexp(scale * x, dim=-1): one value per row.  Where a row spans several
 * blocks (D > B) each program stores its block's log-sum-exp, a partial the host
 * reduces (flash-linear-attention's logsumexp_fwd: z.logsumexp(-1)): not compared.
 * The operation writes each row's cell i_n * cdiv(D, B) (i_d = 0); a surplus program
 * (i_d * B >= D) writes a cell the operation does not have. */
static const char *lse_partial(const td_case *c) {
    return c->p[P_D].i > c->p[P_B].i ? "D > B: each program stores the log-sum-exp of one block of B columns, a "
                                       "partial the host reduces"
                                     : NULL;
}
/* torch gives -inf for each row of an empty one (D = 0), and z has no cell for it
 * (cdiv(0, B) = 0 per row): the operation's value has nowhere to go. */
static const char *lse_gap(const td_case *c) {
    return c->p[P_D].i == 0 ? "D = 0: z holds cdiv(D, B) = 0 cells per row, so the operation's -inf (the log-sum-exp of "
                              "an empty row) has none; the kernel's surplus programs store NaN (Lean: 0)"
                            : NULL;
}
static void lse_intent_writes(const td_case *c, td_wset *ws) {
    int64_t ND = cdiv(c->p[P_D].i, c->p[P_B].i);
    for (uint32_t in = 0; in < c->grid[0] && ND > 0; in++) {
        td_olane l = {.region = R_Z, .off = (uint64_t)(in * ND), .pid = {in, 0, 0}, .j = 0, .idx = {in, 0}};
        td_wset_add(ws, &l);
    }
}
static const td_intent i_lse = {
    .operation = "log-sum-exp of each row over its D entries, scaled by scale when HAS_SCALE",
    .definition = "torch.logsumexp(x * scale, dim=-1) (PyTorch documentation; -inf for an empty row)",
    TD_SPECS(lse_intent),
    .gap = lse_gap,
    .writes = lse_intent_writes,
    .partial = lse_partial,
};

/* .far: none -- the row stride is D itself and the programs of a row read all its D columns: an offset
 * beyond 2^31 means 2^31 elements read: the large tier's (`large`, rows of D), not a sparse far stride. */
const td_contract td_c_logsumexp_fwd = {
    .id = "logsumexp_fwd.logsumexp_fwd_kernel_correctness",
    .file = "logsumexp_fwd",
    .family = "softmax",
    .io_class = "Masked2DKernelIO_1 (logsumexpIO, writeMask j = 0), grid (rows, cdiv(D, B))",
    .kind = "exact",
    .formula = "z[i_n*cdiv(D,B) + i_d] = log(sum_j exp(s*x[i_n*D + i_d*B + j])), i_d*B + j < D, s = scale if "
               "HAS_SCALE else 1; 0 when i_d*B >= D",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_IEEE,
    .sv_note = "surplus blocks (i_d*B >= D: Lean 0) and tail blocks with HAS_SCALE, scale <= 0 (masked lanes "
               "-inf*scale = +inf/NaN, Lean ⊥) store NaN: accepted there only",
    .error_model = "as the kernel evaluates it: x*scale, exact max, exp(y - m), pairwise-tree sum, log, + m",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED),
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(lse),
    .intent = &i_lse,
};
