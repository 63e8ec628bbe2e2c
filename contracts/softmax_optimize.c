/* softmax_optimize: the online (streaming) softmax softmax_kernel_online_v2  (catalogue part 2)
 *
 *   softmax_kernel_online_v2_one_tile_output_summary (N TILE_N; s):
 *     ComputeCorrect.Realizes_without_Rounding (kernel := softmax_kernel_online_v2_one_tile)
 *       write i < N at linearOffset s N i = pid * N + i (i < TILE_N), expected softmaxOptimizeSpec
 *   softmax_kernel_online_v2_one_tile_io_correctness (hT : 0 < TILE_N):
 *     oneTileIO ⊨ fun _pid xs idx => softmaxTileSpec N TILE_N xs idx.1
 *     MaskedTileKernelIO₁, shape [TILE_N], read = write = pid * N + i, mask i < N
 *   softmax_kernel_online_v2_output_summary (M N TILE_N; hN : 0 < N, hT : 0 < TILE_N,
 *     hne : output_ptr ≠ input_ptr): ComputeCorrect over Fin N (kernel :=
 *     softmax_kernel_online_v2_surface), write every j < N at pid * N + j, expected
 *     softmaxOptimizeFullSpec = exp(x_j) / sum_{j' < N} exp(x_j')
 * Each ComputeCorrect form is one program's statement (s.pid); tilediff launches a
 * grid of rows (M for the full form, free for the one-tile form), each program
 * writing the lanes its theorem speaks about.
 *
 * The kernels.  softmax_kernel_online_v2 (bench/tritonbench_g/softmax_optimize) keeps,
 * per lane l of a TILE_N tile, a running max m[l] (seed -inf) and normaliser z[l]
 * (seed 0) over the columns t*TILE_N + l: new_m = maximum(m, x);
 * z = exp(m - new_m) * z + exp(x - new_m); full tiles unmasked, the last tile masked
 * with other = -inf; then final_m = tl.max(m), z = tl.sum(exp(m - final_m) * z), and a
 * second sweep stores exp(x - final_m) / z.  softmax_kernel_online_v2_one_tile is
 * the Lean file's own single-tile specialisation (it is not in the Python source):
 * m = tl.max, e = exp(x - m), z = tl.sum(e), out = e / z over the masked tile, i.e.
 * the tutorial softmax over the first min(N, TILE_N) columns of row pid.  Checked
 * against SoftmaxOptimize.lean: softmaxOptimizeSpec and softmaxTileSpec are that tile
 * softmax (⊥ lanes, reduceMax, exp, reduceSum, div); softmaxOptimizeFullSpec is the
 * whole-row softmax, which the catalogue reads correctly.  As for the tutorial kernel,
 * the one-tile forms reduce only min(N, TILE_N) columns when N > TILE_N (allowed).
 *
 * Error models.  One-tile: the family's tile softmax (softmax_common.h).  Full: the
 * online recurrence mirrored operation by operation, because the kernel fixes that
 * order: for each lane, the first column gives m = x, z = exp(x - x); each later
 * column new_m = max(m, x) (exact), z = exp(m - new_m) * z + exp(x - new_m) (a sub, an
 * exp, a mul, a sub, an exp, an add); a masked column of the last tile z = exp(m - m)
 * * z (exp(0) charged its budget: the model does not assume exp(0) = 1 exactly); then
 * the cross-lane tl.sum of exp(m[l] - M) * z[l] as a pairwise tree over the
 * min(N, TILE_N) lanes that hold a column, and exp(x_j - M) / Z.  The reals of every
 * step are those of the exact recurrence (exp(m - new_m) z = sum exp(x - new_m)), so
 * the shadow bounds the kernel's own error, including the rescalings' error growth
 * over ceil(N / TILE_N) tiles.
 *
 * Special values.  One-tile forms: TD_SV_REAL (exp(x - max) <= 1, the sum >= 1; N = 0
 * writes nothing; the output_summary form has no hT, and TILE_N = 0 writes nothing).
 * Full form: TD_SV_IEEE, and a finding about the kernel.  Lean's soStep runs the
 * recurrence in WithBot ℝ where ⊥ - ⊥ = ⊥ and exp ⊥ = 0, so a lane that never holds a
 * column (N < TILE_N: lanes l >= N, loaded as -inf) contributes 0.  In binary32 that
 * lane computes exp(-inf - -inf) = exp(NaN): its z is NaN, and
 * tl.sum(exp(-inf - M) * NaN) makes the row's normaliser NaN, so EVERY output of the
 * row is NaN.  With the host's TILE_N = min(4096, next_power_of_2(N)) this is every
 * row whose N is not a power of two and below 4096; the benchmark's tests only use
 * N = 128, 512, 1024.  The policy follows the kernel's IEEE evaluation: on rows with
 * N < TILE_N the lanes are flagged (domain edge) and NaN is accepted; every other row
 * is checked against the bound, and such rows are generated often (N in 1 .. TILE_N - 1
 * as well as multi-tile rows).
 */
#include "softmax_common.h"
#include "gen_far.h"
#include "gen_large.h"

/* one-tile forms: N, TILE_N; full form: M, N, TILE_N */
enum { P1_N, P1_TILE, NP1 };
enum { PF_M, PF_N, PF_TILE, NPF };
enum { R_OUT, R_IN, NR };

#define TD_SPEC_FILE "softmax_optimize.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params1[NP1] = {{"N", TD_P_INT}, {"TILE_N", TD_P_INT}};
static const td_param_decl paramsf[NPF] = {{"M", TD_P_INT}, {"N", TD_P_INT}, {"TILE_N", TD_P_INT}};
static const td_region_decl regions[NR] = {{"output_ptr", TD_F32, TD_R_OUT}, {"input_ptr", TD_F32, TD_R_IN}};

/* Rows at pid * N, R rows; the input holds them (plus slack), values of the pattern. */
static void alloc_rows(td_producer *p, td_case *c, int64_t R, int64_t N, int64_t w) {
    int64_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, 16) : 0;
    sm_vals v;
    sm_vals_init(&v, p, c, 0x1p20);
    td_case_alloc(c, R_IN, (size_t)(R * N + slack));
    sm_fill_all(&v, c, R_IN);
    for (int64_t r = 0; r < R; r++) sm_fill_row(&v, c, R_IN, (uint64_t)(r * N), 1, w);
    td_case_alloc(c, R_OUT, (size_t)(R * N + slack));
    c->grid[0] = (uint32_t)R;
    if (R == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}

static void gen_one_tile(td_producer *p, td_case *c, int allow_empty_tile) {
    int64_t T = td_gen_pow2(p, 0, 12);
    if (allow_empty_tile && td_prod_u32(p, 0, 31) == 0) T = 0; /* no hT in this form */
    int64_t N = T ? sm_gen_cols(p, T, 2 * T + 3, 1, &c->classes) : td_prod_u32(p, 0, 8);
    int64_t w = N < T ? N : T;
    if (N > T && T) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    c->p[P1_N].i = N;
    c->p[P1_TILE].i = T;
    alloc_rows(p, c, td_prod_u32(p, 1, (uint32_t)sm_max_rows(w, 12)), N, w);
}
static void gen_summary(td_producer *p, td_case *c) { gen_one_tile(p, c, 1); }
static void gen_io(td_producer *p, td_case *c) { gen_one_tile(p, c, 0); }

/* the classes of a row of N columns in tiles of T */
static void full_classes(td_case *c, int64_t N, int64_t T) {
    int64_t tiles = (N + T - 1) / T;
    if (tiles > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (N % T == 0) c->classes |= TD_BC(TD_BC_EXACT_MULTIPLE);
    else {
        c->classes |= TD_BC(TD_BC_TAIL);
        if (N % T == T - 1) c->classes |= TD_BC(TD_BC_TAIL_BELOW);
        if (N % T == 1 && N > 1) c->classes |= TD_BC(TD_BC_TAIL_ABOVE);
    }
    if (N == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    if (T >= 4 * N) c->classes |= TD_BC(TD_BC_BLOCK_GT_N);
}

/* Full form: tiles up to 2^9 lanes, rows up to 2^11 columns: one column, < TILE_N
 * (the NaN rows), TILE_N - 1, TILE_N, TILE_N + 1, k * TILE_N +- 1, anything. */
static void gen_full(td_producer *p, td_case *c) {
    int64_t T = td_gen_pow2(p, 0, 9);
    static const unsigned w[] = {2, 3, 3, 3, 3, 5, 3};
    int64_t k = td_prod_u32(p, 2, 16), N;
    switch (td_prod_pick(p, w, 7)) {
    case 0: N = 1; break;
    case 1: N = 1 + td_prod_u32(p, 0, (uint32_t)(T > 1 ? T - 2 : 0)); break;
    case 2: N = T > 1 ? T - 1 : 1; break;
    case 3: N = T; break;
    case 4: N = T + 1; break;
    case 5: N = k * T + (int64_t)td_prod_u32(p, 0, 2) - 1; break;
    default: N = 1 + td_prod_u32(p, 0, 2047); break;
    }
    if (N > 2048) N = 2048;
    if (N < 1) N = 1;
    full_classes(c, N, T);
    int64_t R = td_prod_u32(p, 1, (uint32_t)sm_max_rows(N, 8));
    c->p[PF_M].i = R;
    c->p[PF_N].i = N;
    c->p[PF_TILE].i = T;
    alloc_rows(p, c, R, N, N);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows at pid * N with N near
 * 2^31, as the kernel's offset = pid_m * N + n_offsets (int32 in Triton for N < 2^31) gets wrong.  The
 * row stride is N itself, so a far N makes the tile lie inside its row: a case of
 * N < TILE_N first takes the tile of the largest power of two <= N (the lanes it reads
 * are then the same before and after the move).  Input and output share the stride:
 * the input moves as a sparse read-only region, the output as a sparse output. */
static void far_one_tile(td_producer *p, td_case *c) {
    static const int regs[] = {R_IN, R_OUT};
    int64_t N = c->p[P1_N].i, T = c->p[P1_TILE].i, t = T;
    if (T <= 0 || N <= 0) return;
    while (t > N) t /= 2;
    c->p[P1_TILE].i = t;
    if (!td_far_rows(p, c, regs, 2, P1_N, t)) c->p[P1_TILE].i = T; /* not moved: the case as it was */
}

static const char *rows_fit(const td_case *c, int64_t N, int64_t w) {
    if (N < 0) return "N : Nat";
    if (w > 0 && ((int64_t)c->grid[0] - 1) * N + w > (int64_t)c->r[R_IN].len)
        return "the input region holds every active lane's read";
    if (w > 0 && ((int64_t)c->grid[0] - 1) * N + w > (int64_t)c->r[R_OUT].len)
        return "the output region holds every active lane's write";
    return NULL;
}
static const char *check_summary(const td_case *c) {
    int64_t N = c->p[P1_N].i, T = c->p[P1_TILE].i;
    if (T < 0) return "TILE_N : Nat";
    return rows_fit(c, N, N < T ? N : T);
}
static const char *check_io(const td_case *c) {
    if (c->p[P1_TILE].i <= 0) return "hT: 0 < TILE_N";
    return check_summary(c);
}
static const char *check_full(const td_case *c) {
    int64_t N = c->p[PF_N].i, T = c->p[PF_TILE].i;
    if (N <= 0) return "hN: 0 < N";
    if (T <= 0) return "hT: 0 < TILE_N";
    if (c->p[PF_M].i != (int64_t)c->grid[0]) return "the grid launches M programs (one per row)";
    /* hne: output_ptr ≠ input_ptr holds by construction (two declared regions) */
    return rows_fit(c, N, N);
}

static void writes_rows(const td_case *c, td_wset *ws, int64_t N, int64_t w) {
    for (uint32_t pid = 0; pid < c->grid[0]; pid++)
        for (int64_t i = 0; i < w; i++) {
            td_olane l = {.region = R_OUT, .off = (uint64_t)(pid * N + i), .pid = {pid, 0, 0}, .j = (uint64_t)i,
                          .idx = {pid, i}};
            td_wset_add(ws, &l);
        }
}
static void writes_one_tile(const td_case *c, td_wset *ws) {
    int64_t N = c->p[P1_N].i, T = c->p[P1_TILE].i;
    writes_rows(c, ws, N, N < T ? N : T);
}
/* every column of every row; a large case: the rows of its windows, the others only counted */
static void writes_full(const td_case *c, td_wset *ws) {
    int64_t N = c->p[PF_N].i;
    uint64_t seen = 0;
    for (uint64_t r = td_large_row_next(c, 0); r < c->grid[0]; r = td_large_row_next(c, r + 1), seen++)
        for (int64_t i = 0; i < N; i++) {
            td_olane l = {.region = R_OUT, .off = r * (uint64_t)N + (uint64_t)i, .pid = {(uint32_t)r, 0, 0},
                          .j = (uint64_t)i, .idx = {(int64_t)r, i}};
            td_wset_add(ws, &l);
        }
    if (c->nwin) ws->dropped += (c->grid[0] - seen) * (uint64_t)N;
}

/* The large tier (gen_large.h, td_rows_large): more than 2^31 / N rows, so the kernel's
 * offsets pid_m * N + n_offsets (int32 in Triton: pid and N are int32) pass 2^31; a
 * row-block is a row of N columns of input and output.  A row narrower than
 * TD_ROWS_LARGE_MIN_LEN is widened to it (its new columns read zero: finite values, a
 * softmax row like any other), the classes redrawn for the new N. */
static void large_full(td_producer *p, td_case *c) {
    uint64_t N0 = (uint64_t)c->p[PF_N].i, N = N0 < TD_ROWS_LARGE_MIN_LEN ? TD_ROWS_LARGE_MIN_LEN : N0, M;
    td_rows_region rr[2] = {{R_IN, N, N0}, {R_OUT, N, 0}};
    if (td_rows_large(p, c, c->grid[0], rr, 2, &M) != 0) return;
    c->grid[0] = (uint32_t)M;
    c->p[PF_M].i = (int64_t)M, c->p[PF_N].i = (int64_t)N;
    c->classes &= ~(TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_TAIL_BELOW) |
                    TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_BLOCK_GT_N));
    full_classes(c, (int64_t)N, c->p[PF_TILE].i);
}

#define SOFTMAX_OPTIMIZE_COMMON                                                                                 \
    .file = "softmax_optimize", .family = "softmax", .kind = "exact", .nregions = NR, .regions = regions

#define ONE_TILE_NOTE "exp(x - max) <= 1 and the sum >= 1: no overflow, no division by 0; N = 0 writes nothing"

static const td_intent intent_one_tile = {
    .operation = "softmax of each row over its N entries",
    .definition = "torch.softmax(x, dim=-1) (PyTorch documentation): exp(x_i) / sum_j exp(x_j)",
    TD_SPECS(intent_one_tile),
};
static const td_intent intent_full = {
    .operation = "softmax of each row over its N entries",
    .definition = "torch.softmax(x, dim=-1) (PyTorch documentation): exp(x_i) / sum_j exp(x_j)",
    TD_SPECS(intent_full),
};

const td_contract td_c_softmax_optimize_summary = {
    .id = "softmax_optimize.softmax_kernel_online_v2_one_tile_output_summary",
    .io_class = "ComputeCorrect (BlockState), one program per row",
    .formula = "out[pid*N + i] = exp(x[i] - max_j x[j]) / sum_j exp(x[j] - max), j < min(N, TILE_N), "
               "x = input[pid*N + .]",
    .nparams = NP1,
    .params = params1,
    .sv = TD_SV_REAL,
    .sv_note = ONE_TILE_NOTE "; TILE_N = 0 (no hT in this form) writes nothing",
    .error_model = "tile softmax as the kernel evaluates it: exact max, sub, exp, pairwise-tree sum, div",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_summary,
    .far = far_one_tile,
    .check = check_summary,
    .writes = writes_one_tile,
    SOFTMAX_OPTIMIZE_COMMON,
    TD_SPECS(opt_one_tile),
    .intent = &intent_one_tile,
};

const td_contract td_c_softmax_optimize_io = {
    .id = "softmax_optimize.softmax_kernel_online_v2_one_tile_io_correctness",
    .io_class = "MaskedTileKernelIO_1 (oneTileIO)",
    .formula = "out[pid*N + i] = exp(x[i] - max_j x[j]) / sum_j exp(x[j] - max), j < min(N, TILE_N), "
               "x = input[pid*N + .]",
    .nparams = NP1,
    .params = params1,
    .sv = TD_SV_REAL,
    .sv_note = ONE_TILE_NOTE,
    .error_model = "tile softmax as the kernel evaluates it: exact max, sub, exp, pairwise-tree sum, div",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_io,
    .far = far_one_tile,
    .check = check_io,
    .writes = writes_one_tile,
    SOFTMAX_OPTIMIZE_COMMON,
    TD_SPECS(opt_one_tile),
    .intent = &intent_one_tile,
};

/* .far: none -- the full form reads and writes all N columns of each row at pid * N: an offset beyond 2^31
 * means 2^31 elements touched (the large tier's: large_full, not a sparse far stride).  far_one_tile cannot
 * serve it: it moves N near 2^31 while a program reads only its first TILE_N <= 2^12 columns, but here
 * the row stride is the row length itself, so every program reads (and writes) N columns. */
const td_contract td_c_softmax_optimize_full = {
    .id = "softmax_optimize.softmax_kernel_online_v2_output_summary",
    .io_class = "ComputeCorrect over Fin N (full online surface), one program per row",
    .formula = "out[pid*N + j] = exp(x[j] - max) / sum_{j' < N} exp(x[j'] - max), x = input[pid*N + .], "
               "by the per-lane online max/sum over ceil(N/TILE_N) tiles",
    .nparams = NPF,
    .params = paramsf,
    .sv = TD_SV_IEEE,
    .sv_note = "N < TILE_N: lanes l >= N never hold a column and compute exp(-inf - -inf) = NaN "
               "(Lean: ⊥ - ⊥ = ⊥, "
               "exp ⊥ = 0), making the whole row NaN; accepted on those rows only. Elsewhere exp(x - max) <= 1, "
               "finite",
    .error_model = "the online recurrence mirrored: per lane max, exp(m - new_m) * z + exp(x - new_m) per tile, "
                   "tree sum of exp(m - M) * z over the lanes, exp(x - M) / Z",
    .classes = TD_BCLASSES_TILED,
    .gen = gen_full,
    .large = large_full,
    .check = check_full,
    .writes = writes_full,
    SOFTMAX_OPTIMIZE_COMMON,
    TD_SPECS(opt_full),
    .intent = &intent_full,
};
