/* relu_strided_buffer: FlagGems' generated rank-1 ReLU over strided buffers
 * (catalogue part 2, three contracts on the one kernel `relu_forward_kernel_rank_1`).
 *
 *   relu_strided_buffer_one_tile_io_correctness  (hStride : 0 < out0_stride0)
 *     reluOneTileIO ... ⊨ fun _pid xs i => relu (xs i)          MaskedTileKernelIO₁
 *     read = taskIndex pid tile_size0 i * in0_stride0, write = ... * out0_stride0,
 *     mask = taskIndex pid tile_size0 i < s0,   taskIndex t B i = t * B + i
 *   relu_strided_buffer_grid_stride_io_correctnessR  (hStride, hDisj : in0_ptr ≠ out0_ptr)
 *     reluGridStrideIO ... ⊨[R] fun _ _ _ xs t i => relu (xs t i)
 *     StreamGridStrideEmitMasked2DKernelIO₁: T = tiles_per_cta, B1 = C = tile_size0,
 *     pre = pid₀ < nCtas, read/write/mask at taskIndex (pid₀ + t * nCtas) tile_size0 i,
 *     nCtas = the LAUNCHED GRID SIZE (s₀.numPids 0, pinned by the skin)
 *   relu_strided_buffer_output_summary_general  (hStride, hDisj, hGrid : 0 < numPids 0)
 *     both surfaces lower, and each realizes relu at its write map: the one-tile surface
 *     (one_tile_per_cta = true) and the grid-stride surface (= false).  Clause (1), that
 *     both surfaces lower to VeriTile's algorithm layer, is a fact about the Lean
 *     translation with no run-time counterpart; clauses (2) and (3) are what is checked.
 *
 * Kernel (bench/tritonbench_g/relu_strided_buffer/relu_strided_buffer.py): program pid
 * builds block pointers (shape (s0,), strides (stride,), offset tile_id * tile_size0)
 * over in0 and out0, loads with boundary_check (out-of-range lanes padded, never
 * stored), computes relu_forward = tl.where(x > 0, x, 0) and stores with the same
 * boundary check.  The constexpr one_tile_per_cta selects one tile per program
 * (tile_id = pid) or the grid-stride loop (tile_id = pid + j * num_programs(0) for
 * j < tiles_per_cta).  num_tasks is passed but unused (the wrapper passes numel = s0).
 * The first two contracts are each stated on one branch, so their kernels are launched
 * with the constexpr fixed (true / false); the summary covers both, so its case carries
 * the constexpr as an extra Bool parameter one_tile_per_cta after the catalogue's list
 * (the summary's BlockState s is the launch: its grid).
 *
 * Generator: tile_size0 a power of two up to 512 (the wrapper's heuristic caps it at
 * 512), s0 around multiples of it, input strides 0 (a broadcast view), 1 and larger,
 * output strides >= 1 (hStride); the one-tile grid is cdiv(s0, tile) (the wrapper's),
 * sometimes with surplus fully-masked programs or fewer programs than tiles (the
 * contract is per program: unlaunched tiles stay untouched); the grid-stride launch
 * draws nCtas and tiles_per_cta independently: exact cover (the wrapper's
 * cdiv(num_tiles, nCtas)), surplus steps past the last tile, and under-cover.
 *
 * Spec: TiledActivation.relu x = max 0 x; where(x > 0, x, 0) equals it (at x = -0 it
 * gives +0).  R of the grid-stride contract (⊨[R] with the skin's default outDType
 * .real) is the rounding of the store into the output buffer: for a binary32 buffer the
 * binary32 store, slot "store", fp32:rne:inf.  relu of a binary32 value is a binary32
 * value, so every contract is bit-exact (tolerance 0).
 */
#include "gen.h"
#include "gen_far.h"

enum { P_IN_STRIDE, P_OUT_STRIDE, P_S0, P_NUM_TASKS, P_TILES_PER_CTA, P_TILE, P_ONE_TILE, NP_SUMMARY };
#define NP 6 /* the catalogue's parameters; the summary adds one_tile_per_cta */
enum { R_IN, R_OUT, NR };
enum { C_STORE };

#define TD_SPEC_FILE "relu_strided_buffer.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP_SUMMARY] = {
    {"in0_stride0", TD_P_INT},   {"out0_stride0", TD_P_INT}, {"s0", TD_P_INT},
    {"num_tasks", TD_P_INT},     {"tiles_per_cta", TD_P_INT}, {"tile_size0", TD_P_INT},
    {"one_tile_per_cta", TD_P_BOOL}};
static const td_region_decl regions[NR] = {{"in0_ptr", TD_F32, TD_R_IN}, {"out0_ptr", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "fp32:rne:inf", "R.round .real of the emitted cell: the binary32 store into out0"}};

/* Shapes.  one_tile: the grid is (about) one program per tile; otherwise nCtas programs
 * each walking tiles_per_cta tiles nCtas apart. */
static void gen_shape(td_producer *p, td_case *c, int one_tile) {
    uint64_t ts = td_gen_pow2(p, 0, 9);
    uint64_t s0 = td_gen_count(p, ts, 4096, &c->classes);
    uint64_t tiles = (s0 + ts - 1) / ts;
    uint64_t grid, T;
    if (one_tile) {
        grid = tiles;
        switch (td_prod_u32(p, 0, 5)) {
        case 0: grid += td_prod_u32(p, 1, 3); c->classes |= TD_BC(TD_BC_FULLY_MASKED); break;
        case 1: grid = tiles > 1 ? td_prod_u32(p, 1, (uint32_t)tiles - 1) : 1; break;
        default: break;
        }
        T = td_prod_u32(p, 1, 4); /* passed, unused by the one-tile branch */
    } else {
        switch (td_prod_u32(p, 0, 3)) {
        case 0: grid = 1; break;
        case 1: grid = tiles; break;
        default: grid = td_prod_u32(p, 1, (uint32_t)(tiles + 1)); break;
        }
        T = (tiles + grid - 1) / grid; /* the wrapper's tiles_per_cta: an exact cover */
        switch (td_prod_u32(p, 0, 4)) {
        case 0: T += td_prod_u32(p, 1, 2); c->classes |= TD_BC(TD_BC_FULLY_MASKED); break; /* surplus steps */
        case 1: if (T > 1) T -= 1; break;                                                    /* under-cover */
        default: break;
        }
        while (grid * T * ts > (1u << 16) && T > 1) T--;
        if (T > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    }
    c->classes &= ~(TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_BLOCK_GT_N));
    if (grid == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (grid > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (ts >= 4 * s0) c->classes |= TD_BC(TD_BC_BLOCK_GT_N);
    static const unsigned win[4] = {4, 2, 2, 2}, wout[3] = {5, 2, 2};
    int64_t in_st, out_st;
    switch (td_prod_pick(p, win, 4)) {
    case 0: in_st = 1; break;
    case 1: in_st = 0; break; /* a broadcast view: every task reads in0[0] */
    case 2: in_st = 2; break;
    default: in_st = td_prod_u32(p, 3, 9); break;
    }
    switch (td_prod_pick(p, wout, 3)) {
    case 0: out_st = 1; break;
    case 1: out_st = 2; break;
    default: out_st = td_prod_u32(p, 3, 9); break;
    }
    if (out_st > 1 || in_st > 1) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    c->p[P_IN_STRIDE].i = in_st;
    c->p[P_OUT_STRIDE].i = out_st;
    c->p[P_S0].i = (int64_t)s0;
    c->p[P_NUM_TASKS].i = (int64_t)s0;
    c->p[P_TILES_PER_CTA].i = (int64_t)T;
    c->p[P_TILE].i = (int64_t)ts;
    c->grid[0] = (uint32_t)grid;
    uint64_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, 8) : 0;
    td_case_alloc(c, R_IN, (size_t)((s0 - 1) * (uint64_t)in_st + 1 + slack));
    td_case_alloc(c, R_OUT, (size_t)((s0 - 1) * (uint64_t)out_st + 1 + slack));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    td_vgen_fill(&g, c, R_IN);
}

static void gen_one_tile(td_producer *p, td_case *c) { gen_shape(p, c, 1); }
static void gen_grid_stride(td_producer *p, td_case *c) { gen_shape(p, c, 0); }
static void gen_summary(td_producer *p, td_case *c) {
    int one = td_prod_bool(p);
    gen_shape(p, c, one);
    c->p[P_ONE_TILE].i = one;
}

/* Offsets beyond 2^31: the first min(s0, 4) tasks kept (s0 and num_tasks cut to them;
 * the launch then covers them with masked lanes to spare), each task's element of in0
 * moved to a far in0_stride0 (td_far_restride over a sparse in0; a broadcast view,
 * stride 0, becomes copies of its cell).  out0 keeps its layout.  The kernel builds
 * block pointers, whose strides Triton widens to int64, so there is no int32 mutant. */
static void far(td_producer *p, td_case *c) {
    int64_t R = c->p[P_S0].i < TD_FAR_MAX_ROWS ? c->p[P_S0].i : TD_FAR_MAX_ROWS;
    if (R < 2) return;
    int64_t s = td_far_stride(p, R, 1);
    if (td_far_restride(c, R_IN, R, 1, c->p[P_IN_STRIDE].i, s)) return;
    c->p[P_IN_STRIDE].i = s, c->p[P_S0].i = R, c->p[P_NUM_TASKS].i = R;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check_common(const td_case *c) {
    int64_t s0 = c->p[P_S0].i, ts = c->p[P_TILE].i;
    if (c->p[P_OUT_STRIDE].i <= 0) return "hStride : 0 < out0_stride0";
    if (c->p[P_IN_STRIDE].i < 0 || s0 < 0 || c->p[P_TILES_PER_CTA].i < 0 || c->p[P_NUM_TASKS].i < 0)
        return "strides, s0, num_tasks, tiles_per_cta : Nat";
    if (ts <= 0) return "tile_size0: a positive constexpr tile";
    if (s0 > 0 && (int64_t)c->r[R_IN].len <= (s0 - 1) * c->p[P_IN_STRIDE].i)
        return "in0 holds every task's cell (s0 - 1) * in0_stride0";
    if (s0 > 0 && (int64_t)c->r[R_OUT].len <= (s0 - 1) * c->p[P_OUT_STRIDE].i)
        return "out0 holds every task's cell (s0 - 1) * out0_stride0";
    if (c->grid[1] != 1 || c->grid[2] != 1) return "a 1-D grid";
    return NULL;
}
static const char *check_one_tile(const td_case *c) { return check_common(c); }
static const char *check_grid_stride(const td_case *c) {
    /* hDisj holds by construction: in0_ptr and out0_ptr are two declared regions */
    if (c->grid[0] == 0) return "pre : pid₀ < nCtas (a launched grid has a program)";
    return check_common(c);
}
static const char *check_summary(const td_case *c) {
    if (c->grid[0] == 0) return "hGrid : 0 < s.numPids 0";
    return check_common(c);
}

/* One lane per (pid, step t, i) whose task index is below s0; idx[0] = the task. */
static void writes_branch(const td_case *c, td_wset *ws, int one_tile) {
    int64_t s0 = c->p[P_S0].i, ts = c->p[P_TILE].i, out_st = c->p[P_OUT_STRIDE].i;
    int64_t T = one_tile ? 1 : c->p[P_TILES_PER_CTA].i, nctas = c->grid[0];
    for (int64_t pid = 0; pid < nctas; pid++)
        for (int64_t t = 0; t < T; t++)
            for (int64_t i = 0; i < ts; i++) {
                int64_t task = (pid + t * nctas) * ts + i; /* taskIndex (pid + t * nCtas) tile_size0 i */
                if (task >= s0) break;
                td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)(task * out_st), .pid = {(uint32_t)pid, 0, 0},
                              .t = (uint32_t)t, .j = (uint64_t)i, .idx = {task}};
                td_wset_add(ws, &l);
            }
}
static void writes_one_tile(const td_case *c, td_wset *ws) { writes_branch(c, ws, 1); }
static void writes_grid_stride(const td_case *c, td_wset *ws) { writes_branch(c, ws, 0); }
static void writes_summary(const td_case *c, td_wset *ws) { writes_branch(c, ws, c->p[P_ONE_TILE].i != 0); }

/* The intent writes every one of the s0 elements (torch.relu is elementwise over the
 * whole tensor), whatever grid the launch has: a grid that covers fewer tiles than
 * cdiv(s0, tile_size0) leaves the rest of out0 untouched, which the contracts allow. */
static void intent_writes(const td_case *c, td_wset *ws) {
    int64_t s0 = c->p[P_S0].i, ts = c->p[P_TILE].i, out_st = c->p[P_OUT_STRIDE].i;
    for (int64_t task = 0; task < s0; task++) {
        td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)(task * out_st), .pid = {(uint32_t)(task / ts), 0, 0},
                      .j = (uint64_t)(task % ts), .idx = {task}};
        td_wset_add(ws, &l);
    }
}

/* The contracts are per program: a grid that covers fewer than cdiv(s0, tile_size0) tiles
 * (one tile per program, or nCtas * tiles_per_cta steps) leaves the rest unread. */
static const char *cover_gap(const td_case *c, int one_tile) {
    int64_t s0 = c->p[P_S0].i, ts = c->p[P_TILE].i, steps = one_tile ? 1 : c->p[P_TILES_PER_CTA].i;
    return (int64_t)c->grid[0] * steps * ts < s0 ? "the launch covers fewer than cdiv(s0, tile_size0) tiles: the "
                                                   "elements past them are neither read nor written"
                                                 : NULL;
}
static const char *gap_one_tile(const td_case *c) { return cover_gap(c, 1); }
static const char *gap_grid_stride(const td_case *c) { return cover_gap(c, 0); }
static const char *gap_summary(const td_case *c) { return cover_gap(c, c->p[P_ONE_TILE].i != 0); }

#define RELU_INTENT(gapfn)                                                                                     \
    {.operation = "relu of each of the s0 elements of the strided view: max(0, x)",                           \
     .definition = "torch.relu (PyTorch documentation): elementwise max(0, x) over the whole tensor",         \
     TD_SPECS(relu), .gap = gapfn, .writes = intent_writes}
static const td_intent intent_one_tile = RELU_INTENT(gap_one_tile);
static const td_intent intent_grid_stride = RELU_INTENT(gap_grid_stride);
static const td_intent intent_summary = RELU_INTENT(gap_summary);

#define RELU_STRIDED_COMMON                                                                                     \
    .file = "relu_strided_buffer", .family = "elementwise", .params = params, .nregions = NR, .regions = regions, \
    .sv = TD_SV_REAL, .sv_note = "relu of a finite binary32 value is finite",                                 \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_STRIDE_GT_ROW) |                    \
               TD_BC(TD_BC_OFFSET_2_31),                                                                        \
    .far = far

const td_contract td_c_relu_strided_one_tile = {
    .id = "relu_strided_buffer.relu_strided_buffer_one_tile_io_correctness",
    .io_class = "MaskedTileKernelIO_1 (reluOneTileIO, one_tile_per_cta = true)",
    .kind = "exact",
    .formula = "out0[t*out0_stride0] = max(0, in0[t*in0_stride0]), t = pid*tile_size0 + i < s0",
    .nparams = NP,
    .error_model = "relu is exact in binary32 (tolerance 0)",
    .gen = gen_one_tile,
    .check = check_one_tile,
    .writes = writes_one_tile,
    RELU_STRIDED_COMMON,
    TD_SPECS(relu),
    .intent = &intent_one_tile,
};

const td_contract td_c_relu_strided_grid_stride = {
    .id = "relu_strided_buffer.relu_strided_buffer_grid_stride_io_correctnessR",
    .io_class = "StreamGridStrideEmitMasked2DKernelIO_1 (reluGridStrideIO, one_tile_per_cta = false)",
    .kind = "rounding",
    .formula = "out0[t*out0_stride0] = R.round(.real)(max(0, in0[t*in0_stride0])), "
               "t = (pid + step*nCtas)*tile_size0 + i < s0, R = the binary32 store",
    .nparams = NP,
    .ncasts = 1,
    .casts = casts,
    .error_model = "relu is exact and its binary32 value survives the binary32 store: bit-exact (tolerance 0)",
    .gen = gen_grid_stride,
    .check = check_grid_stride,
    .writes = writes_grid_stride,
    RELU_STRIDED_COMMON,
    TD_SPECS(relu_store),
    .intent = &intent_grid_stride,
};

const td_contract td_c_relu_strided_summary = {
    .id = "relu_strided_buffer.relu_strided_buffer_output_summary_general",
    .io_class = "ComputeCorrect, both one_tile_per_cta surfaces (an extra Bool parameter selects the launch's)",
    .kind = "exact",
    .formula = "out0[t*out0_stride0] = max(0, in0[t*in0_stride0]) over the branch's write map",
    .nparams = NP_SUMMARY,
    .error_model = "relu is exact in binary32 (tolerance 0)",
    .gen = gen_summary,
    .check = check_summary,
    .writes = writes_summary,
    RELU_STRIDED_COMMON,
    TD_SPECS(relu),
    .intent = &intent_summary,
};
