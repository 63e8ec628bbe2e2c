/* quant_transpose_kernel (catalogue part 2, src lines 8128-8181)
 *
 *   quantize_global_transpose_blocked_output_summary_general (hOutInj over one tile):
 *     (a) the faithful surface does not lower (llrint / int8); (b) the scaled-store slice
 *     realizes, per BlockState s, writeIf active at bOffset = rowIndex*stride_bm +
 *     colIndex*stride_bn the value quantTransposeScaledSpec = scale127 * (A[aOffset] *
 *     AbsmaxInv[0]), aOffset = rowIndex*stride_am + colIndex*stride_an, active = row < M
 *     and col < N.  Params include GROUP_M (the Python kernel's grouped schedule).
 *   quant_transpose_scaled_store_io_correctness (hM, hN: 0 < BLOCK_M, BLOCK_N; hOutInj for
 *     every (p0, p1)): MaskedTile2DKernelIO_2, the same lane value, program axes 0/1.
 *
 * The readings, checked against bench/tritonbench_g/quant_transpose_kernel (.py and
 * QuantTransposeKernel.lean): both are pre-rounding slices; the kernel stores
 * `llrint(127.0 * (a * absmax_inv))` (half to EVEN, to int64) into the int8 tensor
 * out[N, M] (the low byte), so, as in quantize_global, the contract checks the stored
 * int8 through the cast slot "store" = int8:rne:wrap, scale127 = the literal 127 (the
 * checker requires it).  The "blocked" theorem is stated per program state s; its launch
 * here is the Python kernel's own: a 1-D grid of cdiv(M, BM) * cdiv(N, BN) programs with
 * the GROUP_M swizzle (group_id = pid / (GROUP_M grid_n), group_size = min(grid_m -
 * group_id GROUP_M, GROUP_M), pid_m = group_id GROUP_M + pid % group_size, pid_n = (pid
 * % width) / group_size), so every tile is some s; the io theorem's launch is the 2-D
 * grid (cdiv(M, BM), cdiv(N, BN)).
 * Layouts: A row-major or column-major (leading dimension padded), B the transpose
 * (stride_bm = 1, stride_bn >= max(M, BM): the host's out.stride()) or row-major
 * (stride_bn = 1, stride_bm >= max(N, BN)); both make bOffset injective over every tile
 * (hOutInj) and over all active lanes.
 * Preconditions beyond Lean's (the host's): absmax_inv finite > 0 and absmax_inv *
 * max|A| <= 1 + 2^-23 (the host passes RN32(1/max|A|)): no wrap; 127 * absmax_inv
 * finite (an implementation may form that factor first); an all-zero A (1/0) is
 * excluded, as in quantize_global.
 * Error model (shadow-derived): two binary32 products of exact operands, u|p| each, any
 * association; the int8 store admits the integers of the interval.  No exact .5 ties
 * exist (127 y = k + 1/2 needs y = (2k+1)/254, not a binary32), so half-even vs
 * half-away is decided inside the admissible interval and is not a mutant here. */
#include "gen.h"
#include "gen_far.h"

#include <float.h>

enum { P_SAM, P_SAN, P_SBN, P_SBM, P_M, P_N, P_BM, P_BN, P_GM, P_SCALE, NPB };
enum { Q_SAM, Q_SAN, Q_SBN, Q_SBM, Q_M, Q_N, Q_BM, Q_BN, Q_SCALE, NPI };
enum { R_A, R_INV, R_B, NR };
enum { C_STORE };

static const td_param_decl params_b[NPB] = {
    {"stride_am", TD_P_INT}, {"stride_an", TD_P_INT}, {"stride_bn", TD_P_INT}, {"stride_bm", TD_P_INT},
    {"M", TD_P_INT},         {"N", TD_P_INT},         {"BLOCK_M", TD_P_INT},   {"BLOCK_N", TD_P_INT},
    {"GROUP_M", TD_P_INT},   {"scale127", TD_P_REAL}};
static const td_param_decl params_i[NPI] = {
    {"stride_am", TD_P_INT}, {"stride_an", TD_P_INT}, {"stride_bn", TD_P_INT}, {"stride_bm", TD_P_INT},
    {"M", TD_P_INT},         {"N", TD_P_INT},         {"BLOCK_M", TD_P_INT},   {"BLOCK_N", TD_P_INT},
    {"scale127", TD_P_REAL}};
static const td_region_decl regions[NR] = {
    {"A", TD_F32, TD_R_IN}, {"AbsmaxInv", TD_F32, TD_R_IN}, {"B", TD_I8, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "int8:rne:wrap", "llrint (round half to even, to int64) then the int8 store (low byte)"}};

/* the parameters both theorems share, by name: the io theorem has no GROUP_M */
typedef struct {
    int64_t sam, san, sbn, sbm, M, N, BM, BN, GM;
    double scale;
} qt_par;
static qt_par qt_get(const td_case *c) {
    qt_par q;
    int io = c->k->nparams == NPI;
    q.sam = c->p[P_SAM].i, q.san = c->p[P_SAN].i, q.sbn = c->p[P_SBN].i, q.sbm = c->p[P_SBM].i;
    q.M = c->p[P_M].i, q.N = c->p[P_N].i, q.BM = c->p[P_BM].i, q.BN = c->p[P_BN].i;
    q.GM = io ? 1 : c->p[P_GM].i;
    q.scale = c->p[io ? Q_SCALE : P_SCALE].r;
    return q;
}

/* the Python kernel's grouped schedule: program pid -> (pid_m, pid_n) */
static void qt_sched(const qt_par *q, int64_t pid, int64_t *pm, int64_t *pn) {
    int64_t gm = (q->M + q->BM - 1) / q->BM, gn = (q->N + q->BN - 1) / q->BN, width = q->GM * gn;
    int64_t group_id = pid / width, gs = gm - group_id * q->GM < q->GM ? gm - group_id * q->GM : q->GM;
    *pm = group_id * q->GM + pid % gs;
    *pn = (pid % width) / gs;
}

static double qt_absmax(const td_case *c, const qt_par *q) {
    double m = 0;
    for (int64_t i = 0; i < q->M; i++)
        for (int64_t j = 0; j < q->N; j++) m = fmax(m, fabs(td_get(c, R_A, (size_t)(i * q->sam + j * q->san))));
    return m;
}

#define TD_SPEC_FILE "quant_transpose_kernel.spec.h"
#include "spec_instantiate.h"

static void gen_common(td_producer *p, td_case *c, int blocked) {
    int64_t BM = td_gen_pow2(p, 0, 5), BN = td_gen_pow2(p, 0, 5);
    int64_t M = (int64_t)td_gen_count(p, (uint64_t)BM, 96, &c->classes);
    int64_t N = (int64_t)td_gen_count(p, (uint64_t)BN, 96, &c->classes);
    int64_t pa = td_prod_u32(p, 0, 3), pb = td_prod_u32(p, 0, 3);
    int a_col = td_prod_bool(p), b_row = td_prod_u32(p, 0, 3) == 0; /* B transposed (the host's) mostly */
    int64_t sam = a_col ? 1 : N + pa, san = a_col ? M + pa : 1;
    int64_t sbm = b_row ? (N > BN ? N : BN) + pb : 1, sbn = b_row ? 1 : (M > BM ? M : BM) + pb;
    if (pa || pb) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    int64_t gm = (M + BM - 1) / BM, gn = (N + BN - 1) / BN;
    int64_t v[NPB] = {sam, san, sbn, sbm, M, N, BM, BN, 1 + td_prod_u32(p, 0, 8), 0};
    if (blocked) {
        for (int k = 0; k < P_SCALE; k++) c->p[k].i = v[k];
        c->p[P_SCALE].r = 127.0;
        c->grid[0] = (uint32_t)(gm * gn), c->grid[1] = 1;
    } else {
        for (int k = 0; k < Q_SCALE; k++) c->p[k].i = v[k];
        c->p[Q_SCALE].r = 127.0;
        c->grid[0] = (uint32_t)gm, c->grid[1] = (uint32_t)gn;
    }
    c->grid[2] = 1;
    /* td_gen_count marked each extent against its block; one lane / one program needs both */
    c->classes &= ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM));
    if (M == 1 && N == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    c->classes |= gm * gn == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : TD_BC(TD_BC_MULTI_TILE);
    td_case_alloc(c, R_A, (size_t)((M - 1) * sam + (N - 1) * san + 1));
    td_case_alloc(c, R_INV, 1);
    td_case_alloc(c, R_B, (size_t)((M - 1) * sbm + (N - 1) * sbn + 1) + (td_prod_bool(p) ? (size_t)(BM * BN) : 0));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, R_A);
    qt_par q = qt_get(c);
    double m = qt_absmax(c, &q);
    if (m == 0) td_set(c, R_A, 0, 1.0), m = 1.0; /* an all-zero A is outside the statement (1/0) */
    double inv = (double)(1.0f / (float)m);
    if (td_rng_below(&g.rng, 4) == 0) inv = (double)(float)(inv * (0.25 + 0.75 * td_rng_unit(&g.rng)));
    if (!(inv * 127 <= 0x1.fffffep127)) inv = (double)nextafterf((float)(0x1.fffffep127 / 127), 0.0f);
    if (!(inv > 0)) inv = 0x1p-149;
    td_set(c, R_INV, 0, inv);
}
static void gen_b(td_producer *p, td_case *c) { gen_common(p, c, 1); }
static void gen_i(td_producer *p, td_case *c) { gen_common(p, c, 0); }

static const char *check(const td_case *c) {
    qt_par q = qt_get(c);
    if (q.scale != 127.0) return "scale127 = 127 (the kernel's literal 127.0)";
    if (!(q.BM > 0)) return "hM: 0 < BLOCK_M";
    if (!(q.BN > 0)) return "hN: 0 < BLOCK_N";
    if ((q.BM & (q.BM - 1)) || (q.BN & (q.BN - 1))) return "BLOCK_M, BLOCK_N powers of two (tl.arange)";
    if (q.M < 1 || q.N < 1 || q.GM < 1) return "M, N, GROUP_M >= 1";
    if (q.sam < 1 || q.san < 1 || q.sbm < 1 || q.sbn < 1) return "strides >= 1";
    /* hOutInj (every tile) and injectivity over the active lanes: one unit stride, the other past the tile and the extent */
    if (!((q.sbm == 1 && q.sbn >= q.M && q.sbn >= q.BM) || (q.sbn == 1 && q.sbm >= q.N && q.sbm >= q.BN)))
        return "hOutInj: bOffset injective (one unit stride, the other >= max(extent, block))";
    int64_t gm = (q.M + q.BM - 1) / q.BM, gn = (q.N + q.BN - 1) / q.BN;
    int io = c->k->nparams == NPI;
    if (io ? (c->grid[0] != (uint64_t)gm || c->grid[1] != (uint64_t)gn) : (c->grid[0] != (uint64_t)(gm * gn) || c->grid[1] != 1))
        return io ? "grid = (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N))" : "grid = (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),)";
    if (c->r[R_A].len < (size_t)((q.M - 1) * q.sam + (q.N - 1) * q.san + 1)) return "A holds every active lane";
    if (c->r[R_B].len < (size_t)((q.M - 1) * q.sbm + (q.N - 1) * q.sbn + 1)) return "B holds every active lane";
    if (!td_region_abs_le(c, R_A, DBL_MAX)) return "A holds real (finite) values"; /* sparse: its written pages */
    double inv = td_get(c, R_INV, 0);
    if (!(inv * 127 <= 0x1.fffffep127)) return "127 * absmax_inv finite in binary32 (max|x| >= 127 / FLT_MAX)";
    if (!(inv > 0) || !isfinite(inv)) return "absmax_inv finite and > 0 (an all-zero A gives 1/0: excluded)";
    if (qt_absmax(c, &q) * inv > 1 + 0x1p-23) return "absmax_inv * max|A| <= 1 + 2^-23 (values within int8)";
    return NULL;
}

/* Offsets beyond 2^31 (gen_far.h): A's first rows (M cut to TD_FAR_MAX_ROWS, the grid
 * recounted) at a stride_am near 2^31 over a sparse region, as the kernel's
 * rm[:, None] * stride_am, int32 arithmetic in Triton, gets wrong.  Only a row-major A
 * (stride_an = 1, stride_am at least a row); B (the output) stays dense. */
static void far(td_producer *p, td_case *c) {
    qt_par q = qt_get(c);
    if (q.san != 1 || q.M < 2 || q.sam < q.N) return;
    int64_t R = q.M < TD_FAR_MAX_ROWS ? q.M : TD_FAR_MAX_ROWS, s = td_far_stride(p, R, q.N);
    if (td_far_restride(c, R_A, R, q.N, q.sam, s)) return;
    c->p[P_M].i = R, c->p[P_SAM].i = s;
    int64_t gm = (R + q.BM - 1) / q.BM, gn = (q.N + q.BN - 1) / q.BN;
    if (c->k->nparams == NPI) c->grid[0] = (uint32_t)gm;
    else c->grid[0] = (uint32_t)(gm * gn);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static void writes(const td_case *c, td_wset *ws) {
    qt_par q = qt_get(c);
    int io = c->k->nparams == NPI;
    for (uint32_t g0 = 0; g0 < c->grid[0]; g0++)
        for (uint32_t g1 = 0; g1 < c->grid[1]; g1++) {
            int64_t pm = g0, pn = g1;
            if (!io) qt_sched(&q, g0, &pm, &pn);
            for (int64_t r = 0; r < q.BM; r++)
                for (int64_t cc = 0; cc < q.BN; cc++) {
                    int64_t m = pm * q.BM + r, n = pn * q.BN + cc;
                    if (!(m < q.M && n < q.N)) continue;
                    td_olane l = {.o = 0, .region = R_B, .off = (uint64_t)(m * q.sbm + n * q.sbn), .pid = {g0, g1, 0},
                                  .j = (uint64_t)(r * q.BN + cc), .idx = {m, n}};
                    td_wset_add(ws, &l);
                }
        }
}

static const char *intent_gap(const td_case *c) {
    qt_par q = qt_get(c);
    return td_get(c, R_INV, 0) == (double)(1.0f / (float)qt_absmax(c, &q))
               ? NULL
               : "absmax_inv is not the host's 1/max|A| (a looser scale)";
}
static const td_intent intent = {
    .operation = "global int8 quantization of A stored transposed: out[n, m] = round(127 * A[m, n] / max|A|)",
    .definition = "bitsandbytes quantize_global_transpose: round-half-even(127 * A * (1/absmax)) as int8, "
                  "written at B[m*stride_bm + n*stride_bn]",
    TD_SPECS(qt_intent),
    .gap = intent_gap,
};

#define QT_COMMON                                                                                                  \
    .file = "quant_transpose_kernel", .family = "quantization", .kind = "rounding", .nregions = NR,               \
    .regions = regions, .ncasts = 1, .casts = casts, .sv = TD_SV_REAL,                                             \
    .sv_note = "finite A, absmax_inv finite > 0 with |A| * absmax_inv <= 1 + 2^-23: values within int8, no wrap", \
    .error_model = "two binary32 products (u|p| each, any association), then the integer store: the integers "   \
                   "of the error interval",                                                                      \
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) |                     \
               TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) |                         \
               TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_VALUES_SPECIAL) |                  \
               TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),                  \
    .far = far, .check = check, .writes = writes, TD_SPECS(qt), .intent = &intent

const td_contract td_c_quant_transpose_blocked = {
    .id = "quant_transpose_kernel.quantize_global_transpose_blocked_output_summary_general",
    .io_class = "ComputeCorrect over TileIndex [BLOCK_M, BLOCK_N] (writeIf active at bOffset; the grouped 1-D "
                "schedule)",
    .formula = "B[m*stride_bm + n*stride_bn] = int8(llrint(127 * (A[m*stride_am + n*stride_an] * absmax_inv)))",
    .nparams = NPB,
    .params = params_b,
    .gen = gen_b,
    QT_COMMON,
};
const td_contract td_c_quant_transpose_io = {
    .id = "quant_transpose_kernel.quant_transpose_scaled_store_io_correctness",
    .io_class = "MaskedTile2DKernelIO_2 (quantTransposeScaledIO)",
    .formula = "B[m*stride_bm + n*stride_bn] = int8(llrint(127 * (A[m*stride_am + n*stride_an] * absmax_inv)))",
    .nparams = NPI,
    .params = params_i,
    .gen = gen_i,
    QT_COMMON,
};
