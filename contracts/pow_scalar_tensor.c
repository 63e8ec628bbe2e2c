/* pow_scalar_tensor: FlagGems' generated rank-1 scalar-base power over strided buffers
 * (catalogue part 2, two contracts on the one kernel `pow_func_scalar_tensor_kernel_rank_1`).
 *
 *   pow_scalar_tensor_one_tile_io_correctness  (hStride : 0 < out0_stride0)
 *     MaskedTileKernelIO₁ ⊨ fun i => Real.rpow val0 (x i); shape [tile_size0],
 *     read = taskIndex pid tile_size0 i * in0_stride0, write = ... * out0_stride0,
 *     mask = taskIndex pid tile_size0 i < s0,   taskIndex t B i = t * B + i
 *   pow_scalar_tensor_output_summary_general  (hStride, hDisj : in0_ptr ≠ out0_ptr,
 *     hGrid : 0 < s.numPids 0)
 *     both surfaces lower (a fact about the Lean translation, no run-time counterpart)
 *     and each realizes powSpec at its write map: the one-tile surface (writeIf
 *     taskIndex(pid, tile_size0, i) < s0) and the grid-stride surface (for p in
 *     tiles_per_cta x tile_size0, taskIndex(pid + p.1 * numPids, tile_size0, p.2) < s0).
 *
 * Kernel (bench/tritonbench_g/pow_scalar_tensor/pow_scalar_tensor.py): block pointers
 * over (s0,) with the tensor's stride at offset tile_id * tile_size0, boundary-checked
 * load of the EXPONENT tile, out = libdevice pow(val0.to(fp32), in0) (the runtime scalar
 * val0 is the BASE), boundary-checked store; the constexpr one_tile_per_cta selects
 * tile_id = pid or the grid-stride loop tile_id = pid + j * num_programs(0), j <
 * tiles_per_cta.  num_tasks is passed but unused.  The summary's case carries the
 * constexpr as an extra Bool parameter one_tile_per_cta after the catalogue's list (as
 * relu_strided_buffer.c, the same generated wrapper).
 * Named spec checked against PowScalarTensor.lean: powSpec s in0 stride val0 t =
 * Real.rpow val0 (readMem in0 (t * in0_stride0)), the val0.to(fp32) cast and the dtype
 * round trips erased to the identity (val0 is binary32 here, so the cast is exact).
 * Mathlib's rpow: 0^0 = 1, 0^y = 0 for y ≠ 0 (IEEE: +inf for y < 0), and for x < 0
 * x^y = |x|^y cos(y pi), IEEE's pow only for integer y (NaN otherwise on the device).
 * So the generator meets the contract where it and IEEE agree: val0 = 0 only with
 * y >= 0, negative val0 only with integer exponents (even and odd).
 *
 * Error model (pow_scalar_tensor.spec.h): an implementation may evaluate |val0|^y as
 * exp2(y * log2|val0|) (the fast-math __powf), as exp(y * ln|val0|), or call a library
 * pow.  The first two are charged as the shadow derives them: log2/log with the
 * backend's budget (absolute part included), one binary32 product (u |t|), exp2/exp
 * with its budget and the argument's error amplified by |r| ln 2 (resp. |r|); the
 * larger of the two (td_sh_either).  A library pow is one call: POW_LIB_ULPS = 4 ulp,
 * the CUDA Programming Guide's maximum for powf (libdevice __nv_powf, what
 * tl.extra.cuda.libdevice.pow calls; glibc powf is within 1 ulp), added to the bound.
 * The sign (-1)^y of a negative base is exact; 0^y is exact (0 or 1).
 *
 * Values: |y log2|val0|| <= 125 by construction (the exponent bound follows val0), so
 * every exact result is a normal binary32 number: TD_SV_REAL.
 */
#include "gen.h"
#include "gen_far.h"

enum { P_VAL0, P_IN_STRIDE, P_OUT_STRIDE, P_S0, P_NUM_TASKS, P_TILES_PER_CTA, P_TILE, P_ONE_TILE, NP_SUMMARY };
#define NP 7 /* the catalogue's parameters; the summary adds one_tile_per_cta */
enum { R_IN, R_OUT, NR };
#define POW_LIB_ULPS 4.0 /* CUDA Programming Guide, single-precision powf: 4 ulp */

#define TD_SPEC_FILE "pow_scalar_tensor.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP_SUMMARY] = {
    {"val0", TD_P_REAL},      {"in0_stride0", TD_P_INT},   {"out0_stride0", TD_P_INT},
    {"s0", TD_P_INT},         {"num_tasks", TD_P_INT},     {"tiles_per_cta", TD_P_INT},
    {"tile_size0", TD_P_INT}, {"one_tile_per_cta", TD_P_BOOL}};
static const td_region_decl regions[NR] = {{"in0_ptr", TD_F32, TD_R_IN}, {"out0_ptr", TD_F32, TD_R_OUT}};

/* The base: 0, +-1, +-2, 1/2, a binary32 near 1, tiny and huge powers, random. */
static double gen_base(td_producer *p) {
    static const unsigned w[9] = {2, 2, 2, 2, 1, 2, 1, 1, 4};
    int k = td_prod_pick(p, w, 9);
    double sgn = k >= 6 && td_prod_bool(p) ? -1.0 : 1.0;
    switch (k) {
    case 0: return 0.0;
    case 1: return td_prod_bool(p) ? 1.0 : -1.0;
    case 2: return td_prod_bool(p) ? 2.0 : -2.0;
    case 3: return 0.5;
    case 4: return 1.0 + ldexp((double)td_prod_u32(p, 1, 255), -23); /* log2 x tiny: exponents up to 2^28 */
    case 5: return ldexp(1.0, (int)td_prod_u32(p, 0, 252) - 126);   /* an exact power of two */
    default: {
        uint32_t mant = td_prod_u32(p, 0, (1u << 23) - 1);
        int e = (int)td_prod_u32(p, 0, k == 6 ? 40 : 16) - (k == 6 ? 20 : 8);
        return sgn * ldexp(1.0 + ldexp((double)mant, -23), e);
    }
    }
}

/* The exponents: |y log2|val0|| <= 124 (normal results; the check allows 125), y >= 0 when val0 = 0,
 * integers (truncated toward 0, so the bound holds) when val0 < 0 or by choice. */
static void gen_exponents(td_producer *p, td_case *c, double b) {
    double l = b == 0 ? 0 : fabs(log2(fabs(b)));
    double bound = b == 0 ? 0x1p20 : l == 0 ? 64.0 : fmin(0x1p28, 124.0 / l);
    int ints = b < 0 || td_prod_u32(p, 0, 3) == 0;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, bound);
    td_vgen_fill(&g, c, R_IN);
    for (size_t k = 0; k < c->r[R_IN].len; k++) {
        double y = td_get(c, R_IN, k);
        if (ints) y = trunc(y);
        if (b == 0) y = fabs(y);
        td_set(c, R_IN, k, y);
    }
}

/* Shapes (the wrapper's tile heuristic caps tile_size0 at 512).  one_tile: about one
 * program per tile (surplus fully masked programs, or fewer programs than tiles: the
 * contract is per program); grid-stride: nCtas programs walking tiles_per_cta tiles
 * nCtas apart (exact cover, surplus steps, under-cover). */
static void gen_shape(td_producer *p, td_case *c, int one_tile) {
    uint64_t ts = td_gen_pow2(p, 0, 9), s0 = td_gen_count(p, ts, 4096, &c->classes);
    uint64_t tiles = (s0 + ts - 1) / ts, grid, T;
    if (one_tile) {
        uint32_t k = td_prod_u32(p, 0, 5);
        grid = tiles;
        if (k == 0) grid += td_prod_u32(p, 1, 3), c->classes |= TD_BC(TD_BC_FULLY_MASKED);
        if (k == 1 && tiles > 1) grid = td_prod_u32(p, 1, (uint32_t)tiles - 1);
        T = td_prod_u32(p, 1, 4); /* passed, unused by the one-tile branch */
    } else {
        uint32_t k = td_prod_u32(p, 0, 3);
        grid = k == 0 ? 1 : k == 1 ? tiles : td_prod_u32(p, 1, (uint32_t)(tiles + 1));
        T = (tiles + grid - 1) / grid; /* the wrapper's cdiv(num_tiles, num_ctas) */
        k = td_prod_u32(p, 0, 4);
        if (k == 0) T += td_prod_u32(p, 1, 2), c->classes |= TD_BC(TD_BC_FULLY_MASKED);
        if (k == 1 && T > 1) T -= 1;
        while (grid * T * ts > (1u << 16) && T > 1) T--;
        if (T > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    }
    c->classes &= ~(TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_BLOCK_GT_N));
    if (grid == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (grid > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (ts >= 4 * s0) c->classes |= TD_BC(TD_BC_BLOCK_GT_N);
    static const unsigned win[4] = {4, 2, 2, 2}, wout[3] = {5, 2, 2};
    int kin = td_prod_pick(p, win, 4);
    int64_t in_st = kin == 0 ? 1 : kin == 1 ? 0 : kin == 2 ? 2 : td_prod_u32(p, 3, 9);
    int kout = td_prod_pick(p, wout, 3);
    int64_t out_st = kout == 0 ? 1 : kout == 1 ? 2 : td_prod_u32(p, 3, 9);
    if (out_st > 1 || in_st > 1) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    c->p[P_IN_STRIDE].i = in_st;
    c->p[P_OUT_STRIDE].i = out_st;
    c->p[P_S0].i = c->p[P_NUM_TASKS].i = (int64_t)s0;
    c->p[P_TILES_PER_CTA].i = (int64_t)T;
    c->p[P_TILE].i = (int64_t)ts;
    c->grid[0] = (uint32_t)grid;
    uint64_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, 8) : 0;
    td_case_alloc(c, R_IN, (size_t)((s0 - 1) * (uint64_t)in_st + 1 + slack));
    td_case_alloc(c, R_OUT, (size_t)((s0 - 1) * (uint64_t)out_st + 1 + slack));
    double b = gen_base(p);
    c->p[P_VAL0].r = b;
    gen_exponents(p, c, b);
}

static void gen_one_tile(td_producer *p, td_case *c) { gen_shape(p, c, 1); }
static void gen_summary(td_producer *p, td_case *c) {
    int one = td_prod_bool(p);
    gen_shape(p, c, one);
    c->p[P_ONE_TILE].i = one;
}

/* Offsets beyond 2^31 (gen_far.h): the first tasks (s0 = num_tasks cut to
 * TD_FAR_MAX_ROWS; the launch kept, its later tiles fully masked) at an in0_stride0
 * near 2^31 over a sparse region.  The kernel addresses through block pointers (int64
 * offsets in Triton), so no int32-offset mutant: the class checks that a port handles
 * such strides.  Not a broadcast input (in0_stride0 = 0); out0 stays dense. */
static void far(td_producer *p, td_case *c) {
    int64_t s0 = c->p[P_S0].i, st = c->p[P_IN_STRIDE].i;
    if (s0 < 2 || st < 1) return;
    int64_t R = s0 < TD_FAR_MAX_ROWS ? s0 : TD_FAR_MAX_ROWS, s = td_far_stride(p, R, 1);
    if (td_far_restride(c, R_IN, R, 1, st, s)) return;
    c->p[P_S0].i = c->p[P_NUM_TASKS].i = R, c->p[P_IN_STRIDE].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* The domain the generator promises, where Real.rpow and IEEE pow agree. */
static const char *check_values(const td_case *c) {
    double b = c->p[P_VAL0].r;
    if ((double)(float)b != b) return "val0.to(tl.float32): the base is a binary32 value";
    for (int64_t t = 0; t < c->p[P_S0].i; t++) {
        double y = td_get(c, R_IN, (size_t)(t * c->p[P_IN_STRIDE].i));
        if (!isfinite(y)) return "domain: finite exponents";
        if (b == 0 && y < 0) return "domain: val0 = 0 only with y >= 0 (Lean's 0^y = 0, IEEE's +inf)";
        if (b < 0 && y != trunc(y)) return "domain: a negative base only with integer exponents";
        if (b != 0 && fabs(y * log2(fabs(b))) > 125.0) return "domain: |y log2|val0|| <= 125 (a normal result)";
    }
    return NULL;
}

static const char *check_common(const td_case *c) {
    int64_t s0 = c->p[P_S0].i, ts = c->p[P_TILE].i;
    if (c->p[P_OUT_STRIDE].i <= 0) return "hStride : 0 < out0_stride0";
    if (c->p[P_IN_STRIDE].i < 0 || s0 < 0 || c->p[P_TILES_PER_CTA].i < 0 || c->p[P_NUM_TASKS].i < 0)
        return "strides, s0, num_tasks, tiles_per_cta : Nat";
    if (ts <= 0) return "tile_size0: a positive constexpr tile";
    if (s0 > 0 && (int64_t)c->r[R_IN].len <= (s0 - 1) * c->p[P_IN_STRIDE].i)
        return "in0 holds every task's cell (s0 - 1) * in0_stride0";
    if (s0 > 0 && (int64_t)c->r[R_OUT].len <= (s0 - 1) * c->p[P_OUT_STRIDE].i)
        return "out0 holds every task's cell (s0 - 1) * out0_stride0";
    if (c->grid[1] != 1 || c->grid[2] != 1) return "a 1-D grid";
    return check_values(c);
}
static const char *check_one_tile(const td_case *c) { return check_common(c); }
static const char *check_summary(const td_case *c) {
    /* hDisj holds by construction: in0_ptr and out0_ptr are two declared regions */
    if (c->grid[0] == 0) return "hGrid : 0 < s.numPids 0";
    return check_common(c);
}

/* One lane per (pid, step t, i) whose task index is below s0; idx[0] = the task. */
static void writes_branch(const td_case *c, td_wset *ws, int one_tile) {
    int64_t s0 = c->p[P_S0].i, ts = c->p[P_TILE].i, out_st = c->p[P_OUT_STRIDE].i;
    int64_t T = one_tile ? 1 : c->p[P_TILES_PER_CTA].i, nctas = c->grid[0];
    for (int64_t pid = 0; pid < nctas; pid++)
        for (int64_t t = 0; t < T; t++)
            for (int64_t i = 0; i < ts; i++) {
                int64_t task = (pid + t * nctas) * ts + i; /* taskIndex (pid + t * nCtas) tile_size0 i */
                if (task >= s0) break;
                td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)(task * out_st), .pid = {(uint32_t)pid, 0, 0},
                              .t = (uint32_t)t, .j = (uint64_t)i, .idx = {task}};
                td_wset_add(ws, &l);
            }
}
static void writes_one_tile(const td_case *c, td_wset *ws) { writes_branch(c, ws, 1); }
static void writes_summary(const td_case *c, td_wset *ws) { writes_branch(c, ws, c->p[P_ONE_TILE].i != 0); }

/* The intent writes all s0 elements (torch.pow(self: Number, exponent: Tensor) is
 * elementwise over the whole tensor), whatever grid the launch has. */
static void intent_writes(const td_case *c, td_wset *ws) {
    int64_t s0 = c->p[P_S0].i, ts = c->p[P_TILE].i, out_st = c->p[P_OUT_STRIDE].i;
    for (int64_t task = 0; task < s0; task++) {
        td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)(task * out_st), .pid = {(uint32_t)(task / ts), 0, 0},
                      .j = (uint64_t)(task % ts), .idx = {task}};
        td_wset_add(ws, &l);
    }
}
static const char *cover_gap(const td_case *c, int one_tile) {
    int64_t s0 = c->p[P_S0].i, ts = c->p[P_TILE].i, steps = one_tile ? 1 : c->p[P_TILES_PER_CTA].i;
    return (int64_t)c->grid[0] * steps * ts < s0 ? "the launch covers fewer than cdiv(s0, tile_size0) tiles: the "
                                                   "elements past them are neither read nor written"
                                                 : NULL;
}
static const char *gap_one_tile(const td_case *c) { return cover_gap(c, 1); }
static const char *gap_summary(const td_case *c) { return cover_gap(c, c->p[P_ONE_TILE].i != 0); }

#define POW_INTENT(gapfn)                                                                                      \
    {.operation = "val0 ** x for each of the s0 exponents x of the strided view",                              \
     .definition = "torch.pow(self: Number, exponent: Tensor) (PyTorch documentation): out_i = self ** "       \
                   "exponent_i",                                                                               \
     TD_SPECS(pow), .gap = gapfn, .writes = intent_writes}
static const td_intent intent_one_tile = POW_INTENT(gap_one_tile);
static const td_intent intent_summary = POW_INTENT(gap_summary);

#define POW_COMMON                                                                                              \
    .file = "pow_scalar_tensor", .family = "elementwise", .params = params, .nregions = NR, .regions = regions, \
    .sv = TD_SV_REAL,                                                                                           \
    .sv_note = "|y log2|val0|| <= 125: every result is normal; val0 = 0 only with y >= 0, a negative val0 "   \
               "only with integer y (where Real.rpow and IEEE pow agree)",                                     \
    .error_model = "either exp2(y*log2|val0|) or exp(y*ln|val0|) in binary32 (the backend's budgets, u per "   \
                   "product), plus 4 ulp for a library powf (CUDA Programming Guide)",                         \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31), \
    .far = far

const td_contract td_c_pow_scalar_tensor_one_tile = {
    .id = "pow_scalar_tensor.pow_scalar_tensor_one_tile_io_correctness",
    .io_class = "MaskedTileKernelIO_1 (one_tile_per_cta = true)",
    .kind = "exact",
    .formula = "out0[t*out0_stride0] = rpow(val0, in0[t*in0_stride0]), t = pid*tile_size0 + i < s0",
    .nparams = NP,
    .gen = gen_one_tile,
    .check = check_one_tile,
    .writes = writes_one_tile,
    POW_COMMON,
    TD_SPECS(pow),
    .intent = &intent_one_tile,
};

const td_contract td_c_pow_scalar_tensor_summary = {
    .id = "pow_scalar_tensor.pow_scalar_tensor_output_summary_general",
    .io_class = "ComputeCorrect, both one_tile_per_cta surfaces (an extra Bool parameter selects the launch's)",
    .kind = "exact",
    .formula = "out0[t*out0_stride0] = rpow(val0, in0[t*in0_stride0]) over the branch's write map",
    .nparams = NP_SUMMARY,
    .gen = gen_summary,
    .check = check_summary,
    .writes = writes_summary,
    POW_COMMON,
    TD_SPECS(pow),
    .intent = &intent_summary,
};
