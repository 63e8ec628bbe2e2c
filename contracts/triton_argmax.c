/* triton_argmax (catalogue part 2, src lines 10823-10900)
 *
 *   argmax_kernel_1_value_compute_correct: mid_value[pid] = argmaxKernel1ValueSpec
 *     = max_{i: pid*BLOCK_SIZE + i < M} inp[pid*BLOCK_SIZE + i]      (hRegions)
 *   argmax_kernel_1_index_compute_correct: mid_index[pid] = argmaxKernel1IndexSpec
 *     = argMaxDrop(tile) + pid*BLOCK_SIZE                              (Nat)
 *   argmax_kernel_1_io_correctness: ValueIndexTileKernelIO, both of the above
 *     (read = pid*BLOCK_SIZE + i, writeVal = writeIdx = pid, writeMask i = 0; hB, hRegions)
 *   argmax_kernel_2_compute_correct: out[0] = argmaxKernel2Spec = mid_index[argMaxDrop of
 *     mid_value over i < mid_size within BLOCK_MID lanes]             (Int)
 *   argmax_kernel_dim_single_block_compute_correct: out_index[(pid0*BLOCK_M + i)*K + pid1]
 *     = argmax_{n < N} inp[m, n, pid1] for rows m = pid0*BLOCK_M + i < M
 *     (hBN: 0 < BLOCK_N, hNpos: 0 < N, hNle: N <= BLOCK_N, hOutInj)
 *   INT64_INDEX = false in every theorem.
 *
 * Checked against bench/tritonbench_g/triton_argmax (.py and the Lean file): the
 * [named] readings are right.  Tile.argMaxDrop replaces only on strict improvement, so
 * ties give the FIRST maximum, as Triton's tl.argmax / tl.max(return_indices=True,
 * return_indices_tie_break_left=True) do; the dim kernel's loop runs once (N <= BLOCK_N),
 * its `local_max > max_values` update against -inf always fires for finite rows.
 *
 * Write sets: the two compute theorems on argmax_kernel_1 each speak about ONE of the
 * kernel's two stores; the other output is a scratch region (TD_R_SCRATCH: written by
 * the kernel, not checked, guard zones still checked).  Index regions are int64 (the
 * host's torch.int64 buffers).
 *
 * Error model: maxima are inputs and indices are integers: tolerance 0 (worst err/tol 0).
 * Special values (the kernel's policy): a program past cdiv(M, BLOCK_SIZE) (drawn
 * sometimes) loads -inf in every lane: value -inf (Lean's unbotD: 0), index pid*BLOCK_SIZE
 * (as Lean); mid_size = 0 in argmax_kernel_2 gives argmax 0, so out = mid_index[0], as
 * Lean.  Inputs: any finite binary32, all-negative tiles and repeated maxima drawn;
 * mid_index holds arbitrary int64 values within +-2^53 (exact in the oracle's doubles).
 */
#include "reduce_common.h"

enum { P1_M, P1_BLOCK, NP1 };
enum { R1_INP, R1_VAL, R1_IDX, NR1 };
enum { P2_SIZE, P2_BLOCK, NP2 };
enum { R2_VAL, R2_IDX, R2_OUT, NR2 };
enum { PD_M, PD_N, PD_K, PD_BM, PD_BN, NPD };
enum { RD_INP, RD_OUT, NRD };

#define TD_SPEC_FILE "triton_argmax.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params1[NP1] = {{"M", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions1_value[NR1] = {
    {"inp", TD_F32, TD_R_IN}, {"mid_value", TD_F32, TD_R_OUT}, {"mid_index", TD_I64, TD_R_SCRATCH}};
static const td_region_decl regions1_index[NR1] = {
    {"inp", TD_F32, TD_R_IN}, {"mid_value", TD_F32, TD_R_SCRATCH}, {"mid_index", TD_I64, TD_R_OUT}};
static const td_region_decl regions1_io[NR1] = {
    {"inp", TD_F32, TD_R_IN}, {"mid_value", TD_F32, TD_R_OUT}, {"mid_index", TD_I64, TD_R_OUT}};
static const td_param_decl params2[NP2] = {{"mid_size", TD_P_INT}, {"BLOCK_MID", TD_P_INT}};
static const td_region_decl regions2[NR2] = {
    {"mid_value", TD_F32, TD_R_IN}, {"mid_index", TD_I64, TD_R_META}, {"out", TD_I64, TD_R_OUT}};
static const td_param_decl paramsd[NPD] = {
    {"M", TD_P_INT}, {"N", TD_P_INT}, {"K", TD_P_INT}, {"BLOCK_M", TD_P_INT}, {"BLOCK_N", TD_P_INT}};
static const td_region_decl regionsd[NRD] = {{"inp", TD_F32, TD_R_IN}, {"out_index", TD_I64, TD_R_OUT}};

/* ---- argmax_kernel_1 ---- */
static void gen1(td_producer *p, td_case *c) {
    int64_t B = td_gen_pow2(p, 0, 10);
    int64_t M = (int64_t)td_gen_count(p, (uint64_t)B, 1 << 14, &c->classes);
    int64_t programs = (M + B - 1) / B;
    if (td_prod_u32(p, 0, 5) == 0) {
        programs += 1 + td_prod_u32(p, 0, 1);
        c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    }
    c->p[P1_M].i = M;
    c->p[P1_BLOCK].i = B;
    c->grid[0] = (uint32_t)programs;
    c->grid[1] = c->grid[2] = 1;
    td_case_alloc(c, R1_INP, (size_t)M + (td_prod_bool(p) ? (size_t)B : 0));
    td_case_alloc(c, R1_VAL, (size_t)programs + 2);
    td_case_alloc(c, R1_IDX, (size_t)programs + 2);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    rc_fill_max(&g, c, R1_INP);
}
static const char *check1(const td_case *c) {
    int64_t M = c->p[P1_M].i, B = c->p[P1_BLOCK].i;
    if (B <= 0) return "hB: 0 < BLOCK_SIZE";
    if (M < 0 || c->r[R1_INP].len < (size_t)M) return "inp holds M elements";
    if ((int64_t)c->grid[0] * B < M || c->grid[1] != 1 || c->grid[2] != 1) return "the grid covers M";
    if ((int64_t)c->grid[0] * B >= (1ll << 31)) return "INT64_INDEX = false: indices fit int32";
    if (c->r[R1_VAL].len < c->grid[0] || c->r[R1_IDX].len < c->grid[0]) return "one mid cell per program";
    for (size_t e = 0; e < c->r[R1_INP].len; e++)
        if (!isfinite(td_get(c, R1_INP, e))) return "inp holds real (finite) values";
    return NULL; /* hRegions: mid_value and mid_index are distinct regions */
}
static void writes1_regs(const td_case *c, td_wset *ws, int val, int idx) {
    for (uint32_t pid = 0; pid < c->grid[0]; pid++) {
        td_olane a = {.o = 0, .region = R1_VAL, .off = pid, .pid = {pid, 0, 0}, .idx = {pid}};
        td_olane b = {.o = 1, .region = R1_IDX, .off = pid, .pid = {pid, 0, 0}, .idx = {pid}};
        if (val) td_wset_add(ws, &a);
        if (idx) td_wset_add(ws, &b);
    }
}
static void writes1_value(const td_case *c, td_wset *ws) { writes1_regs(c, ws, 1, 0); }
static void writes1_index(const td_case *c, td_wset *ws) { writes1_regs(c, ws, 0, 1); }
static void writes1_io(const td_case *c, td_wset *ws) { writes1_regs(c, ws, 1, 1); }

/* ---- argmax_kernel_2 ---- */
static void gen2(td_producer *p, td_case *c) {
    int64_t size;
    int64_t B = td_gen_pow2(p, 0, 10);
    switch (td_prod_u32(p, 0, 7)) {
    case 0: size = 0; c->classes |= TD_BC(TD_BC_FULLY_MASKED); break;  /* every lane masked */
    case 1: /* BLOCK_MID < mid_size: the lanes past the block are not read */
        size = B + 1 + td_prod_u32(p, 0, (uint32_t)B);
        td_gen_mark_shape((uint64_t)size, (uint64_t)B, 1, &c->classes);
        break;
    default: size = (int64_t)td_gen_count(p, (uint64_t)B, (uint64_t)B, &c->classes); break; /* the host's */
    }
    c->p[P2_SIZE].i = size;
    c->p[P2_BLOCK].i = B;
    c->grid[0] = c->grid[1] = c->grid[2] = 1;
    size_t len = (size_t)(size > 0 ? size : 1) + (td_prod_bool(p) ? 3 : 0);
    td_case_alloc(c, R2_VAL, len);
    td_case_alloc(c, R2_IDX, len);
    td_case_alloc(c, R2_OUT, 1 + (td_prod_bool(p) ? 2 : 0));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    rc_fill_max(&g, c, R2_VAL);
    int idxmode = (int)td_rng_below(&g.rng, 3);
    for (size_t i = 0; i < len; i++) { /* the stage-1 global indices, or arbitrary ints */
        int64_t v = idxmode == 0 ? (int64_t)(i * 64 + td_rng_below(&g.rng, 64))
                  : idxmode == 1 ? (int64_t)td_rng_below(&g.rng, 1ull << 53) - (1ll << 52)
                                 : (int64_t)td_rng_below(&g.rng, 5);
        td_seti(c, R2_IDX, i, v);
    }
}
static const char *check2(const td_case *c) {
    int64_t size = c->p[P2_SIZE].i, B = c->p[P2_BLOCK].i;
    if (B <= 0 || (B & (B - 1))) return "BLOCK_MID a power of two (tl.arange)";
    if (size < 0 || c->r[R2_VAL].len < (size_t)(size < B ? size : B)) return "mid_value holds the lanes read";
    if (c->r[R2_IDX].len < (size_t)(size < 1 ? 1 : size < B ? size : B))
        return "mid_index holds the cell the argmax selects (cell 0 when every lane is masked)";
    if (c->r[R2_OUT].len < 1 || c->grid[0] != 1 || c->grid[1] != 1) return "one program, out[0]";
    for (size_t e = 0; e < c->r[R2_VAL].len; e++)
        if (!isfinite(td_get(c, R2_VAL, e))) return "mid_value holds real (finite) values";
    for (size_t e = 0; e < c->r[R2_IDX].len; e++)
        if (llabs(td_geti(c, R2_IDX, e)) > (1ll << 53)) return "|mid_index| <= 2^53";
    return NULL;
}
static void writes2(const td_case *c, td_wset *ws) {
    (void)c;
    td_olane l = {.o = 0, .region = R2_OUT, .off = 0};
    td_wset_add(ws, &l);
}

/* ---- argmax_kernel (dim), single block ---- */
static void gend(td_producer *p, td_case *c) {
    int64_t BN = td_gen_pow2(p, 0, 8);
    int64_t N = (int64_t)td_gen_count(p, (uint64_t)BN, (uint64_t)BN, &c->classes); /* 0 < N <= BLOCK_N */
    int64_t BM = td_gen_pow2(p, 0, 5);
    int64_t K = td_prod_u32(p, 0, 3) ? 1 + td_prod_u32(p, 0, 3) : 1;
    int64_t M = (int64_t)td_gen_count(p, (uint64_t)BM, (uint64_t)(16384 / (N * K) > 1 ? 16384 / (N * K) : 1),
                                      &c->classes);
    c->p[PD_M].i = M;
    c->p[PD_N].i = N;
    c->p[PD_K].i = K;
    c->p[PD_BM].i = BM;
    c->p[PD_BN].i = BN;
    c->grid[0] = (uint32_t)((M + BM - 1) / BM);
    c->grid[1] = (uint32_t)K;
    c->grid[2] = 1;
    td_case_alloc(c, RD_INP, (size_t)(M * N * K));
    td_case_alloc(c, RD_OUT, (size_t)(M * K) + (td_prod_bool(p) ? (size_t)(BM * K) : 0));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    rc_fill_max(&g, c, RD_INP);
}
static const char *checkd(const td_case *c) {
    int64_t M = c->p[PD_M].i, N = c->p[PD_N].i, K = c->p[PD_K].i, BM = c->p[PD_BM].i, BN = c->p[PD_BN].i;
    if (!(BN > 0)) return "hBN: 0 < BLOCK_N";
    if (!(N > 0)) return "hNpos: 0 < N";
    if (!(N <= BN)) return "hNle: N <= BLOCK_N";
    if (BM <= 0 || (BM & (BM - 1)) || (BN & (BN - 1))) return "BLOCK_M, BLOCK_N: powers of two (tl.arange)";
    if (M < 1 || K < 1) return "M, K >= 1";
    if (c->grid[0] != (uint64_t)((M + BM - 1) / BM) || c->grid[1] != (uint64_t)K) return "grid = (cdiv(M, BLOCK_M), K)";
    if (c->r[RD_INP].len < (size_t)(M * N * K) || c->r[RD_OUT].len < (size_t)(M * K)) return "[M, N, K] in, [M, K] out";
    for (size_t e = 0; e < c->r[RD_INP].len; e++)
        if (!isfinite(td_get(c, RD_INP, e))) return "inp holds real (finite) values";
    return NULL; /* hOutInj: (pid0*BLOCK_M + i)*K + pid1 injective for K >= 1 */
}
static void writesd(const td_case *c, td_wset *ws) {
    int64_t M = c->p[PD_M].i, K = c->p[PD_K].i, BM = c->p[PD_BM].i;
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (int64_t i = 0; i < BM; i++) {
                int64_t m = (int64_t)p0 * BM + i;
                if (m >= M) break;
                td_olane l = {.o = 0, .region = RD_OUT, .off = (uint64_t)(m * K + p1), .pid = {p0, p1, 0},
                              .j = (uint64_t)i, .idx = {m, p1}};
                td_wset_add(ws, &l);
            }
}

#define ARGMAX1_COMMON                                                                                             \
    .file = "triton_argmax", .family = "reduction", .kind = "exact", .nparams = NP1, .params = params1,            \
    .nregions = NR1, .sv = TD_SV_REAL,                                                                              \
    .sv_note = "a fully masked program (past cdiv(M, BLOCK_SIZE)) stores -inf and index pid*BLOCK_SIZE (the "         \
               "kernel's policy; Lean's unbotD value is 0)",                                                       \
    .error_model = "maximum and first argmax are exact (tolerance 0)",                                             \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED), .gen = gen1, .check = check1

/* Stage 1 of the two-stage argmax: with more than one program its stores are per-block
 * maxima and indices that argmax_kernel_2 combines, which torch.argmax does not define
 * lane by lane; with one program they are the whole input's max and argmax. */
static const char *a1_partial(const td_case *c) {
    return c->grid[0] > 1 ? "more than one program: mid_value / mid_index hold per-block maxima that "
                            "argmax_kernel_2 combines"
                          : NULL;
}
static const char *a1_gap(const td_case *c) {
    return c->p[P1_M].i == 0 ? "M = 0: the maximum of an empty input is undefined (torch.argmax raises)" : NULL;
}
static const td_intent intent_a1 = {
    .operation = "the maximum of the M elements and the index of its first occurrence",
    .definition = "torch.max(x) and torch.argmax(x) (PyTorch documentation: the first maximal value's index)",
    TD_SPECS(intent_a1),
    .gap = a1_gap,
    .partial = a1_partial,
};

/* .far: none -- argmax_kernel_1 reads pid*BLOCK_SIZE + i < M with the int32 index (check1: grid * B < 2^31);
 * kernel_2 reads mid_size cells; the dim kernel reads all N <= BLOCK_N columns of a row (hNle: no
 * enlarging N under a fixed tile, as max_reduction's far hook does), so m * N * K past 2^31 over
 * TD_FAR_MAX_ROWS rows needs N * K near 2^29: a tile of 2^29 lanes or 2^29 / N programs along K, each
 * writing a dense out_index cell (the large tier's sizes, not a sparse far row). */
const td_contract td_c_argmax1_value = {
    .id = "triton_argmax.argmax_kernel_1_value_compute_correct",
    .io_class = "ComputeCorrect (scalar write mid_value[pid]; mid_index scratch)",
    .formula = "mid_value[pid] = max_{pid*B + i < M} inp[pid*B + i]",
    .regions = regions1_value,
    .writes = writes1_value,
    ARGMAX1_COMMON,
    TD_SPECS(a1),
    .intent = &intent_a1,
};
const td_contract td_c_argmax1_index = {
    .id = "triton_argmax.argmax_kernel_1_index_compute_correct",
    .io_class = "ComputeCorrect (scalar write mid_index[pid]; mid_value scratch)",
    .formula = "mid_index[pid] = pid*B + first argmax_{pid*B + i < M} inp[pid*B + i]",
    .regions = regions1_index,
    .writes = writes1_index,
    ARGMAX1_COMMON,
    TD_SPECS(a1),
    .intent = &intent_a1,
};
const td_contract td_c_argmax1_io = {
    .id = "triton_argmax.argmax_kernel_1_io_correctness",
    .io_class = "ValueIndexTileKernelIO (argmax1IO)",
    .formula = "mid_value[pid] = block max; mid_index[pid] = pid*B + its first index",
    .regions = regions1_io,
    .writes = writes1_io,
    ARGMAX1_COMMON,
    TD_SPECS(a1),
    .intent = &intent_a1,
};
const td_contract td_c_argmax2 = {
    .id = "triton_argmax.argmax_kernel_2_compute_correct",
    .file = "triton_argmax",
    .family = "reduction",
    .io_class = "ComputeCorrect (scalar write out[0])",
    .kind = "exact",
    .formula = "out[0] = mid_index[first argmax_{i < min(mid_size, BLOCK_MID)} mid_value[i]]",
    .nparams = NP2,
    .params = params2,
    .nregions = NR2,
    .regions = regions2,
    .sv = TD_SV_REAL,
    .sv_note = "mid_size = 0 (every lane masked): argmax 0, out = mid_index[0], as Lean",
    .error_model = "an integer gathered at an exact argmax (tolerance 0)",
    /* one program, one block: no loop over tiles */
    .classes = (TD_BCLASSES_TILED & ~TD_BC(TD_BC_MULTI_TILE)) | TD_BC(TD_BC_FULLY_MASKED),
    .gen = gen2,
    .check = check2,
    .writes = writes2,
    TD_SPECS(a2),
};
static const td_intent intent_dim = {
    .operation = "the index of the first maximum of each row of x[M, N, K] along dim 1",
    .definition = "torch.argmax(x, dim=1) (PyTorch documentation: the first maximal value's index)",
    TD_SPECS(intent_dim),
};

const td_contract td_c_argmax_dim = {
    .id = "triton_argmax.argmax_kernel_dim_single_block_compute_correct",
    .file = "triton_argmax",
    .family = "reduction",
    .io_class = "ComputeCorrect over Fin BLOCK_M (writeIf row < M at (pid0*BLOCK_M + i)*K + pid1)",
    .kind = "exact",
    .formula = "out_index[m*K + k] = first argmax_{n < N} inp[m, n, k]",
    .nparams = NPD,
    .params = paramsd,
    .nregions = NRD,
    .regions = regionsd,
    .sv = TD_SV_REAL,
    .sv_note = "0 < N <= BLOCK_N (one loop step); finite inputs",
    .error_model = "an exact argmax (tolerance 0)",
    .classes = TD_BCLASSES_TILED,
    .gen = gend,
    .check = checkd,
    .writes = writesd,
    TD_SPECS(ad),
    .intent = &intent_dim,
};
