/* swiglu_triton: Liger's SwiGLU forward and in-place backward (catalogue part 2).
 *
 *   swiglu_forward_kernel_correctness:
 *     swigluFwdIO A B C stride n_cols BLOCK_SIZE ⊨ fun as bs i => swiglu (as i) (bs i)
 *     MaskedKernelIO₂: read1 = read2 = write = pid * stride, mask = j < n_cols
 *   swiglu_backward_kernel_correctness  (hAB : A ≠ B):
 *     swigluBwdIO DC A B stride n_cols BLOCK_SIZE ⊨ fun dcs as bs =>
 *       (fun i => swigluBwdA (dcs i) (as i) (bs i), fun i => swigluBwdB (dcs i) (as i))
 *     MaskedKernelIO₃ₓ₂, bufs [DC, A, B], out1 = A and out2 = B IN PLACE,
 *     every window pid * stride, mask = j < n_cols
 *
 * Named specs, read in VeriTile/Triton/Math/Activation.lean (TiledActivation):
 *   swiglu a b        = silu a * b,  silu a = a * sigmoid a
 *   swigluBwdA dc a b = dc * (silu a * (1 - sigmoid a) + sigmoid a) * b
 *   swigluBwdB dc a   = dc * silu a
 * the catalogue's readings (silu(a)*b; dc*b*sig(a)*(1 + a*(1 - sig(a))); dc*a*sig(a))
 * are the same reals.  The Triton kernels (bench/tritonbench_g/swiglu_triton/
 * swiglu_triton.py) evaluate, per row pid (pointers advanced by pid * stride), lanes
 * j < BLOCK_SIZE masked by j < n_cols:
 *   forward:  c = (a * sigmoid(a)) * b
 *   backward: sig = sigmoid(a); silu = a * sig; db = dc * silu;
 *             da = (dc * (silu * (1 - sig) + sig)) * b;  store da -> A, db -> B
 * with tl.sigmoid(x) = 1 / (1 + exp(-x)) in binary32; the backward loads all three rows
 * before either store, so in place is safe.  The error model is written in exactly this
 * order (the Lean order of swigluBwdA is the kernel's).  The wrapper's BLOCK_SIZE is
 * next_power_of_2(n_cols); the generator also draws BLOCK < n_cols (columns past BLOCK
 * untouched) and row strides from contiguous to padded ones.
 *
 * Domain: |a| <= 87 so that exp(-a) stays finite in binary32 (beyond -88.7 the kernel's
 * 1/(1 + inf) = 0 while sigmoid(a) is a positive subnormal-range value: a saturation the
 * shadow's exp rule does not model, so the generator avoids it), |b|, |dc| <= 2^60 so
 * every product is finite.  The value menu's LARGE entry drives a to +-87 (sigmoid
 * saturated at both ends, 1 - sigmoid cancelling).
 * Launch, generator, checker and write sets: contracts/glu_rows_common.h (shared with
 * geglu_tanh_triton.c); this file gives the domain bounds, the contract tables and the specs.
 */
#define GLU_A_BOUND 87.0
#define GLU_BDC_BOUND 0x1p60
#define GLU_DOMAIN_MSG "domain: |a| <= 87 (exp(-a) finite), |b|, |dc| <= 2^60"
#define TD_SPEC_FILE "swiglu_triton.spec.h" /* glu_rows_common.h instantiates it */
#include "glu_rows_common.h"

#define SWIGLU_TRITON_COMMON                                                                                   \
    .file = "swiglu_triton", .family = "elementwise", .kind = "exact", .nparams = NP, .params = params,         \
    .nregions = NR, .sv = TD_SV_REAL,                                                                           \
    .sv_note = "|a| <= 87 keeps exp(-a) finite (the kernel's sigmoid saturation to 0 via inf is not generated); " \
               "|b|, |dc| <= 2^60: every product finite"

static const td_intent intent_f = {
    .operation = "SwiGLU: silu(a) * b",
    .definition = "torch.nn.functional.silu(a) * b (PyTorch documentation; Shazeer 2020)",
    TD_SPECS(intent_fwd),
};

const td_contract td_c_swiglu_triton_fwd = {
    .classes = EW_BCLASSES_ROWS1D | TD_BC(TD_BC_OFFSET_2_31),
    .id = "swiglu_triton.swiglu_forward_kernel_correctness",
    .io_class = "MaskedKernelIO_2 (swigluFwdIO)",
    .formula = "C[i] = swiglu(a, b) = (a * sigmoid(a)) * b, row windows pid*stride, j < n_cols",
    .regions = regions_fwd,
    .error_model = "binary32 in the kernel's order: sigmoid = 1/(1+exp(-a)) (exp budget, CR div), two products",
    .gen = gen_fwd,
    .far = far_fwd,
    .check = check_fwd,
    .writes = writes_fwd,
    SWIGLU_TRITON_COMMON,
    TD_SPECS(swiglu_fwd),
    .intent = &intent_f,
};

static const td_intent intent_b = {
    .operation = "the gradients of silu(a) * b with respect to a and b",
    .definition = "the derivative of torch.nn.functional.silu(a) * b",
    TD_SPECS(intent_bwd),
};

const td_contract td_c_swiglu_triton_bwd = {
    .classes = EW_BCLASSES_ROWS1D | TD_BC(TD_BC_INPLACE),
    .id = "swiglu_triton.swiglu_backward_kernel_correctness",
    .io_class = "MaskedKernelIO_3x2 (swigluBwdIO, out1 = A, out2 = B in place)",
    .formula = "A[i] := (dc*(silu*(1-sig) + sig))*b,  B[i] := dc*silu,  sig = sigmoid(a), silu = a*sig",
    .regions = regions_bwd,
    .error_model = "binary32 in the kernel's order (1 - sig cancels for large a: its error is carried absolutely)",
    .gen = gen_bwd, /* .far: none -- A and B are written in place: an in-out region cannot be sparse */
    .check = check_bwd,
    .writes = writes_bwd,
    .large = large_bwd, /* (the large tier holds in-out regions: windows of the initial contents) */
    SWIGLU_TRITON_COMMON,
    TD_SPECS(swiglu_bwd),
    .intent = &intent_b,
};
