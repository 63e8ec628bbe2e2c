/* masked_add_cuda.masked_add_kernel_correctness  (catalogue part 2)
 *
 *   maskedAddIO grad_ptr p_ptr p_mask_ptr n_elements alpha BLOCK_SIZE
 *     ⊨ fun _ _ _ xs ys j => ys j + xs j * alpha
 *   BoolMasked2DKernelIO₂: in1 = p_ptr (xs), in2 = grad_ptr (ys), mbuf = p_mask_ptr
 *   (Bool), out = grad_ptr IN PLACE; read1 = read2 = readm = write = pid₀ * BLOCK_SIZE + j,
 *   mask = pid₀ * BLOCK_SIZE + j < n_elements,
 *   writeMask = pid₀ * BLOCK_SIZE + j < n_elements ∧ bs j = false
 *
 * Kernel (bench/tritonbench_g/masked_add_cuda/masked_add_cuda.py): p_mask loaded and
 * cast to int1, mask = mask & ~p_mask, then p and grad loaded with that mask,
 * `grad += p * alpha` (alpha a runtime binary32 scalar: RN32(RN32(p * alpha) + grad)),
 * and the store under the same mask.  Lanes whose mask bit is TRUE are not in the
 * write set: the harness checks that their grad cells keep their initial contents,
 * like every cell past n_elements.  The generator draws the mask at random densities,
 * all false, all true and alternating, and alpha as the test's 0.5 and 0, weight-decay
 * sizes, +-1 and free values.
 * Error model: one product and one sum in binary32, in the kernel's order; |grad|, |p|
 * <= 2^100, |alpha| <= 2 keep everything finite.
 */
#include "elementwise_common.h"
#include "gen_large.h"

enum { P_N, P_ALPHA, P_BLOCK, NP };
enum { R_GRAD, R_P, R_MASK, NR };

#define TD_SPEC_FILE "masked_add_cuda.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"n_elements", TD_P_INT}, {"alpha", TD_P_REAL}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"grad_ptr", TD_F32, TD_R_INOUT}, {"p_ptr", TD_F32, TD_R_IN}, {"p_mask_ptr", TD_BOOL, TD_R_META}};
static const int all_regs[NR] = {R_GRAD, R_P, R_MASK};

static void gen(td_producer *p, td_case *c) {
    ew_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR, 0);
    static const unsigned wa[6] = {3, 2, 2, 1, 1, 5};
    double alpha;
    switch (td_prod_pick(p, wa, 6)) {
    case 0: alpha = 0.5; break;
    case 1: alpha = 0.0; break;
    case 2: alpha = td_gen_real(p, 1e-5, 1e-2); break; /* weight-decay sizes */
    case 3: alpha = 1.0; break;
    case 4: alpha = -1.0; break;
    default: alpha = td_gen_real(p, -2.0, 2.0); break;
    }
    c->p[P_ALPHA].r = alpha;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, R_GRAD);
    td_vgen_fill(&g, c, R_P);
    int mode = (int)td_prod_u32(p, 0, 5);
    double density = td_rng_unit(&g.rng);
    for (size_t i = 0; i < c->r[R_MASK].len; i++) {
        int bit;
        switch (mode) {
        case 0: bit = 0; break;
        case 1: bit = 1; break;
        case 2: bit = (int)(i & 1); break;
        default: bit = td_rng_unit(&g.rng) < density; break;
        }
        td_seti(c, R_MASK, i, bit);
    }
    if (mode <= 1) c->classes |= TD_BC(TD_BC_META_EXTREME);
    c->classes |= TD_BC(TD_BC_INPLACE);
}

static const char *check(const td_case *c) {
    double a = c->p[P_ALPHA].r;
    if ((double)(float)a != a) return "alpha : the binary32 scalar the kernel receives";
    if (!(fabs(a) <= 2)) return "domain: |alpha| <= 2";
    for (int r = R_GRAD; r <= R_P; r++) /* (a large case: its windows; every other element reads 0) */
        for (uint64_t i = td_large_next(c, r, 0); i < c->r[r].len; i = td_large_next(c, r, i + 1))
            if (!(fabs(td_get(c, r, (size_t)i)) <= 0x1p100)) return "domain: |grad|, |p| <= 2^100 (grad + p*alpha finite)";
    return td_flat_check(c, P_N, P_BLOCK, all_regs, NR);
}

/* writeMask: in range and the mask bit false (lane off of program off / B; the check
 * makes the grid cover n).  A large case: the lanes of its windows; every other lane's
 * mask bit reads 0 (an untouched page), so it is written, and only counted. */
static void writes(const td_case *c, td_wset *ws) {
    int64_t n = c->p[P_N].i, B = c->p[P_BLOCK].i;
    uint64_t seen = 0;
    for (uint64_t off = td_large_next(c, R_MASK, 0); off < (uint64_t)n; off = td_large_next(c, R_MASK, off + 1)) {
        seen++;
        if (td_geti(c, R_MASK, (size_t)off)) continue;
        td_olane l = {.o = 0, .region = R_GRAD, .off = off, .pid = {(uint32_t)(off / (uint64_t)B), 0, 0},
                      .j = off % (uint64_t)B, .idx = {(int64_t)off}};
        td_wset_add(ws, &l);
    }
    if (c->large_regs) ws->dropped += (uint64_t)n - seen;
}

/* The large tier (gen_large.h): 2^31 + d elements of grad, p and p_mask (n_elements is
 * unannotated in the original: 64-bit past 2^31, while pid * BLOCK_SIZE is int32). */
static void large(td_producer *p, td_case *c) { (void)td_flat_large(p, c, P_N, P_BLOCK, all_regs, NR); }

static const td_intent intent = {
    .operation = "grad + alpha * p where p_mask is false, in place",
    .definition = "torch.add(grad, p, alpha=alpha) (PyTorch documentation) on the elements whose p_mask is false",
    TD_SPECS(masked_add_intent),
};

const td_contract td_c_masked_add_cuda = {
    .id = "masked_add_cuda.masked_add_kernel_correctness",
    .file = "masked_add_cuda",
    .family = "elementwise",
    .io_class = "BoolMasked2DKernelIO_2 (maskedAddIO, in place on grad, writeMask = !p_mask)",
    .kind = "exact",
    .formula = "grad[j] := grad[j] + p[j] * alpha where p_mask[j] is false; masked lanes untouched",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "|grad|, |p| <= 2^100, |alpha| <= 2: grad + p*alpha finite",
    .error_model = "RN32(RN32(p*alpha) + grad): one product and one sum in the kernel's order",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_INPLACE) | TD_BC(TD_BC_META_EXTREME),
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(masked_add),
    .intent = &intent,
};
