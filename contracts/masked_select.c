/* masked_select.masked_select_kernel_correctness  (catalogue part 2)
 *
 *   BoolScatterMasked2DKernelIO₁: inp = inp_ptr, mbuf = select_mask_ptr (Bool),
 *   idxbuf = prefix_sum_ptr, out = out_ptr, B = BLOCK_SIZE;
 *   read = readm = readx = pid0*BLOCK_SIZE + j; write _ _ ids j = ids j − 1 (a scatter at
 *   the data-dependent address prefix_sum[j] − 1); mask: pid0*BS + j < n_elements;
 *   writeMask: in bounds ∧ select_mask[j] = true
 *   ⊨ out[prefix_sum[j] − 1] = inp[j] for the selected lanes.
 *
 * Kernel (VeriTile bench/tritonbench_g/masked_select/masked_select.py): loads inp, the
 * mask (.to(int1)) and prefix_sum, and stores inp at prefix_sum − 1 under
 * mask ∧ select_mask.  The kernel neither computes nor validates the prefix sum: the
 * wrapper passes the inclusive cumsum of the flattened mask, and the IO class folds that
 * in as a premise, so it is this contract's precondition (the checker verifies
 * prefix_sum[i] = mask[0] + ... + mask[i] for i < n_elements).  Under it the selected
 * lanes write the distinct cells 0 .. total−1 in input order, which is the torch
 * semantics of masked_select; out holds total cells plus 1..3 cells of slack (the
 * wrapper's torch.empty(total) has none, but a write one past the compacted end must
 * land in a cell the harness sees; the slack must keep the sentinel).
 * The mask comes from td_gen_mask: all false (total = 0: nothing written), all true,
 * alternating, one true at the very last element, random densities.
 *
 * Error model: none; a selected lane's output is a copy of a binary32 input element,
 * bit-exact for every implementation (tolerance 0).
 */
#include "gen.h"
#include "gen_large.h"
#include "gen_meta.h"

#include <stdlib.h>

enum { P_N, P_BLOCK, NP };
enum { R_INP, R_MASK, R_PSUM, R_OUT, NR };

#define TD_SPEC_FILE "masked_select.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"n_elements", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {{"inp_ptr", TD_F32, TD_R_IN},
                                           {"select_mask_ptr", TD_BOOL, TD_R_META},
                                           {"prefix_sum_ptr", TD_I64, TD_R_META},
                                           {"out_ptr", TD_F32, TD_R_OUT}};
static const int in_regs[3] = {R_INP, R_MASK, R_PSUM};

static void gen(td_producer *p, td_case *c) {
    td_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, in_regs, 3);
    int64_t n = c->p[P_N].i;
    size_t len = c->r[R_INP].len; /* n plus the shape's slack, never read */
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p126);
    td_vgen_fill(&g, c, R_INP);
    uint8_t *m = calloc(len, 1);
    if (!m) abort();
    td_gen_mask(p, &g.rng, m, n, &c->classes);
    int64_t total = 0;
    for (size_t i = 0; i < len; i++) {
        total += m[i];
        td_seti(c, R_MASK, i, m[i]);
        td_seti(c, R_PSUM, i, total);
    }
    free(m);
    if (total == 0) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    int64_t slack = (int64_t)td_prod_u32(p, 1, 3);
    td_case_alloc(c, R_OUT, (size_t)(total + slack));
}

static const char *check(const td_case *c) {
    const char *e = td_flat_check(c, P_N, P_BLOCK, in_regs, 3);
    if (e) return e;
    int64_t n = c->p[P_N].i, total = 0;
    /* a large case: its windows (every other element reads 0, in the domain) */
    for (int64_t i = (int64_t)td_large_next(c, R_MASK, 0); i < n; i = (int64_t)td_large_next(c, R_MASK, (uint64_t)i + 1)) {
        int64_t b = td_geti(c, R_MASK, (size_t)i);
        if (b != 0 && b != 1) return "select_mask : Bool";
        total += b;
        if (td_geti(c, R_PSUM, (size_t)i) != total) return "prefix_sum = inclusive cumsum of select_mask";
        if (!isfinite(td_get(c, R_INP, (size_t)i))) return "domain: finite inp values";
    }
    if ((int64_t)c->r[R_OUT].len < total) return "out_ptr holds prefix_sum[n-1] cells";
    return NULL;
}

/* writeMask: in range and selected; the address prefix_sum[j] - 1 */
static void writes(const td_case *c, td_wset *ws) {
    int64_t n = c->p[P_N].i, B = c->p[P_BLOCK].i;
    /* lane (pid, j) at off = pid * B + j, in order; a large case: its windows only */
    for (uint64_t off = td_large_next(c, R_MASK, 0); off < (uint64_t)n && off < (uint64_t)c->grid[0] * (uint64_t)B;
         off = td_large_next(c, R_MASK, off + 1)) {
        if (!td_geti(c, R_MASK, (size_t)off)) continue;
        int64_t dst = td_geti(c, R_PSUM, (size_t)off) - 1;
        td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)dst, .pid = {(uint32_t)(off / (uint64_t)B), 0, 0},
                      .j = off % (uint64_t)B, .idx = {(int64_t)off, dst}};
        td_wset_add(ws, &l);
    }
}

/* The large tier (gen_large.h): 2^31 + d elements of inp, select_mask and prefix_sum
 * (both metadata regions sparse: engine/harness.c maps them as read-only data).  The
 * windows repeat the ordinary case's values, but prefix_sum must be the cumsum at every
 * element and the stretches between windows read 0: consistent only when nothing is
 * selected before the last window, so the mask is cleared there and the last window's
 * prefix sums count from 0.  out stays dense (its total plus 1..3 cells of slack). */
static void large(td_producer *p, td_case *c) {
    if (td_flat_large(p, c, P_N, P_BLOCK, in_regs, 3) != 0) return;
    uint64_t n = (uint64_t)c->p[P_N].i, last = c->win[c->nwin - 1].lo;
    int64_t total = 0;
    for (uint64_t i = td_large_next(c, R_MASK, 0); i < c->r[R_MASK].len; i = td_large_next(c, R_MASK, i + 1)) {
        if (i < last || i >= n) td_seti(c, R_MASK, i, 0);
        total += td_geti(c, R_MASK, i);
        td_seti(c, R_PSUM, i, total);
    }
    c->classes &= ~TD_BC(TD_BC_FULLY_MASKED);
    if (total == 0) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    td_case_alloc(c, R_OUT, (size_t)(total + (int64_t)td_prod_u32(p, 1, 3)));
}

const td_contract td_c_masked_select = {
    .id = "masked_select.masked_select_kernel_correctness",
    .file = "masked_select",
    .family = "gather",
    .io_class = "BoolScatterMasked2DKernelIO_1 (write = prefix_sum[j] - 1 where select_mask[j])",
    .kind = "exact",
    .formula = "out[prefix_sum[j] - 1] = inp[j] where select_mask[j]; prefix_sum the inclusive cumsum",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs; a copy, so no special value arises",
    .error_model = "a copy of a binary32 element: bit-exact (tolerance 0)",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_MASK_PATTERN) | TD_BC(TD_BC_FULLY_MASKED),
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(masked_select),
};
