/* square_matrix.square_kernel_correctness  (catalogue part 2)
 *
 *   squareIO output_ptr input_ptr input_row_stride output_row_stride n_cols BLOCK_SIZE
 *       ⊨ fun xs i => xs i * xs i
 *   MaskedKernelIO₁: read = pid * input_row_stride, write = pid * output_row_stride,
 *   mask = j < n_cols
 *
 * Kernel (bench/tritonbench_g/square_matrix/square_matrix.py): one program per row;
 * lanes j < BLOCK_SIZE load input_ptr[row * input_row_stride + j] masked by j < n_cols
 * (other = -inf), square in binary32, store to output_ptr[row * output_row_stride + j]
 * under the same mask.  The wrapper uses BLOCK_SIZE = next_power_of_2(n_cols) and the
 * tensors' own row strides; the contract is general, so the generator draws BLOCK
 * around n_cols (also BLOCK < n_cols: columns >= BLOCK are never touched and must keep
 * the sentinel) and strides from contiguous to padded rows ("strides larger than the
 * row", and the tightest injective output stride).  Output strides keep the write
 * addresses injective (the IO contract's window separation).
 * Error model: one binary32 product of an exact input with itself: the kernel value is
 * RN32(x*x), the bound its exact rounding error (bit-exact); |x| <= 2^63 keeps x*x
 * finite, and subnormal inputs exercise the underflow of the product.
 */
#include "elementwise_common.h"
#include "gen_far.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_NCOLS, P_BLOCK, NP };
enum { R_OUT, R_IN, NR };

#define TD_SPEC_FILE "square_matrix.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"input_row_stride", TD_P_INT}, {"output_row_stride", TD_P_INT}, {"n_cols", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {{"output_ptr", TD_F32, TD_R_OUT}, {"input_ptr", TD_F32, TD_R_IN}};

static void gen(td_producer *p, td_case *c) {
    ew_rows s = ew_rows_shape(p, c, 0, 10, 2049, 64, 1 << 14);
    int64_t in_st = ew_row_stride(p, c, &s), out_st = ew_row_stride(p, c, &s);
    c->p[P_IN_STRIDE].i = in_st;
    c->p[P_OUT_STRIDE].i = out_st;
    c->p[P_NCOLS].i = s.ncols;
    c->p[P_BLOCK].i = s.B;
    td_case_alloc(c, R_IN, ew_row_len(p, &s, in_st));
    td_case_alloc(c, R_OUT, ew_row_len(p, &s, out_st));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p63);
    td_vgen_fill(&g, c, R_IN);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS input rows at a row stride
 * near 2^31 over a sparse region, as the kernel's row_idx * input_row_stride, int32
 * arithmetic in Triton, gets wrong; the output keeps its stride (dense, checked). */
static void far(td_producer *p, td_case *c) {
    int64_t n = c->p[P_NCOLS].i, B = c->p[P_BLOCK].i, w = n < B ? n : B, R = c->grid[0];
    if (R < 2 || w <= 0) return; /* one row, or nothing read: no offset to move */
    if (R > TD_FAR_MAX_ROWS) R = TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, w);
    if (td_far_restride(c, R_IN, R, w, c->p[P_IN_STRIDE].i, s)) return;
    c->grid[0] = (uint32_t)R;
    c->p[P_IN_STRIDE].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check(const td_case *c) {
    if (c->grid[1] != 1 || c->grid[2] != 1) return "a 1-D grid of rows";
    const int regs[2] = {R_OUT, R_IN};
    const int64_t st[2] = {c->p[P_OUT_STRIDE].i, c->p[P_IN_STRIDE].i};
    return ew_rows_check(c, c->p[P_NCOLS].i, c->p[P_BLOCK].i, 2, regs, st, 1);
}

static void writes(const td_case *c, td_wset *ws) {
    const int outs[1] = {R_OUT};
    const int64_t st[1] = {c->p[P_OUT_STRIDE].i};
    ew_rows_writes(c, ws, c->p[P_NCOLS].i, c->p[P_BLOCK].i, 1, outs, st);
}

/* The operation squares all n_cols columns of each row; a tile of BLOCK_SIZE < n_cols
 * lanes reads (and writes) only the first BLOCK_SIZE of them. */
static const char *intent_gap(const td_case *c) {
    return c->p[P_NCOLS].i > c->p[P_BLOCK].i
               ? "n_cols > BLOCK_SIZE: the one tile reads BLOCK_SIZE of the row's n_cols columns"
               : NULL;
}

static const td_intent intent = {
    .operation = "the elementwise square x * x of each of the n_cols columns of each row",
    .definition = "torch.square / torch.mul(x, x) (PyTorch documentation): elementwise, every element of the tensor",
    TD_SPECS(square),
    .gap = intent_gap,
};

const td_contract td_c_square_matrix = {
    .id = "square_matrix.square_kernel_correctness",
    .file = "square_matrix",
    .family = "elementwise",
    .io_class = "MaskedKernelIO_1 (squareIO, row strides)",
    .kind = "exact",
    .formula = "output[row*output_row_stride + j] = x*x, x = input[row*input_row_stride + j], j < n_cols",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "|x| <= 2^63: x*x is finite (the masked lanes' other = -inf is never stored)",
    .error_model = "one binary32 product of exact operands: |RN32(x*x) - x*x| (bit-exact)",
    .classes = EW_BCLASSES_ROWS1D | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(square),
    .intent = &intent,
};
