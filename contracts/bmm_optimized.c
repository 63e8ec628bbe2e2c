/* bmm_optimized: FlagGems' batched GEMM with the GROUP_M CTA reorder and ragged M, N, K
 * (catalogue part 1, src lines 1783-1796).
 *
 *   bmm_o_exec_genuine (hTN : TILE_N <= N) (hTK : 0 < TILE_K) (hundef): exec terminates,
 *     and for every active lane (row < M, col < N) of program s,
 *     O[pid_b*M*N + row*N + col] = bmmOOut = sum_{t < K} A[pid_b*M*K + row*K + t] * B[pid_b*K*N + t*N + col]
 *     with row = bmmPidM * TILE_M + i, col = bmmPidN * TILE_N + j (bmmRowG / bmmColG).
 *   An exec-existential: no frame conjunct.  tilediff still checks the frame (cells
 *   outside the active window keep their sentinel), which the masked store meets:
 *   stricter than the theorem, and what a caller relies on.
 *
 * Kernel (bench/tritonbench_g/bmm_optimized/bmm_optimized.py, bmm_kernel) at
 * DIVISIBLE_M = DIVISIBLE_N = DIVISIBLE_K = False, the arm the Lean surface
 * transcribes (the only one total for ragged shapes; the others elide masks where
 * they are true): grid (cdiv(M, TILE_M), cdiv(N, TILE_N), batch), pid_b = program_id(2);
 * for GROUP_M > 1 the CTA reorder pid = pidx + pidy*gridx, group of gridy*GROUP_M,
 * GROUP_SIZE = gridx % GROUP_M on a ragged last group (bmmPidM / bmmPidN, checked);
 * a K loop of cdiv(K, TILE_K) steps whose loads are masked by offs_k < K and the
 * row / column masks WITHOUT `other`: masked lanes are undefined in Triton, 0 under
 * VeriTile's clean-undef hypothesis (hundef); the host and CUDA ports load 0, which
 * is also what the hardware's predicated loads leave in practice; then
 * `o += tl.dot(a, b, allow_tf32=False)` and the masked store.  bmmOOut is the sum
 * over t < K: the K tail (K not a multiple of TILE_K) is part of the contract and the
 * generator favours it.
 *
 * Dtypes: binary32 (the wrapper keeps A's dtype; allow_tf32=False makes tl.dot IEEE).
 * Error model: binary32 products (one rounding each), pairwise tree per TILE_K tile
 * (masked lanes add 0), cdiv(K, TILE_K) sequential adds (contracts/matmul_common.h).
 * Special values: finite binary32 operands |x| <= 2^40: everything finite.
 */
#include "matmul_common.h"

enum { P_M, P_N, P_K, P_TM, P_TN, P_TK, P_GM, NP };
enum { R_A, R_B, R_O, NR };

/* bmmPidM / bmmPidN (the CTA reorder; identity when GROUP_M = 1) */
static inline void bmm_pids(int64_t px, int64_t py, int64_t gx, int64_t gy, int64_t G, int64_t *pm, int64_t *pn) {
    if (G == 1) {
        *pm = px, *pn = py;
        return;
    }
    int64_t pid = px + py * gx, per = gy * G, gid = pid / per, inner = pid % per;
    int64_t gs = gid * G + G > gx ? gx % G : G;
    if (gs == 0) gs = 1; /* outside the grid only */
    *pm = gid * G + inner % gs;
    *pn = inner / gs;
}

#define TD_SPEC_FILE "bmm_optimized.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"M", TD_P_INT},      {"N", TD_P_INT},      {"K", TD_P_INT},
                                         {"TILE_M", TD_P_INT}, {"TILE_N", TD_P_INT}, {"TILE_K", TD_P_INT},
                                         {"GROUP_M", TD_P_INT}};
static const td_region_decl regions[NR] = {{"A", TD_F32, TD_R_IN}, {"B", TD_F32, TD_R_IN}, {"O", TD_F32, TD_R_OUT}};

static void gen(td_producer *p, td_case *c) {
    int64_t TM = td_gen_pow2(p, 4, 5), TN = td_gen_pow2(p, 4, 5), TK = td_gen_pow2(p, 4, 5);
    uint64_t cls = 0, kcls = 0;
    int64_t M = (int64_t)td_gen_count(p, (uint64_t)TM, 48, &cls);
    int64_t N = (int64_t)td_gen_count(p, (uint64_t)TN, 48, &cls);
    if (N < TN) N = TN; /* hTN */
    int64_t K = (int64_t)td_gen_count(p, (uint64_t)TK, 96, &kcls);
    if (K % TK) cls |= TD_BC(TD_BC_TAIL);
    int64_t batch = td_prod_u32(p, 1, 2), G = td_prod_u32(p, 1, 3);
    while (batch * M * N * mm_cdiv(K, TK) * TK > (1 << 16) && K > TK) K -= TK;
    if (mm_cdiv(K, TK) > 1) cls |= TD_BC(TD_BC_MULTI_TILE);
    int64_t v[NP] = {M, N, K, TM, TN, TK, G};
    for (int i = 0; i < NP; i++) c->p[i].i = v[i];
    c->grid[0] = (uint32_t)mm_cdiv(M, TM), c->grid[1] = (uint32_t)mm_cdiv(N, TN), c->grid[2] = (uint32_t)batch;
    cls |= TD_BC(TD_BC_ONE_PROGRAM) * (c->grid[0] * c->grid[1] * c->grid[2] == 1);
    c->classes |= cls;
    td_case_alloc(c, R_A, (size_t)(batch * M * K));
    td_case_alloc(c, R_B, (size_t)(batch * K * N));
    td_case_alloc(c, R_O, (size_t)(batch * M * N));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F32));
    td_vgen_fill(&g, c, R_A);
    td_vgen_fill(&g, c, R_B);
    if (K >= 3 && td_prod_u32(p, 0, 5) == 0)
        for (int64_t b = 0; b < batch; b++) mm_absorb_at(&g, c, R_A, R_B, b * M * K, b * K * N, M, N, K, K, 1, N, 1);
}

static const char *check(const td_case *c) {
    for (int i = 0; i < NP; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t M = c->p[P_M].i, N = c->p[P_N].i, K = c->p[P_K].i, TM = c->p[P_TM].i, TN = c->p[P_TN].i;
    if (TN > N) return "hTN: TILE_N <= N";
    if (c->p[P_TK].i <= 0) return "hTK: 0 < TILE_K";
    if (TM <= 0 || c->p[P_GM].i <= 0 || M <= 0) return "TILE_M, GROUP_M, M > 0 (a launchable grid)";
    if ((int64_t)c->grid[0] != mm_cdiv(M, TM) || (int64_t)c->grid[1] != mm_cdiv(N, TN))
        return "grid = (cdiv(M, TILE_M), cdiv(N, TILE_N), batch)";
    int64_t batch = c->grid[2];
    if ((int64_t)c->r[R_A].len < batch * M * K || (int64_t)c->r[R_B].len < batch * K * N ||
        (int64_t)c->r[R_O].len < batch * M * N)
        return "A, B, O hold batch x [M, K], [K, N], [M, N]";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t M = c->p[P_M].i, N = c->p[P_N].i, K = c->p[P_K].i, TM = c->p[P_TM].i, TN = c->p[P_TN].i;
    for (uint32_t pb = 0; pb < c->grid[2]; pb++)
        for (uint32_t py = 0; py < c->grid[1]; py++)
            for (uint32_t px = 0; px < c->grid[0]; px++) {
                int64_t pm, pn;
                bmm_pids(px, py, c->grid[0], c->grid[1], c->p[P_GM].i, &pm, &pn);
                for (int64_t i = 0; i < TM; i++)
                    for (int64_t j = 0; j < TN; j++) {
                        int64_t row = pm * TM + i, col = pn * TN + j;
                        if (!(row < M && col < N)) continue; /* bmmOActive */
                        td_olane l = {.region = R_O, .off = (uint64_t)(pb * M * N + row * N + col),
                                      .pid = {px, py, pb}, .j = (uint64_t)(i * TN + j),
                                      .idx = {pb * M * K + row * K, pb * K * N + col, row, col}};
                        td_wset_add(ws, &l);
                    }
            }
}

static const td_intent mm_intent = {
    .operation = "O[b] = A[b] @ B[b] for each batch b",
    .definition = "torch.matmul / torch.bmm / torch.mv (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]), the "
                  "exact value rounded once to C's format",
    TD_SPECS(bmm_o_intent),
};

const td_contract td_c_bmm_o_exec_genuine = {
    .id = "bmm_optimized.bmm_o_exec_genuine",
    .file = "bmm_optimized",
    .family = "matmul",
    .io_class = "exec existential (no frame), writeIf bmmOActive",
    .kind = "exact",
    .formula = "O[b*M*N + row*N + col] = sum_{t<K} A[b*M*K + row*K + t] * B[b*K*N + t*N + col]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_IEEE,
    .sv_note = "finite binary32 operands |x| <= 2^40: every product and partial sum is finite; masked loads read 0",
    .error_model = "binary32 products, pairwise tree per TILE_K tile (K tail lanes 0), cdiv(K, TILE_K) sequential adds",
    .classes = TD_BCLASSES_TILED,
    /* no far hook (offsets beyond 2^31): contiguous [batch, M, K] / [batch, K, N] layouts
     * without stride parameters; an offset passes 2^31 only with M*K or K*N that large
     * (a K loop of 2^26 steps): the offsets follow the sizes, no stride to move.
     * No large hook either, for its cost: the tier's row-blocks would be the batches (A +=
     * pid_b * M * K in int32 wraps past 2^31), but the launch's kernel work cannot be made
     * cheap.  The widest batch block is a product of two of M, N, K (say K*N) and there are
     * more than 2^31 / (K*N) batches; every program multiplies tiles padded to TILE_M x
     * TILE_N x TILE_K, each at least 16 (tl.dot's least tile, the drawn 16..32), so even at
     * M = 1 the launch does at least 16 * 2^31 = 2^35 multiply-adds: about 6 ns each in a
     * replica of the host port's tile loop (kernels/host/matmul_tl.h: products, tl_sum's
     * tree) on the shared 2-core build machine, minutes a case (34 s even at 1 ns), where
     * the tier's cases take seconds.
     * (A device caps the batch axis, grid z, at 65535 as well: K*N >= 2^15 there.) */
    .gen = gen,
    .check = check,
    .writes = writes,
    TD_SPECS(bmm_o),
    .intent = &mm_intent,
};
