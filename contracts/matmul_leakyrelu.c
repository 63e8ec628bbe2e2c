/* matmul_leakyrelu: the tutorial matmul with the leaky_relu epilogue and an fp16
 * output (catalogue part 2, src lines 7112-7163).
 *
 *   matmul_leakyrelu_closed_form_correct (hBK : 0 < BK) (hscn : SCN = 1) (hbnle : BN <= SCM)
 *     (hmlt : every row of the program's tile < M) (hnlt : every column < N) (hundef):
 *     C[cOffset] = outputCell = MemCell.of .fp16 (fp16(leakyrelu(sum_{k < BK*numKBlocks}
 *     A[(row % M)*SAM + k*SAK] * B[k*SBK + (col % N)*SBN])))
 *   matmul_leakyrelu_io_correctness (hBK) (hscn) (hbnle): matmulLeakyreluIO |=[R]
 *     fun _ _ xs ys l => leakyrelu (sum_t sum_e xs t (aLane l e) * ys t (bLane l e)),
 *     StreamMasked2DKernelIO_2, outDType .fp16, T = numKBlocks,
 *     read1 = ((pidM p0*BM + l/BK) % M)*SAM + (t*BK + l%BK)*SAK,
 *     read2 = (t*BK + l/BN)*SBK + ((pidN p0*BN + l%BN) % N)*SBN,
 *     write = SCM*(pidM*BM + l/BN) + SCN*(pidN*BN + l%BN),
 *     mask1/mask2: t*BK + e < BK*numKBlocks (always true), writeMask row < M & col < N.
 *
 * Kernel (bench/tritonbench_g/matmul_leakyrelu/matmul_leakyrelu.py) at ACTIVATION =
 * "leaky_relu", the specialisation both theorems state (matmul_leaky_relu_surface in
 * MatmulLeakyrelu.lean): tutorial order (pidM/pidN: (pid % num_pid_in_group) %
 * group_size_m), loads wrapped with % M / % N, `accumulator += tl.dot(a, b)` with the
 * (vacuous) K-tail masks, tl.where(acc >= 0, acc, 0.01*acc), `.to(tl.float16)`,
 * masked store.  leakyrelu in the Lean file: v >= 0 -> v else 1e-2 * v; checked.
 * The closed form's hmlt/hnlt hold for every program of a launch only when the tiles
 * tile the matrix: the generator draws M = k*BM and N = k*BN for it; the IO contract
 * takes any M, N (partial tiles wrap their loads and mask their stores).
 *
 * Dtypes: A, B, C fp16 (the wrapper's test).  The fp16 store: cast slot "store",
 * default fp16:rne:inf (`.to(tl.float16)` = cvt.rn.f16.f32).  The IO contract is
 * genuinely rounding (R at outDType .fp16); the closed form's real.cast .fp16 is the
 * identity placeholder of VeriTile's exact semantics (the R = triv reading), which a
 * real fp16 store cannot meet, so it is checked as the same rounding store.
 * Error model: contracts/matmul_common.h, then leaky_relu with the binary32 literal
 * 0.01 (one rounding; both branches covered where the sum is within its error of 0),
 * then the fp16 cast of the interval.
 * Special values: finite fp16 operands, binary32 sums finite; the fp16 store may
 * overflow to inf where the exact value rounds there (IEEE policy).
 */
#ifndef TD_SPEC_PASS
#include "matmul_common.h"

enum { P_M, P_N, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, P_GROUP, P_NKB, NP };
enum { R_A, R_B, R_C, NR };
enum { C_STORE };

static const int map[MMF_COUNT] = {
    [MMF_M] = P_M,     [MMF_N] = P_N,     [MMF_K] = -1,      [MMF_BM] = P_BM,   [MMF_BN] = P_BN,
    [MMF_BK] = P_BK,   [MMF_T] = P_NKB,   [MMF_GM] = P_GROUP, [MMF_SAM] = P_SAM, [MMF_SAK] = P_SAK,
    [MMF_SBK] = P_SBK, [MMF_SBN] = P_SBN, [MMF_SCM] = P_SCM, [MMF_SCN] = P_SCN};
static const mm_2d d2 = {MM_SWZ_TUTORIAL, MM_IDX_WRAP, MM_IDX_WRAP, R_A, R_B, R_C};

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
    if (s->scn != 1) return "hscn: SCN = 1";
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

static void writes(const td_case *c, td_wset *ws) {
    mm_shape s;
    mm_shape_get(c, map, &s);
    mm_writes_2d(c, ws, &s, &d2);
}

#define LR_COMMON                                                                                                  \
    .file = "matmul_leakyrelu", .family = "matmul", .kind = "rounding", .nparams = NP, .params = params,          \
    .nregions = NR, .regions = regions, .ncasts = 1, .casts = casts, .sv = TD_SV_IEEE,                             \
    .sv_note = "finite fp16 operands, binary32 sums finite; the fp16 store overflows to inf where the exact value " \
               "rounds there",                                                                                      \
    .error_model = "exact fp16 products, pairwise tree per BK tile, numKBlocks sequential adds; leaky_relu with "  \
                   "binary32 0.01; fp16 store cast",                                                               \
    .writes = writes

const td_contract td_c_matmul_leakyrelu_cf = {
    .id = "matmul_leakyrelu.matmul_leakyrelu_closed_form_correct",
    .io_class = "ComputeCorrect over TileIndex [BM,BN] (interior tiles), MemCell.of .fp16",
    .formula = "C[SCM*row + col] = fp16(leakyrelu(sum_{k<K} A[(row%M)*SAM + k*SAK] * B[k*SBK + (col%N)*SBN]))",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE),
    .gen = gen_cf,
    .check = check_cf,
    LR_COMMON,
    TD_SPECS(leaky_mm),
};

const td_contract td_c_matmul_leakyrelu_io = {
    .id = "matmul_leakyrelu.matmul_leakyrelu_io_correctness",
    .io_class = "StreamMasked2DKernelIO_2 (matmulLeakyreluIO), outDType .fp16",
    .formula = "C[l] = R.round(.fp16)(leakyrelu(sum_t sum_e xs[t][aLane l e] * ys[t][bLane l e]))",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW),
    .gen = gen_io,
    .check = check_io,
    LR_COMMON,
    TD_SPECS(leaky_mm),
};

#else
#include "matmul_common.h"
static NUM SPEC(leaky_mm)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(mm_leaky)(cx, SPEC(mm_dot_2d)(cx, c, l, map, &d2, NULL)), C_STORE);
}
#endif
