/* layer_norm_liger: Liger's layer-norm forward and its scalar-store slices
 * (catalogue part 2, src lines 6206-6295).
 *
 *   layer_norm_liger_forward_output_summary (ComputeCorrect, configured):
 *     the forward kernel realizes, on every program's initial state,
 *       Y[pid*Y_row_stride + i] = layernormYSpec (i < n_cols, i : Fin BLOCK_SIZE),
 *       Mean[pid*Mean_row_stride] = unbotD 0 layernormMeanCarrier,
 *       RSTD[pid*RSTD_row_stride] = unbotD 0 layernormInvVarCarrier;
 *     hYMean, hYRSTD, hMeanY, hMeanRSTD, hRSTDY (distinct outputs), hOutInj.
 *   layer_norm_liger_scalar_stores_io_correctness (MaskedTileKernelIO₁ x 2, slice):
 *     Mean[pid*Mean_row_stride] = MeanPre[pid*Mean_row_stride], RSTD likewise;
 *   layer_norm_liger_scalar_stores_io_correctnessR: the same through
 *     ⊨[R, FloatDType.real].
 *
 * Kernel (bench/tritonbench_g/layer_norm_liger/layer_norm_liger.py,
 * _layer_norm_forward_kernel): one program per row, masked loads (other = 0),
 *     mean = tl.sum(X_row) / n_cols
 *     var  = tl.sum((X_row - mean) * (X_row - mean)) / n_cols;  rstd = tl.rsqrt(var + eps)
 *     store Mean, RSTD;  Y = (X_row - mean) * rstd * W_row + B_row (masked)
 * W_row_stride and B_row_stride are accepted and unused (W and B are read at the
 * column); the Lean slice layer_norm_liger_forward drops them too.
 *
 * Named specs, read in LayerNormLiger.lean: layernormMeanCarrier = reduceSum of the
 * masked input tile / n_cols; layernormVarCarrier = reduceSum over ALL BLOCK_SIZE lanes
 * of the centered tile squared, where a masked lane holds 0 - mean.  So, as in
 * fast_layernorm, the contract's variance includes (BLOCK - min(n,B)) * mean^2 from the
 * padded lanes (the catalogue's "var = (1/n) sum (x - mean)^2" reading holds only for
 * n_cols = BLOCK_SIZE); the spec keeps them.  The WithBot carriers are never ⊥ here.
 * Error model: layernorm_common.h ln_tile_stats (tree mean over the active prefix,
 * tree variance over the B lanes, the backend's rsqrt budget; host rsqrt = 1.0f/sqrtf).
 *
 * Scalar stores: the two store slices load MeanPre / RSTDPre at pid*stride and store
 * them at the same offset of Mean / RSTD.  The copy is exact: tolerance 0.  For the R
 * twin, R.round .real is the kernel's binary32 store (slot "store", fp32:rne:inf), and
 * a binary32 value stored as binary32 is itself: tolerance 0 too; a kernel whose store
 * flushes subnormals or narrows the statistic fails it.  (Their worst err/tol is 0:
 * every error is 0 against a tolerance of 0, there is no bound to sharpen.)  MeanPre / RSTDPre hold
 * statistics-like values (menu values, subnormals, +-0) generated for the slice.
 * Special values: n_cols >= 1 and eps > 0 (Lean's 0/0 = 0 is avoided); finite values.
 */
#include <float.h>

#include "gen_far.h"
#include "layernorm_common.h"

enum { P_YS, P_XS, P_WS, P_BS, P_MS, P_RS, P_N, P_BLOCK, P_EPS, NP };
enum { R_Y, R_X, R_W, R_B, R_MEAN, R_RSTD, NR };
/* scalar stores */
enum { PS_MS, PS_RS, NPS };
enum { RS_MEANPRE, RS_MEAN, RS_RSTDPRE, RS_RSTD, NRS };
enum { C_STORE };

#define TD_SPEC_FILE "layer_norm_liger.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"Y_row_stride", TD_P_INT},    {"X_row_stride", TD_P_INT},    {"W_row_stride", TD_P_INT},
    {"B_row_stride", TD_P_INT},    {"Mean_row_stride", TD_P_INT}, {"RSTD_row_stride", TD_P_INT},
    {"n_cols", TD_P_INT},          {"BLOCK_SIZE", TD_P_INT},      {"eps", TD_P_REAL}};
static const td_region_decl regions[NR] = {{"Y", TD_F32, TD_R_OUT},    {"X", TD_F32, TD_R_IN},
                                           {"W", TD_F32, TD_R_IN},     {"B", TD_F32, TD_R_IN},
                                           {"Mean", TD_F32, TD_R_OUT}, {"RSTD", TD_F32, TD_R_OUT}};
static const td_param_decl params_s[NPS] = {{"Mean_row_stride", TD_P_INT}, {"RSTD_row_stride", TD_P_INT}};
static const td_region_decl regions_s[NRS] = {{"MeanPre", TD_F32, TD_R_IN},
                                              {"Mean", TD_F32, TD_R_OUT},
                                              {"RSTDPre", TD_F32, TD_R_IN},
                                              {"RSTD", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round .real of the stored statistic (a binary32 store)"}};

static uint64_t width(const td_case *c) {
    uint64_t n = (uint64_t)c->p[P_N].i, B = (uint64_t)c->p[P_BLOCK].i;
    return n < B ? n : B;
}

/* a stride for one scalar per row: >= 1 when rows > 1 (distinct cells), sometimes wider */
static uint64_t scalar_stride(td_producer *p, uint64_t rows, uint64_t *classes) {
    uint64_t s = td_prod_bool(p) ? 1 : td_prod_u32(p, rows == 1 ? 0 : 1, 5);
    if (s > 1) *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    return s;
}

static void gen_fwd(td_producer *p, td_case *c) {
    uint64_t n, B;
    ln_gen_row_shape(p, 10, 1, &n, &B, &c->classes);
    uint64_t w = n < B ? n : B;
    uint64_t rows = ln_gen_rows(p, B, 8, 4096);
    uint64_t xs = ln_gen_stride(p, w, rows, &c->classes), ys = ln_gen_stride(p, w, rows, &c->classes);
    if (rows > 1 && ys < w) ys = w;
    uint64_t ms = scalar_stride(p, rows, &c->classes), rs = scalar_stride(p, rows, &c->classes);
    c->p[P_N].i = (int64_t)n;
    c->p[P_BLOCK].i = (int64_t)B;
    c->p[P_XS].i = (int64_t)xs;
    c->p[P_YS].i = (int64_t)ys;
    c->p[P_WS].i = td_prod_u32(p, 0, 3); /* unused by the kernel: any value */
    c->p[P_BS].i = td_prod_u32(p, 0, 3);
    c->p[P_MS].i = (int64_t)ms;
    c->p[P_RS].i = (int64_t)rs;
    c->p[P_EPS].r = ln_gen_eps(p);
    c->grid[0] = (uint32_t)rows;
    if (rows > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    uint64_t slack = td_prod_bool(p) ? 3 : 0;
    td_case_alloc(c, R_X, (rows - 1) * xs + w + slack);
    td_case_alloc(c, R_Y, (rows - 1) * ys + w + slack);
    td_case_alloc(c, R_W, w + slack);
    td_case_alloc(c, R_B, w + slack);
    td_case_alloc(c, R_MEAN, (rows - 1) * ms + 1 + slack);
    td_case_alloc(c, R_RSTD, (rows - 1) * rs + 1 + slack);
    ln_rows g;
    ln_rows_init(&g, p, c, LN_XBOUND);
    ln_fill_menu(&g, c, R_X, LN_XBOUND);
    for (uint64_t r = 0; r < rows; r++) ln_fill_row(&g, c, R_X, r * xs, w);
    ln_fill_menu(&g, c, R_W, LN_WBOUND);
    ln_fill_menu(&g, c, R_B, LN_WBOUND);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows of X at an X_row_stride
 * near 2^31 over a sparse region, as a kernel that forms row * X_row_stride in int32
 * gets wrong; Y, Mean and RSTD keep their strides. */
static void far_fwd(td_producer *p, td_case *c) {
    int64_t w = (int64_t)width(c), R = c->grid[0];
    if (R < 2 || w <= 0) return;
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, w);
    if (td_far_restride(c, R_X, R, w, c->p[P_XS].i, s)) return;
    c->grid[0] = (uint32_t)R;
    c->p[P_XS].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check_fwd(const td_case *c) {
    int64_t n = c->p[P_N].i, B = c->p[P_BLOCK].i;
    uint64_t rows = c->grid[0], w = width(c);
    for (int k = 0; k < P_N; k++)
        if (c->p[k].i < 0) return "strides : Nat";
    uint64_t xs = (uint64_t)c->p[P_XS].i, ys = (uint64_t)c->p[P_YS].i, ms = (uint64_t)c->p[P_MS].i,
             rs = (uint64_t)c->p[P_RS].i;
    if (B <= 0) return "BLOCK_SIZE > 0 (a Triton constexpr block)";
    if (n <= 0) return "n_cols > 0 (the generator's domain: n_cols = 0 divides by zero)";
    double eps = c->p[P_EPS].r;
    if ((double)(float)eps != eps || !(eps > 0)) return "eps: a positive binary32 kernel scalar";
    if (rows < 1) return "at least one program";
    if (c->r[R_X].len < (rows - 1) * xs + w) return "X holds every row read";
    if (c->r[R_Y].len < (rows - 1) * ys + w) return "Y holds every row written";
    if (rows > 1 && ys < w) return "Y rows of different programs do not overlap";
    if (rows > 1 && (ms == 0 || rs == 0)) return "Mean / RSTD cells of different programs are distinct";
    if (c->r[R_W].len < w || c->r[R_B].len < w) return "W and B hold the columns read";
    if (c->r[R_MEAN].len < (rows - 1) * ms + 1 || c->r[R_RSTD].len < (rows - 1) * rs + 1)
        return "Mean and RSTD hold every program's cell";
    /* hYMean, hYRSTD, hMeanY, hMeanRSTD, hRSTDY: distinct declared regions; hOutInj: i -> pid*stride + i */
    if (!td_region_abs_le(c, R_X, LN_XDOMAIN)) /* a far X: its written pages only */
        return "|X| <= 2^40 (finite sums of squares)";
    for (size_t i = 0; i < w; i++)
        if (!(fabs(td_get(c, R_W, i)) <= LN_XDOMAIN && fabs(td_get(c, R_B, i)) <= LN_XDOMAIN))
            return "|W|, |B| <= 2^40 (a finite affine output)";
    return NULL;
}

static void writes_fwd(const td_case *c, td_wset *ws) {
    uint64_t w = width(c), ys = (uint64_t)c->p[P_YS].i, ms = (uint64_t)c->p[P_MS].i, rs = (uint64_t)c->p[P_RS].i;
    for (uint32_t pid = 0; pid < c->grid[0]; pid++) {
        for (uint64_t j = 0; j < w; j++) {
            td_olane l = {.o = 0, .region = R_Y, .off = pid * ys + j, .pid = {pid, 0, 0}, .j = j, .idx = {pid, (int64_t)j}};
            td_wset_add(ws, &l);
        }
        td_olane m = {.o = 1, .region = R_MEAN, .off = pid * ms, .pid = {pid, 0, 0}, .idx = {pid}};
        td_olane r = {.o = 2, .region = R_RSTD, .off = pid * rs, .pid = {pid, 0, 0}, .idx = {pid}};
        td_wset_add(ws, &m);
        td_wset_add(ws, &r);
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

const td_contract td_c_liger_fwd = {
    .id = "layer_norm_liger.layer_norm_liger_forward_output_summary",
    .file = "layer_norm_liger",
    .family = "layernorm",
    .io_class = "ComputeCorrect (BlockState) + lowering",
    .kind = "exact",
    .formula = "Y[pid*Ys + j] = ((x_j - mean) * rstd) * W_j + B_j;  Mean[pid*Ms] = mean;  RSTD[pid*Rs] = 1/sqrt(var + eps);"
               "  var over all BLOCK lanes (padded lanes: mean^2)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "n_cols >= 1 and eps > 0 (Lean's x/0 = 0 is avoided); |x| <= 2^40: every sum of squares is finite",
    .error_model = "kernel order: tree mean (prefix of min(n,B) leaves), tree variance over B lanes incl. the padded "
                   "mean^2 lanes, rsqrt budget of the backend, affine ((x-mean)*rstd)*W+B; mean error carried",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_fwd,
    .far = far_fwd,
    .check = check_fwd,
    .writes = writes_fwd,
    TD_SPECS(fwd),
    .intent = &intent,
};

/* statistics-like values: the menu (signs, ties, wide exponents), subnormals, +-0 */
static void fill_stat(td_vgen *g, td_case *c, int reg) {
    for (size_t i = 0; i < c->r[reg].len; i++) {
        double v;
        switch (td_rng_below(&g->rng, 6)) {
        case 0: v = ldexp((double)(1 + td_rng_below(&g->rng, 1u << 23)), -149); break; /* subnormal */
        case 1: v = (td_rng_next(&g->rng) & 1) ? -0.0 : 0.0; break;
        default: v = td_vgen_value(g, TD_F32); break;
        }
        td_set(c, reg, i, v);
    }
}

static void gen_stores(td_producer *p, td_case *c) {
    uint64_t rows = td_prod_u32(p, 1, 64);
    if (rows == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE);
    uint64_t ms = scalar_stride(p, rows, &c->classes), rs = scalar_stride(p, rows, &c->classes);
    c->p[PS_MS].i = (int64_t)ms;
    c->p[PS_RS].i = (int64_t)rs;
    c->grid[0] = (uint32_t)rows;
    uint64_t slack = td_prod_bool(p) ? 2 : 0;
    td_case_alloc(c, RS_MEANPRE, (rows - 1) * ms + 1 + slack);
    td_case_alloc(c, RS_MEAN, (rows - 1) * ms + 1 + slack);
    td_case_alloc(c, RS_RSTDPRE, (rows - 1) * rs + 1 + slack);
    td_case_alloc(c, RS_RSTD, (rows - 1) * rs + 1 + slack);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    fill_stat(&g, c, RS_MEANPRE);
    fill_stat(&g, c, RS_RSTDPRE);
    c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS programs at a Mean_row_stride
 * near 2^31, as the original's row_idx * Mean_row_stride (an int32 program id times a
 * stride below 2^31) gets wrong.  MeanPre and Mean share the stride (the statistic is
 * copied to its own offset): both move, MeanPre as a sparse read-only region, Mean as a
 * sparse output; RSTDPre and RSTD likewise at a second far stride (RSTD_row_stride) when
 * there is address space for them. */
static void far_stores(td_producer *p, td_case *c) {
    static const int mean[2] = {RS_MEANPRE, RS_MEAN}, rstd[2] = {RS_RSTDPRE, RS_RSTD};
    if (!td_far_rows(p, c, mean, 2, PS_MS, 1)) return;
    int64_t s = td_far_stride(p, c->grid[0], 1);
    if (!td_far_restride_all(c, rstd, 2, c->grid[0], 1, c->p[PS_RS].i, s)) c->p[PS_RS].i = s;
}

static const char *check_stores(const td_case *c) {
    if (c->p[PS_MS].i < 0 || c->p[PS_RS].i < 0) return "strides : Nat";
    uint64_t rows = c->grid[0], ms = (uint64_t)c->p[PS_MS].i, rs = (uint64_t)c->p[PS_RS].i;
    if (rows < 1) return "at least one program";
    if (rows > 1 && (ms == 0 || rs == 0)) return "cells of different programs are distinct";
    if (c->r[RS_MEANPRE].len < (rows - 1) * ms + 1 || c->r[RS_MEAN].len < (rows - 1) * ms + 1)
        return "MeanPre and Mean hold pid*Mean_row_stride";
    if (c->r[RS_RSTDPRE].len < (rows - 1) * rs + 1 || c->r[RS_RSTD].len < (rows - 1) * rs + 1)
        return "RSTDPre and RSTD hold pid*RSTD_row_stride";
    /* finite: |x| <= DBL_MAX (NaN fails); of a far case's sparse region only its written pages */
    if (!td_region_abs_le(c, RS_MEANPRE, DBL_MAX)) return "MeanPre holds real values";
    if (!td_region_abs_le(c, RS_RSTDPRE, DBL_MAX)) return "RSTDPre holds real values";
    return NULL;
}

static void writes_stores(const td_case *c, td_wset *ws) {
    uint64_t ms = (uint64_t)c->p[PS_MS].i, rs = (uint64_t)c->p[PS_RS].i;
    for (uint32_t pid = 0; pid < c->grid[0]; pid++) {
        td_olane m = {.o = 0, .region = RS_MEAN, .off = pid * ms, .pid = {pid, 0, 0}, .idx = {pid}};
        td_olane r = {.o = 1, .region = RS_RSTD, .off = pid * rs, .pid = {pid, 0, 0}, .idx = {pid}};
        td_wset_add(ws, &m);
        td_wset_add(ws, &r);
    }
}

#define LIGER_STORES_COMMON                                                                                     \
    .file = "layer_norm_liger", .family = "layernorm", .io_class = "MaskedTileKernelIO_1 x2 (mean_storeIO, rstd_storeIO)", \
    .nparams = NPS, .params = params_s, .nregions = NRS, .regions = regions_s, .sv = TD_SV_REAL,                \
    .sv_note = "MeanPre / RSTDPre hold finite values (the spec is over the reals)",                              \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_STRIDE_GT_ROW) |                \
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31),               \
    .gen = gen_stores, .far = far_stores, .check = check_stores, .writes = writes_stores

const td_contract td_c_liger_stores = {
    .id = "layer_norm_liger.layer_norm_liger_scalar_stores_io_correctness",
    .kind = "exact",
    .formula = "Mean[pid*Ms] = MeanPre[pid*Ms];  RSTD[pid*Rs] = RSTDPre[pid*Rs]",
    .error_model = "a copy: bit-exact (tolerance 0)",
    LIGER_STORES_COMMON,
    TD_SPECS(copy),
};

const td_contract td_c_liger_stores_r = {
    .id = "layer_norm_liger.layer_norm_liger_scalar_stores_io_correctnessR",
    .kind = "rounding",
    .formula = "Mean[pid*Ms] = R.round(.real)(MeanPre[pid*Ms]);  RSTD likewise; R = the binary32 store",
    .error_model = "the store cast of an exact binary32 value: bit-exact against the profile (tolerance 0)",
    .ncasts = 1,
    .casts = casts,
    LIGER_STORES_COMMON,
    TD_SPECS(copy_r),
};
