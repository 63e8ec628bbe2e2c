/* mean_reduction (catalogue part 2, src lines 7588-7620)
 *
 *   mean_dim_kernel_output_summary: mean_dim_kernel_correct_target X Mean M N BLOCK_M BLOCK_N:
 *     Realizes_without_Rounding, writeIf pid0*BLOCK_M + i < M at Mean[pid0*BLOCK_M + i],
 *     expected meanSpec = (sum_{n < N} X[m*N + n]) / N;  hStepNe: BLOCK_N != 0.
 *   mean_dim_kernel_io_correctness (R): StreamMasked2DKernelIO_1 (meanKernelIO) ⊨[R]
 *     meanStreamSpec = (sum_t sum_j in-window xs) / N over T = cdiv(N, BLOCK_N) steps, lanes
 *     (i, j) of the [BLOCK_M, BLOCK_N] tile read at (p0*BLOCK_M + i)*N + t*BLOCK_N + j when the
 *     row is < M and the column < N; write p0*BLOCK_M + i when the row is < M.
 *
 * Checked against bench/tritonbench_g/mean_reduction (.py and MeanReduction.lean): both
 * readings are the kernel's mean (meanStreamSpec's double fold is the same sum).  The
 * kernel keeps a [BLOCK_M, BLOCK_N] binary32 accumulator: lane (i, j) adds X[row, t*B + j]
 * step by step (starting from 0.0, masked steps add exact zeros), then tl.sum(axis=1)
 * reduces the BLOCK_N lane sums by tl.sum's tree and divides by N (an int, converted to
 * binary32 exactly).  The error model follows that order: a sequential sum per lane
 * (T_j - 1 roundings), a tree over the min(N, BLOCK_N) non-empty lanes (ceil(log2)
 * roundings: the empty lanes are exact zeros forming a suffix), one division.
 *
 * ⊨[R]: R rounds the stored mean to Mean's format.  The host allocates Mean with the
 * input's dtype; the io launches use binary16 in and out (mean_dim of a half tensor),
 * so R is Triton's fp32 -> fp16 store, round to nearest even (cast slot "store",
 * fp16:rne:inf); the output_summary launches are binary32 in and out (R = identity).
 *
 * Special values: N = 0 (an empty row, drawn sometimes) makes the kernel divide 0.0 by
 * 0: NaN, where Lean's x / 0 = 0 says 0; the mean of an empty row (0/0 of exact
 * operands) has no exact value: undefined lanes (TD_SH_UNDEF, oracle/shadow.h), where
 * the kernel's NaN and Lean's 0 both pass, counted as undefined.  Values: the
 * whole menu (|x| <= 2^100 in binary32, |x| <= 65504 in binary16), so sums stay finite.
 */
#include "gen_large.h"
#include "reduce_common.h"

enum { P_M, P_N, P_BM, P_BN, NP };
enum { R_X, R_MEAN, NR };
enum { C_STORE };

#define TD_SPEC_FILE "mean_reduction.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"M", TD_P_INT}, {"N", TD_P_INT}, {"BLOCK_M", TD_P_INT}, {"BLOCK_N", TD_P_INT}};
static const td_region_decl regions_f32[NR] = {{"X", TD_F32, TD_R_IN}, {"Mean", TD_F32, TD_R_OUT}};
static const td_region_decl regions_f16[NR] = {{"X", TD_F16, TD_R_IN}, {"Mean", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp16:rne:inf", "R.round of the stored mean (a binary16 store)"}};

static void gen(td_producer *p, td_case *c) {
    int64_t BM = td_gen_pow2(p, 0, 5), BN = td_gen_pow2(p, 0, 6);
    int64_t N = (int64_t)td_gen_count0(p, (uint64_t)BN, 512, &c->classes, 1);
    int64_t M = (int64_t)td_gen_count(p, (uint64_t)BM, (uint64_t)(N > 256 ? 16384 / N : 64), &c->classes);
    int64_t programs = (M + BM - 1) / BM;
    c->p[P_M].i = M;
    c->p[P_N].i = N;
    c->p[P_BM].i = BM;
    c->p[P_BN].i = BN;
    c->grid[0] = (uint32_t)programs;
    c->grid[1] = c->grid[2] = 1;
    /* X and Mean as views into buffers with the rows of the last block's masked tail */
    int64_t rows = td_prod_bool(p) ? programs * BM : M;
    td_case_alloc(c, R_X, (size_t)(rows * N));
    td_case_alloc(c, R_MEAN, (size_t)rows + (td_prod_bool(p) ? 2 : 0));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, c->r[R_X].fmt == TD_F16 ? 65504 : 0x1p100);
    td_vgen_fill(&g, c, R_X);
    if (N > BN) c->classes |= TD_BC(TD_BC_MULTI_TILE);
}

static const char *check(const td_case *c) {
    int64_t M = c->p[P_M].i, N = c->p[P_N].i, BM = c->p[P_BM].i, BN = c->p[P_BN].i;
    if (BN == 0) return "hStepNe: BLOCK_N != 0";
    if (BM <= 0 || BN < 0 || (BM & (BM - 1)) || (BN & (BN - 1))) return "BLOCK_M, BLOCK_N powers of two (tl.arange)";
    if (M < 1 || N < 0) return "M >= 1, N : Nat";
    if (c->grid[0] != (uint64_t)((M + BM - 1) / BM) || c->grid[1] != 1) return "grid = (cdiv(M, BLOCK_M),)";
    if (c->r[R_X].len < (size_t)(M * N) || c->r[R_MEAN].len < (size_t)M) return "X holds [M, N], Mean holds M";
    /* (a large case: its window rows; every other element reads 0) */
    for (uint64_t e = td_large_next(c, R_X, 0); e < c->r[R_X].len; e = td_large_next(c, R_X, e + 1))
        if (!isfinite(td_get(c, R_X, (size_t)e))) return "X holds real (finite) values";
    return NULL;
}

/* Row m of program m / BLOCK_M (row_mask: m < M).  A large case: the rows of its
 * windows; the others only counted. */
static void writes(const td_case *c, td_wset *ws) {
    int64_t M = c->p[P_M].i, BM = c->p[P_BM].i;
    uint64_t seen = 0;
    for (uint64_t m = td_large_row_next(c, 0); m < (uint64_t)M; m = td_large_row_next(c, m + 1), seen++) {
        td_olane l = {.o = 0, .region = R_MEAN, .off = m, .pid = {(uint32_t)(m / (uint64_t)BM), 0, 0},
                      .j = m % (uint64_t)BM, .idx = {(int64_t)m}};
        td_wset_add(ws, &l);
    }
    if (c->nwin) ws->dropped += (uint64_t)M - seen;
}

/* The large tier (gen_large.h, td_rows_large): M > 2^31 / N rows, so X + pid * N
 * passes 2^31 (M and N are unannotated ints in the original: nothing bounds M * N,
 * and Lean's M, N are Nat).  The row-blocks are rows: N elements of X, one of Mean.
 * Each row keeps the drawn row's columns; a row narrower than TD_ROWS_LARGE_MIN_LEN is
 * widened to that width (the new columns read zero: X's
 * precondition is per element). */
static void large(td_producer *p, td_case *c) {
    int64_t N0 = c->p[P_N].i, N = N0, BM = c->p[P_BM].i, BN = c->p[P_BN].i;
    if (N < TD_ROWS_LARGE_MIN_LEN) N = TD_ROWS_LARGE_MIN_LEN;
    td_rows_region rr[2] = {{R_X, (uint64_t)N, (uint64_t)N0}, {R_MEAN, 1, 0}};
    uint64_t M;
    if (td_rows_large(p, c, (uint64_t)c->p[P_M].i, rr, 2, &M) != 0) return;
    c->p[P_M].i = (int64_t)M;
    c->p[P_N].i = N;
    c->grid[0] = (uint32_t)((M + (uint64_t)BM - 1) / (uint64_t)BM);
    c->classes &= ~TD_BC(TD_BC_FULLY_MASKED);
    if (N > BN) c->classes |= TD_BC(TD_BC_MULTI_TILE);
}

#define MEAN_COMMON                                                                                                \
    .file = "mean_reduction", .family = "reduction", .nparams = NP, .params = params, .nregions = NR,              \
    .sv = TD_SV_REAL,                                                                                               \
    .sv_note = "N = 0: 0.0 / 0 is undefined: any outcome (the kernel's NaN, Lean's x / 0 = 0)",               \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED), .gen = gen, .large = large, .check = check,       \
    .writes = writes

static const td_intent intent = {
    .operation = "the mean of each row of x[M, N] over its N entries",
    .definition = "torch.mean(x, dim=1) (PyTorch documentation)",
    TD_SPECS(intent),
};
static const td_intent intent_io = {
    .operation = "the mean of each row of x[M, N] over its N entries",
    .definition = "torch.mean(x, dim=1) (PyTorch documentation)",
    TD_SPECS(intent_io),
};

/* .far: none -- rows are contiguous (row stride N) and each row's N columns are all streamed: an offset
 * beyond 2^31 means 2^31 elements read: the large tier's (`large`, rows of N), not a sparse far stride. */
const td_contract td_c_mean_summary = {
    .id = "mean_reduction.mean_dim_kernel_output_summary",
    .io_class = "Realizes_without_Rounding (mean_dim_kernel_correct_target)",
    .kind = "exact",
    .formula = "Mean[m] = (sum_{n < N} X[m*N + n]) / N, binary32 in and out",
    .regions = regions_f32,
    .error_model = "per-lane sequential sums over the column steps, tl.sum's tree over the lanes, one division",
    MEAN_COMMON,
    TD_SPECS(mean),
    .intent = &intent,
};
const td_contract td_c_mean_io = {
    .id = "mean_reduction.mean_dim_kernel_io_correctness",
    .io_class = "StreamMasked2DKernelIO_1 (meanKernelIO)",
    .kind = "rounding",
    .formula = "Mean[m] = R.round((sum_{n < N} X[m*N + n]) / N), binary16 in and out, R = the binary16 store",
    .regions = regions_f16,
    .ncasts = 1,
    .casts = casts,
    .error_model = "the binary32 mean as in the summary, then the binary16 store cast of the exact mean",
    MEAN_COMMON,
    TD_SPECS(mean_io),
    .intent = &intent_io,
};
