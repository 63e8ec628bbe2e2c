/* sin_computation.sin_kernel_correctness  (catalogue part 2)
 *
 *   sinIO in_ptr0 out_ptr n_elements BLOCK_SIZE ⊨ fun xs i => Real.sin (xs i)
 *   MaskedKernelIO₁: read = write = pid * BLOCK_SIZE, mask = pid * BLOCK_SIZE + j < n_elements
 *
 * Kernel (bench/tritonbench_g/sin_computation/sin_computation.py): `sin_kernel`, a
 * masked load, `tl.sin(x)` on a binary32 tile, a masked store.  Its wrapper launches
 * n_elements programs (not cdiv(n, BLOCK)) with BLOCK_SIZE = 4, so every program past
 * cdiv(n, 4) is fully masked: the generator launches such surplus programs (one per
 * element, or a few extra) besides the exact cdiv grid, and any power-of-two BLOCK.
 * The host kernel calls the C library's sinf, the CUDA kernel sinf.
 * Error model: one math-function evaluation on an exact input, charged the backend's
 * budget for sin (host libm 0.561 ulp, measured exhaustively; CUDA 2.5 ulp).  The
 * whole binary32 range is the domain (range reduction of huge arguments included).
 * The catalogue's note "hardware sin approximation outside contract": the contract is
 * over Real.sin; the tolerance is what the declared math library may add, no more.
 */
#include "elementwise_common.h"

enum { P_N, P_BLOCK, NP };
enum { R_IN, R_OUT, NR };

#define TD_SPEC_FILE "sin_computation.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"n_elements", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {{"in_ptr0", TD_F32, TD_R_IN}, {"out_ptr", TD_F32, TD_R_OUT}};
static const int all_regs[NR] = {R_IN, R_OUT}, outs[1] = {R_OUT};

static void gen(td_producer *p, td_case *c) {
    ew_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR, EW_SURPLUS);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    td_vgen_fill(&g, c, R_IN);
}

static const char *check(const td_case *c) {
    if (c->p[P_N].i > 2147483647) return "n_elements : tl.int32";
    return td_flat_check(c, P_N, P_BLOCK, all_regs, NR);
}
static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_N, P_BLOCK, outs, 1); }

static const td_intent intent = {
    .operation = "sin(x) for each element",
    .definition = "torch.sin (PyTorch documentation)",
    TD_SPECS(sin_intent),
};

const td_contract td_c_sin_computation = {
    .id = "sin_computation.sin_kernel_correctness",
    .file = "sin_computation",
    .family = "elementwise",
    .io_class = "MaskedKernelIO_1 (sinIO)",
    .kind = "exact",
    .formula = "out[i] = sin(x[i])",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "sin is finite on every finite input",
    .error_model = "one sin evaluation of an exact input: the backend's ulp budget for sin",
    .classes = EW_BCLASSES_FLAT,
    .gen = gen,
    /* no large hook: n_elements : tl.int32 in the original (the count itself cannot pass 2^31) */
    .check = check,
    .writes = writes,
    TD_SPECS(sin),
    .intent = &intent,
};
