/* vector_addition.add_kernel_correctness  (catalogue part 2; the Triton tutorial 01 add)
 *
 *   addIO x_ptr y_ptr output_ptr n_elements BLOCK_SIZE ⊨ fun xs ys i => xs i + ys i
 *   MaskedKernelIO₂: read1 = read2 = write = pid * BLOCK_SIZE,
 *                    mask = pid * BLOCK_SIZE + j < n_elements
 *
 * Kernel (bench/tritonbench_g/vector_addition/vector_addition.py): one program per
 * BLOCK_SIZE elements, masked loads of x and y, `x + y` in binary32, masked store;
 * n_elements is a tl.int32.  The wrapper launches cdiv(n, BLOCK) programs with
 * BLOCK_SIZE = 1024; the contract holds for any BLOCK_SIZE, so the generator draws
 * BLOCK from 1 to 1024 and n around its multiples.
 * Error model: one binary32 addition of exact inputs: the kernel's value is
 * RN32(x + y) and the bound is exactly |RN32(x + y) - (x + y)|: a correct kernel
 * meets it with err/tol 1 on every inexact lane (bit-exact), anything else fails.
 */
#include "elementwise_common.h"

enum { P_N, P_BLOCK, NP };
enum { R_X, R_Y, R_OUT, NR };

#define TD_SPEC_FILE "vector_addition.spec.h"
#include "spec_instantiate.h"
#include "spec_run.h"

/* one rounded addition of two loads a lane: the batched verdict path (spec_sh_run),
 * not instrumented for coverage, as the spec it runs (oracle/nocov.h) */
TD_NOCOV_BEGIN
static void add_sh_run(td_shcx *cx, const td_case *c, const td_olane *l, size_t n, td_sh *out, uint32_t *lf) {
    td_run_add2(cx, c, l, n, out, lf, R_X, R_Y, add_sh);
}
TD_NOCOV_END

static const td_param_decl params[NP] = {{"n_elements", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"x_ptr", TD_F32, TD_R_IN}, {"y_ptr", TD_F32, TD_R_IN}, {"output_ptr", TD_F32, TD_R_OUT}};
static const int all_regs[NR] = {R_X, R_Y, R_OUT}, outs[1] = {R_OUT};

static void gen(td_producer *p, td_case *c) {
    ew_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR, EW_SURPLUS);
    td_vgen g;
    /* |x|, |y| <= 2^126: the exact sum is below the binary32 overflow threshold */
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p126);
    td_vgen_fill(&g, c, R_X);
    td_vgen_fill(&g, c, R_Y);
}

static const char *check(const td_case *c) {
    if (c->p[P_N].i > 2147483647) return "n_elements : tl.int32";
    return td_flat_check(c, P_N, P_BLOCK, all_regs, NR);
}

static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_N, P_BLOCK, outs, 1); }

static const td_intent intent = {
    .operation = "x + y for each element",
    .definition = "torch.add(x, y) (PyTorch documentation)",
    TD_SPECS(add_intent),
};

const td_contract td_c_vector_addition = {
    .id = "vector_addition.add_kernel_correctness",
    .file = "vector_addition",
    .family = "elementwise",
    .io_class = "MaskedKernelIO_2 (addIO)",
    .kind = "exact",
    .formula = "output[i] = x[i] + y[i]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_IEEE,
    .sv_note = "inputs finite with |x|,|y| <= 2^126, so the exact sum is finite",
    .error_model = "one binary32 addition of exact inputs: |RN32(x+y) - (x+y)| (bit-exact)",
    .classes = EW_BCLASSES_FLAT,
    .gen = gen,
    /* no large hook: n_elements : tl.int32 in the original (the count itself cannot pass 2^31) */
    .check = check,
    .writes = writes,
    TD_SPECS_RUN(add),
    .intent = &intent,
};
