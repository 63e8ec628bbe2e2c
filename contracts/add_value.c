/* add_value: Triton puzzle 1, out = x + value (catalogue part 1, src lines 47-77).
 *
 *   puzzle1_kernel_correctness:    addValueIO x_ptr output_ptr N BLOCK_SIZE value ⊨ fun xs i => xs i + value
 *   puzzle1_kernel_io_correctness: addValueIO ... ⊨[R, .real] fun xs i => xs i + value
 *   MaskedKernelIO₁: read = write = pid * BLOCK_SIZE, mask = pid * BLOCK_SIZE + j < N
 *
 * Kernel (bench/tritonbench_g/add_value/add_value.py): `value: tl.float32`, so the
 * kernel receives value rounded to binary32; the generator draws binary32 values, so
 * the spec's real `value` is exactly what the kernel holds.  `x + value` is one
 * binary32 addition.
 *
 * The rounding twin: ⊨[R, .real] rounds the stored value with R at the output's
 * type; here the output region is binary32, so R is the binary32 store cast
 * (slot "store", fp32:rne:inf) and the contract claims out = RN32(x + value) exactly.
 * The error model gives the addition's result the "correctly rounded from exact
 * operands" flag, and casting such a value with the identical rounding costs nothing:
 * the tolerance of the twin is 0 (bit-exact).
 */
#include "gen.h"
#include "gen_large.h"

enum { P_N, P_BLOCK, P_VALUE, NP };
enum { R_X, R_OUT, NR };
enum { C_STORE };

#define TD_SPEC_FILE "add_value.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"N", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}, {"value", TD_P_REAL}};
static const td_region_decl regions[NR] = {{"x_ptr", TD_F32, TD_R_IN}, {"output_ptr", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round .real of the stored output (a binary32 store)"}};
static const int all_regs[NR] = {R_X, R_OUT}, outs[1] = {R_OUT};

static void gen(td_producer *p, td_case *c) {
    td_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p126);
    td_vgen_fill(&g, c, R_X);
    /* value: from the same menu (ties, wide exponents, +-0 ...), binary32 */
    c->p[P_VALUE].r = td_vgen_value(&g, TD_F32);
}

static const char *check(const td_case *c) {
    if ((double)(float)c->p[P_VALUE].r != c->p[P_VALUE].r) return "value : tl.float32 (the kernel's scalar type)";
    return td_flat_check(c, P_N, P_BLOCK, all_regs, NR);
}

static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_N, P_BLOCK, outs, 1); }

/* The large tier (gen_large.h): 2^31 + d elements in x and out. */
static void large(td_producer *p, td_case *c) { (void)td_flat_large(p, c, P_N, P_BLOCK, all_regs, NR); }

#define ADD_VALUE_COMMON                                                                                        \
    .file = "add_value", .family = "elementwise", .io_class = "MaskedKernelIO_1 (addValueIO)", .nparams = NP,   \
    .params = params, .nregions = NR, .regions = regions, .sv = TD_SV_IEEE,                                     \
    .sv_note = "inputs finite with |x|, |value| <= 2^126: the exact sum is finite", .classes = TD_BCLASSES_TILED, \
    .gen = gen, .check = check, .writes = writes, .large = large

static const td_intent intent = {
    .operation = "x + value for each element",
    .definition = "torch.add(x, value) (PyTorch documentation)",
    TD_SPECS(add_value_intent),
};

const td_contract td_c_add_value = {
    .id = "add_value.puzzle1_kernel_correctness",
    .kind = "exact",
    .formula = "out[i] = x[i] + value",
    .error_model = "one binary32 addition of exact operands: |RN32(x+value) - (x+value)|",
    ADD_VALUE_COMMON,
    TD_SPECS(add_value),
    .intent = &intent,
};

const td_contract td_c_add_value_io = {
    .id = "add_value.puzzle1_kernel_io_correctness",
    .kind = "rounding",
    .formula = "out[i] = R.round(.real)(x[i] + value), R = the binary32 store",
    .error_model = "RN32 of exact operands, then the identical binary32 store cast: bit-exact (tolerance 0)",
    .ncasts = 1,
    .casts = casts,
    ADD_VALUE_COMMON,
    TD_SPECS(add_value_io),
    .intent = &intent,
};
