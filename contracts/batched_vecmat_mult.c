/* batched_vecmat_mult: a batch of vector-matrix products, each batch row with its own
 * matrix (catalogue part 1, src lines 1236-1285).
 *
 *   batched_vecmat_closed_form_correct (hBM, hBN, hBK : 0 < BLOCK_*) (hInj :
 *     vecmatOutOffset injective) (hundef): output[(p0*BM + i)*dim_n + p1*BN + j] =
 *     gemvSpec = sum_{k < BLOCK_K*numKBlocks} A[m*K + k] * B[(m*dim_n + n)*K + k]
 *     (m = p0*BM + i, n = p1*BN + j, K = dim_k = BLOCK_K*numKBlocks)
 *   batched_vecmat_io_correctness (hBK : 0 < BLOCK_K) (hBN : BLOCK_N <= dim_n):
 *     batchedVecmatIO |=[R] fun _ _ xs ys l => sum_t sum_e xs t (aLane l e) * ys t (bLane l e),
 *     StreamMasked2DKernelIO_2 (outDType .real), T = numKBlocks, B1 = BM*BK,
 *     B2 = BN*BM*BK, C = BM*BN, read1 = (p0*BM + l/BK)*K + t*BK + l%BK,
 *     read2 = (p0*BM + (l/BK) % BM)*dim_n*K + (p1*BN + l/BK/BM)*K + t*BK + l%BK,
 *     write = (p0*BM + l/BN)*dim_n + p1*BN + l%BN, masks True.
 *
 * Kernel (bench/tritonbench_g/batched_vecmat_mult/batched_vecmat_mult.py): 2-D grid
 * (m_index, n_index); no tl.dot: each K block loads a [BM, BK] tile of A and a
 * [BN, BM, BK] tile of B, multiplies elementwise (binary32 products), reduces with
 * tl.sum(axis=2) (the pairwise tree over BK), transposes and adds to the binary32
 * accumulator (zeros of A's dtype); unmasked store.  gemvSpec / aLane / bLane in
 * BatchedVecmatMult.lean (bLane flattens (j, i, e) over [BN, BM, BK]); checked.
 * No masks: the launch must fit; the generator takes dim_m = grid[0]*BM rows and
 * dim_n >= grid[1]*BN columns (wider rows than the launch covers: stride > row).
 *
 * Dtypes: binary32 throughout (the wrapper's fp32 randn; there is no tl.dot, so no
 * TF32 question).  The .real store of the IO contract is exact (no cast slot).
 * Error model: binary32 products (one rounding each), the pairwise tree per BK tile,
 * numKBlocks sequential adds (contracts/matmul_common.h).
 * Special values: finite binary32 operands |x| <= 2^40: every product and partial
 * sum is finite.
 */
#include "gen_large.h"
#include "matmul_common.h"

enum { P_DM, P_DN, P_BM, P_BN, P_BK, P_NKB, NP };
enum { R_A, R_B, R_OUT, NR };

#define TD_SPEC_FILE "batched_vecmat_mult.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"_dim_m", TD_P_INT},  {"dim_n", TD_P_INT},   {"BLOCK_M", TD_P_INT},
                                         {"BLOCK_N", TD_P_INT}, {"BLOCK_K", TD_P_INT}, {"numKBlocks", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"A", TD_F32, TD_R_IN}, {"B", TD_F32, TD_R_IN}, {"output", TD_F32, TD_R_OUT}};

static void gen(td_producer *p, td_case *c) {
    int64_t BM = td_gen_pow2(p, 0, 4), BN = td_gen_pow2(p, 0, 4), BK = td_gen_pow2(p, 0, 5);
    int64_t g0 = td_prod_u32(p, 1, 3), g1 = td_prod_u32(p, 1, 3), T = td_prod_u32(p, 1, 4);
    int64_t extra = td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, 5) : 0;
    while (T > 1 && g0 * BM * g1 * BN * BK * T > (1 << 15)) T--;
    int64_t dm = g0 * BM, dn = g1 * BN + extra, K = BK * T;
    c->p[P_DM].i = dm, c->p[P_DN].i = dn, c->p[P_BM].i = BM, c->p[P_BN].i = BN, c->p[P_BK].i = BK, c->p[P_NKB].i = T;
    c->grid[0] = (uint32_t)g0, c->grid[1] = (uint32_t)g1;
    uint64_t cls = TD_BC(TD_BC_EXACT_MULTIPLE) | (extra ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0);
    if (g0 * g1 == 1) cls |= TD_BC(TD_BC_ONE_PROGRAM);
    if (dm * (g1 * BN) == 1) cls |= TD_BC(TD_BC_SINGLE_LANE);
    if (T > 1) cls |= TD_BC(TD_BC_MULTI_TILE);
    c->classes |= cls;
    td_case_alloc(c, R_A, (size_t)(dm * K));
    td_case_alloc(c, R_B, (size_t)(dm * dn * K));
    td_case_alloc(c, R_OUT, (size_t)(dm * dn));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F32));
    td_vgen_fill(&g, c, R_A);
    td_vgen_fill(&g, c, R_B);
    /* absorption (matmul_common.h): every row's matrix gets the big/small/-big keys */
    if (K >= 3 && td_prod_u32(p, 0, 5) == 0)
        for (int64_t m = 0; m < dm; m++) mm_absorb_at(&g, c, R_A, R_B, m * K, m * dn * K, 1, dn, K, 0, 1, 1, K);
}

static const char *check_common(const td_case *c) {
    for (int i = 0; i < NP; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t dm = c->p[P_DM].i, dn = c->p[P_DN].i, BM = c->p[P_BM].i, BN = c->p[P_BN].i, BK = c->p[P_BK].i;
    int64_t K = BK * c->p[P_NKB].i;
    if (BK <= 0) return "hBK: 0 < BLOCK_K";
    if (BM <= 0 || BN <= 0) return "BLOCK_M, BLOCK_N > 0 (tl.arange extents)";
    if (c->grid[2] != 1 || (int64_t)c->grid[0] * BM > dm || (int64_t)c->grid[1] * BN > dn)
        return "the unmasked launch fits: grid[0]*BLOCK_M <= dim_m, grid[1]*BLOCK_N <= dim_n";
    if ((int64_t)c->r[R_A].len < dm * K || (int64_t)c->r[R_B].len < dm * dn * K || (int64_t)c->r[R_OUT].len < dm * dn)
        return "A, B, output hold [dim_m, K], [dim_m, dim_n, K], [dim_m, dim_n]";
    return NULL;
}
static const char *check_cf(const td_case *c) {
    const char *e = check_common(c);
    if (e) return e;
    if (!mm_tile_injective(c->p[P_BM].i, c->p[P_BN].i, c->p[P_DN].i, 1)) return "hInj: vecmatOutOffset injective";
    return NULL;
}
static const char *check_io(const td_case *c) {
    const char *e = check_common(c);
    if (e) return e;
    if (c->p[P_BN].i > c->p[P_DN].i) return "hBN: BLOCK_N <= dim_n";
    return NULL;
}

/* A large case: the row-blocks (m_index) of its windows; the others' lanes only counted. */
static void writes(const td_case *c, td_wset *ws) {
    int64_t dn = c->p[P_DN].i, BM = c->p[P_BM].i, BN = c->p[P_BN].i, K = c->p[P_BK].i * c->p[P_NKB].i;
    uint64_t seen = 0;
    for (uint32_t p0 = (uint32_t)td_large_row_next(c, 0); p0 < c->grid[0];
         p0 = (uint32_t)td_large_row_next(c, (uint64_t)p0 + 1), seen++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (int64_t i = 0; i < BM; i++)
                for (int64_t j = 0; j < BN; j++) {
                    int64_t m = p0 * BM + i, n = p1 * BN + j;
                    td_olane l = {.region = R_OUT, .off = (uint64_t)(m * dn + n), .pid = {p0, p1, 0},
                                  .j = (uint64_t)(i * BN + j), .idx = {m * K, (m * dn + n) * K, m, n}};
                    td_wset_add(ws, &l);
                }
    if (c->nwin) ws->dropped += (c->grid[0] - seen) * c->grid[1] * (uint64_t)(BM * BN);
}

/* The large tier (gen_large.h, td_rows_large): more than 2^31 / (BLOCK_M * dim_n * K)
 * programs along m, so B's row offset m * dim_n * dim_k passes 2^31 (dim_m, dim_n,
 * dim_k unannotated ints, their products int32 in the original; Lean's are Nat).
 * Row-block m_index is BLOCK_M rows: [BLOCK_M, K] of A, [BLOCK_M, dim_n, K] of B,
 * [BLOCK_M, dim_n] of the output.  A row-block of B under TD_ROWS_LARGE_MIN_LEN
 * elements gets more K blocks (numKBlocks), the drawn values first and zeros after. */
static void large(td_producer *p, td_case *c) {
    int64_t BM = c->p[P_BM].i, dn = c->p[P_DN].i, BK = c->p[P_BK].i, T0 = c->p[P_NKB].i, T = T0;
    if (BM * dn * BK * T < TD_ROWS_LARGE_MIN_LEN) T = (TD_ROWS_LARGE_MIN_LEN + BM * dn * BK - 1) / (BM * dn * BK);
    uint64_t K0 = (uint64_t)(BK * T0), K = (uint64_t)(BK * T), bm = (uint64_t)BM, n = (uint64_t)dn;
    td_rows_region rr[3] = {{R_A, bm * K, bm * K0}, {R_B, bm * n * K, bm * n * K0}, {R_OUT, bm * n, 0}};
    uint64_t R;
    if (td_rows_large(p, c, c->grid[0], rr, 3, &R) != 0) return;
    c->p[P_NKB].i = T;
    c->p[P_DM].i = (int64_t)(R * bm);
    c->grid[0] = (uint32_t)R;
    c->classes &= ~TD_BC(TD_BC_SINGLE_LANE);
    if (T > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
}

/* no far hook (offsets beyond 2^31): no stride parameters; B's row offset m * dim_n * K
 * passes 2^31 only with dim_n (also the output's row length: 2^31 output elements) or K
 * (a 2^26-step loop) that large, or with dim_m that large: the large tier's (`large`) */
#define BV_COMMON                                                                                                  \
    .file = "batched_vecmat_mult", .family = "matmul", .nparams = NP, .params = params, .nregions = NR,           \
    .regions = regions, .sv = TD_SV_IEEE,                                                                           \
    .sv_note = "finite binary32 operands |x| <= 2^40: every product and partial sum is finite",                     \
    .error_model = "binary32 products, pairwise tree per BLOCK_K tile (tl.sum axis=2), numKBlocks sequential adds", \
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) |                \
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) |                \
               TD_BC(TD_BC_VALUES_LARGE),                                                                           \
    .gen = gen, .large = large, .writes = writes

static const td_intent mm_intent = {
    .operation = "out[m, n] = sum_k A[m, k] B[m, n, k]: each batch row times its own matrix",
    .definition = "torch.matmul / torch.bmm / torch.mv (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]), the "
                  "exact value rounded once to C's format",
    TD_SPECS(bvm_intent),
};

const td_contract td_c_batched_vecmat_cf = {
    .id = "batched_vecmat_mult.batched_vecmat_closed_form_correct",
    .io_class = "Realizes_without_Rounding over TileIndex [BLOCK_M,BLOCK_N]",
    .kind = "exact",
    .formula = "out[m*dim_n + n] = sum_{k < BLOCK_K*numKBlocks} A[m*K + k] * B[(m*dim_n + n)*K + k]",
    .check = check_cf,
    BV_COMMON,
    TD_SPECS(bvm),
    .intent = &mm_intent,
};

const td_contract td_c_batched_vecmat_io = {
    .id = "batched_vecmat_mult.batched_vecmat_io_correctness",
    .io_class = "StreamMasked2DKernelIO_2 (batchedVecmatIO), outDType .real",
    .kind = "rounding",
    .formula = "out[l] = sum_t sum_e xs[t][aLane l e] * ys[t][bLane l e]  (the .real store is exact)",
    .check = check_io,
    BV_COMMON,
    TD_SPECS(bvm),
    .intent = &mm_intent,
};
