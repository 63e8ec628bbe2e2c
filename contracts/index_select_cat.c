/* index_select_cat.index_select_cat_fwd_kernel_correctness  (catalogue part 1)
 *
 *   indexSelectCatIO output_ptr source_ptr index_ptr num_indices num_cols stride0 stride1
 *     BLOCK_SIZE_INDEX BLOCK_SIZE_COL ⊨ output[r, c] = source[index[r], c]
 *   GatherMasked2DKernelIO₁: inp = source, idxbuf = index, out = output, B = BSI*BSC;
 *   readx = p0*BSI + j/BSC; read = ids[j]*stride0 + (p1*BSC + j%BSC)*stride1;
 *   write = (p0*BSI + j/BSC)*stride0 + (p1*BSC + j%BSC)*stride1;
 *   mask: r < num_indices; readMask = writeMask: r < num_indices ∧ c < num_cols;
 *   hBC: 0 < BLOCK_SIZE_COL.
 *
 * Kernel (VeriTile bench/tritonbench_g/index_select_cat/index_select_cat.py): each program
 * loads its BSI indices (masked by indices < num_indices), then a [BSI, BSC] tile of
 * source rows at those indices, and stores it at the program's own rows of output, with
 * ONE stride pair for both tensors (the wrapper takes the source's).  A gather: repeated
 * indices are legal and read the same source row twice, so the generator uses
 * td_gen_indices (repeats, all equal, 0 and num_rows-1 planted).  num_rows is not a
 * kernel parameter: the source region holds the rows; the checker asks that every read
 * is inside it.  The statement is [quoted]: nothing to check beyond the transcription.
 *
 * Error model: none; the output is a copy of a binary32 source element (load and store
 * in binary32, no arithmetic), so every lane must be bit-exact (tolerance 0: a copy is
 * exact for every implementation).  Any finite value is legal, subnormals and -0
 * included; the spec is over the reals, so -0 and +0 compare equal.
 */
#include "index_select_common.h"

enum { P_NIDX, P_NCOLS, P_S0, P_S1, P_BSI, P_BSC, NP };
enum { R_OUT, R_SRC, R_IDX, NR };

#define TD_SPEC_FILE "index_select_cat.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"num_indices", TD_P_INT}, {"num_cols", TD_P_INT},
                                         {"stride0", TD_P_INT},     {"stride1", TD_P_INT},
                                         {"BLOCK_SIZE_INDEX", TD_P_INT}, {"BLOCK_SIZE_COL", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"output_ptr", TD_F32, TD_R_OUT}, {"source_ptr", TD_F32, TD_R_IN}, {"index_ptr", TD_I64, TD_R_META}};

static is_shape shape_of(const td_case *c) {
    is_shape s = {c->p[P_NIDX].i, c->p[P_NCOLS].i, c->p[P_BSI].i, c->p[P_BSC].i, c->p[P_S0].i, c->p[P_S1].i};
    return s;
}

static void gen(td_producer *p, td_case *c) {
    is_shape s;
    is_draw_counts(p, &s, &c->classes);
    int64_t num_rows = (int64_t)td_prod_u32(p, 1, 40);
    is_draw_strides(p, &s, num_rows > s.n_idx ? num_rows : s.n_idx, &c->classes);
    c->p[P_NIDX].i = s.n_idx, c->p[P_NCOLS].i = s.n_cols, c->p[P_S0].i = s.s0, c->p[P_S1].i = s.s1;
    c->p[P_BSI].i = s.bsi, c->p[P_BSC].i = s.bsc;
    is_set_grid(c, &s);
    td_case_alloc(c, R_OUT, is_len(&s, s.n_idx));
    td_case_alloc(c, R_SRC, is_len(&s, num_rows));
    td_case_alloc(c, R_IDX, (size_t)s.n_idx);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p126);
    td_vgen_fill(&g, c, R_SRC);
    int64_t ids[IS_MAX_INDICES];
    td_gen_indices(p, &g.rng, ids, s.n_idx, num_rows, &c->classes);
    for (int64_t r = 0; r < s.n_idx; r++) td_seti(c, R_IDX, (size_t)r, ids[r]);
}

/* Offsets beyond 2^31 (index_select_common.h, is_far): output rows r < R and the source rows
 * the first R indices name, re-ranked into Rs rows, at one far stride0 (td_far_stride
 * over R rows: output row R - 1 starts past 2^31, the offset the kernel forms as
 * indices * stride0 in int32).  The output is a sparse output (its rows written, the
 * rest judged by page). */
static void far(td_producer *p, td_case *c) {
    is_shape s = shape_of(c);
    if (is_far(p, c, &s, R_OUT, R_SRC, R_IDX, -1, 0)) c->p[P_NIDX].i = s.n_idx, c->p[P_S0].i = s.s0;
}

static const char *check(const td_case *c) {
    is_shape s = shape_of(c);
    const char *e = is_check_layout(c, &s, s.n_idx);
    if (e) return e;
    if (c->r[R_IDX].len < (size_t)s.n_idx) return "index_ptr holds num_indices entries";
    if (c->r[R_OUT].len < is_len(&s, s.n_idx)) return "output_ptr holds every written cell";
    for (int64_t r = 0; r < s.n_idx; r++) {
        int64_t id = td_geti(c, R_IDX, (size_t)r);
        if (id < 0) return "index : Nat";
        if ((uint64_t)(id * s.s0 + (s.n_cols - 1) * s.s1) >= c->r[R_SRC].len)
            return "read in bounds: index[r]*stride0 + c*stride1 inside source_ptr";
    }
    if (!is_finite_region(c, R_SRC)) return "domain: finite source values"; /* a far case: its touched pages */
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    is_shape s = shape_of(c);
    is_writes(c, &s, ws, R_OUT, R_IDX, 0);
}

const td_contract td_c_index_select_cat = {
    .id = "index_select_cat.index_select_cat_fwd_kernel_correctness",
    .file = "index_select_cat",
    .family = "gather",
    .io_class = "GatherMasked2DKernelIO_1 (indexSelectCatIO)",
    .kind = "exact",
    .formula = "output[r, c] = source[index[r], c]  (one stride pair for both tensors)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite source values; a copy, so no special value arises",
    .error_model = "a copy of a binary32 element: bit-exact (tolerance 0)",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_IDX_REPEATS) |
               TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_OFFSET_2_31),
    .far = far,
    .gen = gen,
    .check = check,
    .writes = writes,
    TD_SPECS(index_select_cat),
};
