/* max_reduction (catalogue part 2, src lines 7554-7587)
 *
 *   max_kernel_1_io_correctness: maxKernel1IO inp mid M BLOCK_SIZE ⊨ fun pid xs _ =>
 *     maxTileSpecOf M BLOCK_SIZE pid xs   (MaskedTileKernelIO_1, shape [BLOCK_SIZE],
 *     read = pid*BLOCK_SIZE + i, write = pid, mask pid*BLOCK_SIZE + i < M, writeMask i = 0;
 *     hB: 0 < BLOCK_SIZE): mid[pid] = max of the block's valid lanes.
 *   max_kernel_output_summary: OutputPairWhere (max_kernel inp out_value out_index M N K
 *     BLOCK_M BLOCK_N) at maxKernelOutOffset = (pid0*BLOCK_M + i)*K + pid1 for rows
 *     pid0*BLOCK_M + i < M: out_value = maxKernelValueSpec = max_{n < N} inp[m, n, pid1],
 *     out_index = maxKernelIndexSpec = the first such n (Tile.argMaxDrop replaces only on
 *     strict improvement); hOutInj, hOutRegions: out_value != out_index.
 *
 * Checked against bench/tritonbench_g/max_reduction (.py and MaxReduction.lean): the
 * [named] readings are right; the tile is [BLOCK_M, BLOCK_N] with mask n < N, so when
 * BLOCK_N < N (the host's BLOCK_N = next_power_of_2(N) never does that, the contract
 * allows it, and the generator draws it) only the first BLOCK_N columns are reduced.
 * Triton's tl.max(return_indices=True) breaks ties to the left: the first maximum.
 *
 * Error model: a maximum is one of its inputs and an index is an integer, so both are
 * exact: tolerance 0, and the reported worst err/tol is 0 (any difference is a finding).
 *
 * Special values (the kernel's policy, not Lean's): a fully masked tile - a program past
 * cdiv(M, BLOCK_SIZE), which the generator sometimes launches, or N = 0 - loads -inf in
 * every lane, so the kernel stores max = -inf and index 0 where Lean's unbotD gives 0
 * for the value (the index, 0, agrees).  Inputs are finite binary32 values of any
 * magnitude; all-negative rows (where a 0.0 padding would win) and repeated maxima are
 * drawn.
 */
#include <float.h>
#include <stdint.h>

#include "gen_far.h"
#include "reduce_common.h"

enum { P1_M, P1_BLOCK, NP1 };
enum { R1_INP, R1_MID, NR1 };
enum { P_M, P_N, P_K, P_BM, P_BN, NP };
enum { R_INP, R_VAL, R_IDX, NR };

#define TD_SPEC_FILE "max_reduction.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params1[NP1] = {{"M", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions1[NR1] = {{"inp", TD_F32, TD_R_IN}, {"mid", TD_F32, TD_R_OUT}};
static const td_param_decl params[NP] = {
    {"M", TD_P_INT}, {"N", TD_P_INT}, {"K", TD_P_INT}, {"BLOCK_M", TD_P_INT}, {"BLOCK_N", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"inp", TD_F32, TD_R_IN}, {"out_value", TD_F32, TD_R_OUT}, {"out_index", TD_I64, TD_R_OUT}};

static void gen1(td_producer *p, td_case *c) {
    int64_t B = td_gen_pow2(p, 0, 10);
    int64_t M = (int64_t)td_gen_count(p, (uint64_t)B, 1 << 14, &c->classes);
    int64_t programs = (M + B - 1) / B;
    if (td_prod_u32(p, 0, 5) == 0) { /* surplus programs: fully masked tiles */
        programs += 1 + td_prod_u32(p, 0, 1);
        c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    }
    c->p[P1_M].i = M;
    c->p[P1_BLOCK].i = B;
    c->grid[0] = (uint32_t)programs;
    c->grid[1] = c->grid[2] = 1;
    td_case_alloc(c, R1_INP, (size_t)M + (td_prod_bool(p) ? (size_t)B : 0));
    td_case_alloc(c, R1_MID, (size_t)programs + 2);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    rc_fill_max(&g, c, R1_INP);
}

static const char *check1(const td_case *c) {
    int64_t M = c->p[P1_M].i, B = c->p[P1_BLOCK].i;
    if (B <= 0) return "hB: 0 < BLOCK_SIZE";
    if (M < 0 || c->r[R1_INP].len < (size_t)M) return "inp holds M elements";
    if ((int64_t)c->grid[0] * B < M || c->grid[1] != 1 || c->grid[2] != 1) return "the grid covers M";
    if (c->r[R1_MID].len < c->grid[0]) return "mid holds one cell per program";
    for (size_t e = 0; e < c->r[R1_INP].len; e++)
        if (!isfinite(td_get(c, R1_INP, e))) return "inp holds real (finite) values";
    return NULL;
}

static void writes1(const td_case *c, td_wset *ws) {
    for (uint32_t pid = 0; pid < c->grid[0]; pid++) {
        td_olane l = {.o = 0, .region = R1_MID, .off = pid, .pid = {pid, 0, 0}, .idx = {pid}};
        td_wset_add(ws, &l);
    }
}

static void gen(td_producer *p, td_case *c) {
    int64_t BN = td_gen_pow2(p, 0, 8);
    int64_t N;
    switch (td_prod_u32(p, 0, 7)) {
    case 0: N = 0; c->classes |= TD_BC(TD_BC_FULLY_MASKED); break; /* an empty reduction */
    case 1: N = BN + 1 + td_prod_u32(p, 0, (uint32_t)BN); break;     /* BLOCK_N < N: first BLOCK_N columns */
    default: N = (int64_t)td_gen_count(p, (uint64_t)BN, (uint64_t)BN, &c->classes); break; /* the host's */
    }
    int64_t BM = td_gen_pow2(p, 0, 5);
    int64_t K = td_prod_u32(p, 0, 3) ? 1 + td_prod_u32(p, 0, 3) : 1;
    int64_t per = (N ? N : 1) * K;
    int64_t M = (int64_t)td_gen_count(p, (uint64_t)BM, (uint64_t)(16384 / per > 1 ? 16384 / per : 1), &c->classes);
    c->p[P_M].i = M;
    c->p[P_N].i = N;
    c->p[P_K].i = K;
    c->p[P_BM].i = BM;
    c->p[P_BN].i = BN;
    c->grid[0] = (uint32_t)((M + BM - 1) / BM);
    c->grid[1] = (uint32_t)K;
    c->grid[2] = 1;
    td_case_alloc(c, R_INP, (size_t)(M * N * K));
    size_t slack = td_prod_bool(p) ? (size_t)(BM * K) : 0;
    td_case_alloc(c, R_VAL, (size_t)(M * K) + slack);
    td_case_alloc(c, R_IDX, (size_t)(M * K) + slack);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    rc_fill_max(&g, c, R_INP);
}

static const char *check(const td_case *c) {
    int64_t M = c->p[P_M].i, N = c->p[P_N].i, K = c->p[P_K].i, BM = c->p[P_BM].i, BN = c->p[P_BN].i;
    if (BM <= 0 || BN <= 0 || (BN & (BN - 1)) || (BM & (BM - 1))) return "BLOCK_M, BLOCK_N: powers of two (tl.arange)";
    if (M < 1 || N < 0 || K < 1) return "M >= 1, N : Nat, K >= 1";
    if (c->grid[0] != (uint64_t)((M + BM - 1) / BM) || c->grid[1] != (uint64_t)K) return "grid = (cdiv(M, BLOCK_M), K)";
    if (c->r[R_INP].len < (size_t)(M * N * K)) return "inp holds the [M, N, K] tensor";
    if (c->r[R_VAL].len < (size_t)(M * K) || c->r[R_IDX].len < (size_t)(M * K)) return "outputs hold M * K";
    if (!td_region_abs_le(c, R_INP, DBL_MAX)) /* finite; of a far case's sparse inp only its written pages */
        return "inp holds real (finite) values";
    return NULL; /* hOutInj: (pid0*BLOCK_M + i)*K + pid1 is injective for K >= 1; hOutRegions: two regions */
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t M = c->p[P_M].i, K = c->p[P_K].i, BM = c->p[P_BM].i;
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (int64_t i = 0; i < BM; i++) {
                int64_t m = (int64_t)p0 * BM + i;
                if (m >= M) break;
                uint64_t off = (uint64_t)(m * K + p1);
                td_olane a = {.o = 0, .region = R_VAL, .off = off, .pid = {p0, p1, 0}, .j = (uint64_t)i, .idx = {m, p1}};
                td_olane b = {.o = 1, .region = R_IDX, .off = off, .pid = {p0, p1, 0}, .j = (uint64_t)i, .idx = {m, p1}};
                td_wset_add(ws, &a);
                td_wset_add(ws, &b);
            }
}

/* Offsets beyond 2^31 (gen_far.h) of max_kernel: row m sits at m * N * K (no stride
 * parameter; inp holds the whole [M, N, K] tensor), so a far case keeps up to
 * TD_FAR_MAX_ROWS - 1 rows and enlarges N, the reduced length, until the last row starts
 * 2^31 elements or more in: M, N, K are tl.int32 in the kernel's signature, each below
 * 2^31, but m_offset * N * K is formed in int32 and wraps (the original's own bug
 * beyond 2^31 elements; the contract's offset is over Nat).  N stays an int32 (R = 2
 * rows of K = 1 column cannot pass 2^31: no far case).  The tile reads BLOCK_N columns
 * of N, so BLOCK_N first becomes the largest power of two <= N, and the columns
 * n < BLOCK_N of each row move (td_far_reslab: sparse; the outputs at m*K + k stay
 * dense). */
static void far_k(td_producer *p, td_case *c) {
    static const int reg[1] = {R_INP};
    int64_t M = c->p[P_M].i, N = c->p[P_N].i, K = c->p[P_K].i, BM = c->p[P_BM].i, t = c->p[P_BN].i;
    if (M < 2 || N <= 0 || K <= 0 || BM <= 0 || t <= 0) return;
    int64_t R = M < TD_FAR_MAX_ROWS - 1 ? M : TD_FAR_MAX_ROWS - 1, d = td_prod_u32(p, 0, 64); /* <= 24 GiB */
    while (t > N) t /= 2;
    int64_t N2 = (((int64_t)1 << 31) + d + (R - 1) * K - 1) / ((R - 1) * K); /* (R-1) * N2 * K >= 2^31 + d */
    if (N2 > INT32_MAX || td_far_reslab(c, reg, 1, M, R, t * K, N * K, N2 * K)) return;
    c->p[P_M].i = R, c->p[P_N].i = N2, c->p[P_BN].i = t;
    c->grid[0] = (uint32_t)((R + BM - 1) / BM);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | (R % BM ? TD_BC(TD_BC_FULLY_MASKED) : 0);
}

/* .far of max_kernel_1: none -- it reads pid*BLOCK_SIZE + i < M with M a tl.int32 (every offset below 2^31). */
const td_contract td_c_max_kernel_1 = {
    .id = "max_reduction.max_kernel_1_io_correctness",
    .file = "max_reduction",
    .family = "reduction",
    .io_class = "MaskedTileKernelIO_1 (maxKernel1IO, writeMask i = 0)",
    .kind = "exact",
    .formula = "mid[pid] = max_{i < BLOCK_SIZE, pid*BLOCK_SIZE + i < M} inp[pid*BLOCK_SIZE + i]",
    .nparams = NP1,
    .params = params1,
    .nregions = NR1,
    .regions = regions1,
    .sv = TD_SV_REAL,
    .sv_note = "a fully masked program (past cdiv(M, BLOCK_SIZE)) stores -inf (other=-inf), Lean's unbotD says 0: the "
               "oracle follows the kernel",
    .error_model = "a maximum is one of its inputs: exact (tolerance 0)",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED),
    .gen = gen1,
    .check = check1,
    .writes = writes1,
    TD_SPECS(max1),
};

/* The maximum of an empty row is undefined (torch.max raises on it). */
static const char *empty_gap(const td_case *c) {
    return c->p[P_N].i == 0 ? "N = 0: the maximum of an empty row is undefined (the kernel writes -inf and 0)" : NULL;
}

static const td_intent intent_k = {
    .operation = "the maximum of each row over its N entries and the index of the first maximal one",
    .definition = "torch.max(x, dim=1) (PyTorch documentation: values and the indices of the first maximum)",
    TD_SPECS(maxk_intent),
    .gap = empty_gap,
};

const td_contract td_c_max_kernel = {
    .id = "max_reduction.max_kernel_output_summary",
    .file = "max_reduction",
    .family = "reduction",
    .io_class = "ComputeCorrect.OutputPairWhere (value, index) at (pid0*BLOCK_M + i)*K + pid1",
    .kind = "exact",
    .formula = "out_value[m*K+k] = max_{n < min(N, BLOCK_N)} inp[m, n, k]; out_index[m*K+k] = its first n",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "N = 0 (every lane masked): the kernel stores -inf and index 0, Lean's unbotD says value 0: the oracle "
               "follows the kernel",
    .error_model = "maximum and first argmax are exact (tolerance 0)",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far_k,
    .check = check,
    .writes = writes,
    TD_SPECS(maxk),
    .intent = &intent_k,
};
