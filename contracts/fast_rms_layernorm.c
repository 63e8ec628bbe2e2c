/* fast_rms_layernorm  (catalogue part 1, src lines 4000-4053)
 *
 *   rms_layernorm_forward_correctness:  rmsLayernormFwdIO Y X W r Y_row_stride X_row_stride
 *     W_row_stride r_row_stride n_cols eps BLOCK_SIZE ⊨ (fun i => rmsFwdYSpec ..., fun _ =>
 *     rmsFwdInvVarSpec ...);  hYr: Y != r, hB: 0 < BLOCK_SIZE.
 *   gemma_rms_layernorm_forward_correctness: gemmaRmsLayernormFwdIO (no W_row_stride) ⊨
 *     (gemmaRmsFwdYSpec, rmsFwdInvVarSpec);  hYr, hB.
 *   Masked2DKernelIO_2x2: read1 = row*X_row_stride + j, read2 = j*W_row_stride (plain) or j
 *   (Gemma), write1 = row*Y_row_stride + j (mask j < n_cols), write2 = row*r_row_stride
 *   (writeMask2: j = 0, the unmasked scalar store of inv_var).
 *
 * Checked against bench/tritonbench_g/fast_rms_layernorm (.py and FastRmsLayernorm.lean).
 * rmsFwdInvVarSpec = rsqrt(S / n_cols + eps) with S the sum of the squares of the masked
 * tile: lanes j < BLOCK_SIZE with j < n_cols, i.e. the first min(n_cols, BLOCK_SIZE)
 * columns, divided by n_cols itself; rmsFwdYSpec = (x_j * inv_var) * W[j*W_row_stride],
 * gemmaRmsFwdYSpec = (x_j * inv_var) * (W[j] + 1).  The catalogue reads the mean over
 * all n_cols columns: the same when n_cols <= BLOCK_SIZE (calculate_settings launches
 * BLOCK_SIZE = next_power_of_2(n_cols)); the theorems have no such hypothesis, so
 * n_cols > BLOCK_SIZE is drawn sometimes and the spec is Lean's (the tile's prefix, / n_cols).
 * The kernel: X_row = tl.load(X + cols, mask, other=0).to(fp32); row_var =
 * tl.sum(X_row * X_row) / n_cols; inv_var = tl.math.rsqrt(row_var + eps); tl.store(r,
 * inv_var); normed = (X_row * inv_var).to(W_row.dtype) (W binary32: the identity);
 * output = normed * W_row (Gemma: normed * (W_row + 1.0), W loaded .to(fp32)).
 *
 * Error model (rmsnorm_common.h): the min(n_cols, B) squares RN(x*x) summed by tl.sum's
 * tree, / n_cols (exact in binary32), + eps, rsqrt charged the backend's budget (host
 * 1.0f / sqrtf: 1.491 ulp measured; CUDA rsqrtf: 2.5 ulp), then x * inv_var and * w or
 * * (w + 1) (one more rounding: Gemma's w + 1.0 cancels to exactly 0 at w = -1, drawn).
 *
 * Special values: n_cols = 0 is allowed (BLOCK_SIZE > 0 keeps the unmasked r store in
 * range): the kernel computes 0.0 / 0 = NaN and stores rsqrt(NaN) = NaN in r, where
 * Lean's x / 0 = 0 gives rsqrt(eps); the mean of an empty row (0/0 of exact operands) has
 * no exact value, so r's lane is undefined (TD_SH_UNDEF, oracle/shadow.h): the kernel's
 * NaN and Lean's rsqrt(eps) both pass, counted as undefined; no Y lane is written.  eps > 0 binary32 (2^-149 ..
 * 2^13); |x|, |w| <= 2^40; zero rows give inv_var = rsqrt(eps) and Y exactly 0.
 * Layouts: padded and broadcast (stride 0) X rows, W_row_stride in {0, 1, 2, 3} (W a
 * weight vector of n_cols, or longer), r_row_stride in {1, 2, 3}.
 */
#include "gen_far.h"
#include "rmsnorm_common.h"

/* plain: Y_row_stride, X_row_stride, W_row_stride, r_row_stride, n_cols, BLOCK_SIZE, eps */
enum { P_YSR, P_XSR, P_WSR, P_RSR, P_N, P_B, P_EPS, NP };
/* Gemma: Y_row_stride, X_row_stride, r_row_stride, n_cols, BLOCK_SIZE, eps */
enum { G_YSR, G_XSR, G_RSR, G_N, G_B, G_EPS, NG };
enum { R_Y, R_X, R_W, R_R, NR };

/* parameter indices of one face */
typedef struct fr_layout {
    int ysr, xsr, wsr, rsr, n, b, eps; /* wsr: -1 for Gemma (W read at j) */
    int gemma;
} fr_layout;
static const fr_layout PLAIN = {P_YSR, P_XSR, P_WSR, P_RSR, P_N, P_B, P_EPS, 0};
static const fr_layout GEMMA = {G_YSR, G_XSR, -1, G_RSR, G_N, G_B, G_EPS, 1};

#define TD_SPEC_FILE "fast_rms_layernorm.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_plain[NP] = {
    {"Y_row_stride", TD_P_INT}, {"X_row_stride", TD_P_INT}, {"W_row_stride", TD_P_INT}, {"r_row_stride", TD_P_INT},
    {"n_cols", TD_P_INT},       {"BLOCK_SIZE", TD_P_INT},   {"eps", TD_P_REAL}};
static const td_param_decl params_gemma[NG] = {{"Y_row_stride", TD_P_INT}, {"X_row_stride", TD_P_INT},
                                               {"r_row_stride", TD_P_INT}, {"n_cols", TD_P_INT},
                                               {"BLOCK_SIZE", TD_P_INT},   {"eps", TD_P_REAL}};
static const td_region_decl regions[NR] = {
    {"Y", TD_F32, TD_R_OUT}, {"X", TD_F32, TD_R_IN}, {"W", TD_F32, TD_R_IN}, {"r", TD_F32, TD_R_OUT}};

static int64_t fr_cols(const td_case *c, const fr_layout *y) {
    int64_t n = c->p[y->n].i, B = c->p[y->b].i;
    return n < B ? n : B;
}
static int64_t fr_wsr(const td_case *c, const fr_layout *y) { return y->wsr >= 0 ? c->p[y->wsr].i : 1; }

static void fr_gen(td_producer *p, td_case *c, const fr_layout *y) {
    int64_t B = td_gen_pow2(p, 0, 12);
    int over = td_prod_u32(p, 0, 5) == 0; /* n_cols > BLOCK_SIZE: the tile covers a prefix */
    int64_t n = rn_gen_cols(p, B, 2048, 1, over);
    int64_t L = n < B ? n : B;
    int64_t rows = rn_gen_rows(p, L);
    c->p[y->ysr].i = rn_gen_row_stride(p, L, &c->classes);
    c->p[y->xsr].i = td_prod_u32(p, 0, 5) == 0 ? 0 : rn_gen_row_stride(p, L, &c->classes);
    if (y->wsr >= 0) {
        static const int64_t ws[] = {1, 1, 1, 0, 2, 3};
        c->p[y->wsr].i = ws[td_prod_u32(p, 0, 5)];
    }
    static const int64_t rs[] = {1, 1, 2, 3};
    c->p[y->rsr].i = rs[td_prod_u32(p, 0, 3)];
    c->p[y->n].i = n;
    c->p[y->b].i = B;
    c->p[y->eps].r = rn_gen_eps(p, 0x1p-149);
    c->grid[0] = (uint32_t)rows;
    c->grid[1] = c->grid[2] = 1;
    size_t slack = td_prod_bool(p) ? (size_t)td_prod_u32(p, 1, 8) : 0;
    int64_t wsr = fr_wsr(c, y);
    size_t nw = L > 0 ? (size_t)((L - 1) * wsr + 1) : 1;
    if (nw < (size_t)L) nw = (size_t)L; /* the weight vector holds n_cols values, whatever its stride */
    td_case_alloc(c, R_Y, (size_t)((rows - 1) * c->p[y->ysr].i + L) + 1 + slack);
    td_case_alloc(c, R_X, (size_t)((rows - 1) * c->p[y->xsr].i + L) + 1 + slack);
    td_case_alloc(c, R_W, nw + slack);
    td_case_alloc(c, R_R, (size_t)((rows - 1) * c->p[y->rsr].i + 1) + slack);
    double bound = RN_BOUND_F32, eps = c->p[y->eps].r;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, bound);
    td_vgen_fill(&g, c, R_X);
    for (int64_t r = 0; r < rows; r++) rn_fill_row(&g, c, R_X, (uint64_t)(r * c->p[y->xsr].i), 1, L, eps, bound);
    rn_fill_weights(&g, c, R_W, bound);
    if (y->gemma && td_rng_below(&g.rng, 3) == 0) /* W = -1: Gemma's (1 + W) is exactly 0 */
        for (size_t e = 0; e < c->r[R_W].len; e++)
            if (td_rng_below(&g.rng, 3) == 0) td_set(c, R_W, e, -1.0);
    rn_mark_shape(c, n, B, (uint64_t)rows, (uint64_t)(rows * (L + 1)), 0);
}

static const char *fr_check(const td_case *c, const fr_layout *y) {
    int64_t n = c->p[y->n].i, B = c->p[y->b].i, rows = c->grid[0], L = fr_cols(c, y);
    if (B <= 0) return "hB: 0 < BLOCK_SIZE (the unmasked r store needs lane 0)";
    if (n < 0 || n > (1 << 24)) return "n_cols : Nat, n_cols <= 2^24 (the kernel divides by n_cols in binary32)";
    const char *e = rn_real_param_check(c, y->eps, 0x1p-149);
    if (e) return e;
    if (rows < 1 || c->grid[1] != 1 || c->grid[2] != 1) return "grid = (n_rows,)";
    int64_t ysr = c->p[y->ysr].i, xsr = c->p[y->xsr].i, rsr = c->p[y->rsr].i, wsr = fr_wsr(c, y);
    if (ysr < 0 || xsr < 0 || rsr < 0 || wsr < 0) return "strides : Nat";
    if (rows > 1 && (ysr < L || rsr < 1))
        return "the Y rows and r cells of different programs are distinct (hYr: Y != r by construction)";
    if (c->r[R_Y].len < (size_t)((rows - 1) * ysr + L) || c->r[R_X].len < (size_t)((rows - 1) * xsr + L) ||
        (L > 0 && c->r[R_W].len < (size_t)((L - 1) * wsr + 1)) || c->r[R_R].len < (size_t)((rows - 1) * rsr + 1))
        return "Y, X, W and r hold every active lane";
    const char *v;
    if ((v = rn_values_check(c, R_X, RN_BOUND_F32)) || (v = rn_values_check(c, R_W, RN_BOUND_F32))) return v;
    return NULL;
}

static void fr_writes(const td_case *c, td_wset *ws, const fr_layout *y) {
    int64_t L = fr_cols(c, y), ysr = c->p[y->ysr].i, rsr = c->p[y->rsr].i;
    for (uint32_t row = 0; row < c->grid[0]; row++) {
        for (int64_t j = 0; j < L; j++) { /* write1, mask j < n_cols over the BLOCK_SIZE lanes */
            td_olane l = {.o = 0, .region = R_Y, .off = (uint64_t)(row * ysr + j), .pid = {row, 0, 0},
                          .j = (uint64_t)j, .idx = {row, j}};
            td_wset_add(ws, &l);
        }
        td_olane l = {.o = 1, .region = R_R, .off = (uint64_t)(row * rsr), .pid = {row, 0, 0}, .j = 0, .idx = {row, 0}};
        td_wset_add(ws, &l); /* write2, writeMask2: j = 0 */
    }
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows of X at an X_row_stride
 * near 2^31 over a sparse region, as a kernel that forms row_idx * X_row_stride in
 * int32 gets wrong (unsloth's kernels did, until they cast to int64); Y, W and r keep
 * their layout. */
static void fr_far(td_producer *p, td_case *c, const fr_layout *y) {
    int64_t L = fr_cols(c, y), R = c->grid[0];
    if (R < 2 || L <= 0) return; /* one row, or nothing read */
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, L);
    if (td_far_restride(c, R_X, R, L, c->p[y->xsr].i, s)) return;
    c->grid[0] = (uint32_t)R;
    c->p[y->xsr].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static void far_plain(td_producer *p, td_case *c) { fr_far(p, c, &PLAIN); }
static void far_gemma(td_producer *p, td_case *c) { fr_far(p, c, &GEMMA); }
static void gen_plain(td_producer *p, td_case *c) { fr_gen(p, c, &PLAIN); }
static void gen_gemma(td_producer *p, td_case *c) { fr_gen(p, c, &GEMMA); }
static const char *check_plain(const td_case *c) { return fr_check(c, &PLAIN); }
static const char *check_gemma(const td_case *c) { return fr_check(c, &GEMMA); }
static void writes_plain(const td_case *c, td_wset *ws) { fr_writes(c, ws, &PLAIN); }
static void writes_gemma(const td_case *c, td_wset *ws) { fr_writes(c, ws, &GEMMA); }

#define FAST_RMS_COMMON                                                                                          \
    .file = "fast_rms_layernorm", .family = "normalization", .kind = "exact", .nregions = NR, .regions = regions, \
    .sv = TD_SV_REAL,                                                                                             \
    .sv_note = "eps > 0 binary32, |x|, |w| <= 2^40: every intermediate finite; n_cols = 0: the kernel's "         \
               "0.0/0 stored in r is undefined: any outcome (the kernel's NaN, Lean's rsqrt(eps))",        \
    .error_model = "tl.sum's tree of the min(n, B) squares RN(x*x), / n_cols, + eps, rsqrt budget, then the "     \
                   "products in the kernel's order",                                                              \
    .classes = RN_CLASSES_ONE_TILE | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_FULLY_MASKED)

/* RMSNorm needs the row's n_cols entries, and its mean over an empty row is undefined. */
static const char *fr_gap(const td_case *c, const fr_layout *y) {
    int64_t n = c->p[y->n].i, B = c->p[y->b].i;
    if (n == 0) return "n_cols = 0: the mean of an empty row is undefined (the kernel stores 0/0 = NaN in r)";
    return n > B ? "n_cols > BLOCK_SIZE: the one tile reads BLOCK_SIZE of the row's n_cols columns" : NULL;
}
static const char *gap_plain(const td_case *c) { return fr_gap(c, &PLAIN); }
static const char *gap_gemma(const td_case *c) { return fr_gap(c, &GEMMA); }

static const td_intent intent_plain = {
    .operation = "RMS norm of each row over its n_cols columns, x / sqrt(mean(x^2) + eps) * w, with its 1/rms",
    .definition = "RMSNorm (Zhang & Sennrich 2019, Root Mean Square Layer Normalization; torch.nn.RMSNorm)",
    TD_SPECS(plain_intent),
    .gap = gap_plain,
};
static const td_intent intent_gemma = {
    .operation = "Gemma's RMS norm of each row over its n_cols columns, x / sqrt(mean(x^2) + eps) * (1 + w), with "
                 "its 1/rms",
    .definition = "Gemma RMSNorm (HF transformers GemmaRMSNorm: the normalised row times (1 + weight)); RMSNorm after "
                  "Zhang & Sennrich 2019",
    TD_SPECS(gemma_intent),
    .gap = gap_gemma,
};

const td_contract td_c_fast_rms_layernorm = {
    .id = "fast_rms_layernorm.rms_layernorm_forward_correctness",
    .io_class = "Masked2DKernelIO_2x2 (rmsLayernormFwdIO)",
    .formula = "Y[row*Ysr + j] = (X[row*Xsr + j] * r) * W[j*Wsr];  r[row*rsr] = rsqrt(sum_{k < min(n, B)} X^2 / n "
               "+ eps)",
    .nparams = NP,
    .params = params_plain,
    FAST_RMS_COMMON | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_plain,
    .far = far_plain,
    .check = check_plain,
    .writes = writes_plain,
    TD_SPECS(plain),
    .intent = &intent_plain,
};
const td_contract td_c_gemma_rms_layernorm = {
    .id = "fast_rms_layernorm.gemma_rms_layernorm_forward_correctness",
    .io_class = "Masked2DKernelIO_2x2 (gemmaRmsLayernormFwdIO)",
    .formula = "Y[row*Ysr + j] = (X[row*Xsr + j] * r) * (W[j] + 1);  r[row*rsr] = rsqrt(sum_{k < min(n, B)} X^2 / n "
               "+ eps)",
    .nparams = NG,
    .params = params_gemma,
    FAST_RMS_COMMON | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_gemma,
    .far = far_gemma,
    .check = check_gemma,
    .writes = writes_gemma,
    TD_SPECS(gemma),
    .intent = &intent_gemma,
};
