/* swiglu_backward.swiglu_bwd_kernel_correctness  (catalogue part 2)
 *
 *   (hDXDY : DX ≠ DY) (hOUTDX : OUT ≠ DX) (hOUTDY : OUT ≠ DY) :
 *   swigluBackwardIO X Y DOUT OUT DX DY stride_x_row stride_y_row stride_dout_row
 *     stride_out_row stride_dx_row stride_dy_row ncols BLOCK_N RECOMPUTE_OUTPUT ⊨
 *     fun _ _ xs ys douts => (fun j => swigluBwdA (douts j) (xs j) (ys j),
 *                             fun j => swigluBwdB (douts j) (xs j),
 *                             fun j => swiglu (xs j) (ys j))
 *   Masked2DKernelIO₃ₓ₃, out1 = DX, out2 = DY, out3 = OUT; every window
 *   pid₀ * stride_<region>_row + pid₁ * BLOCK_N + j, mask = pid₁ * BLOCK_N + j < ncols,
 *   writeMask3 = RECOMPUTE_OUTPUT ∧ mask: OUT is written only when RECOMPUTE_OUTPUT.
 *
 * Named specs (VeriTile/Triton/Math/Activation.lean): swigluBwdA dc a b =
 * dc * (silu a * (1 - sig a) + sig a) * b, swigluBwdB dc a = dc * silu a, swiglu a b =
 * silu a * b; the catalogue's reading dout*y*sig(x)*(1 + x*(1 - sig(x))) is the same
 * real.  The kernel (bench/tritonbench_g/swiglu_backward/swiglu_backward.py,
 * `_swiglu_bwd_kernel`) evaluates it in ANOTHER order than the Lean definition:
 *   x_sigmoid = sigmoid(x)
 *   dx = ((x_sigmoid * (1 + x * (1 - x_sigmoid))) * y) * dout
 *   dy = (x * x_sigmoid) * dout
 *   out = (x * x_sigmoid) * y            (only if RECOMPUTE_OUTPUT)
 * and the error model follows the kernel's order (the reals are equal).  The wrapper
 * passes OUT = None and stride_out_row = 0 when it does not recompute; the generator
 * does the same (OUT keeps cells that must stay untouched), and otherwise draws the
 * six row strides independently (dx, dy are chunks of one dxy buffer in the wrapper:
 * row stride 2N) with injective output windows.  Grid (rows, cdiv(ncols, BLOCK_N)),
 * sometimes a surplus fully-masked column block.
 * Domain: |x| <= 87 (exp(-x) finite: below -88.7 the kernel's 1/(1+inf) = 0 saturation
 * is outside the shadow's exp model), |y|, |dout| <= 2^60 (products finite).
 */
#include "elementwise_common.h"

enum { P_SX, P_SY, P_SDOUT, P_SOUT, P_SDX, P_SDY, P_NCOLS, P_BLOCK, P_RECOMPUTE, NP };
enum { R_X, R_Y, R_DOUT, R_OUT, R_DX, R_DY, NR };

#define TD_SPEC_FILE "swiglu_backward.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride_x_row", TD_P_INT},   {"stride_y_row", TD_P_INT},  {"stride_dout_row", TD_P_INT},
    {"stride_out_row", TD_P_INT}, {"stride_dx_row", TD_P_INT}, {"stride_dy_row", TD_P_INT},
    {"ncols", TD_P_INT},          {"BLOCK_N", TD_P_INT},       {"RECOMPUTE_OUTPUT", TD_P_BOOL}};
static const td_region_decl regions[NR] = {{"X", TD_F32, TD_R_IN},   {"Y", TD_F32, TD_R_IN},
                                           {"DOUT", TD_F32, TD_R_IN}, {"OUT", TD_F32, TD_R_OUT},
                                           {"DX", TD_F32, TD_R_OUT},  {"DY", TD_F32, TD_R_OUT}};

#define X_BOUND 87.0
#define YD_BOUND 0x1p60

/* regions in the order stride parameters are declared: X Y DOUT OUT DX DY */
static const int stride_param[NR] = {P_SX, P_SY, P_SDOUT, P_SOUT, P_SDX, P_SDY};

static void gen(td_producer *p, td_case *c) {
    ew_rows s = ew_rows_shape(p, c, 1, 10, 4097, 64, 1 << 13);
    int recompute = td_prod_bool(p);
    c->p[P_RECOMPUTE].i = recompute;
    for (int r = 0; r < NR; r++) {
        int64_t st = ew_row_stride(p, c, &s);
        c->p[stride_param[r]].i = (r == R_OUT && !recompute) ? 0 : st; /* the wrapper's stride 0 for OUT = None */
        td_case_alloc(c, r, ew_row_len(p, &s, st));
    }
    c->p[P_NCOLS].i = s.ncols, c->p[P_BLOCK].i = s.B;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, X_BOUND);
    td_vgen_fill(&g, c, R_X);
    g.bound = YD_BOUND;
    td_vgen_fill(&g, c, R_Y);
    td_vgen_fill(&g, c, R_DOUT);
}

/* Offsets beyond 2^31: X, Y and DOUT rows at a row stride near 2^31 (ew_rows_far), as
 * a kernel forming row * stride_x_row in int32 (the original: tl.program_id(0) is
 * int32) gets wrong; DX, DY and OUT keep theirs. */
static void far(td_producer *p, td_case *c) {
    static const int regs[3] = {R_X, R_Y, R_DOUT}, ps[3] = {P_SX, P_SY, P_SDOUT};
    ew_rows_far(p, c, c->p[P_NCOLS].i, c->p[P_BLOCK].i, 3, regs, ps);
}

static const char *check(const td_case *c) {
    /* td_region_abs_le scans only the written pages of a sparse (far) region */
    if (!td_region_abs_le(c, R_X, X_BOUND)) return "domain: |x| <= 87 (exp(-x) finite in binary32)";
    for (int r = R_Y; r <= R_DOUT; r++)
        if (!td_region_abs_le(c, r, YD_BOUND)) return "domain: |y|, |dout| <= 2^60 (products finite)";
    if (c->grid[2] != 1) return "a 2-D grid (rows, column blocks)";
    /* hDXDY, hOUTDX, hOUTDY hold by construction: DX, DY, OUT are three declared regions */
    int recompute = c->p[P_RECOMPUTE].i != 0;
    /* outputs first (DX, DY, then OUT if it is written), then the inputs */
    int regs[NR], n = 0;
    regs[n++] = R_DX, regs[n++] = R_DY;
    if (recompute) regs[n++] = R_OUT;
    int nouts = n;
    regs[n++] = R_X, regs[n++] = R_Y, regs[n++] = R_DOUT;
    int64_t st[NR];
    for (int i = 0; i < n; i++) st[i] = c->p[stride_param[regs[i]]].i;
    return ew_rows_check(c, c->p[P_NCOLS].i, c->p[P_BLOCK].i, n, regs, st, nouts);
}

static void writes(const td_case *c, td_wset *ws) {
    const int outs[3] = {R_DX, R_DY, R_OUT};
    const int64_t st[3] = {c->p[P_SDX].i, c->p[P_SDY].i, c->p[P_SOUT].i};
    ew_rows_writes(c, ws, c->p[P_NCOLS].i, c->p[P_BLOCK].i, c->p[P_RECOMPUTE].i ? 3 : 2, outs, st);
}

static const td_intent intent = {
    .operation = "the gradient of silu(x) * y with respect to x and y (and the recomputed silu(x) * y) of each of the "
                 "ncols columns of each row",
    .definition =
        "SwiGLU (Shazeer 2020, GLU Variants Improve Transformer) with torch.nn.functional.silu(x) = x * "
        "sigmoid(x): d/dx = dout * y * (sigmoid(x) + x * sigmoid(x) * (1 - sigmoid(x))), d/dy = dout * silu(x)",
    TD_SPECS(swiglu_bwd_intent),
};

const td_contract td_c_swiglu_backward = {
    .id = "swiglu_backward.swiglu_bwd_kernel_correctness",
    .file = "swiglu_backward",
    .family = "elementwise",
    .io_class = "Masked2DKernelIO_3x3 (swigluBackwardIO, OUT written iff RECOMPUTE_OUTPUT)",
    .kind = "exact",
    .formula = "DX = ((sig*(1 + x*(1-sig)))*y)*dout,  DY = (x*sig)*dout,  OUT = (x*sig)*y if RECOMPUTE_OUTPUT",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "|x| <= 87 keeps exp(-x) finite (the kernel's sigmoid saturation to 0 via inf is not generated); "
               "|y|, |dout| <= 2^60",
    .error_model = "binary32 in the kernel's order (not the Lean order): sigmoid = 1/(1+exp(-x)), then the products",
    .classes = EW_BCLASSES_ROWS | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(swiglu_bwd),
    .intent = &intent,
};
