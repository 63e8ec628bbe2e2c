/* The body shared by matmul_leakyrelu.c and matmul_leakyrelu_fp8.c: the two catalogue
 * files hold the same tutorial matmul with the leaky_relu epilogue and an fp16 store
 * (the fp8 one differs only in `accumulator = tl.dot(a, b, accumulator)`, the same
 * binary32 operations on the host), and their contracts the same parameters, regions,
 * hypotheses, write set, error model and lane formula.  Each file keeps its header
 * comment, its ids and IO class names and what its theorem calls its hypotheses.
 *
 * Included once by such a file, which defines
 *   LR_FILE       the catalogue file name (.file),
 *   LR_HSCN_MSG   the name check() reports when SCN != 1,
 * before the include (it gets the parameters, regions, generators, checkers, writes()
 * and the field lists LR_CF_FIELDS / LR_IO_FIELDS for the contract tables); it
 * instantiates the spec, matmul_leakyrelu_common.spec.h, itself.
 */
#include "matmul_common.h"

enum { P_M, P_N, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, P_GROUP, P_NKB, NP };
enum { R_A, R_B, R_C, NR };
enum { C_STORE };

static const int map[MMF_COUNT] = {
    [MMF_M] = P_M,     [MMF_N] = P_N,     [MMF_K] = -1,      [MMF_BM] = P_BM,   [MMF_BN] = P_BN,
    [MMF_BK] = P_BK,   [MMF_T] = P_NKB,   [MMF_GM] = P_GROUP, [MMF_SAM] = P_SAM, [MMF_SAK] = P_SAK,
    [MMF_SBK] = P_SBK, [MMF_SBN] = P_SBN, [MMF_SCM] = P_SCM, [MMF_SCN] = P_SCN};
static const mm_2d d2 = {MM_SWZ_TUTORIAL, MM_IDX_WRAP, MM_IDX_WRAP, R_A, R_B, R_C};

#define TD_SPEC_FILE "matmul_leakyrelu_common.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"M", TD_P_INT},   {"N", TD_P_INT},  {"SAM", TD_P_INT}, {"SAK", TD_P_INT},   {"SBK", TD_P_INT},
    {"SBN", TD_P_INT}, {"SCM", TD_P_INT}, {"SCN", TD_P_INT}, {"BM", TD_P_INT},   {"BN", TD_P_INT},
    {"BK", TD_P_INT},  {"GROUP", TD_P_INT}, {"numKBlocks", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"A", TD_F16, TD_R_IN}, {"B", TD_F16, TD_R_IN}, {"C", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "fp16:rne:inf", "accumulator.to(tl.float16) after leaky_relu, before the masked store"}};

static void gen_with(td_producer *p, td_case *c, int interior) {
    mm_shape_opts o = {.bm_lo = 4, .bm_hi = 5, .bn_lo = 4, .bn_hi = 5, .bk_lo = 4, .bk_hi = 5, .max_mn = 48,
                       .interior = interior, .max_T = 4, .group = 1, .work = 1 << 16};
    mm_shape s;
    mm_gen_2d(p, c, map, &o, &d2, &s);
}
static void gen_cf(td_producer *p, td_case *c) { gen_with(p, c, 1); }
static void gen_io(td_producer *p, td_case *c) { gen_with(p, c, 0); }

static const char *check_common(const td_case *c, mm_shape *s) {
    const char *e = mm_check_2d(c, map, &d2, s);
    if (e) return e;
    if (s->BK <= 0) return "hBK: 0 < BK";
    if (s->scn != 1) return LR_HSCN_MSG;
    if (s->BN > s->scm) return "hbnle: BN <= SCM";
    return NULL;
}
static const char *check_cf(const td_case *c) {
    mm_shape s;
    const char *e = check_common(c, &s);
    if (e) return e;
    /* hmlt / hnlt for every program of the launch: whole tiles */
    if (s.M % s.BM) return "hmlt: rowIndex (pidM) BM i < M for every program";
    if (s.N % s.BN) return "hnlt: colIndex (pidN) BN j < N for every program";
    return NULL;
}
static const char *check_io(const td_case *c) {
    mm_shape s;
    return check_common(c, &s);
}

/* Offsets beyond 2^31 (IO contract): A's rows at a stride_am near 2^31 (mm_far_2d; rows
 * load at % M), as the tutorial's offs_am[:, None] * stride_am, int32 arithmetic in
 * Triton, gets wrong.  The closed form's tiles are interior (M % BM == 0 with BM >= 16):
 * one row of tiles, its BM rows of A at a tile stride (mm_far_tile). */
static void far_io(td_producer *p, td_case *c) { mm_far_2d(p, c, map, &d2); }
static void far_cf(td_producer *p, td_case *c) { mm_far_tile(p, c, map, &d2); }

static void writes(const td_case *c, td_wset *ws) {
    mm_shape s;
    mm_shape_get(c, map, &s);
    mm_writes_2d(c, ws, &s, &d2);
}

#define LR_COMMON                                                                                                  \
    .file = LR_FILE, .family = "matmul", .kind = "rounding", .nparams = NP, .params = params,                      \
    .nregions = NR, .regions = regions, .ncasts = 1, .casts = casts, .sv = TD_SV_IEEE,                             \
    .sv_note = "finite fp16 operands, binary32 sums finite; the fp16 store overflows to inf where the exact value " \
               "rounds there",                                                                                      \
    .error_model = "exact fp16 products, pairwise tree per BK tile, numKBlocks sequential adds; leaky_relu with "  \
                   "binary32 0.01; fp16 store cast",                                                               \
    .writes = writes

static const td_intent lr_intent = {
    .operation = "C = leaky_relu(A @ B, 0.01)",
    .definition = "torch.matmul and torch.nn.functional.leaky_relu(negative_slope=0.01) (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]), the exact value rounded "
                  "once to C's format",
    TD_SPECS(leaky_mm_intent),
};

/* The closed-form contract's fields after its .id */
#define LR_CF_FIELDS                                                                                               \
    .io_class = "ComputeCorrect over TileIndex [BM,BN] (interior tiles), MemCell.of .fp16",                        \
    .formula = "C[SCM*row + col] = fp16(leakyrelu(sum_{k<K} A[(row%M)*SAM + k*SAK] * B[k*SBK + (col%N)*SBN]))",     \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) |                  \
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |              \
               TD_BC(TD_BC_OFFSET_2_31),                                                                           \
    .gen = gen_cf, .far = far_cf, .check = check_cf, LR_COMMON, TD_SPECS(leaky_mm), .intent = &lr_intent

/* The IO contract's fields after its .id and .io_class */
#define LR_IO_FIELDS                                                                                               \
    .formula = "C[l] = R.round(.fp16)(leakyrelu(sum_t sum_e xs[t][aLane l e] * ys[t][bLane l e]))",                \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31), .gen = gen_io,         \
    .far = far_io, .check = check_io, LR_COMMON,                                                                   \
    TD_SPECS(leaky_mm), .intent = &lr_intent
