/* int_scaled_matmul: torchao's int8 GEMMs, the plain int32 one and the row-scaled one
 * (catalogue part 2, src lines 5576-5622).
 *
 *   int_scaled_matmul_matmul_exec_genuine (hBK : 0 < BK) (hInj : mmCAddr injective over
 *     the tile): for every lane with row = mmPidM*BM + i < M, col = mmPidN*BN + j < N,
 *       C[row*scm + col*scn] = MemCell.of .int (mmSpec row col),
 *       mmSpec = sum_{k<K} a[row*sam + k*sak] * b[k*sbk + col*sbn].
 *   int_scaled_matmul_scaled_exec_genuine (hCeil : K <= numKBlocks*BK) (hEven : EVEN_K ->
 *     K = numKBlocks*BK): for every lane with row < M, col < N,
 *       C[row*N + col] = MemCell.of .real ((smSpec row col : Z) * s1[row]),
 *     smSpec the same integer sum; the C address ignores stride_cm/cn (smCAddr N) and
 *     s1's address ignores stride_s1m/s1n (the kernel's inductor-generated suffix).
 *   Both: the grouped order pid_m = group_id*GM + pid % group_size.
 *
 * The [named]/[mixed] readings: the VeriTile mirror holds no source or Lean file for
 * this kernel file (only a README), so the readings were checked against the kernels
 * the catalogue's parameter lists name: torchao's intmm_triton.py,
 * matmul_kernel_with_block_pointers (block pointers with boundary_check=(0, 1): A, B
 * zero-padded outside [M, K] / [K, N], an int32 accumulator of int8 tl.dot steps over
 * range(0, K, BK), the boundary-checked int32 store) and
 * scaled_matmul_kernel_with_block_pointers (ram = rm % M, rbn = rn % N, the K loop
 * `for k in range(K, 0, -BK)` with the loads masked by rk < k unless EVEN_K, an
 * ACC_TYPE = int32 accumulator, then `acc * tl.load(s1_ptr + idx_m)` stored at
 * c_ptr + idx_n + N*idx_m under the M/N mask).  Both statements match those kernels.
 * The scaled output's dtype is scales1's; the contract takes binary32 scales and C
 * (the torch.float32 case).
 *
 * Preconditions beyond the statements: a and b int8 (the wrapper's torch.int8);
 * hOvf: 16384 * K < 2^31 (every int8 product lies in [-16256, 16384], so every exact
 * sum fits int32 and the accumulator returns it in any order: contracts/imm_common.h);
 * finite binary32 scales, |s| < 16.
 * Error model: matmul: none, the int32 result is checked exactly (tolerance 0).
 * scaled: the int32 -> binary32 conversion of `acc * tmp0` (u|acc| where |acc| > 2^24,
 * exact below; charged as a rounding the kernel makes and the .real statement does
 * not, N(kround_to)), then one binary32 product, u|acc*s| (Higham 2.2).
 * Special values: none reachable (|acc * s| < 2^35).
 */
#include "imm_common.h"

/* matmul: (M N K sam sak sbk sbn scm scn BM BN BK GM) */
enum { PM_M, PM_N, PM_K, PM_SAM, PM_SAK, PM_SBK, PM_SBN, PM_SCM, PM_SCN, PM_BM, PM_BN, PM_BK, PM_GM, NPM };
/* scaled: (M N K sam sak sbk sbn scm scn s1m s1n BM BN BK GM EVEN_K numKBlocks) */
enum { PS_M, PS_N, PS_K, PS_SAM, PS_SAK, PS_SBK, PS_SBN, PS_SCM, PS_SCN, PS_S1M, PS_S1N, PS_BM, PS_BN, PS_BK, PS_GM,
       PS_EVEN, PS_NKB, NPS };
enum { R_A, R_B, R_C, R_S1, NRS };
#define NRM 3
#define ISM_MAX_K ((1 << 17) - 1) /* hOvf: 16384 * K < 2^31 */

static const int map_mm[MMF_COUNT] = {
    [MMF_M] = PM_M,     [MMF_N] = PM_N,     [MMF_K] = PM_K,     [MMF_BM] = PM_BM,   [MMF_BN] = PM_BN,
    [MMF_BK] = PM_BK,   [MMF_T] = -1,       [MMF_GM] = PM_GM,   [MMF_SAM] = PM_SAM, [MMF_SAK] = PM_SAK,
    [MMF_SBK] = PM_SBK, [MMF_SBN] = PM_SBN, [MMF_SCM] = PM_SCM, [MMF_SCN] = PM_SCN};
static const int map_sc[MMF_COUNT] = {
    [MMF_M] = PS_M,     [MMF_N] = PS_N,     [MMF_K] = PS_K,     [MMF_BM] = PS_BM,   [MMF_BN] = PS_BN,
    [MMF_BK] = PS_BK,   [MMF_T] = PS_NKB,   [MMF_GM] = PS_GM,   [MMF_SAM] = PS_SAM, [MMF_SAK] = PS_SAK,
    [MMF_SBK] = PS_SBK, [MMF_SBN] = PS_SBN, [MMF_SCM] = PS_SCM, [MMF_SCN] = PS_SCN};
/* the plain kernel reads rows < M and columns < N only (boundary_check); the scaled
 * one wraps them (rm % M, rn % N): the same cells */
static const mm_2d d_mm = {MM_SWZ_SIMPLE, MM_IDX_WRAP, MM_IDX_WRAP, R_A, R_B, R_C};
static const td_profile ism_f32 = {TD_F32, TD_RNE, TD_OVF_INF, false};

#define TD_SPEC_FILE "int_scaled_matmul.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_mm[NPM] = {
    {"M", TD_P_INT},         {"N", TD_P_INT},         {"K", TD_P_INT},         {"stride_am", TD_P_INT},
    {"stride_ak", TD_P_INT}, {"stride_bk", TD_P_INT}, {"stride_bn", TD_P_INT}, {"stride_cm", TD_P_INT},
    {"stride_cn", TD_P_INT}, {"BM", TD_P_INT},        {"BN", TD_P_INT},        {"BK", TD_P_INT},
    {"GM", TD_P_INT}};
static const td_param_decl params_sc[NPS] = {
    {"M", TD_P_INT},          {"N", TD_P_INT},          {"K", TD_P_INT},          {"stride_am", TD_P_INT},
    {"stride_ak", TD_P_INT},  {"stride_bk", TD_P_INT},  {"stride_bn", TD_P_INT},  {"stride_cm", TD_P_INT},
    {"stride_cn", TD_P_INT},  {"stride_s1m", TD_P_INT}, {"stride_s1n", TD_P_INT}, {"BM", TD_P_INT},
    {"BN", TD_P_INT},         {"BK", TD_P_INT},         {"GM", TD_P_INT},         {"EVEN_K", TD_P_BOOL},
    {"numKBlocks", TD_P_INT}};
static const td_region_decl regions_mm[NRM] = {
    {"a_ptr", TD_I8, TD_R_IN}, {"b_ptr", TD_I8, TD_R_IN}, {"c_ptr", TD_I32, TD_R_OUT}};
static const td_region_decl regions_sc[NRS] = {
    {"a_ptr", TD_I8, TD_R_IN}, {"b_ptr", TD_I8, TD_R_IN}, {"c_ptr", TD_F32, TD_R_OUT}, {"s1_ptr", TD_F32, TD_R_IN}};

/* acc-near-int32-limit: one lane, K = 2^17 - 1 - r (r < BK, so K % BK varies), a and b
 * in [-128, -121] (products in [14641, 16384], arbitrary integers, so partial sums past
 * 2^24 are not binary32 values), the sum 89% .. 100% of 2^31. */
static void ism_near_limit(td_producer *p, td_case *c, td_rng *r, mm_shape *s) {
    s->M = s->N = s->BM = s->BN = s->GM = 1;
    s->BK = td_gen_pow2(p, 8, 12);
    s->K = ISM_MAX_K - (int64_t)td_prod_u32(p, 0, (uint32_t)s->BK - 1), s->T = mm_cdiv(s->K, s->BK);
    s->sam = s->K, s->sak = 1, s->sbk = 1, s->sbn = 1, s->scm = 1, s->scn = 1;
    int8_t *a = td_case_alloc(c, R_A, (size_t)s->K), *b = td_case_alloc(c, R_B, (size_t)s->K);
    for (int64_t k = 0; k < s->K; k++) {
        uint64_t x = td_rng_next(r);
        a[k] = (int8_t)(-128 + (int)(x & 7));
        b[k] = (int8_t)(-128 + (int)((x >> 3) & 7));
    }
    c->classes |= TD_BC(TD_BC_ACC_NEAR_LIMIT) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) |
                  TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_VALUES_LARGE);
    if (s->K % s->BK) c->classes |= TD_BC(TD_BC_TAIL);
}

/* Shape, grid and int8 operands of either theorem (K tails allowed: both kernels mask or
 * boundary-check the last K block). */
static void ism_gen_operands(td_producer *p, td_case *c, td_rng *r, mm_shape *s) {
    if (td_prod_u32(p, 0, 63) == 0) {
        ism_near_limit(p, c, r, s);
        return;
    }
    mm_shape_opts o = {.bm_lo = 0, .bm_hi = 4, .bn_lo = 0, .bn_hi = 4, .bk_lo = 0, .bk_hi = 5, .max_mn = 40,
                       .k_tail = 1, .max_T = 4, .c_any = 1, .group = 1, .work = 1 << 15};
    mm_gen_shape(p, c, &o, 0, s);
    s->T = mm_cdiv(s->K, s->BK);
    /* mm_gen_shape spaces rows by the padded K extent; the kernels read K columns */
    int ma = imm_pick_mode(p), mb = imm_pick_mode(p);
    if (ma == IMM_V_EDGES || mb == IMM_V_EDGES) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
    td_case_alloc(c, R_A, mm_span(s->M, s->K, s->sam, s->sak));
    td_case_alloc(c, R_B, mm_span(s->K, s->N, s->sbk, s->sbn));
    imm_fill_i8_view(r, c, R_A, s->M, s->K, s->sam, s->sak, ma);
    imm_fill_i8_view(r, c, R_B, s->K, s->N, s->sbk, s->sbn, mb);
}

static void gen_mm(td_producer *p, td_case *c) {
    td_rng r;
    c->seed = td_prod_u64(p);
    td_rng_seed(&r, c->seed);
    mm_shape s;
    memset(&s, 0, sizeof s);
    ism_gen_operands(p, c, &r, &s);
    mm_shape_put(c, map_mm, &s);
    c->grid[0] = (uint32_t)(mm_cdiv(s.M, s.BM) * mm_cdiv(s.N, s.BN));
    td_case_alloc(c, R_C, mm_span(s.M, s.N, s.scm, s.scn) + (td_prod_bool(p) ? (size_t)s.BN : 0));
}

static void gen_sc(td_producer *p, td_case *c) {
    td_rng r;
    c->seed = td_prod_u64(p);
    td_rng_seed(&r, c->seed);
    mm_shape s;
    memset(&s, 0, sizeof s);
    ism_gen_operands(p, c, &r, &s);
    /* the kernel stores at n + N*m: C row-major contiguous; stride_cm/cn are passed
     * (as the wrapper does) but not used */
    s.scm = s.N, s.scn = 1;
    mm_shape_put(c, map_sc, &s);
    c->p[PS_S1M].i = 1, c->p[PS_S1N].i = 0; /* the test's scales1 (1, M) with strides (1, 0) */
    c->p[PS_EVEN].i = s.K % s.BK == 0 && td_prod_bool(p);
    c->grid[0] = (uint32_t)(mm_cdiv(s.M, s.BM) * mm_cdiv(s.N, s.BN));
    imm_fill_scales(p, c, &r, R_S1, s.M, 1);
    td_case_alloc(c, R_C, (size_t)(s.M * s.N) + (td_prod_bool(p) ? (size_t)s.BN : 0));
}

static const char *check_ops(const td_case *c, const int *map, mm_shape *s) {
    const char *e = mm_check_2d(c, map, &d_mm, s);
    if (e) return e;
    if (s->BK <= 0) return "hBK: 0 < BK";
    if (s->K <= 0) return "K > 0";
    if (s->K > ISM_MAX_K) return "hOvf: 16384 * K < 2^31 (the int32 accumulator cannot overflow)";
    return NULL;
}

static const char *check_mm(const td_case *c) {
    mm_shape s;
    return check_ops(c, map_mm, &s);
}

static const char *check_sc(const td_case *c) {
    mm_shape s;
    const char *e = check_ops(c, map_sc, &s);
    if (e) return e;
    if (s.K > s.T * s.BK) return "hCeil: K <= numKBlocks * BK";
    if (c->p[PS_EVEN].i && s.K != s.T * s.BK) return "hEven: EVEN_K -> K = numKBlocks * BK";
    if (c->p[PS_S1M].i < 0 || c->p[PS_S1N].i < 0) return "parameters are Nat";
    if (c->r[R_C].len < (size_t)(s.M * s.N)) return "c holds M*N cells (stored at n + N*m)";
    if (c->r[R_S1].len < (size_t)s.M || !imm_scales_ok(c, R_S1)) return "s1 holds M finite scales, |s| < 16";
    return NULL;
}

/* Offsets beyond 2^31: a's rows at a stride_am near 2^31 (mm_far_2d; the plain kernel
 * reads rows < M, the scaled one wraps them at % M: either way the moved rows).  The
 * scaled kernel forms ram[:, None] * stride_am in int32 (Triton's default); the plain
 * one's block pointers address in int64.  The acc-near-limit draw has one row. */
static void far_mm(td_producer *p, td_case *c) { mm_far_2d(p, c, map_mm, &d_mm); }
static void far_sc(td_producer *p, td_case *c) { mm_far_2d(p, c, map_sc, &d_mm); }

static void writes_mm(const td_case *c, td_wset *ws) {
    mm_shape s;
    mm_shape_get(c, map_mm, &s);
    mm_writes_2d(c, ws, &s, &d_mm);
}
static void writes_sc(const td_case *c, td_wset *ws) {
    mm_shape s;
    mm_shape_get(c, map_sc, &s);
    s.scm = s.N, s.scn = 1; /* smCAddr: n + N*m */
    mm_writes_2d(c, ws, &s, &d_mm);
}

static const td_intent ism_mm_intent = {
    .operation = "C = A @ B, int8 operands, int32 out",
    .definition = "torch._int_mm (PyTorch documentation: int8 x int8 -> int32 matrix product), exact",
    TD_SPECS(ism_mm_intent),
};
static const td_intent ism_sc_intent = {
    .operation = "C = (A @ B) * scales1[:, None]",
    .definition = "torchao int_scaled_matmul: torch._int_mm(a, b) * scales1 (row-wise), rounded once to C's format",
    TD_SPECS(ism_sc_intent),
};

#define ISM_CLASSES                                                                                                \
    (TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_ACC_NEAR_LIMIT) | TD_BC(TD_BC_OFFSET_2_31))

const td_contract td_c_int_scaled_matmul_mm = {
    .id = "int_scaled_matmul.int_scaled_matmul_matmul_exec_genuine",
    .file = "int_scaled_matmul", .family = "matmul", .kind = "exact",
    .io_class = "exec-existential over TileIndex [BM,BN] (block pointers), MemCell.of .int",
    .formula = "C[row*scm + col*scn] = sum_{k<K} a[row*sam + k*sak] * b[k*sbk + col*sbn]",
    .nparams = NPM, .params = params_mm, .nregions = NRM, .regions = regions_mm, .sv = TD_SV_REAL,
    .sv_note = "int8 operands and an int32 result; 16384*K < 2^31 so no sum overflows (reached in "
               "acc-near-int32-limit)",
    .error_model = "exact: integer products and an int32 sum in any order (tolerance 0)",
    .classes = ISM_CLASSES, .gen = gen_mm, .far = far_mm, .check = check_mm, .writes = writes_mm,
    TD_SPECS(ism_mm), .intent = &ism_mm_intent,
};

const td_contract td_c_int_scaled_matmul_sc = {
    .id = "int_scaled_matmul.int_scaled_matmul_scaled_exec_genuine",
    .file = "int_scaled_matmul", .family = "matmul", .kind = "exact",
    .io_class = "exec-existential over TileIndex [BM,BN], MemCell.of .real",
    .formula = "C[row*N + col] = (sum_{k<K} a[row*sam + k*sak] * b[k*sbk + col*sbn]) * s1[row]",
    .nparams = NPS, .params = params_sc, .nregions = NRS, .regions = regions_sc, .sv = TD_SV_REAL,
    .sv_note = "int8 operands, exact int32 sum (16384*K < 2^31), finite scales |s| < 16: the product is finite",
    .error_model = "exact int32 sum; its binary32 conversion above 2^24; one binary32 product",
    .classes = ISM_CLASSES, .gen = gen_sc, .far = far_sc, .check = check_sc, .writes = writes_sc,
    TD_SPECS(ism_sc), .intent = &ism_sc_intent,
};
