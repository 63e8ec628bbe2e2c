/* fast_layernorm.layernorm_forward_correctness  (catalogue part 1, src lines 3966-3998)
 *
 *   layernormForwardIO Y X W bias r mu Y_row_stride X_row_stride n_cols eps BLOCK_SIZE ⊨
 *     (fun i => layernormYSpec .., fun _ => invVarFullSpec .., fun _ => meanFullSpec ..)
 *   Masked2DKernelIO₃ₓ₃, hB: 0 < BLOCK_SIZE, hYr: Y ≠ r, hYmu: Y ≠ mu, hRmu: r ≠ mu
 *   read1 = pid*X_row_stride + j, read2 = read3 = j, write1 = pid*Y_row_stride + j,
 *   write2 = write3 = pid, mask = j < n_cols, writeMask2 = writeMask3 = (j = 0)
 *
 * The Triton kernel (bench/tritonbench_g/fast_layernorm/fast_layernorm.py,
 * layernorm_forward; Unsloth's fast LayerNorm): one program per row, one BLOCK_SIZE
 * tile, masked loads with other = 0,
 *     mean_X = tl.sum(X_row) / n_cols;  XX = X_row - mean_X
 *     row_var = tl.sum(XX * XX) / n_cols;  inv_var = tl.math.rsqrt(row_var + eps)
 *     store r = inv_var, mu = mean_X;  Y = (XX * inv_var) * W_row + b_row (masked)
 *
 * The named specs, read in VeriTile FastLayernorm.lean: meanFullSpec =
 * (tl.sum of layernormInputTile)/n_cols, and layernormVarCarrier sums
 * layernormCenteredTile^2 over ALL BLOCK_SIZE lanes, where a masked lane of the centered
 * tile is 0 - mean.  So the contract's variance is
 *     (sum_{j < min(n,B)} (x_j - mean)^2 + (B - min(n,B)) * mean^2) / n_cols,
 * not the catalogue reading "(1/n) sum (x - mean)^2": the kernel really lacks the
 * `tl.where(mask, X_row - mean_X, 0)` of Unsloth's later version, and the Lean spec
 * (and so this contract and its spec) keeps the padded lanes' mean^2.  Likewise the
 * tile covers j < BLOCK_SIZE only, so for n_cols > BLOCK_SIZE the sums run over the
 * first BLOCK_SIZE columns and still divide by n_cols (the generator reaches that).
 * invVarFullSpec = realRsqrt(var + eps) = 1/sqrt(var + eps); layernormYSpec =
 * ((x - mean) * rstd) * w + b.
 *
 * Error model: the kernel's order (layernorm_common.h, ln_tile_stats): the mean's
 * tl.sum is a tree (ceil(log2 min(n,B)) roundings on any path: the non-zero leaves are
 * a prefix), one division by n_cols; the variance is a tree over all B lanes (the
 * padded lanes are non-zero here) of the squared rounded deviations, whose error terms
 * keep the mean's error (2|d| E + E^2 per square: for a constant row the kernel's
 * variance is the square of its mean's error and the bound says so); rsqrt is the
 * host's 1.0f/sqrtf (libm budget, measured for exactly that) or CUDA's rsqrtf.
 * Special values: n_cols = 0 is avoided (Lean's 0/0 = 0 is binary32's NaN); eps > 0.
 */
#include "gen_far.h"
#include "layernorm_common.h"

enum { P_YS, P_XS, P_N, P_BLOCK, P_EPS, NP };
enum { R_Y, R_X, R_W, R_B, R_R, R_MU, NR };

#define TD_SPEC_FILE "fast_layernorm.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"Y_row_stride", TD_P_INT},
                                         {"X_row_stride", TD_P_INT},
                                         {"n_cols", TD_P_INT},
                                         {"BLOCK_SIZE", TD_P_INT},
                                         {"eps", TD_P_REAL}};
static const td_region_decl regions[NR] = {{"Y", TD_F32, TD_R_OUT}, {"X", TD_F32, TD_R_IN},  {"W", TD_F32, TD_R_IN},
                                           {"bias", TD_F32, TD_R_IN}, {"r", TD_F32, TD_R_OUT}, {"mu", TD_F32, TD_R_OUT}};

static uint64_t width(const td_case *c) {
    uint64_t n = (uint64_t)c->p[P_N].i, B = (uint64_t)c->p[P_BLOCK].i;
    return n < B ? n : B;
}

static void gen(td_producer *p, td_case *c) {
    uint64_t n, B;
    ln_gen_row_shape(p, 10, 1, &n, &B, &c->classes);
    uint64_t w = n < B ? n : B;
    uint64_t rows = ln_gen_rows(p, B, 8, 4096);
    uint64_t xs = ln_gen_stride(p, w, rows, &c->classes), ys = ln_gen_stride(p, w, rows, &c->classes);
    if (rows > 1 && ys < w) ys = w; /* Y rows must not overlap (the write set is injective) */
    c->p[P_N].i = (int64_t)n;
    c->p[P_BLOCK].i = (int64_t)B;
    c->p[P_XS].i = (int64_t)xs;
    c->p[P_YS].i = (int64_t)ys;
    c->p[P_EPS].r = ln_gen_eps(p);
    c->grid[0] = (uint32_t)rows;
    if (rows > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    uint64_t slack = td_prod_bool(p) ? 3 : 0;
    td_case_alloc(c, R_X, (rows - 1) * xs + w + slack);
    td_case_alloc(c, R_Y, (rows - 1) * ys + w + slack);
    td_case_alloc(c, R_W, w + slack);
    td_case_alloc(c, R_B, w + slack);
    td_case_alloc(c, R_R, rows + slack);
    td_case_alloc(c, R_MU, rows + slack);
    ln_rows g;
    ln_rows_init(&g, p, c, LN_XBOUND);
    ln_fill_menu(&g, c, R_X, LN_XBOUND);
    for (uint64_t r = 0; r < rows; r++) ln_fill_row(&g, c, R_X, r * xs, w);
    ln_fill_menu(&g, c, R_W, LN_WBOUND);
    ln_fill_menu(&g, c, R_B, LN_WBOUND);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows of X at an X_row_stride
 * near 2^31 over a sparse region, as unsloth's kernel formed row_idx * X_row_stride in
 * int32; Y, W, bias, r and mu keep their layout. */
static void far(td_producer *p, td_case *c) {
    int64_t w = (int64_t)width(c), R = c->grid[0];
    if (R < 2 || w <= 0) return;
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, w);
    if (td_far_restride(c, R_X, R, w, c->p[P_XS].i, s)) return;
    c->grid[0] = (uint32_t)R;
    c->p[P_XS].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check(const td_case *c) {
    int64_t n = c->p[P_N].i, B = c->p[P_BLOCK].i, xs = c->p[P_XS].i, ys = c->p[P_YS].i;
    uint64_t rows = c->grid[0], w = width(c);
    if (B <= 0) return "hB: 0 < BLOCK_SIZE";
    if (n <= 0) return "n_cols > 0 (the generator's domain: n_cols = 0 divides by zero)";
    if (xs < 0 || ys < 0) return "row strides : Nat";
    double eps = c->p[P_EPS].r;
    if ((double)(float)eps != eps || !(eps > 0)) return "eps: a positive binary32 kernel scalar";
    if (rows < 1) return "at least one program";
    if (c->r[R_X].len < (rows - 1) * (uint64_t)xs + w) return "X holds every row read (pid*X_row_stride + j, j < n_cols)";
    if (c->r[R_Y].len < (rows - 1) * (uint64_t)ys + w) return "Y holds every row written";
    if (rows > 1 && (uint64_t)ys < w) return "Y rows of different programs do not overlap";
    if (c->r[R_W].len < w || c->r[R_B].len < w) return "W and bias hold the columns read (j < n_cols)";
    if (c->r[R_R].len < rows || c->r[R_MU].len < rows) return "r and mu hold one cell per program";
    /* hYr, hYmu, hRmu: distinct declared regions */
    if (!td_region_abs_le(c, R_X, LN_XDOMAIN)) /* a far X: its written pages only */
        return "|X| <= 2^40 (finite sums of squares)";
    for (size_t i = 0; i < w; i++)
        if (!(fabs(td_get(c, R_W, i)) <= LN_XDOMAIN && fabs(td_get(c, R_B, i)) <= LN_XDOMAIN))
            return "|W|, |bias| <= 2^40 (a finite affine output)";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    uint64_t w = width(c), ys = (uint64_t)c->p[P_YS].i;
    for (uint32_t pid = 0; pid < c->grid[0]; pid++) {
        for (uint64_t j = 0; j < w; j++) {
            td_olane l = {.o = 0, .region = R_Y, .off = pid * ys + j, .pid = {pid, 0, 0}, .j = j, .idx = {pid, (int64_t)j}};
            td_wset_add(ws, &l);
        }
        td_olane r = {.o = 1, .region = R_R, .off = pid, .pid = {pid, 0, 0}, .idx = {pid}};
        td_olane m = {.o = 2, .region = R_MU, .off = pid, .pid = {pid, 0, 0}, .idx = {pid}};
        td_wset_add(ws, &r);
        td_wset_add(ws, &m);
    }
}

/* Layer norm needs every column of a row; the launch's one tile reads BLOCK_SIZE of them. */
static const char *row_gap(const td_case *c) {
    return c->p[P_N].i > c->p[P_BLOCK].i ? "n_cols > BLOCK_SIZE: the one tile reads BLOCK_SIZE of the row's n_cols columns"
                                         : NULL;
}

static const td_intent intent = {
    .operation = "layer norm of each row over its n_cols columns (biased variance), with its mean and 1/std",
    .definition = "torch.nn.functional.layer_norm over the last dimension (PyTorch documentation; Ba et al. 2016)",
    TD_SPECS(intent),
    .gap = row_gap,
};

const td_contract td_c_fast_layernorm_fwd = {
    .id = "fast_layernorm.layernorm_forward_correctness",
    .file = "fast_layernorm",
    .family = "layernorm",
    .io_class = "Masked2DKernelIO_3x3 (layernormForwardIO)",
    .kind = "exact",
    .formula = "Y[row,j] = ((x_j - mean) * rstd) * W_j + b_j;  r[row] = 1/sqrt(var + eps);  mu[row] = mean;  "
               "mean = sum_{j<min(n,B)} x_j / n, var = (sum_{j<min(n,B)} (x_j - mean)^2 + (B - min(n,B)) mean^2) / n",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "n_cols >= 1 and eps > 0 (Lean's x/0 = 0 is avoided); |x| <= 2^40: every sum of squares is finite",
    .intent = &intent,
    .error_model = "kernel order: tree mean (prefix of min(n,B) leaves), tree variance over B lanes incl. the padded "
                   "mean^2 lanes, rsqrt budget of the backend, affine ((x-mean)*rstd)*w+b; mean error carried",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(fwd),
};
