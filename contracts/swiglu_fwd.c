/* swiglu_fwd.swiglu_fwd_kernel_correctness  (catalogue part 2)
 *
 *   swigluIO X Y OUT stride_x_row stride_y_row stride_out_row ncols BLOCK_N
 *       ⊨ fun _ _ xs ys i => swiglu (xs i) (ys i)
 *   Masked2DKernelIO₂, grid (pid₀ = row, pid₁ = column block):
 *   read1 = pid₀ * stride_x_row + pid₁ * BLOCK_N + j, read2 = pid₀ * stride_y_row + ...,
 *   write = pid₀ * stride_out_row + pid₁ * BLOCK_N + j, mask = pid₁ * BLOCK_N + j < ncols
 *
 * The catalogue notes "TiledActivation.swiglu; definition inferred": checked in
 * VeriTile/Triton/Math/Activation.lean, swiglu a b = silu a * b = (a * sigmoid a) * b.
 * Kernel (bench/tritonbench_g/swiglu_fwd/swiglu_fwd.py): `_swiglu_fwd_kernel`, row =
 * program_id(0), start_col = program_id(1) * BLOCK_N, masked loads (other 0, .to(fp32)),
 * `out = x * tl.sigmoid(x) * y` = ((x * sigmoid(x)) * y) in binary32, masked store.
 * The wrapper splits one (M, 2N) tensor with xy.chunk(2, dim=-1): X and Y are views of
 * the SAME buffer with row stride 2N; here they are two regions (reads need no
 * disjointness) and the generator draws row strides from contiguous N, the chunk
 * view's 2N, padded rows and the tightest injective output stride; BLOCK_N from the
 * autotune range and below; grid (M, cdiv(N, BLOCK_N)), sometimes one surplus, fully
 * masked column block.
 * Error model: sigmoid = 1/(1 + exp(-x)) (exp budget, correctly rounded add and div),
 * then the two products, in the kernel's order.  Domain |x| <= 87 (exp(-x) finite: the
 * kernel's saturation 1/(1+inf) = 0 below -88.7 is outside the shadow's exp model),
 * |y| <= 2^100 (products finite).
 */
#include "elementwise_common.h"

enum { P_SX, P_SY, P_SOUT, P_NCOLS, P_BLOCK, NP };
enum { R_X, R_Y, R_OUT, NR };

#define TD_SPEC_FILE "swiglu_fwd.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"stride_x_row", TD_P_INT}, {"stride_y_row", TD_P_INT},
                                         {"stride_out_row", TD_P_INT}, {"ncols", TD_P_INT}, {"BLOCK_N", TD_P_INT}};
static const td_region_decl regions[NR] = {{"X", TD_F32, TD_R_IN}, {"Y", TD_F32, TD_R_IN}, {"OUT", TD_F32, TD_R_OUT}};

#define X_BOUND 87.0
#define Y_BOUND 0x1p100

static void gen(td_producer *p, td_case *c) {
    ew_rows s = ew_rows_shape(p, c, 1, 10, 4097, 64, 1 << 14);
    int64_t sx = ew_row_stride(p, c, &s), sy = ew_row_stride(p, c, &s), so = ew_row_stride(p, c, &s);
    c->p[P_SX].i = sx, c->p[P_SY].i = sy, c->p[P_SOUT].i = so;
    c->p[P_NCOLS].i = s.ncols, c->p[P_BLOCK].i = s.B;
    td_case_alloc(c, R_X, ew_row_len(p, &s, sx));
    td_case_alloc(c, R_Y, ew_row_len(p, &s, sy));
    td_case_alloc(c, R_OUT, ew_row_len(p, &s, so));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, X_BOUND);
    td_vgen_fill(&g, c, R_X);
    g.bound = Y_BOUND;
    td_vgen_fill(&g, c, R_Y);
}

/* Offsets beyond 2^31: X and Y rows at a row stride near 2^31 (ew_rows_far), as a
 * kernel forming row * stride_x_row in int32 (the original: tl.program_id(0) is int32)
 * gets wrong. */
static void far(td_producer *p, td_case *c) {
    static const int regs[2] = {R_X, R_Y}, ps[2] = {P_SX, P_SY};
    ew_rows_far(p, c, c->p[P_NCOLS].i, c->p[P_BLOCK].i, 2, regs, ps);
}

static const char *check(const td_case *c) {
    /* td_region_abs_le scans only the written pages of a sparse (far) region */
    if (!td_region_abs_le(c, R_X, X_BOUND)) return "domain: |x| <= 87 (exp(-x) finite in binary32)";
    if (!td_region_abs_le(c, R_Y, Y_BOUND)) return "domain: |y| <= 2^100 (products finite)";
    if (c->grid[2] != 1) return "a 2-D grid (rows, column blocks)";
    const int regs[NR] = {R_OUT, R_X, R_Y};
    const int64_t st[NR] = {c->p[P_SOUT].i, c->p[P_SX].i, c->p[P_SY].i};
    return ew_rows_check(c, c->p[P_NCOLS].i, c->p[P_BLOCK].i, NR, regs, st, 1);
}

static void writes(const td_case *c, td_wset *ws) {
    const int outs[1] = {R_OUT};
    const int64_t st[1] = {c->p[P_SOUT].i};
    ew_rows_writes(c, ws, c->p[P_NCOLS].i, c->p[P_BLOCK].i, 1, outs, st);
}

static const td_intent intent_f = {
    .operation = "SwiGLU: silu(x) * y",
    .definition = "torch.nn.functional.silu(x) * y (PyTorch documentation; Shazeer 2020)",
    TD_SPECS(intent),
};

const td_contract td_c_swiglu_fwd = {
    .id = "swiglu_fwd.swiglu_fwd_kernel_correctness",
    .file = "swiglu_fwd",
    .family = "elementwise",
    .io_class = "Masked2DKernelIO_2 (swigluIO, grid rows x column blocks)",
    .kind = "exact",
    .formula = "OUT[r*stride_out_row + col] = (x * sigmoid(x)) * y, x, y at r*stride_x_row / r*stride_y_row + col",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "|x| <= 87 keeps exp(-x) finite (the kernel's sigmoid saturation to 0 via inf is not generated); "
               "|y| <= 2^100",
    .error_model = "binary32 in the kernel's order: sigmoid = 1/(1+exp(-x)) (exp budget, CR div), two products",
    .classes = EW_BCLASSES_ROWS | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(swiglu),
    .intent = &intent_f,
};
