/* index_select_bwd.index_select_cat_bwd_kernel_correctness  (catalogue part 1)
 *
 *   indexSelectBwdIO grad_source_ptr index_ptr grad_output_ptr num_rows num_indices num_cols
 *     stride0 stride1 BLOCK_SIZE_INDEX BLOCK_SIZE_COL ⊨ grad_source[index[r], c] = grad_output[r, c]
 *   GatherMasked2DKernelIO₁: inp = grad_output, idxbuf = index, out = grad_source,
 *   B = BSI*BSC, r = p0*BSI + j/BSC, c = p1*BSC + j%BSC; readx = r;
 *   read = r*stride0 + c*stride1; write = ids[j]*stride0 + c*stride1;
 *   mask: r < num_indices; readMask = writeMask: r < num_indices ∧ c < num_cols; hBC: 0 < BSC.
 *
 * Kernel (VeriTile bench/tritonbench_g/index_select_bwd/index_select_bwd.py): a SCATTER
 * with tl.store (the comment says "index add" but the code stores): grad_output's tile
 * is written to grad_source at rows index[r].  Checked against the kernel: nothing is
 * accumulated, so the contract holds only where the active write addresses are distinct
 * (the IO class's write injectivity; VeriTile's note: "duplicate-index concurrent
 * accumulation is not implied").  The generator therefore draws DISTINCT indices
 * (td_gen_slots: a random injection into [0, num_rows), a permutation when
 * num_rows = num_indices, slots from the first or up to the last row, 0 and num_rows-1
 * planted), with num_rows >= num_indices as the wrapper requires; rows of grad_source no
 * index names are outside the write set and must keep their contents.  Consequently a
 * kernel that accumulated (index_add) would read the output's initial contents: it is
 * a mutant here, not an order-free alternative.  The statement is [quoted].
 *
 * Error model: none; every written cell is a copy of a binary32 grad_output element,
 * bit-exact for every implementation (tolerance 0).
 */
#include "index_select_common.h"

enum { P_NROWS, P_NIDX, P_NCOLS, P_S0, P_S1, P_BSI, P_BSC, NP };
enum { R_GSRC, R_IDX, R_GOUT, NR };

#define TD_SPEC_FILE "index_select_bwd.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"num_rows", TD_P_INT}, {"num_indices", TD_P_INT}, {"num_cols", TD_P_INT},       {"stride0", TD_P_INT},
    {"stride1", TD_P_INT},  {"BLOCK_SIZE_INDEX", TD_P_INT}, {"BLOCK_SIZE_COL", TD_P_INT}};
static const td_region_decl regions[NR] = {{"grad_source_ptr", TD_F32, TD_R_OUT},
                                           {"index_ptr", TD_I64, TD_R_META},
                                           {"grad_output_ptr", TD_F32, TD_R_IN}};

static is_shape shape_of(const td_case *c) {
    is_shape s = {c->p[P_NIDX].i, c->p[P_NCOLS].i, c->p[P_BSI].i, c->p[P_BSC].i, c->p[P_S0].i, c->p[P_S1].i};
    return s;
}

static void gen(td_producer *p, td_case *c) {
    is_shape s;
    is_draw_counts(p, &s, &c->classes);
    static const unsigned wr[] = {2, 3};
    int64_t num_rows = s.n_idx + (td_prod_pick(p, wr, 2) ? (int64_t)td_prod_u32(p, 1, 40) : 0);
    is_draw_strides(p, &s, num_rows, &c->classes);
    c->p[P_NROWS].i = num_rows, c->p[P_NIDX].i = s.n_idx, c->p[P_NCOLS].i = s.n_cols;
    c->p[P_S0].i = s.s0, c->p[P_S1].i = s.s1, c->p[P_BSI].i = s.bsi, c->p[P_BSC].i = s.bsc;
    is_set_grid(c, &s);
    td_case_alloc(c, R_GSRC, is_len(&s, num_rows));
    td_case_alloc(c, R_IDX, (size_t)s.n_idx);
    td_case_alloc(c, R_GOUT, is_len(&s, s.n_idx));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p126);
    td_vgen_fill(&g, c, R_GOUT);
    int64_t ids[IS_MAX_INDICES];
    td_gen_slots(p, &g.rng, ids, s.n_idx, num_rows, &c->classes);
    for (int64_t r = 0; r < s.n_idx; r++) td_seti(c, R_IDX, (size_t)r, ids[r]);
}

/* Offsets beyond 2^31 (index_select_common.h, is_far): grad_output rows r < R and grad_source's
 * first Rs = min(num_rows, TD_FAR_MAX_ROWS) rows, the first R (distinct) indices
 * re-ranked into them, at one far stride0 (td_far_stride over R rows: grad_output row
 * R - 1 starts past 2^31, the offset the kernel forms as grad_output_indices * stride0
 * in int32).  grad_source is a sparse output (its rows written, the rest judged by page). */
static void far(td_producer *p, td_case *c) {
    is_shape s = shape_of(c);
    int64_t Rs = is_far(p, c, &s, R_GOUT, R_GSRC, R_IDX, c->p[P_NROWS].i, 1);
    if (Rs) c->p[P_NIDX].i = s.n_idx, c->p[P_NROWS].i = Rs, c->p[P_S0].i = s.s0;
}

static const char *check(const td_case *c) {
    is_shape s = shape_of(c);
    int64_t num_rows = c->p[P_NROWS].i;
    if (num_rows < s.n_idx) return "num_rows >= num_indices (the wrapper's check)";
    const char *e = is_check_layout(c, &s, num_rows);
    if (e) return e;
    if (c->r[R_IDX].len < (size_t)s.n_idx) return "index_ptr holds num_indices entries";
    if (c->r[R_GOUT].len < is_len(&s, s.n_idx)) return "grad_output_ptr holds every read cell";
    if (c->r[R_GSRC].len < is_len(&s, num_rows)) return "grad_source_ptr holds num_rows rows";
    for (int64_t r = 0; r < s.n_idx; r++) { /* n_idx <= 48: the pairwise test is cheap */
        int64_t id = td_geti(c, R_IDX, (size_t)r);
        if (id < 0 || id >= num_rows) return "index[r] < num_rows (writes inside grad_source)";
        for (int64_t q = 0; q < r; q++)
            if (td_geti(c, R_IDX, (size_t)q) == id) return "WriteInj: distinct indices (a store, not an accumulation)";
    }
    if (!is_finite_region(c, R_GOUT)) return "domain: finite grad_output values"; /* a far case: its touched pages */
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    is_shape s = shape_of(c);
    is_writes(c, &s, ws, R_GSRC, R_IDX, 1);
}

const td_contract td_c_index_select_bwd = {
    .id = "index_select_bwd.index_select_cat_bwd_kernel_correctness",
    .file = "index_select_bwd",
    .family = "gather",
    .io_class = "GatherMasked2DKernelIO_1 (indexSelectBwdIO, scatter through write)",
    .kind = "exact",
    .formula = "grad_source[index[r], c] = grad_output[r, c]  (distinct indices; other rows untouched)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite grad_output values; a copy, so no special value arises",
    .error_model = "a copy of a binary32 element: bit-exact (tolerance 0)",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_IDX_PERMUTATION) |
               TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_OFFSET_2_31),
    .far = far,
    .gen = gen,
    .check = check,
    .writes = writes,
    TD_SPECS(index_select_bwd),
};
