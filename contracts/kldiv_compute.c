/* kldiv_compute.kldivergence_kernel_correctness  (catalogue part 1, src lines 5718-5734)
 *
 *   kldivIO x_ptr y_ptr output_ptr n_elements BLOCK_SIZE ⊨ fun xs ys i => klDivSpec (xs i) (ys i)
 *   MaskedKernelIO_2: read1 = read2 = write = pid*BLOCK_SIZE, mask = pid*BLOCK_SIZE + j < n_elements
 *
 * [named] klDivSpec x y = x * Real.log (x / y) (VeriTile/Triton/Math/Loss.lean): checked,
 * and it is what the kernel computes (bench/tritonbench_g/kldiv_compute:
 * `output = x * tl.log(x / y)` in binary32).  Error model: the division rounded once,
 * log charged the backend's budget (its argument's relative error u becomes an
 * absolute error ~u), the product rounded once.
 *
 * Special values.  The theorem has no domain hypothesis, and Lean's log and division
 * are total (log 0 = 0, x / 0 = 0), binary32's are not.  The generator draws x, y >= 0
 * (probabilities, wide exponents, x = y, x close to y, subnormals) with 2^-149 <= x/y < 2^127,
 * so that x/y never overflows or underflows to 0 where the exact ratio is finite, and with
 * exact zeros in some cases; there the oracle follows the kernel, not Lean:
 *   x = 0, y > 0:  0 * log(0) = 0 * -inf = NaN   (Lean: 0)
 *   x > 0, y = 0:  x * log(+inf) = +inf           (Lean: x * log 0 = 0)
 *   x = y = 0:     0 / 0 = NaN                     (Lean: 0)
 * (the MPFR reference evaluates the same IEEE special cases, so a NaN or inf of the
 * right kind is the expected value there and any finite output is a disagreement).
 * Except at x = y = 0: x/y is 0/0 of exact operands, an undefined value (TD_SH_UNDEF,
 * oracle/shadow.h), so those lanes have no spec value and any outcome is accepted (the
 * kernel's NaN, Lean's and torch's xlogy convention 0); they are counted as undefined.
 */
#include "gen_large.h"
#include "reduce_common.h"

enum { P_N, P_BLOCK, NP };
enum { R_X, R_Y, R_OUT, NR };

#define TD_SPEC_FILE "kldiv_compute.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"n_elements", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"x_ptr", TD_F32, TD_R_IN}, {"y_ptr", TD_F32, TD_R_IN}, {"output_ptr", TD_F32, TD_R_OUT}};
static const int all_regs[NR] = {R_X, R_Y, R_OUT}, outs[1] = {R_OUT};

/* a positive binary32 value 2^e * (1 + f), e in [lo, hi] */
static double pos_wide(td_rng *r, int lo, int hi) {
    double m = 1.0 + td_rng_unit(r); /* drawn before the exponent on every compiler */
    return (double)(float)ldexp(m, lo + (int)td_rng_below(r, (uint64_t)(hi - lo + 1)));
}

static void gen(td_producer *p, td_case *c) {
    td_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 1.0);
    td_rng *r = &g.rng;
    int mode = (int)td_prod_u32(p, 0, 5);
    for (size_t i = 0; i < c->r[R_X].len; i++) {
        double x, y;
        switch (mode) {
        case 0: x = rc_unif(r, 0, 1); y = rc_unif(r, 0, 1); break;           /* torch.rand, as the source's test */
        case 1: x = pos_wide(r, -59, 58); y = pos_wide(r, -59, 58); break;    /* wide exponents */
        case 2:                                                              /* x close to y, and x = y */
            x = pos_wide(r, -40, 40);
            y = (double)(float)(x * (1 + ldexp((double)((int64_t)td_rng_below(r, 17) - 8), -23)));
            break;
        case 3: /* the value menu (ties, subnormals, powers of two ...), magnitudes */
            x = fabs(td_vgen_value(&g, TD_F32));
            y = fabs(td_vgen_value(&g, TD_F32));
            if (x == 0 || y == 0 || !(x / y >= 0x1p-120 && x / y < 0x1p120)) x = y = 0.5;
            break;
        case 4: /* subnormal x, y in [1/2, 1]: a subnormal ratio */
            x = ldexp((double)(1 + td_rng_below(r, 1u << 23)), -149);
            y = rc_unif(r, 0.5, 1);
            break;
        default: /* exact zeros among probabilities: the special-value policy above */
            x = td_rng_below(r, 4) == 0 ? 0.0 : rc_unif(r, 0, 1);
            y = td_rng_below(r, 4) == 0 ? 0.0 : rc_unif(r, 0, 1);
            break;
        }
        if (mode != 5 && (x == 0 || y == 0)) x = y = 0.25; /* rc_unif may round to 0 */
        td_set(c, R_X, i, x);
        td_set(c, R_Y, i, y);
    }
    if (mode >= 3) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
}

static const char *check(const td_case *c) {
    /* (a large case: its windows; every other element reads 0, in the domain) */
    for (uint64_t i = td_large_next(c, R_X, 0); i < (uint64_t)c->p[P_N].i && i < c->r[R_X].len; i = td_large_next(c, R_X, i + 1)) {
        double x = td_get(c, R_X, (size_t)i), y = td_get(c, R_Y, (size_t)i);
        if (!(x >= 0 && y >= 0) || !isfinite(x) || !isfinite(y))
            return "x, y >= 0 finite (the generator's domain: KL terms of probabilities)";
        if (x > 0 && y > 0 && !(x / y >= 0x1p-149 && x / y < 0x1p127))
            return "2^-149 <= x / y < 2^127 for x, y > 0 (the binary32 ratio neither overflows nor underflows to 0)";
    }
    return td_flat_check(c, P_N, P_BLOCK, all_regs, NR);
}
static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_N, P_BLOCK, outs, 1); }

/* The large tier (gen_large.h): 2^31 + d elements of x, y and output (n_elements is
 * unannotated in the original: 64-bit past 2^31, while pid * BLOCK_SIZE is int32). */
static void large(td_producer *p, td_case *c) { (void)td_flat_large(p, c, P_N, P_BLOCK, all_regs, NR); }

static const td_intent intent = {
    .operation = "pointwise KL divergence x * log(x / y) of probabilities, 0 where x = 0",
    .definition = "torch.nn.functional.kl_div(log(y), x, reduction='none') = xlogy(x, x) - x * log(y)",
    TD_SPECS(intent),
};

const td_contract td_c_kldiv_compute = {
    .id = "kldiv_compute.kldivergence_kernel_correctness",
    .file = "kldiv_compute",
    .family = "loss",
    .io_class = "MaskedKernelIO_2 (kldivIO)",
    .kind = "exact",
    .formula = "out[i] = x[i] * log(x[i] / y[i])",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "x, y >= 0, 2^-149 <= x/y < 2^127; at zeros the kernel's IEEE values, not Lean's total log/div: x = 0 -> "
               "NaN (0 * -inf), y = 0 < x -> +inf; x = y = 0 is 0/0: undefined (any outcome)",
    .error_model = "division rounded once, log budget on an argument with relative error u, product rounded once",
    .classes = TD_BCLASSES_TILED,
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(kl),
    .intent = &intent,
};
