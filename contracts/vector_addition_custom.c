/* vector_addition_custom.add_kernel_correctness  (catalogue part 2)
 *
 *   addCustomIO A B C size BLOCK ⊨ fun as bs i => as i + bs i
 *   MaskedKernelIO₂: read1 = read2 = write = pid * BLOCK, mask = pid * BLOCK + j < size
 *
 * Kernel (bench/tritonbench_g/vector_addition_custom/vector_addition_custom.py):
 * `_add_kernel`, offs = prog_id * BLOCK + arange(BLOCK), masked loads of A and B,
 * `a + b` stored to C with the same mask; size is a tl.int32.  The wrapper fixes
 * BLOCK = 16 and its test adds two EMPTY vectors (size 0: cdiv(0, 16) = 0 programs),
 * so the generator includes size 0 (grid 0, or one fully masked program) besides the
 * usual boundary sizes, and any power-of-two BLOCK (the contract is general in BLOCK).
 * Error model: one binary32 addition of exact inputs, bound |RN32(a+b) - (a+b)|
 * (bit-exact).
 */
#include "elementwise_common.h"

enum { P_SIZE, P_BLOCK, NP };
enum { R_A, R_B, R_C, NR };

#define TD_SPEC_FILE "vector_addition_custom.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"size", TD_P_INT}, {"BLOCK", TD_P_INT}};
static const td_region_decl regions[NR] = {{"A", TD_F32, TD_R_IN}, {"B", TD_F32, TD_R_IN}, {"C", TD_F32, TD_R_OUT}};
static const int all_regs[NR] = {R_A, R_B, R_C}, outs[1] = {R_C};

static void gen(td_producer *p, td_case *c) {
    ew_flat_shape(p, c, P_SIZE, P_BLOCK, 10, 1 << 14, all_regs, NR, EW_EMPTY | EW_SURPLUS);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p126);
    td_vgen_fill(&g, c, R_A);
    td_vgen_fill(&g, c, R_B);
}

static const char *check(const td_case *c) {
    if (c->p[P_SIZE].i > 2147483647) return "size : tl.int32";
    return td_flat_check(c, P_SIZE, P_BLOCK, all_regs, NR);
}

static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_SIZE, P_BLOCK, outs, 1); }

static const td_intent intent = {
    .operation = "x + y for each element",
    .definition = "torch.add(x, y) (PyTorch documentation)",
    TD_SPECS(add_intent),
};

const td_contract td_c_vector_addition_custom = {
    .id = "vector_addition_custom.add_kernel_correctness",
    .file = "vector_addition_custom",
    .family = "elementwise",
    .io_class = "MaskedKernelIO_2 (addCustomIO)",
    .kind = "exact",
    .formula = "C[i] = A[i] + B[i]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_IEEE,
    .sv_note = "inputs finite with |a|,|b| <= 2^126, so the exact sum is finite; size 0 writes nothing",
    .error_model = "one binary32 addition of exact inputs: |RN32(a+b) - (a+b)| (bit-exact)",
    .classes = EW_BCLASSES_FLAT,
    .gen = gen,
    /* no large hook: size : tl.int32 in the original (the count itself cannot pass 2^31) */
    .check = check,
    .writes = writes,
    TD_SPECS(add_custom),
    .intent = &intent,
};
