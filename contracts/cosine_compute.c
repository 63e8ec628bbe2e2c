/* cosine_compute.cos_func_correctness  (catalogue part 1, src lines 3152-3164)
 *
 *   cosIO a b n_elements BLOCK_SIZE ⊨ fun xs i => Real.cos (xs i)
 *   MaskedKernelIO₁ (inp = a, out = b): read = write = pid * BLOCK_SIZE,
 *   mask = pid * BLOCK_SIZE + j < n_elements
 *
 * Kernel (bench/tritonbench_g/cosine_compute/cosine_compute.py): `cos_func`, a masked
 * load, `tl.cos(a_value.to(tl.float32))` (the cast is the identity on the binary32
 * input the wrapper passes), a masked store.  The wrapper picks BLOCK_SIZE =
 * next_power_of_2(ceil(sqrt(n))) and cdiv(n, BLOCK) programs; the contract holds for
 * any BLOCK, so the generator draws it freely.  Host: the C library's cosf; CUDA: cosf.
 * Error model: one cos evaluation of an exact input, the backend's ulp budget for cos
 * (host libm 0.561 ulp, measured exhaustively; CUDA 2.5 ulp).  Near the zeros of cos
 * the result is tiny and the ulp budget is relative to it: range reduction errors
 * there are exactly what a wrong kernel gets caught by.
 */
#include "elementwise_common.h"

enum { P_N, P_BLOCK, NP };
enum { R_A, R_B, NR };

#define TD_SPEC_FILE "cosine_compute.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"n_elements", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {{"a", TD_F32, TD_R_IN}, {"b", TD_F32, TD_R_OUT}};
static const int all_regs[NR] = {R_A, R_B}, outs[1] = {R_B};

static void gen(td_producer *p, td_case *c) {
    ew_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR, 0);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    td_vgen_fill(&g, c, R_A);
    /* sometimes the wrapper's test data, rand * 2 pi, with the binary32 values nearest
     * to the zeros pi/2 and 3 pi/2 of cos mixed in */
    if (td_prod_u32(p, 0, 3) == 0) {
        static const float near_zero[4] = {1.57079625f, 1.57079637f, 4.71238899f, 4.71238947f};
        for (size_t i = 0; i < c->r[R_A].len; i++) {
            uint64_t r = td_rng_next(&g.rng);
            float v = (r & 7) == 0 ? near_zero[(r >> 3) & 3] : (float)(td_rng_unit(&g.rng) * 6.283185307179586);
            td_set(c, R_A, i, v);
        }
        c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
    }
}

static const char *check(const td_case *c) {
    if (c->p[P_N].i > 2147483647) return "n_elements : tl.int32";
    return td_flat_check(c, P_N, P_BLOCK, all_regs, NR);
}
static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_N, P_BLOCK, outs, 1); }

static const td_intent intent = {
    .operation = "cos(x) for each element",
    .definition = "torch.cos (PyTorch documentation)",
    TD_SPECS(cos_intent),
};

const td_contract td_c_cosine_compute = {
    .id = "cosine_compute.cos_func_correctness",
    .file = "cosine_compute",
    .family = "elementwise",
    .io_class = "MaskedKernelIO_1 (cosIO)",
    .kind = "exact",
    .formula = "b[i] = cos(a[i])",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "cos is finite on every finite input",
    .error_model = "one cos evaluation of an exact input: the backend's ulp budget for cos",
    .classes = TD_BCLASSES_TILED,
    .gen = gen,
    /* no large hook: n_elements : tl.int32 in the original (the count itself cannot pass 2^31) */
    .check = check,
    .writes = writes,
    TD_SPECS(cos),
    .intent = &intent,
};
