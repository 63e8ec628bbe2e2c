/* matmul_triton2: the grouped-order GEMM (catalogue part 2, src lines 7348-7399).
 *
 *   matmul_triton2_output_summary_general (hBK : 0 < BK) (hInj : cOffset injective) (hundef):
 *     lowering exists and, for every active lane (row < M, col < N) of program s,
 *     C[cOffset] = matmulSpec = sum_{k < BK*numKBlocks} A[row*SAM + k*SAK] * B[k*SBK + col*SBN]
 *   matmul_triton2_io_correctness (hBK) (hcn : SCN = 1) (hBN : BN <= SCM):
 *     matmulTriton2IO ... |=[R] fun _ _ xs ys l => sum_t sum_e xs t (aLane l e) * ys t (bLane l e)
 *     StreamMasked2DKernelIO_2, T = numKBlocks, B1 = BM*BK, B2 = BK*BN, C = BM*BN,
 *     read1 = (pidMAt p0*BM + l/BK)*SAM + (t*BK + l%BK)*SAK,
 *     read2 = (t*BK + l/BN)*SBK + (pidNAt p0*BN + l%BN)*SBN,
 *     write = (pidMAt*BM + l/BN)*SCM + (pidNAt*BN + l%BN)*SCN,
 *     mask1 = mask2 = (t*BK + e < BK*numKBlocks) (always true), writeMask = row < M & col < N.
 *
 * Kernel (bench/tritonbench_g/matmul_triton2/matmul_triton2.py, matmul_kernel): the
 * grouped order with pid_m = first_pid_m + pid % group_size_m (not the tutorial's
 * (pid % num_pid_in_group) % group_size_m; both are bijections on the grid, and
 * pidMAt/pidNAt in MatmulTriton2.lean transcribe this one: MM_SWZ_SIMPLE), rows and
 * columns NOT wrapped (the loads of a partial tile read rows up to
 * cdiv(M,BM)*BM - 1 and columns up to cdiv(N,BN)*BN - 1: the IO's read windows, which
 * the allocation must hold, so the generator allocates them), the K loop
 * `accumulator += tl.dot(a, b)` with the K-tail masks (vacuous: K = BK*numKBlocks),
 * and the masked binary32 store.  matmulSpec (the summary) and the streamed sum (IO)
 * are the same sum over k < K; checked against both Lean definitions.
 *
 * Dtypes: A and B are fp16, C binary32.  The Python wrapper passes fp32 A/B and
 * allocates C like A; tl.dot on fp32 operands defaults to TF32 on sm_80+, which
 * rounds the operands to 10-bit significands and would be far outside a binary32
 * model of the contract's real sum.  The kernel is dtype-generic: with fp16 operands
 * tl.dot multiplies exactly and accumulates in binary32, and C binary32 is the
 * contract's `.real` store (⊨[R] with the IO class's default outDType .real: execR
 * stores .real exactly, R never rounds it), so there is no cast slot.
 * Error model: contracts/matmul_common.h (exact products, pairwise tree per BK tile,
 * numKBlocks sequential accumulations).
 * Special values: finite inputs bounded so that every partial sum stays far below the
 * binary32 overflow threshold (|a|, |b| <= 65504, K <= 128): the exact sum is finite.
 */
#include "matmul_common.h"

enum { P_M, P_N, P_BM, P_BN, P_GM, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BK, P_NKB, NP };
enum { R_A, R_B, R_C, NR };

static const int map[MMF_COUNT] = {
    [MMF_M] = P_M,     [MMF_N] = P_N,     [MMF_K] = -1,      [MMF_BM] = P_BM,   [MMF_BN] = P_BN,
    [MMF_BK] = P_BK,   [MMF_T] = P_NKB,   [MMF_GM] = P_GM,   [MMF_SAM] = P_SAM, [MMF_SAK] = P_SAK,
    [MMF_SBK] = P_SBK, [MMF_SBN] = P_SBN, [MMF_SCM] = P_SCM, [MMF_SCN] = P_SCN};
static const mm_2d d2 = {MM_SWZ_SIMPLE, MM_IDX_RAW, MM_IDX_RAW, R_A, R_B, R_C};

#define TD_SPEC_FILE "matmul_triton2.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"M", TD_P_INT},   {"N", TD_P_INT},   {"BM", TD_P_INT},  {"BN", TD_P_INT},  {"GM", TD_P_INT},
    {"SAM", TD_P_INT}, {"SAK", TD_P_INT}, {"SBK", TD_P_INT}, {"SBN", TD_P_INT}, {"SCM", TD_P_INT},
    {"SCN", TD_P_INT}, {"BK", TD_P_INT},  {"numKBlocks", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"A", TD_F16, TD_R_IN}, {"B", TD_F16, TD_R_IN}, {"C", TD_F32, TD_R_OUT}};

static void gen_with(td_producer *p, td_case *c, int c_any) {
    mm_shape_opts o = {.bm_lo = 4, .bm_hi = 5, .bn_lo = 4, .bn_hi = 5, .bk_lo = 4, .bk_hi = 5, .max_mn = 48,
                       .max_T = 4, .c_any = c_any, .group = 1, .work = 1 << 16};
    mm_shape s;
    mm_gen_2d(p, c, map, &o, &d2, &s);
}
static void gen_summary(td_producer *p, td_case *c) { gen_with(p, c, 1); }
static void gen_io(td_producer *p, td_case *c) { gen_with(p, c, 0); }
/* Offsets beyond 2^31 (gen_far.h): the loads read every raw row of a tile (no row
 * mask or wrap), so one row of tiles keeps its BM rows of A, at a stride_am whose last
 * row lands 2^31 elements in (mm_far_tile), as offs_am[:, None] * stride_am, int32 in
 * Triton, gets wrong. */
static void far(td_producer *p, td_case *c) { mm_far_tile(p, c, map, &d2); }

static const char *check_common(const td_case *c, mm_shape *s) {
    const char *e = mm_check_2d(c, map, &d2, s);
    if (e) return e;
    if (s->BK <= 0) return "hBK: 0 < BK";
    return NULL;
}
static const char *check_summary(const td_case *c) {
    mm_shape s;
    const char *e = check_common(c, &s);
    if (e) return e;
    if (!mm_tile_injective(s.BM, s.BN, s.scm, s.scn)) return "hInj: cOffset injective";
    return NULL;
}
static const char *check_io(const td_case *c) {
    mm_shape s;
    const char *e = check_common(c, &s);
    if (e) return e;
    if (s.scn != 1) return "hcn: SCN = 1";
    if (s.BN > s.scm) return "hBN: BN <= SCM";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    mm_shape s;
    mm_shape_get(c, map, &s);
    mm_writes_2d(c, ws, &s, &d2);
}

#define MT2_COMMON                                                                                                  \
    .file = "matmul_triton2", .family = "matmul", .nparams = NP, .params = params, .nregions = NR,                 \
    .regions = regions, .sv = TD_SV_IEEE,                                                                           \
    .sv_note = "finite fp16 operands: the exact sum and every binary32 partial sum stay finite",                   \
    .error_model = "exact fp16 products; pairwise tree per BK tile (gamma_log2(BK)); numKBlocks sequential adds",   \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31), .far = far,              \
    .writes = writes

static const td_intent mt2_intent = {
    .operation = "C = A @ B",
    .definition = "torch.matmul (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]), the exact value rounded "
                  "once to C's format",
    TD_SPECS(mt2_intent),
};

const td_contract td_c_matmul_triton2_summary = {
    .id = "matmul_triton2.matmul_triton2_output_summary_general",
    .io_class = "ComputeCorrect over TileIndex [BM,BN] (writeIf active)",
    .kind = "exact",
    .formula = "C[row*SCM + col*SCN] = sum_{k < BK*numKBlocks} A[row*SAM + k*SAK] * B[k*SBK + col*SBN]",
    .gen = gen_summary,
    .check = check_summary,
    MT2_COMMON,
    TD_SPECS(mt2),
    .intent = &mt2_intent,
};

const td_contract td_c_matmul_triton2_io = {
    .id = "matmul_triton2.matmul_triton2_io_correctness",
    .io_class = "StreamMasked2DKernelIO_2 (matmulTriton2IO), outDType .real",
    .kind = "rounding",
    .formula = "C[l] = sum_t sum_e xs[t][aLane l e] * ys[t][bLane l e]  (the .real store is exact)",
    .gen = gen_io,
    .check = check_io,
    MT2_COMMON,
    TD_SPECS(mt2),
    .intent = &mt2_intent,
};
