/* int8_matmul_quantization: per-row int8 quantization and the int8 GEMM that consumes it
 * (catalogue part 1, src lines 5492-5549).
 *
 *   int8_matmul_quantization_quantize_exec_genuine (hBK : 0 < BK) (hK : K <= numKBlocks*BK)
 *     (hFit : pid0*BM + BM <= M) (hFpaNe, hAsNe: distinct regions) (hInj : (r, k) ->
 *     (pid0*BM + r)*stride_am + k*stride_ak injective): for r < BM, k < K, row = pid0*BM + r,
 *       a[row*sam + k*sak]     = MemCell.of .int (qInt8Spec row k) = trunc(fpa[row, k] / qScaleSpec row),
 *       as[pid0*BM*sasm + r]   = MemCell.of .fp16 (fp16 (qScaleSpec row)),
 *       qScaleSpec row = max(0, max_{k<K} |fpa[row*sfm + k*sfk]|) / 127.
 *   int8_matmul_quantization_matmul_exec_genuine (hK : K <= numKBlocks*BK) (hpid1 : pid1 = 0)
 *     (hInj : mmCAddr injective): for every lane with row < M, col < N (grouped order,
 *     pid_m = first_pid_m + pid % group_size_m),
 *       C[scm*row + scn*col] = MemCell.of .fp16 (fp16 ((sum_{j<K} A[row, j] * B[j, col] : Z) * as[row*sasm] * bs[col*sbsn])).
 *
 * The [named] reading, checked against the original (VeriTile
 * bench/tritonbench_g/int8_matmul_quantization/int8_matmul_quantization.py,
 * quantize_int8_perrow_kernel and matmul_kernel, and Int8MatmulQuantization.lean:
 * qMaxPartial, qScaleSpec, qInt8Spec, the headlines).  The catalogue row glosses
 * qInt8Spec as "round(127*x/max) (mathematical round)": that is NOT the definition.
 * qInt8Spec is tritonTruncTowardZero (fpa / qScaleSpec) -- the kernel's
 * `(fpa / a_scale[:, None]).to(tl.int8)` is an fptosi, truncation toward zero -- and the
 * divisor is the scale a_max / 127, not 127 / a_max.  The contract checks the
 * definition: cast slot "store" int8:rtz:sat of the quotient.  The row max is seeded
 * with 0 (tl.zeros) over the K-masked blocks (other = 0), so it is max(0, max |x|):
 * exact.  a_scale is the binary32 a_max / 127 (the division the kernel makes; the Lean
 * model's reals erase it) and is stored through the host's float16 a_scale tensor:
 * cast slot "scale" fp16:rne:inf of that quotient.  The row window (pid*BM + r) % M
 * is the identity under hFit (the host launches M // BM programs), the stores are
 * row-unmasked, the as offsets pid*BM*stride_asm + r ignore stride_asm for r (as the
 * source does).  The int8 store: the quotient lies in [-127 (1 + 2u)^2, ...] so
 * saturation never acts (the Lean unbounded .int carrier agrees); the contract still
 * names the saturating profile Triton's fptosi has.
 *
 * Zero rows (a_max = 0): the kernel divides 0 / 0 = NaN and fptosi of NaN gives 0 on
 * the GPU (PTX cvt.rzi); Lean's x / 0 = 0 gives trunc 0 = 0: the contract DEFINES 0
 * there (and the scale 0).  Domain the generator promises: finite fpa, every row's
 * a_max 0 or at least 127 * 2^-126 (so a_scale is a normal binary32 and no quotient
 * is infinite: a subnormal scale is outside what the kernel was written for).
 *
 * matmul: the SPLIT_K = 1 arm (hpid1; the atomic_add arm drops with the constexpr);
 * rows / columns loaded at % M / % N, the K loads masked by offs_k < K - k*BK (other 0,
 * so ragged K is legal: hK); `accumulator += tl.dot(a, b)` of int8 tiles into an
 * int32 accumulator; `(accumulator.to(tl.float32) * a_scale[:, None] * b_scale[None, :])
 * .to(tl.float16)` and the masked store.  The host's a_scale is float16 (kernel 1's
 * output) and b_scale float32 (quantize_int8 of the weight): as is an fp16 region, bs
 * binary32, C fp16.  A and B int8 (torch.int8).
 *
 * Error model, quantize (u = 2^-24): a_max exact (a maximum of |binary32| values);
 * a_scale = a_max / 127 one binary32 division; the quotient x / a_scale one more (or,
 * as an implementation may write it, x * (127 / a_max): N(either) of the two forms,
 * each with its own two roundings; a reciprocal-multiply x * (1 / a_scale) is covered
 * by the shadow's division rule).  The int8 store admits every integer trunc(q) for q
 * in the quotient's interval: an exact integer quotient (x = j * a_scale) straddled by
 * a rounding may truncate to j or j - 1 in correct implementations, and both pass.
 * The fp16 scale: the shadow's interval-aware cast of the binary32 quotient (double
 * rounding binary32 -> fp16 included).
 * Error model, matmul: the integer sum exact (tolerance 0; imm_common.h: hOvf
 * 16384 * K < 2^31, every int8 product in [-16256, 16384], so the int32 accumulator
 * returns the exact sum in any order, split-K included); its .to(float32) u|acc| where
 * |acc| > 2^24 (a rounding the Lean model erases: charged, N(kround_to)); the two
 * scale products, one binary32 rounding each, u|result| (Higham 2.2), in the kernel's
 * association (acc * as) * bs or acc * (as * bs) (N(either)); the fp16 store cast.
 * Special values: quantize TD_SV_IEEE (the fp16 scale overflows to inf above 65504 *
 * 127 -- the kernel stores inf, the int8 values stay defined); matmul: |acc| < 2^31,
 * |as|, |bs| < 16, so every binary32 value is finite; the fp16 store overflows to inf
 * where the value rounds there (TD_SV_IEEE).
 */
#include "imm_common.h"

/* ---- quantize: (M K sfm sfk sam sak sasm BM BK numKBlocks) ---- */
enum { Q_M, Q_K, Q_SFM, Q_SFK, Q_SAM, Q_SAK, Q_SASM, Q_BM, Q_BK, Q_NKB, Q_NP };
enum { Q_RFPA, Q_RA, Q_RAS, Q_NR };
enum { Q_C_STORE, Q_C_SCALE };
#define IMQ_MIN_AMAX (127.0 * 0x1p-126) /* a_max / 127 stays a normal binary32 */

/* ---- matmul: (M N K sam sak sasm sbk sbn sbsn scm scn BM BN BK GM numKBlocks) ---- */
enum { MI_M, MI_N, MI_K, MI_SAM, MI_SAK, MI_SASM, MI_SBK, MI_SBN, MI_SBSN, MI_SCM, MI_SCN, MI_BM, MI_BN, MI_BK, MI_GM,
       MI_NKB, MI_NP };
enum { MI_RA, MI_RAS, MI_RB, MI_RBS, MI_RC, MI_NR };
enum { MI_C_STORE };
#define IMQ_MAX_K ((1 << 17) - 1) /* hOvf: 16384 * K < 2^31 */

static const int mi_map[MMF_COUNT] = {
    [MMF_M] = MI_M,     [MMF_N] = MI_N,     [MMF_K] = MI_K,     [MMF_BM] = MI_BM,   [MMF_BN] = MI_BN,
    [MMF_BK] = MI_BK,   [MMF_T] = MI_NKB,   [MMF_GM] = MI_GM,   [MMF_SAM] = MI_SAM, [MMF_SAK] = MI_SAK,
    [MMF_SBK] = MI_SBK, [MMF_SBN] = MI_SBN, [MMF_SCM] = MI_SCM, [MMF_SCN] = MI_SCN};
static const mm_2d mi_d2 = {MM_SWZ_SIMPLE, MM_IDX_WRAP, MM_IDX_WRAP, MI_RA, MI_RB, MI_RC};
static const td_profile imq_f32 = {TD_F32, TD_RNE, TD_OVF_INF, false};

/* qMaxPartial after the K loop: max(0, |fpa[row, k]| for k < K), exact */
static double imq_rowmax(const td_case *c, int64_t row) {
    double m = 0;
    for (int64_t k = 0; k < c->p[Q_K].i; k++)
        m = fmax(m, fabs(td_get(c, Q_RFPA, (size_t)(row * c->p[Q_SFM].i + k * c->p[Q_SFK].i))));
    return m;
}

#define TD_SPEC_FILE "int8_matmul_quantization.spec.h"
#include "spec_instantiate.h"

static const td_param_decl q_params[Q_NP] = {
    {"M", TD_P_INT},         {"K", TD_P_INT},         {"stride_fpam", TD_P_INT}, {"stride_fpak", TD_P_INT},
    {"stride_am", TD_P_INT}, {"stride_ak", TD_P_INT}, {"stride_asm", TD_P_INT},  {"BM", TD_P_INT},
    {"BK", TD_P_INT},        {"numKBlocks", TD_P_INT}};
static const td_region_decl q_regions[Q_NR] = {
    {"fpa_ptr", TD_F32, TD_R_IN}, {"a_ptr", TD_I8, TD_R_OUT}, {"as_ptr", TD_F16, TD_R_OUT}};
static const td_cast_decl q_casts[2] = {
    {"store", "int8:rtz:sat", "(fpa / a_scale).to(tl.int8): fptosi, truncation toward zero"},
    {"scale", "fp16:rne:inf", "the store of the binary32 a_scale into the host's float16 tensor"}};

/* Row values: the menu's, then per row one of: as drawn, all zero, an exact-quotient
 * row (a_max = 127 * m * 2^e, x = j * m * 2^e: every quotient an exact integer, the
 * truncation's edge), a row whose largest magnitude is negative.  A nonzero row whose
 * a_max is below the domain gets one element 1. */
static void q_fill_rows(td_vgen *g, td_case *c, int64_t rows, int64_t K, int64_t sfm, int64_t sfk) {
    mm_fill_view(g, c, Q_RFPA, rows, K, sfm, sfk);
    for (int64_t r = 0; r < rows; r++) {
        uint64_t mode = td_rng_below(&g->rng, 8);
        double m = 1 + (double)td_rng_below(&g->rng, 8) / 8;
        int e = (int)td_rng_below(&g->rng, 40) - 20;
        for (int64_t k = 0; k < K && mode <= 2; k++) {
            double v = 0;
            if (mode == 1) v = ldexp(m * ((double)td_rng_below(&g->rng, 255) - 127), e);
            if (mode == 2) v = -fabs(td_get(c, Q_RFPA, (size_t)(r * sfm + k * sfk)));
            td_set(c, Q_RFPA, (size_t)(r * sfm + k * sfk), v);
        }
        if (mode == 1) td_set(c, Q_RFPA, (size_t)(r * sfm + (int64_t)td_rng_below(&g->rng, (uint64_t)K) * sfk),
                              ldexp(-127 * m, e));
        if (mode <= 1) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
        double amax = 0;
        for (int64_t k = 0; k < K; k++) amax = fmax(amax, fabs(td_get(c, Q_RFPA, (size_t)(r * sfm + k * sfk))));
        if (amax > 0 && amax < IMQ_MIN_AMAX) td_set(c, Q_RFPA, (size_t)(r * sfm), 1.0);
    }
}

static void q_gen(td_producer *p, td_case *c) {
    uint64_t cls = 0;
    int64_t BM = td_gen_pow2(p, 0, 2), BK = td_gen_pow2(p, 0, 6);
    int64_t K = (int64_t)td_gen_count(p, (uint64_t)BK, 200, &cls), T = mm_cdiv(K, BK) + (td_prod_u32(p, 0, 7) == 0);
    int64_t G = td_prod_u32(p, 1, (uint32_t)mm_max(1, 24 / BM)), M = G * BM + (td_prod_bool(p) ? td_prod_u32(p, 0, (uint32_t)BM) : 0);
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 5) : 0, sfm = K + pad, sfk = 1, sam = K + pad, sak = 1;
    if (pad) cls |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (td_prod_u32(p, 0, 3) == 0) sfm = 1, sfk = M + pad; /* column-major fpa */
    if (td_prod_u32(p, 0, 3) == 0) sam = 1, sak = M + pad; /* column-major a */
    int64_t sasm = td_prod_u32(p, 0, 3) == 0 ? 2 : 1;
    if (T > 1) cls |= TD_BC(TD_BC_MULTI_TILE);
    cls &= ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM)); /* td_gen_count's, for K alone */
    if (G == 1) cls |= TD_BC(TD_BC_ONE_PROGRAM);
    if (G * BM * K == 1) cls |= TD_BC(TD_BC_SINGLE_LANE);
    int64_t v[Q_NP] = {M, K, sfm, sfk, sam, sak, sasm, BM, BK, T};
    for (int i = 0; i < Q_NP; i++) c->p[i].i = v[i];
    c->grid[0] = (uint32_t)G, c->grid[1] = c->grid[2] = 1;
    td_case_alloc(c, Q_RFPA, mm_span(M, K, sfm, sfk));
    td_case_alloc(c, Q_RA, mm_span(M, K, sam, sak) + (td_prod_bool(p) ? (size_t)BK : 0));
    td_case_alloc(c, Q_RAS, (size_t)((G - 1) * BM * sasm + BM) + (td_prod_bool(p) ? 2 : 0));
    c->classes |= cls;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F32));
    q_fill_rows(&g, c, M, K, sfm, sfk);
}

static const char *q_check(const td_case *c) {
    for (int k = 0; k < Q_NP; k++)
        if (c->p[k].i < 0) return "parameters are Nat";
    int64_t M = c->p[Q_M].i, K = c->p[Q_K].i, BM = c->p[Q_BM].i, BK = c->p[Q_BK].i, G = c->grid[0];
    int64_t sam = c->p[Q_SAM].i, sak = c->p[Q_SAK].i;
    if (BK <= 0) return "hBK: 0 < BK";
    if (BM <= 0 || K <= 0) return "BM, K > 0 (a row tile)";
    if (K > c->p[Q_NKB].i * BK) return "hK: K <= numKBlocks * BK";
    if (G < 1 || c->grid[1] != 1 || c->grid[2] != 1) return "a 1-D grid";
    if (G * BM > M) return "hFit: pid0 * BM + BM <= M for every program";
    if (!((sak == 1 && sam >= K) || (sam == 1 && sak >= M))) return "hInj: a's (row, k) cells distinct";
    if (c->r[Q_RFPA].len < mm_span(M, K, c->p[Q_SFM].i, c->p[Q_SFK].i)) return "fpa holds the rows read";
    if (c->r[Q_RA].len < mm_span(M, K, sam, sak)) return "a holds the rows written";
    if (c->p[Q_SASM].i < 1 || c->r[Q_RAS].len < (size_t)((G - 1) * BM * c->p[Q_SASM].i + BM))
        return "as holds pid*BM*stride_asm + r (stride_asm >= 1: programs write apart)";
    for (int64_t row = 0; row < G * BM; row++) {
        double m = imq_rowmax(c, row);
        if (!isfinite(m)) return "fpa finite";
        if (m > 0 && m < IMQ_MIN_AMAX) return "each row's a_max is 0 or >= 127 * 2^-126 (a normal a_scale)";
    }
    return NULL;
}

/* Offsets beyond 2^31: fpa's rows at a stride_fpam near 2^31 over a sparse region (the
 * first programs kept, at most TD_FAR_MAX_ROWS rows, so hFit holds), as a kernel forming
 * the row offset in int32 (Triton's default) gets wrong.  Only a row-major fpa; a and
 * as (the outputs) stay dense. */
static void q_far(td_producer *p, td_case *c) {
    int64_t K = c->p[Q_K].i, BM = c->p[Q_BM].i, sfm = c->p[Q_SFM].i;
    int64_t G = mm_min((int64_t)c->grid[0], mm_max(1, TD_FAR_MAX_ROWS / BM)), R = G * BM;
    if (c->p[Q_SFK].i != 1 || R < 2 || R > TD_FAR_MAX_ROWS || sfm < K) return;
    int64_t s = td_far_stride(p, R, K);
    if (td_far_restride(c, Q_RFPA, R, K, sfm, s)) return;
    c->p[Q_M].i = R, c->p[Q_SFM].i = s, c->grid[0] = (uint32_t)G;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static void q_writes(const td_case *c, td_wset *ws) {
    int64_t K = c->p[Q_K].i, BM = c->p[Q_BM].i, BK = c->p[Q_BK].i;
    for (uint32_t pid = 0; pid < c->grid[0]; pid++)
        for (int64_t r = 0; r < BM; r++) {
            int64_t row = pid * BM + r;
            for (int64_t k = 0; k < K; k++) {
                td_olane l = {.o = 0, .region = Q_RA, .off = (uint64_t)(row * c->p[Q_SAM].i + k * c->p[Q_SAK].i),
                              .pid = {pid, 0, 0}, .j = (uint64_t)(r * BK + k % BK), .t = (uint64_t)(k / BK),
                              .idx = {row, k}};
                td_wset_add(ws, &l);
            }
            td_olane s = {.o = 1, .region = Q_RAS, .off = (uint64_t)(pid * BM * c->p[Q_SASM].i + r),
                          .pid = {pid, 0, 0}, .j = (uint64_t)r, .idx = {row, 0}};
            td_wset_add(ws, &s);
        }
}

static const td_intent q_intent = {
    .operation = "symmetric per-row int8 quantization: a = trunc(x / s_row), s_row = max_k |x[row, k]| / 127 (fp16)",
    .definition = "the file's quantize_int8 (torch): scale = x.abs().amax(1) / 127., (x / scale).to(torch.int8) "
                  "(truncation toward zero), the scale as float16; a zero row quantizes to 0",
    TD_SPECS(q_intent),
};

const td_contract td_c_int8_matmul_quantization_quantize = {
    .id = "int8_matmul_quantization.int8_matmul_quantization_quantize_exec_genuine",
    .file = "int8_matmul_quantization", .family = "quantization", .kind = "rounding",
    .io_class = "exec-existential (two outputs: MemCell.of .int, MemCell.of .fp16)",
    .formula = "a[row*sam + k*sak] = trunc(fpa[row, k] / (m_row / 127)); as[pid*BM*sasm + r] = fp16(m_row / 127), "
               "m_row = max(0, max_{k<K} |fpa[row, k]|)",
    .nparams = Q_NP, .params = q_params, .nregions = Q_NR, .regions = q_regions, .ncasts = 2, .casts = q_casts,
    .sv = TD_SV_IEEE,
    .sv_note = "finite fpa; a zero row is DEFINED: a = 0 (Lean x/0 = 0; the kernel's fptosi(NaN) = 0), as = 0; "
               "a nonzero row's max >= 127 * 2^-126; the fp16 scale overflows to inf above 65504",
    .error_model = "exact row max; binary32 a_max / 127 and quotient (or x * (127 / a_max)); the int8 truncation "
                   "admits every integer of the quotient's interval; fp16 scale cast",
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) |
               TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) |
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = q_gen, .far = q_far, .check = q_check, .writes = q_writes,
    TD_SPECS(q),
    .intent = &q_intent,
};

/* ---- matmul ---- */
static const td_param_decl mi_params[MI_NP] = {
    {"M", TD_P_INT},          {"N", TD_P_INT},          {"K", TD_P_INT},         {"stride_am", TD_P_INT},
    {"stride_ak", TD_P_INT},  {"stride_asm", TD_P_INT}, {"stride_bk", TD_P_INT}, {"stride_bn", TD_P_INT},
    {"stride_bsn", TD_P_INT}, {"stride_cm", TD_P_INT},  {"stride_cn", TD_P_INT}, {"BM", TD_P_INT},
    {"BN", TD_P_INT},         {"BK", TD_P_INT},         {"GM", TD_P_INT},        {"numKBlocks", TD_P_INT}};
static const td_region_decl mi_regions[MI_NR] = {{"A", TD_I8, TD_R_IN},
                                                 {"as_ptr", TD_F16, TD_R_IN},
                                                 {"B", TD_I8, TD_R_IN},
                                                 {"bs_ptr", TD_F32, TD_R_IN},
                                                 {"C", TD_F16, TD_R_OUT}};
static const td_cast_decl mi_casts[1] = {{"store", "fp16:rne:inf", "(acc * a_scale * b_scale).to(tl.float16), the masked store"}};

/* acc-near-int32-limit: one lane, K = 2^17 - 1 - r (r < BK, so K % BK varies and the
 * last block is masked), a and b in [-128, -121] (products in [14641, 16384], so the
 * sum is 89% .. 100% of 2^31 and partial sums past 2^24 are not binary32 values).
 * One draw in 64 and the last one (an all-zero input decodes to an ordinary case);
 * K = 2^17 integer products: about a millisecond. */
static void mi_near_limit(td_producer *p, td_case *c, td_rng *r, mm_shape *s) {
    s->M = s->N = s->BM = s->BN = s->GM = 1;
    s->BK = td_gen_pow2(p, 8, 12);
    s->K = IMQ_MAX_K - (int64_t)td_prod_u32(p, 0, (uint32_t)s->BK - 1), s->T = mm_cdiv(s->K, s->BK);
    s->sam = s->K, s->sak = 1, s->sbk = 1, s->sbn = 1, s->scm = 1, s->scn = 1;
    int8_t *a = td_case_alloc(c, MI_RA, (size_t)s->K), *b = td_case_alloc(c, MI_RB, (size_t)s->K);
    for (int64_t k = 0; k < s->K; k++) {
        uint64_t x = td_rng_next(r);
        a[k] = (int8_t)(-128 + (int)(x & 7));
        b[k] = (int8_t)(-128 + (int)((x >> 3) & 7));
    }
    c->classes |= TD_BC(TD_BC_ACC_NEAR_LIMIT) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) |
                  TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_VALUES_LARGE);
    if (s->K % s->BK) c->classes |= TD_BC(TD_BC_TAIL);
}

static void mi_gen(td_producer *p, td_case *c) {
    td_rng r;
    c->seed = td_prod_u64(p);
    td_rng_seed(&r, c->seed);
    mm_shape s;
    memset(&s, 0, sizeof s);
    if (td_prod_u32(p, 0, 63) == 63) mi_near_limit(p, c, &r, &s);
    else {
        mm_shape_opts o = {.bm_lo = 0, .bm_hi = 4, .bn_lo = 0, .bn_hi = 4, .bk_lo = 0, .bk_hi = 5, .max_mn = 40,
                           .k_tail = 1, .max_T = 4, .c_any = 1, .group = 1, .work = 1 << 15};
        mm_gen_shape(p, c, &o, 0, &s);
        s.T = mm_cdiv(s.K, s.BK);
        int ma = imm_pick_mode(p), mb = imm_pick_mode(p);
        if (ma == IMM_V_EDGES || mb == IMM_V_EDGES) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
        td_case_alloc(c, MI_RA, mm_span(s.M, s.K, s.sam, s.sak));
        td_case_alloc(c, MI_RB, mm_span(s.K, s.N, s.sbk, s.sbn));
        imm_fill_i8_view(&r, c, MI_RA, s.M, s.K, s.sam, s.sak, ma);
        imm_fill_i8_view(&r, c, MI_RB, s.K, s.N, s.sbk, s.sbn, mb);
    }
    mm_shape_put(c, mi_map, &s);
    c->p[MI_SASM].i = td_prod_u32(p, 0, 3) == 0 ? 2 : 1;
    c->p[MI_SBSN].i = td_prod_u32(p, 0, 3) == 0 ? 3 : 1;
    c->grid[0] = (uint32_t)(mm_cdiv(s.M, s.BM) * mm_cdiv(s.N, s.BN));
    int amode = (int)td_prod_u32(p, 0, IMM_S_COUNT - 1), bmode = (int)td_prod_u32(p, 0, IMM_S_COUNT - 1);
    if (amode == IMM_S_POW2 || bmode == IMM_S_POW2) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
    td_case_alloc(c, MI_RAS, (size_t)((s.M - 1) * c->p[MI_SASM].i + 1));
    td_case_alloc(c, MI_RBS, (size_t)((s.N - 1) * c->p[MI_SBSN].i + 1));
    for (int64_t i = 0; i < s.M; i++)
        td_set(c, MI_RAS, (size_t)(i * c->p[MI_SASM].i), mm_snap(TD_F16, imm_scale(&r, amode, 1)));
    for (int64_t j = 0; j < s.N; j++) td_set(c, MI_RBS, (size_t)(j * c->p[MI_SBSN].i), imm_scale(&r, bmode, 1));
    td_case_alloc(c, MI_RC, mm_span(s.M, s.N, s.scm, s.scn) + (td_prod_bool(p) ? (size_t)s.BN : 0));
}

static const char *mi_check(const td_case *c) {
    mm_shape s;
    const char *e = mm_check_2d(c, mi_map, &mi_d2, &s);
    if (e) return e;
    if (s.BK <= 0) return "BK > 0 (tl.arange(0, BLOCK_SIZE_K))";
    if (s.K <= 0) return "K > 0";
    if (s.K > s.T * s.BK) return "hK: K <= numKBlocks * BK";
    if (s.K > IMQ_MAX_K) return "hOvf: 16384 * K < 2^31 (the int32 accumulator cannot overflow)";
    int64_t sasm = c->p[MI_SASM].i, sbsn = c->p[MI_SBSN].i;
    if (sasm < 0 || sbsn < 0) return "parameters are Nat";
    if (c->r[MI_RAS].len < (size_t)((s.M - 1) * sasm + 1) || c->r[MI_RBS].len < (size_t)((s.N - 1) * sbsn + 1))
        return "as / bs hold M / N scales at their strides";
    if (!imm_scales_ok(c, MI_RAS) || !imm_scales_ok(c, MI_RBS)) return "scales finite, |s| < 16";
    return NULL;
}

/* Offsets beyond 2^31: A's rows at a stride_am near 2^31 (mm_far_2d; rows load at % M,
 * as_ptr keeps its first M scales).  The kernel's offs_am[:, None] * stride_am is int32
 * arithmetic in Triton.  The acc-near-limit draw has one row and stays as it is. */
static void mi_far(td_producer *p, td_case *c) { mm_far_2d(p, c, mi_map, &mi_d2); }

static void mi_writes(const td_case *c, td_wset *ws) {
    mm_shape s;
    mm_shape_get(c, mi_map, &s);
    mm_writes_2d(c, ws, &s, &mi_d2);
}

static const td_intent mi_intent = {
    .operation = "C = fp16((A @ B) * a_scale[:, None] * b_scale[None, :])",
    .definition = "int8 x int8 -> int32 matrix product (exact), dequantized by the per-row scale of A and the "
                  "per-column scale of B, rounded once to fp16",
    TD_SPECS(mi_intent),
};

const td_contract td_c_int8_matmul_quantization_matmul = {
    .id = "int8_matmul_quantization.int8_matmul_quantization_matmul_exec_genuine",
    .file = "int8_matmul_quantization", .family = "matmul", .kind = "rounding",
    .io_class = "exec-existential over TileIndex [BM,BN], MemCell.of .fp16",
    .formula = "C[scm*row + scn*col] = fp16((sum_{j<K} A[row, j] * B[j, col]) * as[row*sasm] * bs[col*sbsn])",
    .nparams = MI_NP, .params = mi_params, .nregions = MI_NR, .regions = mi_regions, .ncasts = 1, .casts = mi_casts,
    .sv = TD_SV_IEEE,
    .sv_note = "int8 operands, exact int32 sum (16384*K < 2^31), finite scales |s| < 16; the fp16 store overflows "
               "to inf where the value rounds there",
    .error_model = "exact int32 sum; int->fp32 conversion above 2^24 (charged); two binary32 scale products in "
                   "either association; fp16 store cast",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_ACC_NEAR_LIMIT) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = mi_gen, .far = mi_far, .check = mi_check, .writes = mi_writes,
    TD_SPECS(mi),
    .intent = &mi_intent,
};
