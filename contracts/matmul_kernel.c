/* matmul_kernel: the fixed-layout 4096 x 4096 matmul with an fp16 store
 * (catalogue part 2, src lines 7075-7111).
 *
 *   matmul_kernel_closed_form_correct (hBN : BN <= 4096) (hundef): for program (p0, p1),
 *     C[4096*(p0*BM + i) + (p1*BN + j)] = MemCell.of .fp16 (real.cast fp16
 *     (sum_{k < BLOCK_K*numKBlocks} A[((p0*BM + i) % 4096)*4096 + k] * B[k*4096 + (p1*BN + j) % 4096]))
 *   matmul_kernel_io_correctness (hBN : BN <= 4096): matmulKernelIO C A B BM BN BK T |=[R]
 *     fun _ _ xs ys l => sum_{t<T} sum_{e<BK} xs t (aLane l e) * ys t (bLane l e),
 *     StreamMasked2DKernelIO_2, outDType .fp16, read1 = ((p0*BM + l/BK) % 4096)*4096
 *     + (t*BK + l%BK), read2 = (t*BK + l/BN)*4096 + (p1*BN + l%BN) % 4096,
 *     write = 4096*(p0*BM + l/BN) + (p1*BN + l%BN), every mask True.
 *
 * Kernel (bench/tritonbench_g/matmul_kernel/matmul_kernel.py): M = N = K = 4096 and
 * every stride hard-coded (A, B, C row-major with row stride 4096); program (pid_m,
 * pid_n) on a 2-D grid; offs_am / offs_bn wrapped % 4096; no masks at all; the fused
 * `accumulator = tl.dot(a, b, accumulator)` over the K loop; `tl.cast(accumulator,
 * tl.float16)`; unmasked store at the unwrapped rows/columns.  The Lean surface
 * (MatmulKernel.lean) presents K as BLOCK_K * numKBlocks and runs numKBlocks steps;
 * matmulSpec = gemmSum over k < BLOCK_K*numKBlocks of aElem * bElem with the % 4096
 * wraps; checked against the Python.
 * Sizes: the layout is fixed, but only the rows and columns the launch touches need
 * memory: regions span the strided windows (rows < grid[0]*BM, K columns of A; K rows
 * of B), which the generator keeps at most 48 rows / columns (at most ~200k cells), so
 * the % 4096 wraps are the identity here (reaching them needs 4096 rows).
 *
 * Dtypes: A, B, C fp16 (the wrapper's test).  The fp16 cast: cast slot "store",
 * default fp16:rne:inf (tl.cast to float16 = cvt.rn.f16.f32).  The IO contract rounds
 * once with R at outDType .fp16; the closed form's real.cast .fp16 is VeriTile's
 * identity placeholder (R = triv: the unrounded sum, which an fp16 cell cannot hold),
 * so it is checked as the same real store.
 * Error model: contracts/matmul_common.h (exact fp16 products, pairwise tree per BK
 * tile, T sequential adds), then the fp16 cast of the interval.
 * Special values: finite fp16 operands, binary32 sums finite; the fp16 store may
 * overflow to inf where the exact value rounds there (IEEE policy).
 */
#include "matmul_common.h"

enum { P_BM, P_BN, P_BK, P_T, NP }; /* closed form: BM BN BLOCK_K numKBlocks; IO: BM BN BK T */
enum { R_C, R_A, R_B, NR };         /* (C A B : RegionName) */
enum { C_STORE };
#define LD 4096

#define TD_SPEC_FILE "matmul_kernel.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_cf[NP] = {
    {"BM", TD_P_INT}, {"BN", TD_P_INT}, {"BLOCK_K", TD_P_INT}, {"numKBlocks", TD_P_INT}};
static const td_param_decl params_io[NP] = {{"BM", TD_P_INT}, {"BN", TD_P_INT}, {"BK", TD_P_INT}, {"T", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"C", TD_F16, TD_R_OUT}, {"A", TD_F16, TD_R_IN}, {"B", TD_F16, TD_R_IN}};
static const td_cast_decl casts[1] = {
    {"store", "fp16:rne:inf", "tl.cast(accumulator, tl.float16) before the store (outDType .fp16)"}};

static void gen(td_producer *p, td_case *c) {
    int64_t BM = td_gen_pow2(p, 4, 5), BN = td_gen_pow2(p, 4, 5), BK = td_gen_pow2(p, 4, 5);
    int64_t g0 = td_prod_u32(p, 1, (uint32_t)(48 / BM)), g1 = td_prod_u32(p, 1, (uint32_t)(48 / BN));
    int64_t T = td_prod_u32(p, 1, 4);
    while (T > 1 && g0 * BM * g1 * BN * BK * T > (1 << 15)) T--;
    int64_t K = BK * T, rows = g0 * BM, cols = g1 * BN;
    c->p[P_BM].i = BM, c->p[P_BN].i = BN, c->p[P_BK].i = BK, c->p[P_T].i = T;
    c->grid[0] = (uint32_t)g0, c->grid[1] = (uint32_t)g1;
    uint64_t cls = TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_STRIDE_GT_ROW);
    if (g0 * g1 == 1) cls |= TD_BC(TD_BC_ONE_PROGRAM);
    if (T > 1) cls |= TD_BC(TD_BC_MULTI_TILE);
    c->classes |= cls;
    td_case_alloc(c, R_A, mm_span(rows, K, LD, 1));
    td_case_alloc(c, R_B, mm_span(K, cols, LD, 1));
    td_case_alloc(c, R_C, mm_span(rows, cols, LD, 1));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F16));
    mm_fill_view(&g, c, R_A, rows, K, LD, 1);
    mm_fill_view(&g, c, R_B, K, cols, LD, 1);
    if (K >= 3 && td_prod_u32(p, 0, 5) == 0) mm_absorb(&g, c, R_A, R_B, rows, cols, K, LD, 1, LD, 1);
}

static const char *check(const td_case *c) {
    int64_t BM = c->p[P_BM].i, BN = c->p[P_BN].i, BK = c->p[P_BK].i, T = c->p[P_T].i;
    if (BM < 0 || BN < 0 || BK < 0 || T < 0) return "parameters are Nat";
    if (BN > LD) return "hBN: BN <= 4096";
    if (BM == 0 || BN == 0 || BK == 0) return "BM, BN, BK > 0 (tl.arange extents)";
    if (c->grid[2] != 1) return "a 2-D grid";
    int64_t rows = c->grid[0] * BM, cols = c->grid[1] * BN, K = BK * T;
    /* the kernel's fixed 4096 layout: programs' cells stay distinct while rows and
     * columns stay below 4096 (the wrap of a wider launch would alias them) */
    if (rows > LD || cols > LD) return "the grid stays inside the 4096 x 4096 matrices";
    if (c->r[R_A].len < mm_span(rows, K, LD, 1)) return "A holds read1's window";
    if (c->r[R_B].len < mm_span(K, cols, LD, 1)) return "B holds read2's window";
    if (c->r[R_C].len < mm_span(rows, cols, LD, 1)) return "C holds the write window";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t BM = c->p[P_BM].i, BN = c->p[P_BN].i;
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            for (int64_t i = 0; i < BM; i++)
                for (int64_t j = 0; j < BN; j++) {
                    int64_t row = p0 * BM + i, col = p1 * BN + j;
                    td_olane l = {.region = R_C, .off = (uint64_t)(LD * row + col), .pid = {p0, p1, 0},
                                  .j = (uint64_t)(i * BN + j), .idx = {(row % LD) * LD, col % LD, row, col}};
                    td_wset_add(ws, &l);
                }
}

#define MK_COMMON                                                                                                  \
    .file = "matmul_kernel", .family = "matmul", .kind = "rounding", .nparams = NP, .nregions = NR,               \
    .regions = regions, .ncasts = 1, .casts = casts, .sv = TD_SV_IEEE,                                             \
    .sv_note = "finite fp16 operands, binary32 sums finite; the fp16 store overflows to inf where the exact value " \
               "rounds there",                                                                                      \
    .error_model = "exact fp16 products, pairwise tree per BK tile, T sequential adds; fp16 store cast",          \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) |                 \
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE),              \
    .gen = gen, .check = check, .writes = writes
/* no far hook (offsets beyond 2^31): the strides are the kernel's literals (4096, 1; no stride
 * parameter to move) and the grid stays inside the 4096 x 4096 layout (check): C's offsets
 * stay below 2^24.  Only K = BLOCK_K * numKBlocks is open (the original fixes K = 4096):
 * B[k*4096 + col] passes 2^31 for K >= 2^19, a reduction every lane reads in full (2^19
 * products per lane, A's rows read densely over K: a count, not a sparse stride), and the
 * original advances a_ptrs, b_ptrs as pointers (64-bit), never forming k*4096 in int32. */

static const td_intent mk_intent = {
    .operation = "C = A @ B over K = BLOCK_K * numKBlocks, fp16 out",
    .definition = "torch.matmul (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]), the exact value rounded "
                  "once to C's format",
    TD_SPECS(mk_intent),
};

const td_contract td_c_matmul_kernel_cf = {
    .id = "matmul_kernel.matmul_kernel_closed_form_correct",
    .io_class = "Realizes_without_Rounding over TileIndex [BM,BN] (fixed 4096 layout), MemCell.of .fp16",
    .formula = "C[4096*row + col] = fp16(sum_{k<BLOCK_K*numKBlocks} A[(row%4096)*4096 + k] * B[k*4096 + col%4096])",
    .params = params_cf,
    MK_COMMON,
    TD_SPECS(mk),
    .intent = &mk_intent,
};

const td_contract td_c_matmul_kernel_io = {
    .id = "matmul_kernel.matmul_kernel_io_correctness",
    .io_class = "StreamMasked2DKernelIO_2 (matmulKernelIO), outDType .fp16",
    .formula = "C[l] = R.round(.fp16)(sum_t sum_e xs[t][aLane l e] * ys[t][bLane l e])",
    .params = params_io,
    MK_COMMON,
    TD_SPECS(mk),
    .intent = &mk_intent,
};
