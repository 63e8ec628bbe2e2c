/* nested_loops_processing: `nested3` (catalogue part 2, three contracts).
 *
 *   nested3_first_a1_store_io_correctness  (hOutInj : idx ↦ r*stride_m + c*stride_n
 *     injective on [2,2])   a1StoreIO in_ptr out_ptr stride_m stride_n ⊨ fun _ xs idx => xs idx
 *     MaskedTileKernelIO₁, shape [2,2], read = write = r*stride_m + c*stride_n, mask true
 *   nested3_first_a1_store_io_correctnessR  the same ⊨[R, .real]
 *   nested3_output_summary_general  (hInj0, hInj2 .. hInj46: matrixOffsetShift stride_m
 *     stride_n sh injective on [2,2])  (a) the full nested3 surface lowers, (b) 24
 *     ComputeCorrect facts: out[matrixOffsetShift sh_out idx] = in[matrixOffsetShift
 *     sh_in idx] for (sh_in -> sh_out) = (0->0) (2->2) (4->4) (0->6) (2->8) (6->10)
 *     (0->12) (8->14) (10->16) (0->18) (8->20) (12->22) (14->24) (16->26) (18->28)
 *     (14->30) (16->32) (20->34) (14->36) (22->38) (24->40) (14->42) (22->44) (26->46).
 *     matrixOffsetShift sm sn sh (r, c) = r*sm + c*sn + sh*sn.
 *
 * Kernel (bench/tritonbench_g/nested_loops_processing/nested_loops_processing.py): a_ptrs
 * and c_ptrs are 2x2 pointer tiles (r*stride_m + c*stride_n) walked by three nested
 * range(0, 2) loops: i { a1 = load; j { a_ptrs += 2sn; a2 = load; k { a_ptrs += 2sn;
 * a3 = load; store a1, a2, a3 at c_ptrs, each followed by c_ptrs += 2sn } } a_ptrs += 2sn }.
 * The program id is never used: every program of the grid (n_cols // 4 in the wrapper)
 * does the same stores.  Tracing the pointers gives exactly the catalogue's 24 pairs
 * (checked by hand against the source; NL_PAIRS below, in program order).
 *
 * Readings, checked against NestedLoopsProcessing.lean:
 * - a1StoreIO is the one-store slice `nested3_first_a1_store` (load the tile at shift 0,
 *   store it at shift 0), a kernel of its own: "the IO headlines cover the first a1
 *   store only, not the whole nested-loop program".  The first two contracts' kernels
 *   are that slice (as the Lean defines it); the whole program would write 23 more tiles
 *   outside the statement's write set.
 * - The summary's facts are per-store slices, each run from the initial state.  The whole
 *   program runs them in order, and its output tiles overlap whenever 2*stride_n*k lands
 *   on a row (the wrapper's row-major stride_m = n_cols <= 46 does): a cell written by
 *   several stores holds the LAST store's copy, each earlier fact holding until it is
 *   overwritten.  The summary contract checks the whole kernel: every cell some store
 *   writes, with the value of the last store that writes it (where the 24 tiles are
 *   disjoint, exactly the 24 facts).  The lowering clause (a) has no run-time counterpart.
 * - hInj_sh for any sh is the same condition as hInj0 (a shift adds a constant):
 *   {0, sm, sn, sm + sn} distinct, i.e. sm != 0, sn != 0, sm != sn.
 *
 * Error model: pure copies; a binary32 load and store move the value exactly
 * (tolerance 0).  R of the rounding face (⊨[R, .real]) is the store into the binary32
 * output: slot "store", fp32:rne:inf, the identity on binary32 values.
 */
#include "gen.h"
#include "gen_far.h"

enum { P_SM, P_SN, NP };
enum { R_IN, R_OUT, NR };
enum { C_STORE };

/* (in shift, out shift) of the 24 stores in program order, in units of stride_n. */
static const int nl_pairs[24][2] = {{0, 0},   {2, 2},   {4, 4},   {0, 6},   {2, 8},   {6, 10},  {0, 12},  {8, 14},
                                    {10, 16}, {0, 18},  {8, 20},  {12, 22}, {14, 24}, {16, 26}, {18, 28}, {14, 30},
                                    {16, 32}, {20, 34}, {14, 36}, {22, 38}, {24, 40}, {14, 42}, {22, 44}, {26, 46}};
#define NL_MAX_IN_SHIFT 26
#define NL_MAX_OUT_SHIFT 46

#define TD_SPEC_FILE "nested_loops_processing.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"stride_m", TD_P_INT}, {"stride_n", TD_P_INT}};
static const td_region_decl regions[NR] = {{"in_ptr", TD_F32, TD_R_IN}, {"out_ptr", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "fp32:rne:inf", "R.round .real of the stored tile: the binary32 store into out_ptr"}};

/* Strides: the wrapper's row-major (stride_n = 1, stride_m = n_cols, small: overlapping
 * output tiles), column-major-like (stride_m < stride_n), wide rows (disjoint tiles),
 * stride_m = stride_n +- 1 (the injectivity edge).  in/out sized for the last shift. */
static void gen_shape(td_producer *p, td_case *c, int max_in, int max_out) {
    int64_t sm, sn;
    switch (td_prod_u32(p, 0, 4)) {
    case 0: sn = 1, sm = 2 * (int64_t)td_prod_u32(p, 1, 8); break;       /* n_cols = 2..16 (wrapper) */
    case 1: sn = td_prod_u32(p, 2, 5), sm = 1; break;                     /* transposed view */
    case 2: sn = td_prod_u32(p, 1, 3), sm = sn * (48 + (int64_t)td_prod_u32(p, 0, 16)); break; /* disjoint */
    case 3: sn = td_prod_u32(p, 1, 6), sm = td_prod_bool(p) ? sn + 1 : sn - 1; break;
    default: sn = td_prod_u32(p, 1, 4), sm = td_prod_u32(p, 1, 200); break;
    }
    if (sm == sn || sm == 0) sm = sn + 1; /* hInj: {0, sm, sn, sm + sn} distinct */
    c->p[P_SM].i = sm;
    c->p[P_SN].i = sn;
    if (sm > 2 * sn) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    c->grid[0] = td_prod_bool(p) ? 1 : td_prod_u32(p, 2, 4); /* programs all doing the same stores */
    if (c->grid[0] == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    uint64_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, 8) : 0;
    td_case_alloc(c, R_IN, (size_t)(sm + (1 + max_in) * sn + 1 + slack));
    td_case_alloc(c, R_OUT, (size_t)(sm + (1 + max_out) * sn + 1 + slack));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    td_vgen_fill(&g, c, R_IN);
}
static void gen_a1(td_producer *p, td_case *c) { gen_shape(p, c, 0, 0); }
static void gen_summary(td_producer *p, td_case *c) { gen_shape(p, c, NL_MAX_IN_SHIFT, NL_MAX_OUT_SHIFT); }

/* Offsets beyond 2^31 (gen_far.h): row r = 1 of the 2x2 tile moved to a stride_m near
 * 2^31 (td_far_stride over 2 rows: 2^31 + d) in in_ptr and out_ptr at once, a row being
 * the cells c*stride_n + shift*stride_n of every shift (w elements); out_ptr a sparse
 * output (engine/harness.c judges it over the pages of its write set).  Rows that
 * overlapped (the wrapper's small stride_m) come apart: the map stays injective
 * (stride_m > every in-row offset), the cells a store overwrote become distinct cells.
 * Every program does the same stores: the grid is unchanged.  Both regions move or
 * neither (td_far_restride_all). */
static void nl_far(td_producer *p, td_case *c, int max_in, int max_out) {
    int64_t sm = c->p[P_SM].i, sn = c->p[P_SN].i, wi = (1 + max_in) * sn + 1, wo = (1 + max_out) * sn + 1;
    int64_t s = td_far_stride(p, 2, wo);
    if (td_far_restride(c, R_IN, 2, wi, sm, s)) return;
    if (td_far_restride(c, R_OUT, 2, wo, sm, s)) {
        (void)td_far_restride(c, R_IN, 2, wi, s, sm); /* back to the old rows: a smaller map */
        return;
    }
    c->p[P_SM].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}
static void far_a1(td_producer *p, td_case *c) { nl_far(p, c, 0, 0); }
static void far_summary(td_producer *p, td_case *c) { nl_far(p, c, NL_MAX_IN_SHIFT, NL_MAX_OUT_SHIFT); }

static const char *check_shape(const td_case *c, int max_in, int max_out) {
    int64_t sm = c->p[P_SM].i, sn = c->p[P_SN].i;
    if (sm < 0 || sn < 0) return "stride_m, stride_n : Nat";
    if (sm == 0 || sn == 0 || sm == sn) return "hOutInj / hInj: r*stride_m + c*stride_n injective on [2,2]";
    if ((int64_t)c->r[R_IN].len <= sm + (1 + max_in) * sn) return "in_ptr holds every loaded cell";
    if ((int64_t)c->r[R_OUT].len <= sm + (1 + max_out) * sn) return "out_ptr holds every stored cell";
    if (c->grid[0] == 0 || c->grid[1] != 1 || c->grid[2] != 1) return "a launched 1-D grid";
    return NULL;
}
static const char *check_a1(const td_case *c) { return check_shape(c, 0, 0); }
static const char *check_summary(const td_case *c) { return check_shape(c, NL_MAX_IN_SHIFT, NL_MAX_OUT_SHIFT); }

/* The a1 slice: the four cells r*sm + c*sn; idx = {r, c, in shift 0}. */
static void writes_a1(const td_case *c, td_wset *ws) {
    int64_t sm = c->p[P_SM].i, sn = c->p[P_SN].i;
    for (int64_t k = 0; k < 4; k++) {
        int64_t r = k / 2, col = k % 2;
        td_olane l = {.region = R_OUT, .off = (uint64_t)(r * sm + col * sn), .j = (uint64_t)k, .idx = {r, col, 0}};
        td_wset_add(ws, &l);
    }
}

/* The whole program: each cell once, with the last store (in program order) that
 * writes it; idx = {r, c, that store's in shift}, t = the store's number. */
static void writes_summary(const td_case *c, td_wset *ws) {
    int64_t sm = c->p[P_SM].i, sn = c->p[P_SN].i;
    for (int s = 23; s >= 0; s--)
        for (int64_t k = 0; k < 4; k++) {
            int64_t r = k / 2, col = k % 2, off = r * sm + (col + nl_pairs[s][1]) * sn, later = 0;
            for (int s2 = s + 1; s2 < 24 && !later; s2++)
                for (int64_t k2 = 0; k2 < 4; k2++)
                    if ((k2 / 2) * sm + (k2 % 2 + nl_pairs[s2][1]) * sn == off) later = 1;
            if (later) continue;
            td_olane l = {.region = R_OUT, .off = (uint64_t)off, .t = (uint32_t)s, .j = (uint64_t)k,
                          .idx = {r, col, nl_pairs[s][0]}};
            td_wset_add(ws, &l);
        }
}

#define NL_COMMON                                                                                              \
    .file = "nested_loops_processing", .family = "copy", .nparams = NP, .params = params, .nregions = NR,     \
    .regions = regions, .sv = TD_SV_REAL, .sv_note = "copies of finite binary32 values",                      \
    .error_model = "pure copies: binary32 load and store are exact (tolerance 0)",                            \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) |        \
               TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31)

const td_contract td_c_nested3_a1 = {
    .id = "nested_loops_processing.nested3_first_a1_store_io_correctness",
    .io_class = "MaskedTileKernelIO_1 (a1StoreIO: the first load/store slice of nested3)",
    .kind = "exact",
    .formula = "out[r*stride_m + c*stride_n] = in[r*stride_m + c*stride_n], r, c < 2",
    .far = far_a1,
    .gen = gen_a1,
    .check = check_a1,
    .writes = writes_a1,
    NL_COMMON,
    TD_SPECS(nl_copy),
};

const td_contract td_c_nested3_a1_r = {
    .id = "nested_loops_processing.nested3_first_a1_store_io_correctnessR",
    .io_class = "MaskedTileKernelIO_1 (a1StoreIO), ⊨[R, .real]",
    .kind = "rounding",
    .formula = "out[r*stride_m + c*stride_n] = R.round(.real)(in[r*stride_m + c*stride_n]), R = the binary32 store",
    .ncasts = 1,
    .casts = casts,
    .far = far_a1,
    .gen = gen_a1,
    .check = check_a1,
    .writes = writes_a1,
    NL_COMMON,
    TD_SPECS(nl_copy_store),
};

const td_contract td_c_nested3_summary = {
    .id = "nested_loops_processing.nested3_output_summary_general",
    .io_class = "ComputeCorrect over TileIndex [2,2], 24 stores (the whole nested3 program, last store wins)",
    .kind = "exact",
    .formula = "out[r*sm + (c + sh_out)*sn] = in[r*sm + (c + sh_in)*sn] for the last of the 24 (sh_in -> sh_out) "
               "stores writing the cell",
    .far = far_summary,
    .gen = gen_summary,
    .check = check_summary,
    .writes = writes_summary,
    NL_COMMON,
    TD_SPECS(nl_copy),
};
