/* sin_kernel.kernel_function_correctness  (catalogue part 2)
 *
 *   MaskedKernelIO₁, out[i] = sin(x[i]); read = write = pid * BLOCK_SIZE,
 *   mask = pid * BLOCK_SIZE + j < n_elements
 *
 * Kernel (bench/tritonbench_g/sin_kernel/sin_kernel.py): `tl.math.sin(x)` on a
 * binary32 tile.  The host kernel calls the C library's sinf; the CUDA kernel sinf.
 * Error model: one math-function evaluation on an exact input, charged the backend's
 * budget for sin (host libm: 0.561 ulp, measured exhaustively; CUDA: 2.5 ulp from
 * the Programming Guide's 2 ulp + the rounding).  sin is 1-Lipschitz, so no input
 * error is amplified (there is none: inputs are exact).
 */
#include "gen.h"

enum { P_N, P_BLOCK, NP };
enum { R_X, R_OUT, NR };

#define TD_SPEC_FILE "sin_kernel.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"n_elements", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {{"x_ptr", TD_F32, TD_R_IN}, {"output_ptr", TD_F32, TD_R_OUT}};
static const int all_regs[NR] = {R_X, R_OUT}, outs[1] = {R_OUT};

static void gen(td_producer *p, td_case *c) {
    td_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR);
    td_vgen g;
    /* the whole binary32 range is sin's domain: large arguments test range reduction */
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    td_vgen_fill(&g, c, R_X);
}
static const char *check(const td_case *c) { return td_flat_check(c, P_N, P_BLOCK, all_regs, NR); }
static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_N, P_BLOCK, outs, 1); }

static const td_intent intent = {
    .operation = "sin(x) for each element",
    .definition = "torch.sin (PyTorch documentation)",
    TD_SPECS(sin_intent),
};

const td_contract td_c_sin_kernel = {
    .id = "sin_kernel.kernel_function_correctness",
    .file = "sin_kernel",
    .family = "elementwise",
    .io_class = "MaskedKernelIO_1",
    .kind = "exact",
    .formula = "out[i] = sin(x[i])",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "sin is finite on every finite input",
    .error_model = "one sin evaluation: the backend's ulp budget for sin",
    .classes = TD_BCLASSES_TILED,
    .gen = gen,
    /* no large hook: n_elements : tl.int32 in the original (the count itself cannot pass 2^31) */
    .check = check,
    .writes = writes,
    TD_SPECS(sin),
    .intent = &intent,
};
