/* matmul_triton_autotune: the Triton tutorial's autotuned matmul with the optional
 * leaky_relu epilogue and an fp16 output (catalogue part 2, src lines 7400-7446).
 *
 *   matmul_autotune_closed_form_correct (hK : K = BLOCK_K*numKBlocks) (hcn : scn = 1)
 *     (hbnle : BN <= scm) (hundef): Realizes_without_Rounding, write = writeIf active
 *     (row < M & col < N) at scm*row + scn*col, expected
 *     MemCell.of .fp16 (real.cast fp16 (act ACTIVATION (sum_{k<K} A[row%M, k] B[k, col%N])))
 *   matmul_autotune_io_correctness (hK) (hcn) (hBN : BN <= scm): matmulAutotuneIO |=[R]
 *     fun _ _ xs ys l => act ACTIVATION (sum_t sum_e xs t (aLane l e) * ys t (bLane l e)),
 *     StreamMasked2DKernelIO_2 with outDType .fp16, T = numKBlocks,
 *     read1 = ((pidM*BM + l/BK) % M)*sam + (t*BK + l%BK)*sak,
 *     read2 = (t*BK + l/BN)*sbk + ((pidN*BN + l%BN) % N)*sbn,
 *     write = scm*(pidM*BM + l/BN) + scn*(pidN*BN + l%BN),
 *     mask1/mask2: t*BK + e < K (always true under hK), writeMask: row < M & col < N.
 *
 * Kernel (bench/tritonbench_g/matmul_triton_autotune/matmul_triton_autotune.py):
 * tutorial order pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
 * (pidM/pidN of MatmulTritonAutotune.lean), loads wrapped with % M / % N, the fused
 * `accumulator = tl.dot(a, b, accumulator)`, `leaky_relu` = tl.where(x >= 0, x,
 * 0.01*x) when ACTIVATION == "leaky_relu" (the Lean surface's ACTIVATION : Bool),
 * `accumulator.to(tl.float16)`, masked store.  act/leakyReLU in the Lean file:
 * act true = leakyReLU (x >= 0 -> x, else 0.01*x), act false = id; checked.
 *
 * Dtypes: A, B, C fp16 (the wrapper's test: fp16 inputs, fp16 output).
 * The fp16 store: the IO contract rounds once at outDType .fp16 with R; the closed
 * form's `FloatDType.real.cast .fp16` is, in VeriTile's exact semantics, the identity
 * placeholder (Scalar.lean: cast = ofWithBot . toWithBot), i.e. the closed form is the
 * R = triv reading, which no real fp16 store can meet (it claims the unrounded sum).
 * tilediff checks both as the store the kernel performs: cast slot "store",
 * default fp16:rne:inf (`.to(tl.float16)` = cvt.rn.f16.f32: round to nearest even,
 * overflow to inf).  A kernel declaring another profile is checked under its own.
 * Error model: contracts/matmul_common.h (exact fp16 products, pairwise tree per
 * tile, numKBlocks sequential adds), then leaky_relu as the kernel evaluates it
 * (binary32 0.01, one rounding; the x >= 0 branch is decided on the kernel's value,
 * both branches covered where the sum is within its error of 0), then the fp16 cast
 * of the interval (exact unless the interval straddles an fp16 rounding boundary).
 * Special values: finite fp16 operands; the binary32 sums stay finite; the fp16 store
 * may overflow to inf where the exact value rounds to inf (IEEE policy).
 */
#include "matmul_common.h"

/* closed form: (M N BM BN GM sam sak sbk sbn scm scn BLOCK_K numKBlocks) (K) (ACTIVATION) */
enum { PC_M, PC_N, PC_BM, PC_BN, PC_GM, PC_SAM, PC_SAK, PC_SBK, PC_SBN, PC_SCM, PC_SCN, PC_BK, PC_NKB, PC_K, PC_ACT, NP };
/* IO: (M N K sam sak sbk sbn scm scn BM BN BK GM numKBlocks) (ACTIVATION) */
enum { PI_M, PI_N, PI_K, PI_SAM, PI_SAK, PI_SBK, PI_SBN, PI_SCM, PI_SCN, PI_BM, PI_BN, PI_BK, PI_GM, PI_NKB, PI_ACT };
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
static const mm_2d d2 = {MM_SWZ_TUTORIAL, MM_IDX_WRAP, MM_IDX_WRAP, R_A, R_B, R_C};

#define TD_SPEC_FILE "matmul_triton_autotune.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_cf[NP] = {
    {"M", TD_P_INT},   {"N", TD_P_INT},   {"BM", TD_P_INT},      {"BN", TD_P_INT},         {"GM", TD_P_INT},
    {"sam", TD_P_INT}, {"sak", TD_P_INT}, {"sbk", TD_P_INT},     {"sbn", TD_P_INT},        {"scm", TD_P_INT},
    {"scn", TD_P_INT}, {"BLOCK_K", TD_P_INT}, {"numKBlocks", TD_P_INT}, {"K", TD_P_INT}, {"ACTIVATION", TD_P_BOOL}};
static const td_param_decl params_io[NP] = {
    {"M", TD_P_INT},   {"N", TD_P_INT},   {"K", TD_P_INT},   {"sam", TD_P_INT}, {"sak", TD_P_INT},
    {"sbk", TD_P_INT}, {"sbn", TD_P_INT}, {"scm", TD_P_INT}, {"scn", TD_P_INT}, {"BM", TD_P_INT},
    {"BN", TD_P_INT},  {"BK", TD_P_INT},  {"GM", TD_P_INT},  {"numKBlocks", TD_P_INT}, {"ACTIVATION", TD_P_BOOL}};
static const td_region_decl regions[NR] = {
    {"A", TD_F16, TD_R_IN}, {"B", TD_F16, TD_R_IN}, {"C", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "fp16:rne:inf", "accumulator.to(tl.float16) before the masked store (outDType .fp16)"}};

static void gen_with(td_producer *p, td_case *c, const int *map, int act) {
    mm_shape_opts o = {.bm_lo = 4, .bm_hi = 5, .bn_lo = 4, .bn_hi = 5, .bk_lo = 4, .bk_hi = 5, .max_mn = 48,
                       .max_T = 4, .group = 1, .work = 1 << 16};
    mm_shape s;
    mm_gen_2d(p, c, map, &o, &d2, &s);
    c->p[act].i = td_prod_bool(p);
}
static void gen_cf(td_producer *p, td_case *c) { gen_with(p, c, map_cf, PC_ACT); }
static void gen_io(td_producer *p, td_case *c) { gen_with(p, c, map_io, PI_ACT); }
/* offsets beyond 2^31 (gen_far.h): A's first rows at a stride_am near 2^31 */
static void far_cf(td_producer *p, td_case *c) { mm_far_2d(p, c, map_cf, &d2); }
static void far_io(td_producer *p, td_case *c) { mm_far_2d(p, c, map_io, &d2); }

static const char *check_with(const td_case *c, const int *map, int act) {
    mm_shape s;
    const char *e = mm_check_2d(c, map, &d2, &s);
    if (e) return e;
    if (s.BK <= 0) return "BK > 0 (tl.arange(0, BLOCK_SIZE_K))";
    if (s.K != s.BK * s.T) return "hK: K = BK * numKBlocks";
    if (s.scn != 1) return "hcn: scn = 1";
    if (s.BN > s.scm) return "hBN: BN <= scm";
    if (c->p[act].i != 0 && c->p[act].i != 1) return "ACTIVATION : Bool";
    return NULL;
}
static const char *check_cf(const td_case *c) { return check_with(c, map_cf, PC_ACT); }
static const char *check_io(const td_case *c) { return check_with(c, map_io, PI_ACT); }

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

#define AT_COMMON                                                                                                  \
    .file = "matmul_triton_autotune", .family = "matmul", .kind = "rounding", .nparams = NP, .nregions = NR,      \
    .regions = regions, .ncasts = 1, .casts = casts, .sv = TD_SV_IEEE,                                             \
    .sv_note = "finite fp16 operands, binary32 sums finite; the fp16 store overflows to inf where the exact value " \
               "rounds there",                                                                                      \
    .error_model = "exact fp16 products, pairwise tree per BK tile, numKBlocks sequential adds; leaky_relu with "  \
                   "binary32 0.01; fp16 store cast",                                                               \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31)

static const td_intent at_cf_intent = {
    .operation = "C = leaky_relu(A @ B, 0.01) if ACTIVATION else A @ B",
    .definition = "torch.matmul and torch.nn.functional.leaky_relu(negative_slope=0.01) (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]), the exact value rounded "
                  "once to C's format",
    TD_SPECS(autotune_cf_intent),
};
static const td_intent at_io_intent = {
    .operation = "C = leaky_relu(A @ B, 0.01) if ACTIVATION else A @ B",
    .definition = "torch.matmul and torch.nn.functional.leaky_relu(negative_slope=0.01) (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]), the exact value rounded "
                  "once to C's format",
    TD_SPECS(autotune_io_intent),
};

const td_contract td_c_matmul_autotune_cf = {
    .id = "matmul_triton_autotune.matmul_autotune_closed_form_correct",
    .io_class = "ComputeCorrect over TileIndex [BM,BN] (writeIf active), MemCell.of .fp16",
    .formula = "C[scm*row + col] = fp16(act(sum_{k<K} A[(row%M)*sam + k*sak] * B[k*sbk + (col%N)*sbn]))",
    .params = params_cf,
    .gen = gen_cf,
    .far = far_cf,
    .check = check_cf,
    .writes = writes_cf,
    AT_COMMON,
    TD_SPECS(autotune_cf),
    .intent = &at_cf_intent,
};

const td_contract td_c_matmul_autotune_io = {
    .id = "matmul_triton_autotune.matmul_autotune_io_correctness",
    .io_class = "StreamMasked2DKernelIO_2 (matmulAutotuneIO), outDType .fp16",
    .formula = "C[l] = R.round(.fp16)(act(sum_t sum_e xs[t][aLane l e] * ys[t][bLane l e]))",
    .params = params_io,
    .gen = gen_io,
    .far = far_io,
    .check = check_io,
    .writes = writes_io,
    AT_COMMON,
    TD_SPECS(autotune_io),
    .intent = &at_io_intent,
};
