/* dropout_triton.dropout_kernel_correctness  (catalogue part 1)
 *
 *   dropoutIO x_ptr x_keep_ptr output_ptr n_elements p BLOCK_SIZE ⊨
 *     fun _ _ bs xs i => if bs i then xs i / (1 - p) else 0
 *   BoolMasked2DKernelIO₁, mbuf = x_keep_ptr (Bool), read = readm = write =
 *   pid * BLOCK_SIZE + j, mask = pid * BLOCK_SIZE + j < n_elements
 *
 * Kernel (bench/tritonbench_g/dropout_triton/dropout_triton.py): `_dropout`, masked
 * loads of x and of the explicit keep mask, `tl.where(x_keep, x / (1 - p), 0.0)`, a
 * masked store; p is a runtime scalar, so 1 - p and the division are binary32
 * operations (1 - p is exact for p in [1/2, 1] and a rounding for small p).  The keep
 * mask is a Bool region (the test builds it from (rand > p), which is what the RNG-free
 * contract takes as input); the generator draws it Bernoulli(1 - p) like that test, all
 * true, all false, or half.
 *
 * Special-value policy, p = 1: Lean's x / 0 = 0 would make a kept lane 0, binary32's
 * x / 0 is +-inf or NaN.  The two agree only where no lane is kept, which is exactly
 * what dropout with p = 1 means (rand > 1 never holds: the test's case 3 builds an
 * all-false mask): the generator draws p = 1 only with an all-false keep mask, the
 * checker enforces it, and the spec evaluates x / (1 - p) only for kept lanes (a
 * dropped lane is the constant 0; the kernel's where discards its inf).  So every
 * lane the contract speaks of has 1 - p >= 2^-24 (the largest binary32 p below 1),
 * and |x| <= 2^100 keeps x / (1 - p) <= 2^124 finite.
 * Error model: RN32(1 - p) (exact or one rounding of exact operands), then one
 * correctly rounded division; dropped lanes are exactly 0.
 */
#include "elementwise_common.h"
#include "gen_large.h"

enum { P_N, P_P, P_BLOCK, NP };
enum { R_X, R_KEEP, R_OUT, NR };

#define TD_SPEC_FILE "dropout_triton.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"n_elements", TD_P_INT}, {"p", TD_P_REAL}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"x_ptr", TD_F32, TD_R_IN}, {"x_keep_ptr", TD_BOOL, TD_R_META}, {"output_ptr", TD_F32, TD_R_OUT}};
static const int all_regs[NR] = {R_X, R_KEEP, R_OUT}, outs[1] = {R_OUT};

static void gen(td_producer *p, td_case *c) {
    ew_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR, EW_SURPLUS);
    static const unsigned wp[6] = {2, 3, 2, 1, 1, 5};
    double prob;
    switch (td_prod_pick(p, wp, 6)) {
    case 0: prob = 0.0; break;              /* no dropout */
    case 1: prob = 0.5; break;              /* the test's */
    case 2: prob = 1.0; break;              /* full dropout: an all-false keep mask (policy) */
    case 3: prob = 1.0 - 0x1p-24; break;    /* 1 - p = 2^-24: the largest scale */
    case 4: prob = ldexp(1.0, -(int)td_prod_u32(p, 10, 40)); break; /* 1 - p rounds */
    default: prob = td_gen_real(p, 0.0, 1.0); break;
    }
    c->p[P_P].r = prob;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, R_X);
    int mode = prob == 1.0 ? 1 : (int)td_prod_u32(p, 0, 4);
    for (size_t i = 0; i < c->r[R_KEEP].len; i++) {
        int keep;
        switch (mode) {
        case 1: keep = 0; break;
        case 2: keep = 1; break;
        case 3: keep = (int)(i & 1); break;
        default: keep = td_rng_unit(&g.rng) > prob; break; /* x_keep = rand > p */
        }
        td_seti(c, R_KEEP, i, keep);
    }
    if (mode == 1 || mode == 2 || prob == 1.0 || prob == 0.0) c->classes |= TD_BC(TD_BC_META_EXTREME);
}

static const char *check(const td_case *c) {
    double prob = c->p[P_P].r;
    if ((double)(float)prob != prob) return "p : the binary32 scalar the kernel receives";
    if (!(prob >= 0 && prob <= 1)) return "p: a dropout probability in [0, 1]";
    if (prob == 1.0) /* (a large case: its windows; every other element reads 0, as td_large_next says) */
        for (uint64_t i = td_large_next(c, R_KEEP, 0); i < (uint64_t)c->p[P_N].i; i = td_large_next(c, R_KEEP, i + 1))
            if (td_geti(c, R_KEEP, (size_t)i))
                return "policy: p = 1 only with an all-false keep mask (Lean's x/0 = 0 is not binary32's inf/NaN)";
    for (uint64_t i = td_large_next(c, R_X, 0); i < c->r[R_X].len; i = td_large_next(c, R_X, i + 1))
        if (!(fabs(td_get(c, R_X, (size_t)i)) <= 0x1p100)) return "domain: |x| <= 2^100 (x / (1 - p) finite)";
    return td_flat_check(c, P_N, P_BLOCK, all_regs, NR);
}

static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_N, P_BLOCK, outs, 1); }

/* The large tier (gen_large.h): 2^31 + d elements of x, x_keep and output (n_elements
 * is unannotated in the original: 64-bit past 2^31, while pid * BLOCK_SIZE is int32). */
static void large(td_producer *p, td_case *c) { (void)td_flat_large(p, c, P_N, P_BLOCK, all_regs, NR); }

const td_contract td_c_dropout_triton = {
    .id = "dropout_triton.dropout_kernel_correctness",
    .file = "dropout_triton",
    .family = "elementwise",
    .io_class = "BoolMasked2DKernelIO_1 (dropoutIO, explicit keep mask)",
    .kind = "exact",
    .formula = "output[i] = x_keep[i] ? x[i] / (1 - p) : 0",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "p = 1 only with an all-false keep mask (no lane divides by 0: Lean's x/0 = 0 is never relied on); "
               "|x| <= 2^100 and 1 - p >= 2^-24 keep kept lanes finite",
    .error_model = "RN32(1 - p), then one correctly rounded binary32 division; dropped lanes exactly 0",
    .classes = EW_BCLASSES_FLAT | TD_BC(TD_BC_META_EXTREME),
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(dropout),
};
