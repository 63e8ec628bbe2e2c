/* layernorm_fwd_triton: the Triton tutorial's streamed layer norm over [Seq, H, D]
 * (catalogue part 2, src lines 6591-6660).
 *
 *   layernorm_fwd_triton_output_summary (ComputeCorrect, configured; hBlockPos, hXYNe, hWYNe):
 *     Y[p0*stride_y_N + p1*stride_y_hn + i] = layernormYFullNSpec ... i   for every i : Fin N
 *       = ((x_i - mean) * rstd) * W[p1*stride_w_hn + i],
 *       mean = sum_{j<N} x_j / N, var = sum_{j<N} (x_j - mean)^2 / N, rstd = (sqrt(var + eps))^-1,
 *       x_j = X[p0*stride_x_N + p1*stride_x_hn + j]
 *   layernorm_fwd_triton_io_correctness (StreamEmitMasked2DKernelIO₂, ⊨[R]):
 *     out[t, j] = lnStreamSpec N BLOCK_SIZE eps xs ws t j, the same value at column t*BLOCK_SIZE + j
 *     (T = lnNumSteps = cdiv(N, BLOCK_SIZE) steps; mask t*BLOCK_SIZE + j < N)
 *
 * Kernel (bench/tritonbench_g/layernorm_fwd_triton/layernorm_fwd_triton.py): grid
 * (Seq, H); three passes over the row in BLOCK_SIZE tiles:
 *     _mean[B] += x tile (masked, other 0);            mean = tl.sum(_mean) / N
 *     _var[B]  += where(cols < N, x - mean, 0)^2;       var = tl.sum(_var) / N
 *     rstd = 1 / tl.sqrt(var + eps);  y = ((x - mean) * rstd) * w;  store y.to(X.dtype)
 * stride_*_hd are accepted and unused (a unit inner stride): the generator gives them
 * any value.  The named specs were read in LayernormFwdTriton.lean: layernormYFullNSpec,
 * layernormMeanFullNSpec, layernormVarFullNSpec (the masked variance: no padding terms,
 * unlike fast_layernorm) and lnStreamSpec (the same value re-blocked, proved equal there).
 *
 * Error model, in the kernel's order (the blocked form): each statistic is a
 * per-lane sequential accumulation over the T tiles (lane e holds the columns e, e+B,
 * e+2B, ...: T_e - 1 roundings, the first addition to the zero accumulator exact)
 * followed by tl.sum's tree over the lanes (ceil(log2 min(N, B)) roundings: lanes >= N
 * hold 0), written as nested accumulators so that every term carries both levels'
 * error, then one division by N; the variance's deviations carry the mean's error;
 * rstd = 1/sqrt(.) is two correctly rounded operations (host and CUDA alike).
 *
 * The R twin: R.round .real is the kernel's store y.to(X.dtype.element_ty).  The twin
 * runs the model's bfloat16 configuration: X, W and Y are bfloat16 tensors (the loads
 * widen exactly), the arithmetic is binary32, and R is the bf16 store (slot "store",
 * default bf16:rne:inf, what Triton's fp32 -> bf16 conversion does).  The spec is the
 * cast of the exact value: the kernel must land on RN_bf16(exact) except where its
 * binary32 error straddles a bf16 rounding boundary.  The exact contract runs binary32
 * tensors (the store is then exact).
 * Special values: N >= 1, eps > 0 (Lean's 0/0 = 0 avoided); |x| <= 2^40.
 */
#include "gen_far.h"
#include "layernorm_common.h"

enum { P_SXN, P_SXH, P_SXD, P_SYN, P_SYH, P_SYD, P_SWH, P_SWD, P_N, P_BLOCK, P_EPS, NP };
enum { R_X, R_W, R_Y, NR };
enum { C_STORE };

#define TD_SPEC_FILE "layernorm_fwd_triton.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride_x_N", TD_P_INT},  {"stride_x_hn", TD_P_INT}, {"stride_x_hd", TD_P_INT}, {"stride_y_N", TD_P_INT},
    {"stride_y_hn", TD_P_INT}, {"stride_y_hd", TD_P_INT}, {"stride_w_hn", TD_P_INT}, {"stride_w_hd", TD_P_INT},
    {"N", TD_P_INT},           {"BLOCK_SIZE", TD_P_INT},  {"eps", TD_P_REAL}};
static const td_region_decl regions[NR] = {{"X", TD_F32, TD_R_IN}, {"W", TD_F32, TD_R_IN}, {"Y", TD_F32, TD_R_OUT}};
static const td_region_decl regions_bf16[NR] = {
    {"X", TD_BF16, TD_R_IN}, {"W", TD_BF16, TD_R_IN}, {"Y", TD_BF16, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "bf16:rne:inf", "R.round of the store y.to(X.dtype.element_ty) into the bfloat16 Y"}};

/* strides of a [Seq, H, >= N] layout: contiguous (padded rows), head-major, or (for
 * inputs only) broadcast over heads (stride 0) */
static void layout(td_producer *p, uint64_t seq, uint64_t h, uint64_t n, int input, int64_t *sN, int64_t *sH,
                   uint64_t *classes) {
    uint64_t row = n + (td_prod_bool(p) ? td_prod_u32(p, 1, 9) : 0);
    if (row > n) *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    switch (td_prod_u32(p, 0, input ? 3 : 2)) {
    case 0:
    case 1: *sH = (int64_t)row, *sN = (int64_t)(h * row); break;   /* [Seq, H, D] */
    case 2: *sN = (int64_t)row, *sH = (int64_t)(seq * row); break; /* [H, Seq, D] viewed as [Seq, H, D] */
    default: *sH = 0, *sN = (int64_t)row; break;                   /* one row shared by the heads */
    }
}
static uint64_t extent(uint64_t seq, uint64_t h, uint64_t n, int64_t sN, int64_t sH) {
    return (seq - 1) * (uint64_t)sN + (h - 1) * (uint64_t)sH + n;
}

static void gen_with(td_producer *p, td_case *c) {
    uint64_t B = td_gen_pow2(p, 0, 9);
    uint64_t n = td_gen_count(p, B, 1024, &c->classes);
    uint64_t seq = td_prod_u32(p, 1, 4), h = td_prod_u32(p, 1, 4);
    while (seq * h * n > 4096 && seq * h > 1) {
        if (seq > 1) seq--;
        else h--;
    }
    int64_t sxN, sxH, syN, syH, swH = td_prod_bool(p) ? (int64_t)n : (td_prod_bool(p) ? 0 : (int64_t)n + 5);
    layout(p, seq, h, n, 1, &sxN, &sxH, &c->classes);
    layout(p, seq, h, n, 0, &syN, &syH, &c->classes);
    c->p[P_SXN].i = sxN, c->p[P_SXH].i = sxH, c->p[P_SYN].i = syN, c->p[P_SYH].i = syH, c->p[P_SWH].i = swH;
    c->p[P_SXD].i = td_prod_u32(p, 1, 2), c->p[P_SYD].i = td_prod_u32(p, 1, 2), c->p[P_SWD].i = td_prod_u32(p, 1, 2);
    c->p[P_N].i = (int64_t)n;
    c->p[P_BLOCK].i = (int64_t)B;
    c->p[P_EPS].r = ln_gen_eps(p);
    c->grid[0] = (uint32_t)seq;
    c->grid[1] = (uint32_t)h;
    if (n > B) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    uint64_t slack = td_prod_bool(p) ? 3 : 0;
    td_case_alloc(c, R_X, extent(seq, h, n, sxN, sxH) + slack);
    td_case_alloc(c, R_Y, extent(seq, h, n, syN, syH) + slack);
    td_case_alloc(c, R_W, (h - 1) * (uint64_t)swH + n + slack);
    ln_rows g;
    ln_rows_init(&g, p, c, LN_XBOUND);
    ln_fill_menu(&g, c, R_X, LN_XBOUND);
    for (uint64_t s = 0; s < seq; s++)
        for (uint64_t k = 0; k < h; k++) ln_fill_row(&g, c, R_X, s * (uint64_t)sxN + k * (uint64_t)sxH, n);
    ln_fill_menu(&g, c, R_W, LN_WBOUND);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS sequence positions of X at a
 * stride_x_N near 2^31 over a sparse region, as a kernel forming pid_seq * stride_x_N in
 * int32 gets wrong (td_far_grid2: one position of H heads becomes H positions). */
static void far(td_producer *p, td_case *c) { td_far_grid2(p, c, R_X, P_SXN, P_SXH, P_SYN, P_SYH, c->p[P_N].i); }

static const char *check(const td_case *c) {
    for (int k = 0; k < P_N; k++)
        if (c->p[k].i < 0) return "strides : Nat";
    int64_t n = c->p[P_N].i, B = c->p[P_BLOCK].i;
    if (B <= 0) return "hBlockPos: 0 < BLOCK_SIZE";
    if (n <= 0) return "N > 0 (the generator's domain: N = 0 divides by zero)";
    double eps = c->p[P_EPS].r;
    if ((double)(float)eps != eps || !(eps > 0)) return "eps: a positive binary32 kernel scalar";
    uint64_t seq = c->grid[0], h = c->grid[1];
    if (seq < 1 || h < 1 || c->grid[2] != 1) return "a (Seq, H) grid";
    if (c->r[R_X].len < extent(seq, h, (uint64_t)n, c->p[P_SXN].i, c->p[P_SXH].i)) return "X holds every row read";
    if (c->r[R_Y].len < extent(seq, h, (uint64_t)n, c->p[P_SYN].i, c->p[P_SYH].i)) return "Y holds every row written";
    if (c->r[R_W].len < (h - 1) * (uint64_t)c->p[P_SWH].i + (uint64_t)n) return "W holds every head's row read";
    /* hXYNe, hWYNe: distinct declared regions.  Rows of Y for different (p0, p1) must not
     * overlap: the write set's injectivity is checked by the harness. */
    if (!td_region_abs_le(c, R_X, LN_XDOMAIN)) return "|X| <= 2^40 (finite sums of squares)"; /* a far X: its pages */
    if (!td_region_abs_le(c, R_W, LN_XDOMAIN)) return "|W| <= 2^40 (a finite output)";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    uint64_t n = (uint64_t)c->p[P_N].i, B = (uint64_t)c->p[P_BLOCK].i;
    for (uint32_t s = 0; s < c->grid[0]; s++)
        for (uint32_t k = 0; k < c->grid[1]; k++)
            for (uint64_t i = 0; i < n; i++) {
                td_olane l = {.o = 0, .region = R_Y,
                              .off = s * (uint64_t)c->p[P_SYN].i + k * (uint64_t)c->p[P_SYH].i + i,
                              .pid = {s, k, 0}, .t = (uint32_t)(i / B), .j = i % B,
                              .idx = {s, k, (int64_t)i}};
                td_wset_add(ws, &l);
            }
}

#define LNFWD_COMMON                                                                                            \
    .file = "layernorm_fwd_triton", .family = "layernorm", .nparams = NP, .params = params, .nregions = NR,     \
    .sv = TD_SV_REAL,                                                                                            \
    .sv_note = "N >= 1 and eps > 0 (Lean's x/0 = 0 is avoided); |x| <= 2^40: every sum of squares is finite",   \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31), .gen = gen_with,         \
    .far = far, .check = check, .writes = writes

static const td_intent intent = {
    .operation = "layer norm of each row over its N entries, scaled by w (no bias)",
    .definition = "torch.nn.functional.layer_norm(x, (N,), weight=w, bias=None) (PyTorch documentation)",
    TD_SPECS(intent),
};
static const td_intent intent_io = {
    .operation = "layer norm of each row over its N entries, scaled by w (no bias)",
    .definition = "torch.nn.functional.layer_norm(x, (N,), weight=w, bias=None) (PyTorch documentation)",
    TD_SPECS(intent_io),
};

const td_contract td_c_lnfwd_summary = {
    .id = "layernorm_fwd_triton.layernorm_fwd_triton_output_summary",
    .io_class = "ComputeCorrect (BlockState) + lowering",
    .kind = "exact",
    .formula = "Y[p0*syN + p1*syH + i] = ((x_i - mean) / sqrt(var + eps)) * W[p1*swH + i], mean and var over the N "
               "columns of row (p0, p1)",
    .regions = regions,
    .error_model = "kernel order: per-lane sequential tile accumulation then tl.sum's tree (nested), / N; the "
                   "variance's deviations carry the mean's error; 1/sqrt as two correctly rounded operations",
    LNFWD_COMMON,
    TD_SPECS(y),
    .intent = &intent,
};

const td_contract td_c_lnfwd_io = {
    .id = "layernorm_fwd_triton.layernorm_fwd_triton_io_correctness",
    .io_class = "StreamEmitMasked2DKernelIO_2 (layernormKernelIO)",
    .kind = "rounding",
    .formula = "out[t, j] = R.round(lnStreamSpec N BLOCK eps xs ws t j), column t*BLOCK + j; R = the bf16 store",
    .regions = regions_bf16,
    .ncasts = 1,
    .casts = casts,
    .error_model = "the binary32 model of the exact contract, then the bf16 store cast of its interval",
    LNFWD_COMMON,
    TD_SPECS(y_io),
    .intent = &intent_io,
};
