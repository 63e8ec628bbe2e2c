/* matmul_tma: one block-pointer matmul tile, binary32 or fp16 output (catalogue part 2,
 * src lines 7216-7306).
 *
 *   matmul_tma_f32_closed_form_correct / matmul_tma_f16_closed_form_correct
 *     (hcn : stride_cn = 1) (hcm : BLOCK_N <= stride_cm): Realizes_without_Rounding,
 *     C[i*stride_cm + j*stride_cn] = matmulSpec = sum_{e < BLOCK_K} A[i*stride_am + e*stride_ak]
 *     * B[e*stride_bk + j*stride_bn]  (f16: MemCell.of .fp16 (real.cast fp16 ...))
 *   matmul_tma_f32_io_correctness (hInj : cOffset injective): matmulTmaF32IO |=
 *     fun _ _ xs ys idx => matmulSpecOf BLOCK_M BLOCK_N BLOCK_K xs ys idx
 *   matmul_tma_f16_io_correctnessR (hInj): matmulTmaF16IO |=[Rm, .fp16] the same
 *     MaskedTileShapedKernelIO_2: shape1 = [BLOCK_M, BLOCK_K], shape2 = [BLOCK_K, BLOCK_N],
 *     shapeOut = [BLOCK_M, BLOCK_N], read1 = i*stride_am + k*stride_ak,
 *     read2 = k*stride_bk + j*stride_bn, write = i*stride_cm + j*stride_cn, masks True,
 *     pid-independent (the wrapper launches a (1, 1) grid).
 *
 * Kernel (bench/tritonbench_g/matmul_tma/matmul_tma.py, matmul_tma_load_store): block
 * pointers at offset (0, 0) (no boundary_check: the whole block is loaded whatever
 * M, N, K say; `order` is a layout hint), c = tl.dot(a, b) (one tile, no
 * accumulator), `c.to(tl.float16)` when OUTPUT_F16, tl.store through the C block
 * pointer.  matmulSpec / matmulSpecOf in MatmulTma.lean: the BLOCK_K-term sum; checked.
 * M, N, K only shape the block pointers: the generator sets them to the block sizes
 * (the wrapper's BLOCK = full dims) or larger.
 *
 * Dtypes: A, B fp16 (the wrapper's randn fp16, plain or transposed: TRANS_A / TRANS_B
 * are the column-major layouts the generator draws), C binary32 (f32) or fp16 (f16).
 * The f32 contracts are exact claims over the reals, checked against the binary32
 * evaluation: exact fp16 products, then the pairwise tree over BLOCK_K (one tile: no
 * K loop), gamma_log2(BLOCK_K) * sum|a_k b_k| (contracts/matmul_common.h).  The f16
 * contracts add the store: cast slot "store" fp16:rne:inf (c.to(tl.float16)); the IO
 * contract rounds with Rm at .fp16, and the closed form's real.cast .fp16 is
 * VeriTile's identity placeholder (R = triv), checked as the same real store.
 * Special values: finite fp16 operands; binary32 sums finite; fp16 stores may
 * overflow to inf where the exact value rounds there (IEEE policy).
 */
#include "matmul_common.h"

enum { P_M, P_N, P_K, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK, NP };
enum { R_A, R_B, R_C, NR };
enum { C_STORE };

#define TD_SPEC_FILE "matmul_tma.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"M", TD_P_INT},         {"N", TD_P_INT},         {"K", TD_P_INT},         {"stride_am", TD_P_INT},
    {"stride_ak", TD_P_INT}, {"stride_bk", TD_P_INT}, {"stride_bn", TD_P_INT}, {"stride_cm", TD_P_INT},
    {"stride_cn", TD_P_INT}, {"BLOCK_M", TD_P_INT},   {"BLOCK_N", TD_P_INT},   {"BLOCK_K", TD_P_INT}};
static const td_region_decl regions_f32[NR] = {
    {"A", TD_F16, TD_R_IN}, {"B", TD_F16, TD_R_IN}, {"C", TD_F32, TD_R_OUT}};
static const td_region_decl regions_f16[NR] = {
    {"A", TD_F16, TD_R_IN}, {"B", TD_F16, TD_R_IN}, {"C", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp16:rne:inf", "c.to(tl.float16) when OUTPUT_F16, before the store"}};

static void gen_with(td_producer *p, td_case *c, int c_any) {
    int64_t BM = td_gen_pow2(p, 4, 6), BN = td_gen_pow2(p, 4, 6), BK = td_gen_pow2(p, 4, 6);
    while (BM * BN * BK > (1 << 15)) {
        if (BK > 16) BK /= 2;
        else if (BM >= BN) BM /= 2;
        else BN /= 2;
    }
    int64_t extra = td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, 16) : 0;
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 5) : 0;
    int64_t v[NP] = {BM + extra, BN + extra, BK + extra};
    if (td_prod_bool(p)) v[P_SAM] = 1, v[P_SAK] = BM + pad; /* TRANS_A: a = randn(K, M).T */
    else v[P_SAM] = BK + pad, v[P_SAK] = 1;
    if (td_prod_bool(p)) v[P_SBK] = 1, v[P_SBN] = BK + pad; /* TRANS_B */
    else v[P_SBK] = BN + pad, v[P_SBN] = 1;
    if (c_any && td_prod_u32(p, 0, 3) == 0) v[P_SCM] = 1, v[P_SCN] = BM + pad;
    else v[P_SCM] = BN + pad, v[P_SCN] = 1;
    v[P_BM] = BM, v[P_BN] = BN, v[P_BK] = BK;
    for (int i = 0; i < NP; i++) c->p[i].i = v[i];
    c->classes |= TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0);
    td_case_alloc(c, R_A, mm_span(BM, BK, v[P_SAM], v[P_SAK]));
    td_case_alloc(c, R_B, mm_span(BK, BN, v[P_SBK], v[P_SBN]));
    td_case_alloc(c, R_C, mm_span(BM, BN, v[P_SCM], v[P_SCN]) + (td_prod_bool(p) ? (size_t)BN : 0));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F16));
    mm_fill_view(&g, c, R_A, BM, BK, v[P_SAM], v[P_SAK]);
    mm_fill_view(&g, c, R_B, BK, BN, v[P_SBK], v[P_SBN]);
    if (td_prod_u32(p, 0, 5) == 0) mm_absorb(&g, c, R_A, R_B, BM, BN, BK, v[P_SAM], v[P_SAK], v[P_SBK], v[P_SBN]);
}
static void gen_cf(td_producer *p, td_case *c) { gen_with(p, c, 0); }
static void gen_io(td_producer *p, td_case *c) { gen_with(p, c, 1); }
/* Offsets beyond 2^31 (gen_far.h): the one program loads the whole [BLOCK_M, BLOCK_K]
 * block of A (no boundary check), so A's outer axis -- its BLOCK_M rows when row-major,
 * its BLOCK_K columns when transposed (TRANS_A) -- moves whole to a stride whose last
 * row lands 2^31 elements in (td_far_tile_stride: 16 to 64 rows, about 2^31 elements of
 * address space).  No int32 mutant: make_block_ptr widens its strides to int64. */
static void far(td_producer *p, td_case *c) {
    int64_t BM = c->p[P_BM].i, BK = c->p[P_BK].i, sam = c->p[P_SAM].i, sak = c->p[P_SAK].i;
    int row_major = sak == 1 && sam >= BK;
    if (!row_major && !(sam == 1 && sak >= BM)) return;
    int64_t rows = row_major ? BM : BK, w = row_major ? BK : BM;
    int ps = row_major ? P_SAM : P_SAK;
    int64_t to = td_far_tile_stride(p, rows, w);
    if (td_far_restride(c, R_A, rows, w, c->p[ps].i, to)) return;
    c->p[ps].i = to;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check_common(const td_case *c) {
    for (int i = 0; i < NP; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t BM = c->p[P_BM].i, BN = c->p[P_BN].i, BK = c->p[P_BK].i;
    if (BM <= 0 || BN <= 0 || BK <= 0) return "BLOCK_M, BLOCK_N, BLOCK_K > 0 (block shapes)";
    if (c->grid[0] != 1 || c->grid[1] != 1 || c->grid[2] != 1) return "one program (the wrapper's (1, 1) grid)";
    if (c->r[R_A].len < mm_span(BM, BK, c->p[P_SAM].i, c->p[P_SAK].i)) return "A holds the [BLOCK_M, BLOCK_K] block";
    if (c->r[R_B].len < mm_span(BK, BN, c->p[P_SBK].i, c->p[P_SBN].i)) return "B holds the [BLOCK_K, BLOCK_N] block";
    if (c->r[R_C].len < mm_span(BM, BN, c->p[P_SCM].i, c->p[P_SCN].i)) return "C holds the [BLOCK_M, BLOCK_N] block";
    return NULL;
}
static const char *check_cf(const td_case *c) {
    const char *e = check_common(c);
    if (e) return e;
    if (c->p[P_SCN].i != 1) return "hcn: stride_cn = 1";
    if (c->p[P_BN].i > c->p[P_SCM].i) return "hcm: BLOCK_N <= stride_cm";
    return NULL;
}
static const char *check_io(const td_case *c) {
    const char *e = check_common(c);
    if (e) return e;
    if (!mm_tile_injective(c->p[P_BM].i, c->p[P_BN].i, c->p[P_SCM].i, c->p[P_SCN].i)) return "hInj: cOffset injective";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t BM = c->p[P_BM].i, BN = c->p[P_BN].i;
    for (int64_t i = 0; i < BM; i++)
        for (int64_t j = 0; j < BN; j++) {
            td_olane l = {.region = R_C, .off = (uint64_t)(i * c->p[P_SCM].i + j * c->p[P_SCN].i), .j = (uint64_t)(i * BN + j),
                          .idx = {i * c->p[P_SAM].i, j * c->p[P_SBN].i, i, j}};
            td_wset_add(ws, &l);
        }
}

#define TMA_COMMON                                                                                                 \
    .file = "matmul_tma", .family = "matmul", .nparams = NP, .params = params, .nregions = NR, .sv = TD_SV_IEEE,  \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_STRIDE_GT_ROW) |              \
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31),                 \
    .far = far, .writes = writes
#define TMA_F32                                                                                                    \
    .regions = regions_f32, .sv_note = "finite fp16 operands: the exact sum and the binary32 partial sums are finite", \
    .error_model = "exact fp16 products, pairwise tree over BLOCK_K (one tile)"
#define TMA_F16                                                                                                    \
    .regions = regions_f16, .ncasts = 1, .casts = casts,                                                           \
    .sv_note = "finite fp16 operands, binary32 sums finite; the fp16 store overflows to inf where the exact value " \
               "rounds there",                                                                                      \
    .error_model = "exact fp16 products, pairwise tree over BLOCK_K (one tile); fp16 store cast"

/* The intent's side of matmul_tma: the block pointers describe A[M, K], B[K, N] and C[M, N];
 * the operation needs all K columns and writes all M x N cells, where the one tile reads
 * BLOCK_K of them and stores BLOCK_M x BLOCK_N (the wrapper launches BLOCK = the full
 * dims, where the two agree). */
static const char *tma_gap(const td_case *c) {
    return c->p[P_K].i > c->p[P_BK].i ? "K > BLOCK_K: the one tile reads BLOCK_K of the K columns" : NULL;
}
static void tma_intent_writes(const td_case *c, td_wset *ws) {
    int64_t N = c->p[P_N].i;
    for (int64_t i = 0; i < c->p[P_M].i; i++)
        for (int64_t j = 0; j < N; j++) {
            td_olane l = {.region = R_C, .off = (uint64_t)(i * c->p[P_SCM].i + j * c->p[P_SCN].i), .j = (uint64_t)(i * N + j),
                          .idx = {i * c->p[P_SAM].i, j * c->p[P_SBN].i, i, j}};
            td_wset_add(ws, &l);
        }
}
static const td_intent tma_intent = {
    .operation = "C[M, N] = A[M, K] @ B[K, N] (the block pointers' shapes)",
    .definition = "torch.matmul (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]), the exact value rounded "
                  "once to C's format",
    TD_SPECS(tma_intent),
    .gap = tma_gap,
    .writes = tma_intent_writes,
};

const td_contract td_c_matmul_tma_f32_cf = {
    .id = "matmul_tma.matmul_tma_f32_closed_form_correct",
    .io_class = "Realizes_without_Rounding over TileIndex [BLOCK_M,BLOCK_N]",
    .kind = "exact",
    .formula = "C[i*stride_cm + j] = sum_{e<BLOCK_K} A[i*stride_am + e*stride_ak] * B[e*stride_bk + j*stride_bn]",
    .gen = gen_cf, .check = check_cf, TMA_COMMON, TMA_F32, TD_SPECS(tma_f32), .intent = &tma_intent,
};
const td_contract td_c_matmul_tma_f16_cf = {
    .id = "matmul_tma.matmul_tma_f16_closed_form_correct",
    .io_class = "Realizes_without_Rounding over TileIndex [BLOCK_M,BLOCK_N], MemCell.of .fp16",
    .kind = "rounding",
    .formula = "C[i*stride_cm + j] = fp16(sum_{e<BLOCK_K} A[i*stride_am + e*stride_ak] * B[e*stride_bk + j*stride_bn])",
    .gen = gen_cf, .check = check_cf, TMA_COMMON, TMA_F16, TD_SPECS(tma_f16), .intent = &tma_intent,
};
const td_contract td_c_matmul_tma_f32_io = {
    .id = "matmul_tma.matmul_tma_f32_io_correctness",
    .io_class = "MaskedTileShapedKernelIO_2 (matmulTmaF32IO)",
    .kind = "exact",
    .formula = "C[cOffset(i,j)] = matmulSpecOf xs ys (i,j) = sum_{e<BLOCK_K} xs(i,e) * ys(e,j)",
    .gen = gen_io, .check = check_io, TMA_COMMON, TMA_F32, TD_SPECS(tma_f32), .intent = &tma_intent,
};
const td_contract td_c_matmul_tma_f16_io = {
    .id = "matmul_tma.matmul_tma_f16_io_correctnessR",
    .io_class = "MaskedTileShapedKernelIO_2 (matmulTmaF16IO), |=[Rm, fp16]",
    .kind = "rounding",
    .formula = "C[cOffset(i,j)] = Rm.round(.fp16)(sum_{e<BLOCK_K} xs(i,e) * ys(e,j))",
    .gen = gen_io, .check = check_io, TMA_COMMON, TMA_F16, TD_SPECS(tma_f16), .intent = &tma_intent,
};
