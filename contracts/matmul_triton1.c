/* matmul_triton1: a plain tiled matmul with a 1-D grid (catalogue part 2, src lines
 * 7307-7347).
 *
 *   matmul_triton1_closed_form_correct (hBK : 0 < BLOCK_K) (hN : N <= NS) (hundef): the
 *     surface matmul_triton1_surface X Y Z 0 (BLOCK_K*numKBlocks) NS M BLOCK_K N writes
 *     Z[zOffset] = matmulSpec = sum_{k < BLOCK_K*numKBlocks} X[row*K + k] * Y[k*NS + col]
 *     over its [M, N] tile (here M and N are the BLOCK sizes m_block_size, n_block_size;
 *     NS is n_size, the row stride of Y and Z; K = BLOCK_K*numKBlocks the row stride of X)
 *   matmul_triton1_io_correctness (hBK) (hN): matmulTriton1IO |=[R] fun _ _ xs ys l =>
 *     sum_t sum_e xs t (aLane M N BLOCK_K l e) * ys t (bLane M N BLOCK_K l e),
 *     StreamMasked2DKernelIO_2 (outDType .real), T = numKBlocks,
 *     read1 = (p0/nNB*M + l/BLOCK_K)*K + (t*BLOCK_K + l%BLOCK_K),
 *     read2 = (t*BLOCK_K + l/N)*NS + (p0%nNB*N + l%N),
 *     write = (p0/nNB*M + l/N)*NS + (p0%nNB*N + l%N), nNB = cdiv(NS, N), masks True.
 *
 * Kernel (bench/tritonbench_g/matmul_triton1/matmul_triton1.py): pid split into
 * m_block = pid // cdiv(n_size, n_block_size), n_block = pid % that; no masks at all;
 * `z += tl.dot(x_sub, y_sub, allow_tf32=False)` over range(0, k_size, k_block_size);
 * unmasked binary32 store.  matmulSpec in MatmulTriton1.lean is the sum over
 * k < BLOCK_K*numKBlocks; checked.
 * The grid: the contract holds per program; for a launch of nMB * nNB programs the
 * cells of distinct programs are distinct only when NS is a multiple of N (with a
 * partial last column block the unmasked store spills into the next row, where
 * another program writes), so the generator takes NS = nNB * N and nMB row blocks
 * (the wrapper's own launch uses one block covering the whole matrix).
 *
 * Dtypes: X, Y, Z binary32, as the wrapper's test.  allow_tf32=False makes tl.dot an
 * IEEE binary32 product-sum: every product is one binary32 rounding (charged exactly
 * where the product is of exact operands), then the pairwise tree per BLOCK_K tile and
 * numKBlocks sequential adds (contracts/matmul_common.h).  The .real store of the IO
 * contract is exact (no cast slot).
 * Special values: finite operands |x| <= 2^40: products and sums stay far below the
 * binary32 overflow threshold.
 */
#include "matmul_common.h"

enum { P_NS, P_M, P_BK, P_N, P_NKB, NP };
enum { R_X, R_Y, R_Z, NR };

#define TD_SPEC_FILE "matmul_triton1.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"NS", TD_P_INT}, {"M", TD_P_INT}, {"BLOCK_K", TD_P_INT}, {"N", TD_P_INT}, {"numKBlocks", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"X", TD_F32, TD_R_IN}, {"Y", TD_F32, TD_R_IN}, {"Z", TD_F32, TD_R_OUT}};

static void gen(td_producer *p, td_case *c) {
    int64_t M = td_gen_pow2(p, 4, 5), N = td_gen_pow2(p, 4, 5), BK = td_gen_pow2(p, 4, 5);
    int64_t nmb = td_prod_u32(p, 1, 2), nnb = td_prod_u32(p, 1, 2), T = td_prod_u32(p, 1, 4);
    while (T > 1 && nmb * M * nnb * N * BK * T > (1 << 15)) T--;
    int64_t NS = nnb * N, K = BK * T, rows = nmb * M;
    c->p[P_NS].i = NS, c->p[P_M].i = M, c->p[P_BK].i = BK, c->p[P_N].i = N, c->p[P_NKB].i = T;
    c->grid[0] = (uint32_t)(nmb * nnb);
    uint64_t cls = TD_BC(TD_BC_EXACT_MULTIPLE);
    if (nmb * nnb == 1) cls |= TD_BC(TD_BC_ONE_PROGRAM);
    if (T > 1) cls |= TD_BC(TD_BC_MULTI_TILE);
    c->classes |= cls;
    td_case_alloc(c, R_X, (size_t)(rows * K));
    td_case_alloc(c, R_Y, (size_t)(K * NS));
    td_case_alloc(c, R_Z, (size_t)(rows * NS) + (td_prod_bool(p) ? (size_t)N : 0));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F32));
    td_vgen_fill(&g, c, R_X);
    td_vgen_fill(&g, c, R_Y);
    if (K >= 3 && td_prod_u32(p, 0, 5) == 0) mm_absorb(&g, c, R_X, R_Y, rows, NS, K, K, 1, NS, 1);
}

static const char *check(const td_case *c) {
    int64_t NS = c->p[P_NS].i, M = c->p[P_M].i, BK = c->p[P_BK].i, N = c->p[P_N].i, T = c->p[P_NKB].i;
    if (NS < 0 || M < 0 || BK < 0 || N < 0 || T < 0) return "parameters are Nat";
    if (BK <= 0) return "hBK: 0 < BLOCK_K";
    if (N > NS) return "hN: N <= NS";
    if (M <= 0 || N <= 0) return "m_block_size, n_block_size > 0 (tl.arange extents)";
    int64_t nnb = mm_cdiv(NS, N);
    if (NS != nnb * N) return "the launch's programs write distinct cells (NS a multiple of N)";
    if (c->grid[0] % nnb || c->grid[1] != 1 || c->grid[2] != 1) return "grid = row blocks * cdiv(NS, N)";
    int64_t rows = (int64_t)c->grid[0] / nnb * M, K = BK * T;
    if ((int64_t)c->r[R_X].len < rows * K) return "X holds read1's window";
    if ((int64_t)c->r[R_Y].len < K * NS) return "Y holds read2's window";
    if ((int64_t)c->r[R_Z].len < rows * NS) return "Z holds the write window";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t NS = c->p[P_NS].i, M = c->p[P_M].i, N = c->p[P_N].i, K = c->p[P_BK].i * c->p[P_NKB].i;
    int64_t nnb = mm_cdiv(NS, N);
    for (uint32_t pid = 0; pid < c->grid[0]; pid++)
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) {
                int64_t row = pid / nnb * M + i, col = pid % nnb * N + j;
                td_olane l = {.region = R_Z, .off = (uint64_t)(row * NS + col), .pid = {pid, 0, 0},
                              .j = (uint64_t)(i * N + j), .idx = {row * K, col, row, col}};
                td_wset_add(ws, &l);
            }
}

#define MT1_COMMON                                                                                                 \
    .file = "matmul_triton1", .family = "matmul", .nparams = NP, .params = params, .nregions = NR,                \
    .regions = regions, .sv = TD_SV_IEEE,                                                                           \
    .sv_note = "finite binary32 operands |x| <= 2^40: every product and partial sum is finite",                     \
    .error_model = "binary32 products (one rounding each), pairwise tree per BLOCK_K tile, numKBlocks sequential " \
                   "adds",                                                                                          \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) |                 \
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE),                                            \
    .gen = gen, .check = check, .writes = writes
/* no far hook (offsets beyond 2^31): every row stride is a size.  X's is K (a K of
 * 2^31 / rows elements is a 2^26-step loop); Y's and Z's is NS = n_size, which is also
 * the launch's width (the checked launch, row blocks * cdiv(NS, N) programs, covers
 * every column block), so a far NS is 2^31 / K / N >= 2^17 programs, whether or not Z
 * is a sparse output; and the original's Y offsets never pass int32 (y_ptrs advances
 * by k_block_size * n_size a step), only Z's m_offsets * n_size would. */

static const td_intent mt1_intent = {
    .operation = "Z = X @ Y over K = BLOCK_K * numKBlocks",
    .definition = "torch.matmul (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]), the exact value rounded "
                  "once to C's format",
    TD_SPECS(mt1_intent),
};

const td_contract td_c_matmul_triton1_cf = {
    .id = "matmul_triton1.matmul_triton1_closed_form_correct",
    .io_class = "Realizes_without_Rounding over TileIndex [M,N]",
    .kind = "exact",
    .formula = "Z[row*NS + col] = sum_{k < BLOCK_K*numKBlocks} X[row*K + k] * Y[k*NS + col]",
    MT1_COMMON,
    TD_SPECS(mt1),
    .intent = &mt1_intent,
};

const td_contract td_c_matmul_triton1_io = {
    .id = "matmul_triton1.matmul_triton1_io_correctness",
    .io_class = "StreamMasked2DKernelIO_2 (matmulTriton1IO), outDType .real",
    .kind = "rounding",
    .formula = "Z[l] = sum_t sum_e xs[t][aLane l e] * ys[t][bLane l e]  (the .real store is exact)",
    MT1_COMMON,
    TD_SPECS(mt1),
    .intent = &mt1_intent,
};
