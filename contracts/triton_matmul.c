/* triton_matmul: the persistent-matmul tutorial's matmul_kernel with its two epilogue
 * arms, fp16 and fp8 e4m3 (catalogue part 2, src lines 11282-11385).
 *
 *   triton_matmul_f16_closed_form_correct / _f8_closed_form_correct
 *     (hK : K = BLOCK_K*numKBlocks) (hcn : scn = 1) (hbnle : BN <= scm) (hundef):
 *     writeIf active (row < M & col < N) at scm*row + scn*col,
 *     expected MemCell.of .fp16 / .f8e4 (real.cast (sum_{k<K} A[clamp(row,M), k] B[k, clamp(col,N)]))
 *   triton_matmul_f16_io_correctness / _f8_io_correctness (hK) (hcn) (hBN : BN <= scm):
 *     tritonMatmulF16IO / F8IO |=[R] fun _ _ xs ys l => sum_t sum_e xs t (aLane l e) * ys t (bLane l e),
 *     StreamMasked2DKernelIO_2 with outDType .fp16 / .f8e4, T = numKBlocks,
 *     read1 = clampIdx(pidM*BM + l/BK, M)*sam + (t*BK + l%BK)*sak,
 *     read2 = (t*BK + l/BN)*sbk + clampIdx(pidN*BN + l%BN, N)*sbn,
 *     write = scm*row + scn*col, mask1/mask2: t*BK + e < K (always true under hK),
 *     writeMask: row < M & col < N;  clampIdx v b = if v < b then v else 0.
 *
 * Kernel (bench/tritonbench_g/triton_matmul/triton_matmul.py): grouped order with
 * pid_m = first_pid_m + pid % group_size_m (pidM in TritonMatmul.lean), offs_am /
 * offs_bn clamped by tl.where(offs < M, offs, 0) (the max_contiguous/multiple_of hints
 * change no value), the fused `accumulator = tl.dot(a, b, accumulator)`, then
 * `accumulator.to(tl.float8e4nv)` when C is fp8 e4m3, else `.to(tl.float16)`, and the
 * masked store.  matmulSpec / the streamed sum are the same sum; checked.
 *
 * Dtypes follow the wrapper (c has a's dtype): fp16 A, B, C for the f16 contracts;
 * fp8 e4m3fn A, B, C for the f8 contracts (the wrapper's float8_e4m3fn config).  fp16
 * and e4m3 products are exact in binary32, so the accumulator's only errors are the
 * additions.  The stores are the two declared cast slots:
 *   f16: "store" fp16:rne:inf  (`.to(tl.float16)` = cvt.rn.f16.f32, overflow to inf);
 *   f8:  "store" e4m3fn:rne:sat (`.to(tl.float8e4nv)` = cvt.rn.satfinite.e4m3x2.f32
 *        on sm_89/sm_90: round to nearest even, |x| beyond 448 saturates to +-448).
 * The IO contracts round once at outDType with R; the closed forms' real.cast is the
 * identity placeholder of VeriTile's exact semantics (R = triv: the unrounded sum in
 * an fp16 / fp8 cell, which no real store can hold), so both are checked as the real
 * store under the kernel's declared profile.  e4m3 has no infinity: an exact sum past
 * 464 (the rounding threshold above 448) saturates under the default profile; a
 * kernel that declares e4m3fn:rne:nan (PyTorch eager) is checked under that instead.
 * Error model: contracts/matmul_common.h (exact products, pairwise tree per BK tile,
 * numKBlocks sequential adds) and the store cast of the interval.
 * Special values: finite operands, binary32 sums finite; fp16 overflow to inf and
 * e4m3 saturation follow the declared profile (IEEE policy).
 */
#include "matmul_common.h"

/* closed forms: (M N BM BN GM sam sak sbk sbn scm scn BLOCK_K numKBlocks) (K) */
enum { PC_M, PC_N, PC_BM, PC_BN, PC_GM, PC_SAM, PC_SAK, PC_SBK, PC_SBN, PC_SCM, PC_SCN, PC_BK, PC_NKB, PC_K, NP };
/* IO: (M N K sam sak sbk sbn scm scn BM BN BK GM numKBlocks) */
enum { PI_M, PI_N, PI_K, PI_SAM, PI_SAK, PI_SBK, PI_SBN, PI_SCM, PI_SCN, PI_BM, PI_BN, PI_BK, PI_GM, PI_NKB };
enum { R_A, R_B, R_C, NR };
enum { C_STORE };

static const int map_cf[MMF_COUNT] = {
    [MMF_M] = PC_M,     [MMF_N] = PC_N,     [MMF_K] = PC_K,     [MMF_BM] = PC_BM,   [MMF_BN] = PC_BN,
    [MMF_BK] = PC_BK,   [MMF_T] = PC_NKB,   [MMF_GM] = PC_GM,   [MMF_SAM] = PC_SAM, [MMF_SAK] = PC_SAK,
    [MMF_SBK] = PC_SBK, [MMF_SBN] = PC_SBN, [MMF_SCM] = PC_SCM, [MMF_SCN] = PC_SCN};
static const int map_io[MMF_COUNT] = {
    [MMF_M] = PI_M,     [MMF_N] = PI_N,     [MMF_K] = PI_K,     [MMF_BM] = PI_BM,   [MMF_BN] = PI_BN,
    [MMF_BK] = PI_BK,   [MMF_T] = PI_NKB,   [MMF_GM] = PI_GM,   [MMF_SAM] = PI_SAM, [MMF_SAK] = PI_SAK,
    [MMF_SBK] = PI_SBK, [MMF_SBN] = PI_SBN, [MMF_SCM] = PI_SCM, [MMF_SCN] = PI_SCN};
static const mm_2d d2 = {MM_SWZ_SIMPLE, MM_IDX_CLAMP, MM_IDX_CLAMP, R_A, R_B, R_C};

#define TD_SPEC_FILE "triton_matmul.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_cf[NP] = {
    {"M", TD_P_INT},   {"N", TD_P_INT},   {"BM", TD_P_INT},      {"BN", TD_P_INT},         {"GM", TD_P_INT},
    {"sam", TD_P_INT}, {"sak", TD_P_INT}, {"sbk", TD_P_INT},     {"sbn", TD_P_INT},        {"scm", TD_P_INT},
    {"scn", TD_P_INT}, {"BLOCK_K", TD_P_INT}, {"numKBlocks", TD_P_INT}, {"K", TD_P_INT}};
static const td_param_decl params_io[NP] = {
    {"M", TD_P_INT},   {"N", TD_P_INT},   {"K", TD_P_INT},   {"sam", TD_P_INT}, {"sak", TD_P_INT},
    {"sbk", TD_P_INT}, {"sbn", TD_P_INT}, {"scm", TD_P_INT}, {"scn", TD_P_INT}, {"BM", TD_P_INT},
    {"BN", TD_P_INT},  {"BK", TD_P_INT},  {"GM", TD_P_INT},  {"numKBlocks", TD_P_INT}};
static const td_region_decl regions_f16[NR] = {
    {"A", TD_F16, TD_R_IN}, {"B", TD_F16, TD_R_IN}, {"C", TD_F16, TD_R_OUT}};
static const td_region_decl regions_f8[NR] = {
    {"A", TD_E4M3FN, TD_R_IN}, {"B", TD_E4M3FN, TD_R_IN}, {"C", TD_E4M3FN, TD_R_OUT}};
static const td_cast_decl cast_f16[1] = {
    {"store", "fp16:rne:inf", "accumulator.to(tl.float16) before the masked store (outDType .fp16)"}};
static const td_cast_decl cast_f8[1] = {
    {"store", "e4m3fn:rne:sat", "accumulator.to(tl.float8e4nv) before the masked store (outDType .f8e4)"}};

static void gen_with(td_producer *p, td_case *c, const int *map) {
    mm_shape_opts o = {.bm_lo = 4, .bm_hi = 5, .bn_lo = 4, .bn_hi = 5, .bk_lo = 4, .bk_hi = 5, .max_mn = 48,
                       .max_T = 4, .group = 1, .work = 1 << 16};
    mm_shape s;
    mm_gen_2d(p, c, map, &o, &d2, &s);
}
/* certify --shape production: K a multiple of BK (hK) */
static void shape_cf(td_producer *p, td_case *c, const td_shape *ps) {
    mm_shape s;
    mm_gen_2d_shape(p, c, map_cf, &d2, ps, 1, &s);
}
static void shape_io(td_producer *p, td_case *c, const td_shape *ps) {
    mm_shape s;
    mm_gen_2d_shape(p, c, map_io, &d2, ps, 1, &s);
}
static void gen_cf(td_producer *p, td_case *c) { gen_with(p, c, map_cf); }
static void far_cf(td_producer *p, td_case *c) { mm_far_2d(p, c, map_cf, &d2); }
static void far_io(td_producer *p, td_case *c) { mm_far_2d(p, c, map_io, &d2); }
static void gen_io(td_producer *p, td_case *c) { gen_with(p, c, map_io); }

static const char *check_with(const td_case *c, const int *map) {
    mm_shape s;
    const char *e = mm_check_2d(c, map, &d2, &s);
    if (e) return e;
    if (s.BK <= 0) return "BK > 0 (tl.arange(0, BLOCK_SIZE_K))";
    if (s.K != s.BK * s.T) return "hK: K = BK * numKBlocks";
    if (s.scn != 1) return "hcn: scn = 1";
    if (s.BN > s.scm) return "hBN / hbnle: BN <= scm";
    return NULL;
}
static const char *check_cf(const td_case *c) { return check_with(c, map_cf); }
static const char *check_io(const td_case *c) { return check_with(c, map_io); }

static void writes_cf(const td_case *c, td_wset *ws) {
    mm_shape s;
    mm_shape_get(c, map_cf, &s);
    mm_writes_2d(c, ws, &s, &d2);
}
static void writes_io(const td_case *c, td_wset *ws) {
    mm_shape s;
    mm_shape_get(c, map_io, &s);
    mm_writes_2d(c, ws, &s, &d2);
}

#define TM_COMMON                                                                                                  \
    .file = "triton_matmul", .family = "matmul", .kind = "rounding", .nparams = NP, .nregions = NR, .ncasts = 1,  \
    .sv = TD_SV_IEEE, .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31)
#define TM_F16                                                                                                     \
    .regions = regions_f16, .casts = cast_f16,                                                                     \
    .sv_note = "finite fp16 operands, binary32 sums finite; the fp16 store overflows to inf where the exact value " \
               "rounds there",                                                                                      \
    .error_model = "exact fp16 products, pairwise tree per BK tile, numKBlocks sequential adds; fp16 store cast"
#define TM_F8                                                                                                      \
    .regions = regions_f8, .casts = cast_f8,                                                                       \
    .sv_note = "finite e4m3 operands, binary32 sums finite; the e4m3 store saturates at +-448 (declared profile)", \
    .error_model = "exact e4m3 products, pairwise tree per BK tile, numKBlocks sequential adds; e4m3 store cast"

static const td_intent tm_cf_intent = {
    .operation = "C = A @ B",
    .definition = "torch.matmul (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]), the exact value rounded "
                  "once to C's format",
    TD_SPECS(tm_cf_intent),
};
static const td_intent tm_io_intent = {
    .operation = "C = A @ B",
    .definition = "torch.matmul (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]), the exact value rounded "
                  "once to C's format",
    TD_SPECS(tm_io_intent),
};

const td_contract td_c_triton_matmul_f16_cf = {
    .id = "triton_matmul.triton_matmul_f16_closed_form_correct",
    .io_class = "ComputeCorrect over TileIndex [BM,BN] (writeIf active), MemCell.of .fp16",
    .formula = "C[scm*row + col] = fp16(sum_{k<K} A[clamp(row,M)*sam + k*sak] * B[k*sbk + clamp(col,N)*sbn])",
    .params = params_cf, .gen = gen_cf, .far = far_cf, .gen_shape = shape_cf, .check = check_cf, .writes = writes_cf,
    TM_COMMON, TM_F16, TD_SPECS(tm_cf), .intent = &tm_cf_intent,
};
const td_contract td_c_triton_matmul_f8_cf = {
    .id = "triton_matmul.triton_matmul_f8_closed_form_correct",
    .io_class = "ComputeCorrect over TileIndex [BM,BN] (writeIf active), MemCell.of .f8e4",
    .formula = "C[scm*row + col] = e4m3(sum_{k<K} A[clamp(row,M)*sam + k*sak] * B[k*sbk + clamp(col,N)*sbn])",
    .params = params_cf, .gen = gen_cf, .far = far_cf, .gen_shape = shape_cf, .check = check_cf, .writes = writes_cf,
    TM_COMMON, TM_F8, TD_SPECS(tm_cf), .intent = &tm_cf_intent,
};
const td_contract td_c_triton_matmul_f16_io = {
    .id = "triton_matmul.triton_matmul_f16_io_correctness",
    .io_class = "StreamMasked2DKernelIO_2 (tritonMatmulF16IO), outDType .fp16",
    .formula = "C[l] = R.round(.fp16)(sum_t sum_e xs[t][aLane l e] * ys[t][bLane l e])",
    .params = params_io, .gen = gen_io, .far = far_io, .gen_shape = shape_io, .check = check_io, .writes = writes_io,
    TM_COMMON, TM_F16, TD_SPECS(tm_io), .intent = &tm_io_intent,
};
const td_contract td_c_triton_matmul_f8_io = {
    .id = "triton_matmul.triton_matmul_f8_io_correctness",
    .io_class = "StreamMasked2DKernelIO_2 (tritonMatmulF8IO), outDType .f8e4",
    .formula = "C[l] = R.round(.f8e4)(sum_t sum_e xs[t][aLane l e] * ys[t][bLane l e])",
    .params = params_io, .gen = gen_io, .far = far_io, .gen_shape = shape_io, .check = check_io, .writes = writes_io,
    TM_COMMON, TM_F8, TD_SPECS(tm_io), .intent = &tm_io_intent,
};
