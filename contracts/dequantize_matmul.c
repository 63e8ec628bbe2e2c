/* dequantize_matmul: the int8 weight dequantization stage (catalogue part 2, src lines
 * 3449-3482).
 *
 *   dequantize_kernel_correctness (hBK : 0 < BLOCK_SIZE_K) (hOutInj : for all p0 p1,
 *     j -> fpbOffset p0 p1 (laneIdx j) injective): dequantizeIO |= fun _ _ xs ys j =>
 *     xs j * ys j, Masked2DKernelIO_2, B = BSK * BSN, lane j = (i, c) = laneIdx j,
 *     read1 = (p0*BSK + i)*stride_bk + (p1*BSN + c)*stride_bn      (the int8 weight)
 *     read2 = p1*BSN + c                                             (the column scale)
 *     write = (p0*BSK + i)*stride_fpbk + (p1*BSN + c)*stride_fpbn
 *     mask  = p0*BSK + i < K  and  p1*BSN + c < N;  read2Mask = p1*BSN + c < N.
 *
 * The [quoted] spec checked against the original (VeriTile
 * bench/tritonbench_g/dequantize_matmul/dequantize_matmul.py, dequantize_kernel, and
 * DequantizeMatmul.lean, dequantizeSpec / dequantizeIO): fp_b[k, n] = b[k, n] *
 * b_scale[n], the scale per COLUMN (bs_offs = n_block_idx*BSN + offs_n), b int8 (the
 * test's torch.int8), b_scale binary32, fp_b of a.dtype (binary32 in the wrapper's
 * test); the store mask is the K and N gate, the scale load only the N gate.  The
 * wrapper launches grid (cdiv(K, BSK), cdiv(N, BSN)); the statement holds per program,
 * so the generator also launches surplus fully masked row blocks now and then.
 * The wrapper's torch.mm(a, fp_b) is not a Triton kernel and not in the statement.
 *
 * Error model: `int_b * scale_b` is an int8 -> binary32 conversion (exact: |b| <= 128)
 * and one binary32 product, u|b*s| (Higham 2.2; the shadow charges nothing where the
 * product is exact, e.g. a power-of-two scale).  The reading "R.round .real" of the
 * binary32 store: the product is the stored value, no further rounding.
 * Special values: scales finite, |s| < 16, so |b*s| < 2^11: no overflow (TD_SV_REAL);
 * a zero scale gives +-0 (compared as 0).
 */
#include "imm_common.h"

enum { P_K, P_N, P_SBK, P_SBN, P_SFK, P_SFN, P_BSN, P_BSK, NP };
enum { R_B, R_S, R_F, NR };

#define TD_SPEC_FILE "dequantize_matmul.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"K", TD_P_INT},           {"N", TD_P_INT},           {"stride_bk", TD_P_INT},    {"stride_bn", TD_P_INT},
    {"stride_fpbk", TD_P_INT}, {"stride_fpbn", TD_P_INT}, {"BLOCK_SIZE_N", TD_P_INT}, {"BLOCK_SIZE_K", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"b_ptr", TD_I8, TD_R_IN}, {"b_scale_ptr", TD_F32, TD_R_IN}, {"fpb_ptr", TD_F32, TD_R_OUT}};

static void gen(td_producer *p, td_case *c) {
    td_rng r;
    c->seed = td_prod_u64(p);
    td_rng_seed(&r, c->seed);
    uint64_t cls = 0;
    int64_t BSK = td_gen_pow2(p, 0, 5), BSN = td_gen_pow2(p, 0, 5);
    int64_t K = (int64_t)td_gen_count(p, (uint64_t)BSK, 96, &cls), N = (int64_t)td_gen_count(p, (uint64_t)BSN, 96, &cls);
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 5) : 0, sbk, sbn, sfk, sfn;
    if (pad) cls |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (td_prod_u32(p, 0, 3) == 0) sbk = 1, sbn = K + pad;
    else sbk = N + pad, sbn = 1;
    /* fp_b: row- or column-major, the row (column) stride at least the tile's width so
     * that a whole tile's lanes, masked ones included, are distinct (hOutInj) */
    if (td_prod_u32(p, 0, 3) == 0) sfk = 1, sfn = mm_max(K, BSK) + pad;
    else sfk = mm_max(N, BSN) + pad, sfn = 1;
    int64_t gk = mm_cdiv(K, BSK), gn = mm_cdiv(N, BSN);
    td_gen_mark_shape((uint64_t)(K * N), (uint64_t)(BSK * BSN), (uint64_t)(gk * gn), &cls);
    if (td_prod_u32(p, 0, 7) == 0) gk++, cls |= TD_BC(TD_BC_FULLY_MASKED); /* a surplus row block */
    c->grid[0] = (uint32_t)gk, c->grid[1] = (uint32_t)gn;
    c->p[P_K].i = K, c->p[P_N].i = N, c->p[P_SBK].i = sbk, c->p[P_SBN].i = sbn, c->p[P_SFK].i = sfk;
    c->p[P_SFN].i = sfn, c->p[P_BSN].i = BSN, c->p[P_BSK].i = BSK;
    int mode = imm_pick_mode(p);
    if (mode == IMM_V_EDGES) cls |= TD_BC(TD_BC_VALUES_SPECIAL);
    c->classes |= cls;
    td_case_alloc(c, R_B, mm_span(K, N, sbk, sbn));
    imm_fill_i8_view(&r, c, R_B, K, N, sbk, sbn, mode);
    imm_fill_scales(p, c, &r, R_S, N, 1);
    td_case_alloc(c, R_F, mm_span(gk * BSK, gn * BSN, sfk, sfn));
}

static const char *check(const td_case *c) {
    for (int k = 0; k < NP; k++)
        if (c->p[k].i < 0) return "parameters are Nat";
    int64_t K = c->p[P_K].i, N = c->p[P_N].i, BSK = c->p[P_BSK].i, BSN = c->p[P_BSN].i;
    int64_t sfk = c->p[P_SFK].i, sfn = c->p[P_SFN].i;
    if (BSK <= 0) return "hBK: 0 < BLOCK_SIZE_K";
    if (BSN <= 0) return "BLOCK_SIZE_N > 0 (tl.arange extent)";
    if (c->grid[2] != 1) return "a 2-D grid";
    if (!mm_tile_injective(BSK, BSN, sfk, sfn)) return "hOutInj: a tile's fp_b offsets are distinct";
    if (!((sfn == 1 && sfk >= N) || (sfk == 1 && sfn >= K))) return "distinct programs write distinct cells";
    int64_t rows = mm_min(K, (int64_t)c->grid[0] * BSK), cols = mm_min(N, (int64_t)c->grid[1] * BSN);
    if (c->r[R_B].len < mm_span(rows, cols, c->p[P_SBK].i, c->p[P_SBN].i)) return "b holds read1's window";
    if (c->r[R_S].len < (size_t)cols) return "b_scale holds read2's window";
    if (c->r[R_F].len < mm_span(rows, cols, sfk, sfn)) return "fp_b holds the write window";
    if (!imm_scales_ok(c, R_S)) return "scales finite, |s| < 16";
    return NULL;
}

/* Offsets beyond 2^31: b's first rows (K cut to TD_FAR_MAX_ROWS, the K blocks recounted)
 * at a stride_bk near 2^31 over a sparse region, as the kernel's b_offs, int32
 * arithmetic in Triton, gets wrong.  Only a row-major b (stride_bn = 1, stride_bk at
 * least a row); fp_b, the output, stays dense (its rows are the few kept). */
static void far(td_producer *p, td_case *c) {
    int64_t K = c->p[P_K].i, N = c->p[P_N].i, sbk = c->p[P_SBK].i;
    if (c->p[P_SBN].i != 1 || K < 2 || sbk < N) return;
    int64_t R = K < TD_FAR_MAX_ROWS ? K : TD_FAR_MAX_ROWS, s = td_far_stride(p, R, N);
    if (td_far_restride(c, R_B, R, N, sbk, s)) return;
    c->p[P_K].i = R, c->p[P_SBK].i = s;
    c->grid[0] = (uint32_t)mm_cdiv(R, c->p[P_BSK].i);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t K = c->p[P_K].i, N = c->p[P_N].i, BSK = c->p[P_BSK].i, BSN = c->p[P_BSN].i;
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            for (int64_t i = 0; i < BSK; i++)
                for (int64_t j = 0; j < BSN; j++) {
                    int64_t k = p0 * BSK + i, n = p1 * BSN + j;
                    if (!(k < K && n < N)) continue; /* mask */
                    td_olane l = {.region = R_F, .off = (uint64_t)(k * c->p[P_SFK].i + n * c->p[P_SFN].i),
                                  .pid = {p0, p1, 0}, .j = (uint64_t)(i * BSN + j), .idx = {k, n}};
                    td_wset_add(ws, &l);
                }
}

static const td_intent dqm_intent = {
    .operation = "fp_b = b.to(float32) * b_scale[None, :]",
    .definition = "per-output-channel (column) symmetric int8 dequantization: w = q * s[n], rounded once to "
                  "binary32",
    TD_SPECS(dqm_intent),
};

const td_contract td_c_dequantize_matmul = {
    .id = "dequantize_matmul.dequantize_kernel_correctness",
    .file = "dequantize_matmul", .family = "elementwise", .kind = "exact",
    .io_class = "Masked2DKernelIO_2 (dequantizeIO)",
    .formula = "fpb[k*sfk + n*sfn] = b[k*sbk + n*sbn] * b_scale[n]  (k < K, n < N)",
    .nparams = NP, .params = params, .nregions = NR, .regions = regions, .sv = TD_SV_REAL,
    .sv_note = "finite scales |s| < 16 and int8 weights: every product finite",
    .error_model = "exact int8 -> binary32 conversion, one binary32 product",
    .classes = (TD_BCLASSES_TILED & ~TD_BC(TD_BC_VALUES_LARGE)) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED) |
               TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen, .far = far, .check = check, .writes = writes,
    TD_SPECS(dqm),
    .intent = &dqm_intent,
};
