/* fused_activation.fused_add_mul_activation_kernel_correctness  (catalogue part 1)
 *
 *   fusedActivationIO x_ptr bias_ptr in_ptr num_weights xnumel BLOCK_SIZE multiplier
 *     ACTIVATION_SIGMOID ⊨ fun _ _ xs _ j =>
 *       fusedActivationSpec ACTIVATION_SIGMOID (xs 0 j) (xs 1 j) (xs 2 j) multiplier
 *   GroupedMasked2DKernelIO, bufs [x_ptr, bias_ptr, in_ptr], out = x_ptr (IN PLACE),
 *   read 0 = read 2 = pid₀ * BLOCK_SIZE + j, read 1 = (pid₀ * BLOCK_SIZE + j) % num_weights
 *   (the bias broadcast), readMask = writeMask = pid₀ * BLOCK_SIZE + j < xnumel
 *
 * Named spec, read in bench/tritonbench_g/fused_activation/FusedActivation.lean:
 *   fusedActivationInput x bias input multiplier = multiplier * input + x + bias
 *   fusedActivationSpec act x bias input m = act ? sigmoid z : (if 0 > z then 0 else z)
 * with the IO passing (x, bias, in) in that order, so the catalogue's reading
 * act(x + bias + multiplier*in) is the same real; the operand ORDER the kernel rounds in
 * is Lean's: activ_input = (multiplier * in + x) + bias, which the error model follows.
 * Kernel (bench/tritonbench_g/fused_activation/fused_activation.py): the Python string
 * `activation` ("sigmoid" / "relu") is the Bool ACTIVATION_SIGMOID, as in the Lean port;
 * tl.sigmoid(z) = 1 / (1 + exp(-z)) and tl.maximum(0, z) in binary32; the three masked
 * loads happen before the in-place store to x_ptr.  multiplier is a tl.constexpr Python
 * float that Triton converts to binary32 for `multiplier * tmp3`: the generator draws
 * binary32 values (the wrapper's 0.5, 0, +-1, others) and the checker verifies it.
 * num_weights = bias.numel() in the wrapper: the generator draws 1, small counts, BLOCK
 * and its neighbours, xnumel and more than xnumel (the modulo never wraps); num_weights
 * = 0 (x % 0) is not a launch Triton can run and is not generated.
 *
 * Domain: the sigmoid branch keeps |z| <= 84 (|x|, |bias| <= 28, |in| <= 14, |m| <= 2),
 * so exp(-z) stays finite (below -88.7 the kernel's 1/(1+inf) = 0 saturation is outside
 * the shadow's exp model); the relu branch takes |x|, |bias|, |in| <= 2^100.
 */
#include "elementwise_common.h"
#include "gen_large.h"

enum { P_NW, P_XNUMEL, P_BLOCK, P_MULT, P_SIGMOID, NP };
enum { R_X, R_BIAS, R_IN, NR };

#define TD_SPEC_FILE "fused_activation.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"num_weights", TD_P_INT}, {"xnumel", TD_P_INT},
                                         {"BLOCK_SIZE", TD_P_INT},  {"multiplier", TD_P_REAL},
                                         {"ACTIVATION_SIGMOID", TD_P_BOOL}};
static const td_region_decl regions[NR] = {
    {"x_ptr", TD_F32, TD_R_INOUT}, {"bias_ptr", TD_F32, TD_R_IN}, {"in_ptr", TD_F32, TD_R_IN}};
static const int flat_regs[2] = {R_X, R_IN}, outs[1] = {R_X};

#define SIG_XB_BOUND 28.0
#define SIG_IN_BOUND 14.0
#define RELU_BOUND 0x1p100

static void gen(td_producer *p, td_case *c) {
    ew_flat_shape(p, c, P_XNUMEL, P_BLOCK, 10, 1 << 14, flat_regs, 2, 0);
    int64_t n = c->p[P_XNUMEL].i, B = c->p[P_BLOCK].i, nw;
    switch (td_prod_u32(p, 0, 6)) {
    case 0: nw = 1; break;
    case 1: nw = B; break;
    case 2: nw = B > 1 ? B - 1 : 1; break;
    case 3: nw = B + 1; break;
    case 4: nw = n > 0 ? n : 1; break;
    case 5: nw = n + (int64_t)td_prod_u32(p, 1, 8); break;
    default: nw = (int64_t)td_prod_u32(p, 1, 64); break;
    }
    if (nw == 1 || nw > n) c->classes |= TD_BC(TD_BC_META_EXTREME);
    c->p[P_NW].i = nw;
    td_case_alloc(c, R_BIAS, (size_t)nw + (td_prod_bool(p) ? td_prod_u32(p, 1, 4) : 0));
    int sig = td_prod_bool(p);
    c->p[P_SIGMOID].i = sig;
    static const unsigned wm[5] = {4, 1, 2, 1, 4};
    double m;
    switch (td_prod_pick(p, wm, 5)) {
    case 0: m = 0.5; break; /* the wrapper's */
    case 1: m = 0.0; break;
    case 2: m = td_prod_bool(p) ? 1.0 : -1.0; break;
    case 3: m = 0x1p-20; break;
    default: m = td_gen_real(p, -2.0, 2.0); break;
    }
    c->p[P_MULT].r = m;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, sig ? SIG_XB_BOUND : RELU_BOUND);
    td_vgen_fill(&g, c, R_X);
    td_vgen_fill(&g, c, R_BIAS);
    g.bound = sig ? SIG_IN_BOUND : RELU_BOUND;
    td_vgen_fill(&g, c, R_IN);
    c->classes |= TD_BC(TD_BC_INPLACE);
}

static const char *check(const td_case *c) {
    double m = c->p[P_MULT].r;
    if ((double)(float)m != m) return "multiplier: the binary32 value the kernel's constexpr becomes";
    if (c->p[P_NW].i <= 0) return "num_weights = bias.numel() > 0 (index % num_weights)";
    if ((int64_t)c->r[R_BIAS].len < c->p[P_NW].i) return "bias_ptr holds num_weights elements";
    int sig = c->p[P_SIGMOID].i != 0;
    if (!(fabs(m) <= 2)) return "domain: |multiplier| <= 2";
    for (int r = 0; r < NR; r++) /* (x and in of a large case: their windows; the rest reads 0) */
        for (uint64_t i = td_large_next(c, r, 0); i < c->r[r].len; i = td_large_next(c, r, i + 1)) {
            double v = fabs(td_get(c, r, (size_t)i));
            double bound = !sig ? RELU_BOUND : r == R_IN ? SIG_IN_BOUND : SIG_XB_BOUND;
            if (!(v <= bound)) return "domain: sigmoid |z| <= 84 (exp(-z) finite), relu |x|, |bias|, |in| <= 2^100";
        }
    return td_flat_check(c, P_XNUMEL, P_BLOCK, flat_regs, 2);
}

static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_XNUMEL, P_BLOCK, outs, 1); }

/* The large tier (gen_large.h): 2^31 + d elements of x and in (xnumel is a constexpr in
 * the original: any Python int, while tl.program_id(0) * BLOCK_SIZE is int32); bias
 * keeps its num_weights elements, read at index % num_weights. */
static void large(td_producer *p, td_case *c) { (void)td_flat_large(p, c, P_XNUMEL, P_BLOCK, flat_regs, 2); }

/* The intent: the operation the wrapper names, torch.sigmoid (ACTIVATION_SIGMOID) or
 * torch.relu of x + bias + multiplier * in, the bias broadcast over rows of num_weights
 * elements (PyTorch broadcasting: bias[j % num_weights]); exact, rounded once. */
static const td_intent intent = {
    .operation = "act(x + bias + multiplier * in) elementwise, act = sigmoid or relu, bias broadcast over rows of "
                 "num_weights",
    .definition = "torch.sigmoid / torch.relu (PyTorch documentation: sigmoid(z) = 1 / (1 + e^-z), relu(z) = "
                  "max(0, z)) of torch.add(x, bias) + multiplier * in (torch.add, torch.mul, broadcasting "
                  "semantics), exact, rounded once to the output",
    TD_SPECS(fused_intent),
};

const td_contract td_c_fused_activation = {
    .id = "fused_activation.fused_add_mul_activation_kernel_correctness",
    .file = "fused_activation",
    .family = "elementwise",
    .io_class = "GroupedMasked2DKernelIO (fusedActivationIO, in place on x_ptr, bias % num_weights)",
    .kind = "exact",
    .formula = "x[i] := act((multiplier*in[i] + x[i]) + bias[i % num_weights]), act = sigmoid or max(0, .)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "sigmoid branch |z| <= 84 (exp(-z) finite; the 1/(1+inf) = 0 saturation is not generated); "
               "relu branch |z| < 2^103; num_weights > 0",
    .error_model = "binary32 in the kernel's order: (m*in + x) + bias, then sigmoid = 1/(1+exp(-z)) or max(0, z)",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_INPLACE) | TD_BC(TD_BC_META_EXTREME),
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(fused),
    .intent = &intent,
};
