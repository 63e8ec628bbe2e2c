/* The launch, generator, checker and write sets shared by the two Liger gated-unit
 * row kernels, geglu_tanh_triton.c and swiglu_triton.c: forward C = f(A) * B and the
 * in-place backward (DC, A, B) -> (A := da, B := db), one program per row, every
 * pointer advanced by pid * stride, lanes j < BLOCK_SIZE masked by j < n_cols.  The two
 * contracts differ only in their domains and their specs.
 *
 * Included once by such a file, after it defines
 *   GLU_A_BOUND     the bound on |a| (the A region of either direction),
 *   GLU_BDC_BOUND   the bound on |b| and |dc|,
 *   GLU_DOMAIN_MSG  what check() reports for a value outside them,
 *   TD_SPEC_FILE    the file's spec file;
 * it includes spec_instantiate.h, so the file's spec (which uses P_STRIDE and the
 * region enums below) is compiled from here.
 */
#include "elementwise_common.h"
#include "gen_far.h"
#include "gen_large.h"

enum { P_STRIDE, P_NCOLS, P_BLOCK, NP };
enum { R_A, R_B, R_C, NR };             /* forward */
enum { R_DC = 0, R_BA = 1, R_BB = 2 }; /* backward: DC, A (in place), B (in place) */

#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"stride", TD_P_INT}, {"n_cols", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions_fwd[NR] = {{"A", TD_F32, TD_R_IN}, {"B", TD_F32, TD_R_IN}, {"C", TD_F32, TD_R_OUT}};
static const td_region_decl regions_bwd[NR] = {
    {"DC", TD_F32, TD_R_IN}, {"A", TD_F32, TD_R_INOUT}, {"B", TD_F32, TD_R_INOUT}};

/* One stride for every region (the kernel advances all pointers by pid * stride). */
static void gen_rows(td_producer *p, td_case *c, int a_reg, int first_other, int second_other) {
    ew_rows s = ew_rows_shape(p, c, 0, 10, 2049, 64, 1 << 14);
    int64_t st = ew_row_stride(p, c, &s);
    c->p[P_STRIDE].i = st;
    c->p[P_NCOLS].i = s.ncols;
    c->p[P_BLOCK].i = s.B;
    size_t len = ew_row_len(p, &s, st);
    for (int r = 0; r < NR; r++) td_case_alloc(c, r, len);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, GLU_A_BOUND);
    td_vgen_fill(&g, c, a_reg);
    g.bound = GLU_BDC_BOUND;
    td_vgen_fill(&g, c, first_other);
    if (second_other >= 0) td_vgen_fill(&g, c, second_other);
}
static void gen_fwd(td_producer *p, td_case *c) { gen_rows(p, c, R_A, R_B, -1); }
static void gen_bwd(td_producer *p, td_case *c) {
    gen_rows(p, c, R_BA, R_BB, R_DC);
    c->classes |= TD_BC(TD_BC_INPLACE);
}

static const char *check_rows(const td_case *c, int a_reg, int out_first, int nouts) {
    if (c->grid[1] != 1 || c->grid[2] != 1) return "a 1-D grid of rows";
    /* td_region_abs_le scans only the touched pages of a sparse (far) region */
    for (int r = 0; r < NR; r++)
        if (!td_region_abs_le(c, r, r == a_reg ? GLU_A_BOUND : GLU_BDC_BOUND)) return GLU_DOMAIN_MSG;
    int regs[NR];
    int64_t st[NR];
    for (int r = 0; r < NR; r++) regs[r] = (out_first + r) % NR, st[r] = c->p[P_STRIDE].i;
    return ew_rows_check(c, c->p[P_NCOLS].i, c->p[P_BLOCK].i, NR, regs, st, nouts);
}
static const char *check_fwd(const td_case *c) { return check_rows(c, R_A, R_C, 1); }
/* hAB: A ≠ B holds by construction (two declared regions) */
static const char *check_bwd(const td_case *c) { return check_rows(c, R_BA, R_BA, 2); }

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows at a stride near 2^31.
 * A, B and C share the one stride (read = write = pid * stride), so all three move: A
 * and B as sparse read-only regions, C as a sparse output (engine/harness.c judges it
 * over the pages of its write set).  The originals widen the program id to int64 before
 * pid * stride, so a far case checks the port and the harness, and would catch a port
 * that narrowed it.  The backward has none: its A and B are written in place, and an
 * in-out region cannot be sparse (engine/harness.c, image_alloc: no check covers one). */
static void far_fwd(td_producer *p, td_case *c) {
    static const int regs[] = {R_A, R_B, R_C};
    int64_t n = c->p[P_NCOLS].i, B = c->p[P_BLOCK].i;
    td_far_rows(p, c, regs, NR, P_STRIDE, n < B ? n : B);
}

/* The large tier (gen_large.h) for the backward: rows * n_cols = 2^31 + d elements of
 * DC, A and B as contiguous rows of n_cols = stride = BLOCK_SIZE (a power of two 64 ..
 * 1024, what the wrapper's calculate_settings gives such a row; nothing in the wrapper
 * bounds rows * n_cols below 2^31), so the launch is flat: lane (pid, j) at
 * pid * BLOCK + j.  A and B are in place: their windows hold the initial contents, the
 * rest of each image is the tier's shared buffer.  The originals widen the program id
 * to int64 before pid * stride; a kernel that does not wraps past 2^31 elements
 * (mut_large_offset_int32). */
static void large_bwd(td_producer *p, td_case *c) {
    static const int regs[] = {R_DC, R_BA, R_BB};
    if (td_flat_large(p, c, -1, P_BLOCK, regs, NR) != 0) return;
    c->p[P_STRIDE].i = c->p[P_NCOLS].i = c->p[P_BLOCK].i;
    c->classes &= ~TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* A large case (stride = n_cols = BLOCK, a row per program): the rows of its windows,
 * both outputs of each lane in turn as ew_rows_writes gives them; the others counted. */
static void writes_bwd_large(const td_case *c, td_wset *ws) {
    uint64_t B = (uint64_t)c->p[P_BLOCK].i, G = c->grid[0], kept = 0;
    for (int w = 0; w < c->nwin; w++)
        for (uint64_t r = c->win[w].lo / B; r < G && r * B < c->win[w].hi; r++, kept++)
            for (uint64_t j = 0; j < B; j++)
                for (int o = 0; o < 2; o++) {
                    td_olane l = {.o = (uint32_t)o, .region = (uint32_t)(o ? R_BB : R_BA), .off = r * B + j,
                                  .pid = {(uint32_t)r, 0, 0}, .j = j, .idx = {(int64_t)r, (int64_t)j}};
                    td_wset_add(ws, &l);
                }
    ws->dropped += (G - kept) * B * 2;
}

static void writes_fwd(const td_case *c, td_wset *ws) {
    const int outs[1] = {R_C};
    const int64_t st[1] = {c->p[P_STRIDE].i};
    ew_rows_writes(c, ws, c->p[P_NCOLS].i, c->p[P_BLOCK].i, 1, outs, st);
}
static void writes_bwd(const td_case *c, td_wset *ws) {
    if (c->nwin) {
        writes_bwd_large(c, ws);
        return;
    }
    const int outs[2] = {R_BA, R_BB};
    const int64_t st[2] = {c->p[P_STRIDE].i, c->p[P_STRIDE].i};
    ew_rows_writes(c, ws, c->p[P_NCOLS].i, c->p[P_BLOCK].i, 2, outs, st);
}

