/* triton_mul2: out = 2 * x, out of place and in place (catalogue part 2).
 *
 *   mul2_kernel_correctness:         MaskedKernelIO₁, out[i] = 2 * x[i]
 *   mul2_inplace_kernel_correctness: MaskedKernelIO₁ with inp = out = ptr: ptr[i] := 2 * ptr_initial[i]
 *   read = write = pid * BLOCK_SIZE, mask = pid * BLOCK_SIZE + j < n_elements
 *
 * Kernel (bench/tritonbench_g/triton_mul2/triton_mul2.py): `output = 2 * x` in binary32.
 * Doubling is exact in binary32 unless it overflows; the generator keeps |x| <= 2^126,
 * so the tolerance is 0 and the in-place contract relates the final contents to the
 * contents the kernel loaded (the oracle reads the snapshot taken before the launch).
 */
#include "gen.h"
#include "gen_large.h"

enum { P_N, P_BLOCK, NP };
enum { R_IN, R_OUT, NR };      /* out of place */
enum { R_PTR = 0, NR_INPLACE }; /* in place */

#define TD_SPEC_FILE "triton_mul2.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"n_elements", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {{"in_ptr0", TD_F32, TD_R_IN}, {"out_ptr", TD_F32, TD_R_OUT}};
static const td_region_decl regions_inplace[NR_INPLACE] = {{"ptr", TD_F32, TD_R_INOUT}};
static const int all_regs[NR] = {R_IN, R_OUT}, outs[1] = {R_OUT}, inplace_regs[1] = {R_PTR};

static void gen(td_producer *p, td_case *c) {
    td_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p126);
    td_vgen_fill(&g, c, R_IN);
}
static const char *check(const td_case *c) { return td_flat_check(c, P_N, P_BLOCK, all_regs, NR); }
static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_N, P_BLOCK, outs, 1); }

static void gen_inplace(td_producer *p, td_case *c) {
    td_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, inplace_regs, 1);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p126);
    td_vgen_fill(&g, c, R_PTR);
    c->classes |= TD_BC(TD_BC_INPLACE);
}
static const char *check_inplace(const td_case *c) { return td_flat_check(c, P_N, P_BLOCK, inplace_regs, 1); }
static void writes_inplace(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_N, P_BLOCK, inplace_regs, 1); }

/* The large tier (gen_large.h): 2^31 + d elements in every region (ptr in place: its
 * windows are real, the rest one shared buffer the kernel rewrites unjudged). */
static void large(td_producer *p, td_case *c) { (void)td_flat_large(p, c, P_N, P_BLOCK, all_regs, NR); }
static void large_inplace(td_producer *p, td_case *c) { (void)td_flat_large(p, c, P_N, P_BLOCK, inplace_regs, 1); }

static const td_intent intent = {
    .operation = "2 * x for each element",
    .definition = "torch.mul(x, 2) (PyTorch documentation)",
    TD_SPECS(mul2_intent),
};
static const td_intent intent_inplace = {
    .operation = "2 * x for each element, in place",
    .definition = "torch.Tensor.mul_(2) (PyTorch documentation)",
    TD_SPECS(mul2_inplace_intent),
};

const td_contract td_c_mul2 = {
    .id = "triton_mul2.mul2_kernel_correctness",
    .file = "triton_mul2",
    .family = "elementwise",
    .io_class = "MaskedKernelIO_1",
    .kind = "exact",
    .formula = "out[i] = 2 * x[i]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_IEEE,
    .sv_note = "|x| <= 2^126: doubling stays finite",
    .error_model = "doubling is exact in binary32 (tolerance 0)",
    .classes = TD_BCLASSES_TILED,
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(mul2),
    .intent = &intent,
};

const td_contract td_c_mul2_inplace = {
    .id = "triton_mul2.mul2_inplace_kernel_correctness",
    .file = "triton_mul2",
    .family = "elementwise",
    .io_class = "MaskedKernelIO_1 (inp = out = ptr)",
    .kind = "exact",
    .formula = "ptr[i] := 2 * ptr_initial[i]",
    .nparams = NP,
    .params = params,
    .nregions = NR_INPLACE,
    .regions = regions_inplace,
    .sv = TD_SV_IEEE,
    .sv_note = "|x| <= 2^126: doubling stays finite",
    .error_model = "doubling is exact in binary32 (tolerance 0)",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_INPLACE),
    .gen = gen_inplace,
    .large = large_inplace,
    .check = check_inplace,
    .writes = writes_inplace,
    TD_SPECS(mul2_inplace),
    .intent = &intent_inplace,
};
