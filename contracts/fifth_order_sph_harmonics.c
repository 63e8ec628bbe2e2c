/* fifth_order_sph_harmonics.fifth_order_fwd_correctness  (catalogue part 2)
 *
 *   fifthOrderFwdIO ⊨ sphY   (hStride : 10 < output_stride; hCover : every lane whose Y00
 *     store is in range, j*os + B*os*pid + col_offset < output_numel, has its three
 *     coordinates in range, 3j + 3B*pid + 2 < coord_numel)
 *   GroupedMasked2DKernelIO: nIn = 3 (x, y, z of coord_ptr), nOut = 11 (all into
 *   output_ptr), B = block_size; read_i = 3j + 3B*pid + i, readMask < coord_numel;
 *   write_o = j*os + B*os*pid + col_offset + o, writeMask < output_numel (each channel
 *   its own mask).
 *
 * Kernel (bench/tritonbench_g/fifth_order_sph_harmonics/fifth_order_sph_harmonics.py,
 * fifth_order_fwd): masked loads of x, y, z at stride 3, the monomials VAR05 = x*x*x*x*x
 * ... VAR26 = z*z, the eleven polynomials Y00..Y10 with 31 decimal constants, eleven
 * masked stores at consecutive columns of the output row.  All parameters are
 * constexprs; the wrapper's grid is calculate_lastdim_num_blocks.
 * Named spec checked against FifthOrderSphHarmonics.lean: sphY o x y z is each Y0o with
 * the monomials inlined and the constants as real decimals; some channels are regrouped
 * algebraically (Y01 = -29.43 y (x^3 z - x z^3), Y07 = 16.99 y^3 (z^2 - x^2) + ...), equal
 * in the reals to the kernel's expressions with the same decimals (CONST022 * x^3 z -
 * CONST022 * z^3 x; CONST026 = -16.99...): checked term by term for all eleven.
 *
 * Error model (fifth_order_sph_harmonics.spec.h): the spec is written as the kernel's
 * expressions: each constant one binary32 rounding of its decimal (u |c|), each product
 * u |result| (x^k through k - 1 products: any grouping of a k-factor product has k - 1
 * roundings, so x^4 = x2 * x2 is covered), each two-term sum u |result|, each
 * three-term sum any order (gamma_2 of its terms), FMA contraction covered by the
 * unfused bound.  Underflow of tiny monomials is charged as the shadow's absolute
 * terms.  Regrouping a channel into another algebraic form (the Lean's factored Y01) is
 * not a rounding-equivalent evaluation and is not covered.
 *
 * Values: |x|, |y|, |z| <= 2^10, so every monomial and every output is finite (TD_SV_REAL).
 */
#include "gen.h"
#include "gen_far.h"

enum { P_B, P_COORD_NUMEL, P_OUT_NUMEL, P_COL_OFFSET, P_OUT_STRIDE, NP };
enum { R_COORD, R_OUT, NR };

#define TD_SPEC_FILE "fifth_order_sph_harmonics.spec.h"
#include "spec_instantiate.h"
/* the batched verdict path: the spec lane after lane in one loop, its shadow operations
 * inlined (spec_instantiate.h) */
TD_SPEC_RUN_DEFINE(sph)

static const td_param_decl params[NP] = {{"block_size", TD_P_INT},
                                         {"coord_numel", TD_P_INT},
                                         {"output_numel", TD_P_INT},
                                         {"col_offset", TD_P_INT},
                                         {"output_stride", TD_P_INT}};
static const td_region_decl regions[NR] = {{"coord_ptr", TD_F32, TD_R_IN}, {"output_ptr", TD_F32, TD_R_OUT}};

/* N coordinate rows; output rows of stride os > 10 at column col_offset (possibly
 * spilling into the next row: the offsets stay injective since os > 10); output_numel
 * cuts the last row after k of its channels (k = 11 or more: all), never reaching row N
 * (hCover); coord_numel = 3N + 0..2; surplus programs fully masked. */
static void gen(td_producer *p, td_case *c) {
    uint64_t B = td_gen_pow2(p, 0, 7), n = td_gen_count(p, B, 512, &c->classes);
    int64_t os = td_prod_bool(p) ? 11 : (int64_t)td_prod_u32(p, 12, 40);
    uint32_t kc = td_prod_u32(p, 0, 3);
    int64_t col = kc == 0 ? 0 : kc == 1 ? os - 11 : (int64_t)td_prod_u32(p, 0, (uint32_t)os - 1);
    int64_t k = td_prod_bool(p) ? os : (int64_t)td_prod_u32(p, 1, (uint32_t)os);
    int64_t out_numel = ((int64_t)n - 1) * os + col + k;
    int64_t coord_numel = 3 * (int64_t)n + (int64_t)td_prod_u32(p, 0, 2);
    uint64_t tiles = (n + B - 1) / B, grid = tiles;
    c->classes &= ~(TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_MULTI_TILE));
    if (td_prod_u32(p, 0, 4) == 0) grid += td_prod_u32(p, 1, 2), c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    if (grid == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (grid > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    c->grid[0] = (uint32_t)grid;
    c->p[P_B].i = (int64_t)B;
    c->p[P_COORD_NUMEL].i = coord_numel;
    c->p[P_OUT_NUMEL].i = out_numel;
    c->p[P_COL_OFFSET].i = col;
    c->p[P_OUT_STRIDE].i = os;
    uint64_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, 16) : 0;
    td_case_alloc(c, R_COORD, (size_t)coord_numel);
    td_case_alloc(c, R_OUT, (size_t)(out_numel + (int64_t)slack));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p10);
    td_vgen_fill(&g, c, R_COORD);
}

/* Offsets beyond 2^31 (gen_far.h): row r of the output at r * output_stride, the stride
 * moved near 2^31 (td_far_stride), up to TD_FAR_MAX_ROWS rows stored: the kernel forms
 * j*os + B*os*pid + col_offset in int32 (block_id is int32, os a constexpr below 2^31),
 * which wraps on the last row.  output_ptr is written at its own stride, so it moves as
 * a sparse output (engine/harness.c judges its write pages); coord_ptr stays flat (3 per
 * row, every coordinate read).  The last row kept ends after the k cells the case's
 * last row had (1..os: hCover and the injectivity hold at any os > 10); the rows past it
 * are masked by output_numel as before, coord_numel is kept (their reads stay in range),
 * the surplus programs of a fully-masked case stay. */
static void far(td_producer *p, td_case *c) {
    int64_t B = c->p[P_B].i, on = c->p[P_OUT_NUMEL].i, col = c->p[P_COL_OFFSET].i, os = c->p[P_OUT_STRIDE].i;
    int64_t n = (on - col + os - 1) / os, k = on - (n - 1) * os - col; /* rows stored; the last row's cells */
    if (n < 2) return;
    int64_t R = n < TD_FAR_MAX_ROWS ? n : TD_FAR_MAX_ROWS;
    int64_t s = td_far_stride(p, R, col + 11);
    if (td_far_restride(c, R_OUT, R, col + k, os, s)) return;
    int64_t surplus = (int64_t)c->grid[0] - (n + B - 1) / B, tiles = (R + B - 1) / B;
    c->grid[0] = (uint32_t)(tiles + surplus);
    c->p[P_OUT_STRIDE].i = s;
    c->p[P_OUT_NUMEL].i = (R - 1) * s + col + k;
    c->classes &= ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_TAIL_BELOW) |
                    TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_BLOCK_GT_N) |
                    TD_BC(TD_BC_MULTI_TILE));
    td_gen_mark_shape((uint64_t)R, (uint64_t)B, (uint64_t)tiles, &c->classes);
    c->classes &= ~(TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_MULTI_TILE)); /* by the launch, as gen marks them */
    c->classes |= TD_BC(c->grid[0] == 1 ? TD_BC_ONE_PROGRAM : TD_BC_MULTI_TILE);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check(const td_case *c) {
    int64_t B = c->p[P_B].i, cn = c->p[P_COORD_NUMEL].i, on = c->p[P_OUT_NUMEL].i;
    int64_t col = c->p[P_COL_OFFSET].i, os = c->p[P_OUT_STRIDE].i;
    if (B <= 0 || cn < 0 || on < 0 || col < 0) return "block_size > 0; numels, col_offset : Nat";
    if (os <= 10) return "hStride : 10 < output_stride";
    if ((int64_t)c->r[R_COORD].len < cn) return "coord_ptr holds coord_numel elements";
    if ((int64_t)c->r[R_OUT].len < on) return "output_ptr holds output_numel elements";
    if (c->grid[1] != 1 || c->grid[2] != 1) return "a 1-D grid";
    for (int64_t r = 0; r < (int64_t)c->grid[0] * B; r++)
        if (r * os + col < on && 3 * r + 2 >= cn) return "hCover: a stored row has its three coordinates";
        else if (r * os + col >= on) break; /* rows only grow */
    for (int64_t i = 0; i < cn; i++)
        if (fabs(td_get(c, R_COORD, (size_t)i)) > 0x1p10) return "domain: |x|, |y|, |z| <= 2^10";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t B = c->p[P_B].i, on = c->p[P_OUT_NUMEL].i, col = c->p[P_COL_OFFSET].i, os = c->p[P_OUT_STRIDE].i;
    for (uint32_t pid = 0; pid < c->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++)
            for (int64_t o = 0; o < 11; o++) {
                int64_t row = (int64_t)pid * B + j, off = j * os + B * os * (int64_t)pid + col + o;
                if (off >= on) continue;
                td_olane l = {.o = (uint32_t)o, .region = R_OUT, .off = (uint64_t)off, .pid = {pid, 0, 0},
                              .j = (uint64_t)j, .idx = {row, o}};
                td_wset_add(ws, &l);
            }
}

const td_contract td_c_fifth_order_sph_harmonics = {
    .id = "fifth_order_sph_harmonics.fifth_order_fwd_correctness",
    .file = "fifth_order_sph_harmonics",
    .family = "elementwise",
    .io_class = "GroupedMasked2DKernelIO (fifthOrderFwdIO: 3 inputs, 11 outputs in one region)",
    .kind = "exact",
    .formula = "out[j*os + B*os*pid + col_offset + o] = sphY(o, x, y, z), (x, y, z) = coord[3*(pid*B + j) + 0..2]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "|x|, |y|, |z| <= 2^10: every monomial and output is finite",
    .error_model = "the kernel's expressions: rounded decimal constants, u per product and two-term sum, "
                   "three-term sums in any order",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS_RUN(sph),
};
