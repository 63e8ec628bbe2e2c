/* adam_update_triton.update_fn_kernel_correctness  (catalogue part 1, src lines 1-27)
 *
 *   adamIO p grad exp_avg lr wd beta1 beta2 n BLOCK ⊨ fun p grad m =>
 *       (fun i => lionParam (p i) (m i) (grad i) lr wd beta1,  fun i => lionMomentum (m i) (grad i) beta2)
 *   MaskedKernelIO₃ₓ₂, out1 = in1 = p and out2 = in3 = exp_avg (in place), hRegions: p ≠ exp_avg
 *
 * The named specs, read in VeriTile/Triton/Math/Optimizer.lean:
 *   lionParam p m g lr wd b1 = (1 - lr*wd) * p - lr * sign(b1*m + (1-b1)*g)    (Real.sign 0 = 0)
 *   lionMomentum m g b2      = b2*m + (1-b2)*g
 * The Triton kernel (bench/tritonbench_g/adam_update_triton/adam_update_triton.py; a
 * Lion update despite its name) evaluates the same reals as
 *   p' = p * (1 - lr*wd);  diff = m - g;  update = diff*b1 + g;
 *   p' = p' + where(update > 0, -lr, lr) * (update != 0);  m' = diff*b2 + g
 * (b1*(m-g) + g = b1*m + (1-b1)*g exactly).  A kernel may as well evaluate the
 * catalogue's own form b*m + (1-b)*g or PyTorch's lerp m + (1-b)*(g-m): all three are
 * admissible, so the bound of each blend is the largest of the three (N(either)),
 * each operation one binary32 rounding; the sign of `update`, which is discontinuous
 * at 0, costs 2*lr wherever the kernel's update is within its error of 0 (the model
 * cannot tell the sign there).
 */
#include "gen.h"
#include "gen_large.h"

enum { P_LR, P_WD, P_B1, P_B2, P_N, P_BLOCK, NP };
enum { R_P, R_GRAD, R_M, NR };

#define TD_SPEC_FILE "adam_update_triton.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"lr", TD_P_REAL},        {"wd", TD_P_REAL},   {"beta1", TD_P_REAL},
                                         {"beta2", TD_P_REAL},     {"n_elements", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"p_ptr", TD_F32, TD_R_INOUT}, {"grad_ptr", TD_F32, TD_R_IN}, {"exp_avg_ptr", TD_F32, TD_R_INOUT}};
static const int all_regs[NR] = {R_P, R_GRAD, R_M}, outs[2] = {R_P, R_M};

static void gen(td_producer *p, td_case *c) {
    td_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR);
    /* optimizer hyper-parameters in their usual ranges, and their edges */
    c->p[P_LR].r = td_prod_bool(p) ? td_gen_real(p, 1e-6, 1e-3) : td_gen_real(p, 1e-3, 0.3);
    c->p[P_WD].r = td_prod_bool(p) ? 0.0 : td_gen_real(p, 0.0, 0.5);
    c->p[P_B1].r = td_gen_real(p, 0.5, 0.999);
    c->p[P_B2].r = td_gen_real(p, 0.9, 0.9999);
    td_vgen g;
    /* parameters, gradients and momenta well inside binary32 (|x| <= 2^60) */
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p60);
    for (int r = 0; r < NR; r++) td_vgen_fill(&g, c, r);
    c->classes |= TD_BC(TD_BC_INPLACE);
}

static const char *check(const td_case *c) {
    for (int k = P_LR; k <= P_B2; k++)
        if ((double)(float)c->p[k].r != c->p[k].r) return "lr, wd, beta1, beta2 are binary32 kernel scalars";
    /* hRegions: p_ptr ≠ exp_avg_ptr holds by construction (two declared regions) */
    return td_flat_check(c, P_N, P_BLOCK, all_regs, NR);
}

static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_N, P_BLOCK, outs, 2); }

/* The large tier (gen_large.h): 2^31 + d elements of p, grad and exp_avg (n_elements is
 * unannotated in the original: a 64-bit argument past 2^31, while pid * BLOCK_SIZE stays
 * int32). */
static void large(td_producer *p, td_case *c) { (void)td_flat_large(p, c, P_N, P_BLOCK, all_regs, NR); }

static const td_intent intent = {
    .operation = "one Lion step: p * (1 - lr*wd) - lr * sign(b1*m + (1-b1)*g), and m = b2*m + (1-b2)*g",
    .definition = "Lion (Chen et al. 2023, Algorithm 2; lucidrains lion-pytorch update_fn): the kernel is a Lion update despite its name",
    TD_SPECS(lion_intent),
};

const td_contract td_c_adam_update = {
    .id = "adam_update_triton.update_fn_kernel_correctness",
    .file = "adam_update_triton",
    .family = "elementwise",
    .io_class = "MaskedKernelIO_3x2 (adamIO)",
    .kind = "exact",
    .formula = "p[i] := (1 - lr*wd)*p[i] - lr*sign(b1*m[i] + (1-b1)*g[i]);  m[i] := b2*m[i] + (1-b2)*g[i]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_IEEE,
    .sv_note = "inputs |x| <= 2^60, hyper-parameters in [0, 1): every intermediate finite; sign(0) = 0 as Real.sign",
    .error_model = "binary32 evaluation as the kernel orders it; sign() costs 2*lr where update is within its error of 0",
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_INPLACE),
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(lion),
    .intent = &intent,
};
