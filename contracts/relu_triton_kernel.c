/* relu_triton_kernel.relu_kernel_correctness  (catalogue part 2)
 *
 *   (hB : 0 < block_size) : reluIO x_ptr out_ptr N block_size ⊨ fun xs i => relu (xs i)
 *   MaskedKernelIO₁: read = write = pid * block_size, mask = pid * block_size + j < N,
 *   writeMask = pid = 0 ∧ pid * block_size + j < N
 *
 * Kernel (bench/tritonbench_g/relu_triton_kernel/relu_triton_kernel.py): every program
 * loads its tile and computes `tl.where(x >= 0, x, 0.0)`, but the store sits under
 * `if pid == 0:`, so ONLY PROGRAM 0 WRITES: the wrapper launches cdiv(N, 1024)
 * programs and the elements past the first block keep whatever the output held.  The
 * contract models this quirk with its writeMask: the write set is program 0's lanes,
 * and every other output cell must keep the harness's sentinel (a "fixed" kernel that
 * stores from every program breaks the contract and is one of the mutants).  The
 * generator favours multi-program grids so that the quirk is exercised.
 * Spec: TiledActivation.relu x = max 0 x (VeriTile/Triton/Math/Activation.lean); the
 * kernel's where(x >= 0, x, 0) equals it on every real (at x = -0 it returns -0, which
 * equals 0).  Exact: tolerance 0.
 */
#include "elementwise_common.h"
#include "gen_large.h"

enum { P_N, P_BLOCK, NP };
enum { R_X, R_OUT, NR };

#define TD_SPEC_FILE "relu_triton_kernel.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"N", TD_P_INT}, {"block_size", TD_P_INT}};
static const td_region_decl regions[NR] = {{"x_ptr", TD_F32, TD_R_IN}, {"out_ptr", TD_F32, TD_R_OUT}};
static const int all_regs[NR] = {R_X, R_OUT};

static void gen(td_producer *p, td_case *c) {
    ew_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR, EW_SURPLUS);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p127);
    td_vgen_fill(&g, c, R_X);
}

static const char *check(const td_case *c) {
    if (c->p[P_BLOCK].i <= 0) return "hB : 0 < block_size";
    return td_flat_check(c, P_N, P_BLOCK, all_regs, NR);
}

/* writeMask: pid = 0 ∧ j < N */
static void writes(const td_case *c, td_wset *ws) {
    int64_t n = c->p[P_N].i, B = c->p[P_BLOCK].i;
    if (c->grid[0] == 0) return;
    for (int64_t j = 0; j < B && j < n; j++) {
        td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)j, .pid = {0, 0, 0}, .j = (uint64_t)j, .idx = {j}};
        td_wset_add(ws, &l);
    }
}

/* The large tier (gen_large.h): N = 2^31 + d elements of x and out (N is a constexpr
 * int, not a tl.int32, and the wrapper passes out.numel()).  Only program 0 stores, but
 * every program loads its tile of x: a kernel forming pid * block_size + j in int32
 * loads from a wrapped, negative offset past 2^31 elements (an illegal address); the
 * windows' out cells past program 0 must keep the sentinel. */
static void large(td_producer *p, td_case *c) { (void)td_flat_large(p, c, P_N, P_BLOCK, all_regs, NR); }

/* The intent writes every one of the N elements (torch.relu is elementwise over the
 * whole tensor), where the contract's writeMask keeps program 0's lanes only. */
static void intent_writes(const td_case *c, td_wset *ws) {
    int64_t n = c->p[P_N].i, B = c->p[P_BLOCK].i;
    for (int64_t i = 0; i < n; i++) {
        td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)i, .pid = {(uint32_t)(i / B), 0, 0},
                      .j = (uint64_t)(i % B), .idx = {i}};
        td_wset_add(ws, &l);
    }
}

static const td_intent intent = {
    .operation = "relu of each of the N elements: max(0, x)",
    .definition = "torch.relu (PyTorch documentation): elementwise max(0, x) over the whole tensor",
    TD_SPECS(relu),
    .writes = intent_writes,
};

const td_contract td_c_relu_triton_kernel = {
    .id = "relu_triton_kernel.relu_kernel_correctness",
    .file = "relu_triton_kernel",
    .family = "elementwise",
    .io_class = "MaskedKernelIO_1 (reluIO, writeMask pid = 0)",
    .kind = "exact",
    .formula = "out[i] = relu(x[i]) = max(0, x[i]) for program 0's lanes only",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "relu of a finite value is that value or 0: always finite",
    .error_model = "max(0, x) is exact in binary32 (tolerance 0)",
    .classes = EW_BCLASSES_FLAT,
    .gen = gen,
    .check = check,
    .writes = writes,
    .large = large,
    TD_SPECS(relu),
    .intent = &intent,
};
