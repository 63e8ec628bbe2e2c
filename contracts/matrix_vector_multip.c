/* matrix_vector_multip: mv_kernel, C = A . B for a row block per program (catalogue
 * part 2, src lines 7517-7560).
 *
 *   mv_kernel_output_summary_general (hOutInj : i -> cOffset s stride_cn BLOCK_N i injective):
 *     mv_kernel_general_prop: the full looping surface lowers, and its one-block slice
 *     mv_kernel_one_block writes C[(pid*BLOCK_N + i)*stride_cn] = mvSpec for every row
 *     pid*BLOCK_N + i < N, mvSpec = row-wise Tile.reduceSum over [BLOCK_N, BLOCK_M] of
 *     (A[n*stride_an + m*stride_am] if n < N & m < M else 0) * (B[m*stride_bm] if m < M else 0)
 *   mv_one_block_io_correctness (hBN : 0 < BLOCK_N) (hBM : 0 < BLOCK_M) (hOutInj, all p0):
 *     mvOneBlockIO |= fun p0 _ xs ys k => mvSpecOf N M BLOCK_N BLOCK_M p0 xs ys k.1,
 *     MaskedTile2DKernelIO_2, shape [BLOCK_N, BLOCK_M], read1 = (p0*BLOCK_N + r)*stride_an
 *     + c*stride_am, read2 = c*stride_bm, write = (p0*BLOCK_N + r)*stride_cn,
 *     mask: p0*BLOCK_N + r < N & c < M, read2Mask c < M, writeMask: row < N & c = 0.
 *
 * Both theorems are about the one-block slice: the reduction covers the BLOCK_M lanes
 * of one tile, i.e. M <= BLOCK_M (the bundled tests have M in {3, 16} and BLOCK_M >= 32).
 * For M > BLOCK_M the real mv_kernel loops over more blocks and computes the whole row,
 * which mvSpec does not describe, so the generator stays in the one-block regime and
 * the checker names it ("one block: M <= BLOCK_M").  The host kernel mirrors the full
 * Triton program (bench/tritonbench_g/matrix_vector_multip/matrix_vector_multip.py):
 * acc[BLOCK_N, BLOCK_M] = 0; for m in range(0, M, BLOCK_M) (one trip here): masked
 * loads (other = 0), acc += a * b (0 + p: exact); acc = tl.sum(acc, axis=1) (the
 * pairwise tree over BLOCK_M); store masked by n < N.  mvSpec / mvSpecOf checked in
 * MatrixVectorMultip.lean: the masks multiply masked lanes by 0, as the kernel's
 * `other=0.0`.
 *
 * Dtypes: binary32 (the wrapper's inputs; there is no tl.dot).  Error model: binary32
 * products (one rounding each), pairwise tree over BLOCK_M (masked lanes add 0
 * exactly): gamma_log2(BLOCK_M) * sum|a_m b_m| plus the products' roundings
 * (contracts/matmul_common.h with one tile of BLOCK_M lanes).
 * Special values: finite binary32 operands |x| <= 2^40: everything finite.
 */
#include "matmul_common.h"

enum { P_N, P_M, P_SAN, P_SAM, P_SBM, P_SCN, P_BN, P_BM, NP };
enum { R_A, R_B, R_C, NR };

#define TD_SPEC_FILE "matrix_vector_multip.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"N", TD_P_INT},         {"M", TD_P_INT},         {"stride_an", TD_P_INT}, {"stride_am", TD_P_INT},
    {"stride_bm", TD_P_INT}, {"stride_cn", TD_P_INT}, {"BLOCK_N", TD_P_INT},   {"BLOCK_M", TD_P_INT}};
static const td_region_decl regions[NR] = {{"A", TD_F32, TD_R_IN}, {"B", TD_F32, TD_R_IN}, {"C", TD_F32, TD_R_OUT}};

static void gen(td_producer *p, td_case *c) {
    int64_t BN = td_gen_pow2(p, 0, 4), BM = td_gen_pow2(p, 0, 7);
    uint64_t cls = 0, mcls = 0;
    int64_t N = (int64_t)td_gen_count(p, (uint64_t)BN, 300, &cls);
    /* M within one block, favouring a full block, one short, a single column, BLOCK_M >> M */
    int64_t M = (int64_t)td_gen_count(p, (uint64_t)BM, (uint64_t)BM, &mcls);
    if (M < BM) cls |= TD_BC(TD_BC_TAIL);
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 4) : 0;
    int64_t san, sam;
    if (td_prod_u32(p, 0, 3) == 0) san = 1, sam = N + pad; /* column-major A */
    else san = M + pad, sam = 1;
    int64_t sbm = td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 2, 3) : 1;
    int64_t scn = td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 2, 3) : 1;
    if (pad || sbm > 1 || scn > 1) cls |= TD_BC(TD_BC_STRIDE_GT_ROW);
    int64_t v[NP] = {N, M, san, sam, sbm, scn, BN, BM};
    for (int i = 0; i < NP; i++) c->p[i].i = v[i];
    int64_t grid = mm_cdiv(N, BN);
    c->grid[0] = (uint32_t)grid;
    c->classes |= cls;
    td_case_alloc(c, R_A, mm_span(N, M, san, sam));
    td_case_alloc(c, R_B, (size_t)((M - 1) * sbm + 1));
    /* C spans the last block's rows too (a kernel that forgets the row mask writes there) */
    td_case_alloc(c, R_C, (size_t)((grid * BN - 1) * scn + 1));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F32));
    mm_fill_view(&g, c, R_A, N, M, san, sam);
    mm_fill_view(&g, c, R_B, M, 1, sbm, 1);
    if (M >= 3 && td_prod_u32(p, 0, 5) == 0) mm_absorb(&g, c, R_A, R_B, N, 1, M, san, sam, sbm, 1);
}

static const char *check_common(const td_case *c) {
    for (int i = 0; i < NP; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t N = c->p[P_N].i, M = c->p[P_M].i, BN = c->p[P_BN].i, BM = c->p[P_BM].i;
    if (BN <= 0 || BM <= 0) return "hBN, hBM: 0 < BLOCK_N, 0 < BLOCK_M";
    if (M > BM) return "one block: M <= BLOCK_M (the contract's kernel is mv_kernel_one_block)";
    if ((int64_t)c->grid[0] * BN < N || c->grid[1] != 1 || c->grid[2] != 1) return "grid = cdiv(N, BLOCK_N) programs";
    if (c->r[R_A].len < mm_span(N, M, c->p[P_SAN].i, c->p[P_SAM].i)) return "A holds rows < N, columns < M";
    if ((int64_t)c->r[R_B].len < (M ? (M - 1) * c->p[P_SBM].i + 1 : 0)) return "B holds M elements";
    if ((int64_t)c->r[R_C].len < (N ? (N - 1) * c->p[P_SCN].i + 1 : 0)) return "C holds N elements";
    return NULL;
}
static const char *check(const td_case *c) {
    const char *e = check_common(c);
    if (e) return e;
    if (c->p[P_SCN].i == 0 && c->p[P_BN].i > 1) return "hOutInj: (p0*BLOCK_N + i)*stride_cn injective";
    return NULL;
}

/* Offsets beyond 2^31 (gen_far.h): A's first rows (N cut to TD_FAR_MAX_ROWS, the grid
 * recounted) at a stride_an near 2^31 over a sparse region, as the kernel's
 * offs_n[:, None] * stride_an, int32 arithmetic in Triton, gets wrong.  Only a
 * row-major A (stride_am = 1, stride_an at least a row); C (the output) stays dense. */
static void far(td_producer *p, td_case *c) {
    int64_t N = c->p[P_N].i, M = c->p[P_M].i, san = c->p[P_SAN].i;
    if (c->p[P_SAM].i != 1 || N < 2 || M <= 0 || san < M) return;
    int64_t R = N < TD_FAR_MAX_ROWS ? N : TD_FAR_MAX_ROWS, s = td_far_stride(p, R, M);
    if (td_far_restride(c, R_A, R, M, san, s)) return;
    c->p[P_N].i = R, c->p[P_SAN].i = s;
    c->grid[0] = (uint32_t)mm_cdiv(R, c->p[P_BN].i);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t N = c->p[P_N].i, BN = c->p[P_BN].i;
    for (uint32_t pid = 0; pid < c->grid[0]; pid++)
        for (int64_t i = 0; i < BN; i++) {
            int64_t n = pid * BN + i;
            if (n >= N) continue; /* writeMask: row < N */
            td_olane l = {.region = R_C, .off = (uint64_t)(n * c->p[P_SCN].i), .pid = {pid, 0, 0}, .j = (uint64_t)i,
                          .idx = {n * c->p[P_SAN].i, 0, n, 0}};
            td_wset_add(ws, &l);
        }
}

#define MV_COMMON                                                                                                  \
    .file = "matrix_vector_multip", .family = "matmul", .nparams = NP, .params = params, .nregions = NR,          \
    .regions = regions, .sv = TD_SV_IEEE,                                                                           \
    .sv_note = "finite binary32 operands |x| <= 2^40: every product and partial sum is finite",                     \
    .error_model = "binary32 products, pairwise tree over BLOCK_M (tl.sum axis=1); one reduction block",           \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31), .gen = gen, .far = far,   \
    .check = check, .writes = writes

static const td_intent mm_intent = {
    .operation = "C = A @ b (a matrix-vector product over the M columns)",
    .definition = "torch.matmul / torch.bmm / torch.mv (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]), the "
                  "exact value rounded once to C's format",
    TD_SPECS(mv_intent),
};

const td_contract td_c_mv_summary = {
    .id = "matrix_vector_multip.mv_kernel_output_summary_general",
    .io_class = "mv_kernel_general_prop (writeIf row < N, one-block slice)",
    .kind = "exact",
    .formula = "C[n*stride_cn] = sum_{m < min(M, BLOCK_M)} A[n*stride_an + m*stride_am] * B[m*stride_bm]",
    MV_COMMON,
    TD_SPECS(mv),
    .intent = &mm_intent,
};

const td_contract td_c_mv_io = {
    .id = "matrix_vector_multip.mv_one_block_io_correctness",
    .io_class = "MaskedTile2DKernelIO_2 (mvOneBlockIO)",
    .kind = "exact",
    .formula = "C[n*stride_cn] = mvSpecOf: sum over the BLOCK_M lanes of masked A[n, m] * B[m]",
    MV_COMMON,
    TD_SPECS(mv),
    .intent = &mm_intent,
};
