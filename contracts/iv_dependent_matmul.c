/* iv_dependent_matmul: the induction-variable-dependent matmul at type = "pre_load",
 * with a genuine fp16 store (catalogue part 1, src lines 5624-5672).
 *
 *   iv_dependent_matmul_closed_form_correct (hBK : 0 < BK) (hcn : SCN = 1) (hbnle : BN <= SCM)
 *     (hmlt : every row of the program's tile < M) (hnlt : every column < N) (hundef):
 *     C[cOffset] = outputCell = MemCell.of .fp16 (fp16(sum_{k < BK*numKBlocks}
 *     A[(row % M)*SAM + k*SAK] * B[k*SBK + (col % N)*SBN]))
 *   iv_dependent_matmul_io_correctness (hBK) (hcn) (hbnle): ivDependentMatmulIO |=[R]
 *     fun _ _ xs ys l => sum_t sum_e xs t (aLane l e) * ys t (bLane l e),
 *     StreamMasked2DKernelIO_2, outDType .fp16, T = numKBlocks,
 *     read1 = ((pidM p0*BM + l/BK) % M)*SAM + (t*BK + l%BK)*SAK,
 *     read2 = (t*BK + l/BN)*SBK + ((pidN p0*BN + l%BN) % N)*SBN,
 *     write = SCM*(pidM*BM + l/BN) + SCN*(pidN*BN + l%BN), pidM = p0 / cdiv(N, BN),
 *     pidN = p0 % cdiv(N, BN); mask1/mask2: t*BK + e < BK*numKBlocks (always true);
 *     writeMask row < M & col < N.
 *
 * Kernel (bench/tritonbench_g/iv_dependent_matmul/iv_dependent_matmul.py,
 * iv_dependent_matmul_kernel with type == "pre_load", the surface
 * iv_dependent_matmul_pre_load_surface transcribes): row-major program order
 * (MM_SWZ_ROWMAJOR), loads wrapped with % M / % N, a_ptrs / b_ptrs recomputed from the
 * loop variable each step (a_ptr + k*BK*stride_ak), `accumulator += tl.dot(a, b)` with
 * the (vacuous) K-tail masks, `accumulator.to(tl.float16)`, masked store.  matmulSpec
 * and outputCell in IvDependentMatmul.lean: the same sum, then the fp16 cast; checked.
 * The closed form's hmlt/hnlt hold for all programs only with whole tiles: the
 * generator draws M = k*BM, N = k*BN there.
 *
 * Dtypes: A, B fp16, C fp16.  The wrapper feeds torch.rand fp32 operands, for which
 * tl.dot defaults to TF32 on sm_80+ (operands cut to 10-bit significands), outside any
 * binary32 model of the real sum; with fp16 operands the products are exact and the
 * kernel is otherwise the same.  The wrapper's output buffer is fp32 and receives the
 * fp16-rounded tile (an exact widening); the contract's outDType .fp16 is that value,
 * so C is an fp16 region here.
 * The fp16 store is genuine in the IO contract (no hfp16 hypothesis, so R.round .fp16
 * is NOT the identity): cast slot "store", default fp16:rne:inf (cvt.rn.f16.f32).  The
 * closed form's real.cast .fp16 is VeriTile's identity placeholder (the R = triv
 * reading), which no fp16 cell can meet, so it is checked as the same real store.
 * Error model: contracts/matmul_common.h (exact fp16 products, pairwise tree per BK
 * tile, numKBlocks sequential adds), then the fp16 cast of the interval.
 * Special values: finite fp16 operands, binary32 sums finite; the fp16 store may
 * overflow to inf where the exact value rounds there (IEEE policy).
 */
#include "matmul_common.h"

enum { P_M, P_N, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, P_NKB, NP };
enum { R_A, R_B, R_C, NR };
enum { C_STORE };

static const int map[MMF_COUNT] = {
    [MMF_M] = P_M,     [MMF_N] = P_N,     [MMF_K] = -1,      [MMF_BM] = P_BM,   [MMF_BN] = P_BN,
    [MMF_BK] = P_BK,   [MMF_T] = P_NKB,   [MMF_GM] = -1,     [MMF_SAM] = P_SAM, [MMF_SAK] = P_SAK,
    [MMF_SBK] = P_SBK, [MMF_SBN] = P_SBN, [MMF_SCM] = P_SCM, [MMF_SCN] = P_SCN};
static const mm_2d d2 = {MM_SWZ_ROWMAJOR, MM_IDX_WRAP, MM_IDX_WRAP, R_A, R_B, R_C};

#define TD_SPEC_FILE "iv_dependent_matmul.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"M", TD_P_INT},   {"N", TD_P_INT},   {"SAM", TD_P_INT}, {"SAK", TD_P_INT}, {"SBK", TD_P_INT}, {"SBN", TD_P_INT},
    {"SCM", TD_P_INT}, {"SCN", TD_P_INT}, {"BM", TD_P_INT},  {"BN", TD_P_INT},  {"BK", TD_P_INT},
    {"numKBlocks", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"A", TD_F16, TD_R_IN}, {"B", TD_F16, TD_R_IN}, {"C", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "fp16:rne:inf", "accumulator.to(tl.float16) before the masked store (outDType .fp16)"}};

static void gen_with(td_producer *p, td_case *c, int interior) {
    mm_shape_opts o = {.bm_lo = 4, .bm_hi = 5, .bn_lo = 4, .bn_hi = 5, .bk_lo = 4, .bk_hi = 5, .max_mn = 48,
                       .interior = interior, .max_T = 4, .work = 1 << 16};
    mm_shape s;
    mm_gen_2d(p, c, map, &o, &d2, &s);
}
static void gen_cf(td_producer *p, td_case *c) { gen_with(p, c, 1); }
static void gen_io(td_producer *p, td_case *c) { gen_with(p, c, 0); }
/* offsets beyond 2^31 (gen_far.h): the IO theorem's A rows cut to TD_FAR_MAX_ROWS
 * (mm_far_2d); the closed form's interior tiles (M a multiple of BM >= 16) keep one row
 * of tiles, its BM rows of A at a tile stride (mm_far_tile: the last row 2^31 in) */
static void far_io(td_producer *p, td_case *c) { mm_far_2d(p, c, map, &d2); }
static void far_cf(td_producer *p, td_case *c) { mm_far_tile(p, c, map, &d2); }

static const char *check_common(const td_case *c, mm_shape *s) {
    const char *e = mm_check_2d(c, map, &d2, s);
    if (e) return e;
    if (s->BK <= 0) return "hBK: 0 < BK";
    if (s->scn != 1) return "hcn: SCN = 1";
    if (s->BN > s->scm) return "hbnle: BN <= SCM";
    return NULL;
}
static const char *check_cf(const td_case *c) {
    mm_shape s;
    const char *e = check_common(c, &s);
    if (e) return e;
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

#define IV_COMMON                                                                                                  \
    .file = "iv_dependent_matmul", .family = "matmul", .kind = "rounding", .nparams = NP, .params = params,       \
    .nregions = NR, .regions = regions, .ncasts = 1, .casts = casts, .sv = TD_SV_IEEE,                             \
    .sv_note = "finite fp16 operands, binary32 sums finite; the fp16 store overflows to inf where the exact value " \
               "rounds there",                                                                                      \
    .error_model = "exact fp16 products, pairwise tree per BK tile, numKBlocks sequential adds; fp16 store cast",  \
    .writes = writes

static const td_intent ivdm_intent = {
    .operation = "C = A @ B",
    .definition = "torch.matmul (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]), the exact value rounded "
                  "once to C's format",
    TD_SPECS(ivdm_intent),
};

const td_contract td_c_iv_dependent_matmul_cf = {
    .id = "iv_dependent_matmul.iv_dependent_matmul_closed_form_correct",
    .io_class = "Realizes_without_Rounding over TileIndex [BM,BN] (interior tiles), MemCell.of .fp16",
    .formula = "C[SCM*row + col] = fp16(sum_{k<K} A[(row%M)*SAM + k*SAK] * B[k*SBK + (col%N)*SBN])",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |
               TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_cf,
    .far = far_cf,
    .check = check_cf,
    IV_COMMON,
    TD_SPECS(ivdm),
    .intent = &ivdm_intent,
};

const td_contract td_c_iv_dependent_matmul_io = {
    .id = "iv_dependent_matmul.iv_dependent_matmul_io_correctness",
    .io_class = "StreamMasked2DKernelIO_2 (ivDependentMatmulIO), outDType .fp16",
    .formula = "C[l] = R.round(.fp16)(sum_t sum_e xs[t][aLane l e] * ys[t][bLane l e])",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_io,
    .far = far_io,
    .check = check_io,
    IV_COMMON,
    TD_SPECS(ivdm),
    .intent = &ivdm_intent,
};
