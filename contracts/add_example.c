/* add_example.add_kernel_correctness  (catalogue part 1, src lines 29-45)
 *
 *   addIO in_ptr0 in_ptr1 out_ptr n_elements BLOCK_SIZE ⊨ fun xs ys i => xs i + ys i
 *   MaskedKernelIO₂: read1 = read2 = write = pid * BLOCK_SIZE, mask = pid*BLOCK_SIZE + j < n_elements
 *
 * Checked against bench/tritonbench_g/add_example/add_example.py: one program per
 * BLOCK_SIZE elements, masked loads of both inputs, `x + y` in binary32, masked store.
 * Error model: one binary32 addition of exact inputs, so the kernel's value is
 * RN32(x + y) and the bound is |RN32(x + y) - (x + y)| (<= u|x + y|).
 */
#include "gen.h"
#include "gen_large.h"

enum { P_N, P_BLOCK, NP };
enum { R_X, R_Y, R_OUT, NR };

#define TD_SPEC_FILE "add_example.spec.h"
#include "spec_instantiate.h"
#include "spec_run.h"

/* one rounded addition of two loads a lane: the batched verdict path (spec_sh_run),
 * not instrumented for coverage, as the spec it runs (oracle/nocov.h) */
TD_NOCOV_BEGIN
static void add_sh_run(td_shcx *cx, const td_case *c, const td_olane *l, size_t n, td_sh *out, uint32_t *lf) {
    td_run_add2(cx, c, l, n, out, lf, R_X, R_Y, add_sh);
}
/* its lanes with a NaN or infinite input: their exact sum, without MPFR */
static int add_ref_nonfinite(const td_case *c, const td_olane *l, double *ref) {
    return td_ref_add2_nonfinite(c, l, R_X, R_Y, ref);
}
TD_NOCOV_END

static const td_param_decl params[NP] = {{"n_elements", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"in_ptr0", TD_F32, TD_R_IN}, {"in_ptr1", TD_F32, TD_R_IN}, {"out_ptr", TD_F32, TD_R_OUT}};

static const int all_regs[NR] = {R_X, R_Y, R_OUT}, outs[1] = {R_OUT};

static void gen(td_producer *p, td_case *c) {
    td_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR);
    td_vgen g;
    /* finite |x|, |y| <= 2^126: the sum stays below the binary32 overflow threshold (the
     * contract's nonfinite_inputs adds NaN and +-inf inputs: IEEE addition defines them) */
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p126);
    td_vgen_fill(&g, c, R_X);
    td_vgen_fill(&g, c, R_Y);
}

static const char *check(const td_case *c) { return td_flat_check(c, P_N, P_BLOCK, all_regs, NR); }

static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_N, P_BLOCK, outs, 1); }

/* The large tier (gen_large.h): 2^31 + d elements in x, y and out. */
static void large(td_producer *p, td_case *c) { (void)td_flat_large(p, c, P_N, P_BLOCK, all_regs, NR); }

/* The intent: torch.add of the two flat tensors, exact and rounded once; with IEEE
 * special values (the contract's nonfinite_inputs) the exact sum is IEEE's (inf + -inf
 * and NaN give NaN), so a textbook x + y meets the contract on every input it admits. */
static const td_intent intent = {
    .operation = "elementwise sum x + y of two flat tensors",
    .definition = "torch.add(x, y) (PyTorch documentation: out_i = input_i + other_i), exact, rounded once to the "
                  "output",
    TD_SPECS(add_intent),
};

const td_contract td_c_add_example = {
    .id = "add_example.add_kernel_correctness",
    .file = "add_example",
    .family = "elementwise",
    .io_class = "MaskedKernelIO_2 (addIO)",
    .kind = "exact",
    .formula = "out[i] = x[i] + y[i]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_IEEE,
    .sv_note = "finite inputs have |x|,|y| <= 2^126, so their exact sum is finite; NaN and +-inf inputs get the "
               "IEEE sum (NaN for inf - inf)",
    .nonfinite_inputs = true,
    .error_model = "one binary32 addition: |RN32(x+y) - (x+y)| <= u|x+y|",
    .classes = TD_BCLASSES_TILED,
    .gen = gen,
    .check = check,
    .writes = writes,
    .large = large,
    TD_SPECS_RUN(add),
    .ref_nonfinite = add_ref_nonfinite,
    .intent = &intent,
};
