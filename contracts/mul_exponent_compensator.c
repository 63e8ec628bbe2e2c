/* mul_exponent_compensator.mul_kernel_correctness  (catalogue part 2)
 *
 *   mulIO src dst B ⊨ fun xs i => xs i * exponentCompensator          (hB : 0 < B)
 *   KernelIO₁ (unmasked): Bin = Bout = B, read = write = pid * B, no mask;
 *   exponentCompensator = 2^(127 - 15) = 2^112 (a named real constant).
 *
 * Checked against VeriTile bench/tritonbench_g/mul_exponent_compensator/
 * MulExponentCompensator.lean (the kernel's transcription, `mul_kernel`): program pid
 * loads the B elements at pid * B + arange(B) without a mask, multiplies each by the
 * constexpr 2.0 ** (127 - 15) and stores them at the same offsets.  The statement is
 * per program (one tile); a launch of G programs is G such tiles, so the write set is
 * every pid * B + j with pid < G, j < B, and both regions must hold G * B elements.
 *
 * Error model: 2^112 is a binary32 number, and multiplying by a power of two is exact
 * whenever the product is a normal binary32 number.  The generator keeps |x| < 2^16,
 * so |x * 2^112| <= (2 - 2^-23) 2^127 = FLT_MAX; the smallest nonzero input, 2^-149,
 * gives 2^-37, far above the subnormal range.  So every admissible evaluation (x * C,
 * C * x, x / 2^-112, ldexp(x, 112), an FMA with a zero addend; any FMA setting) gives
 * the exact product and the tolerance is 0; the spec is the one multiplication, and
 * the shadow charges its exact rounding error, 0.  Not covered: an evaluation that
 * flushes subnormal INPUTS to zero (CUDA -ftz=true) returns 0 where the product is
 * >= 2^-37; such a kernel computes another function of its inputs and is flagged.
 *
 * Special values (TD_SV_REAL): inputs are finite with |x| < 2^16, so every output is
 * finite; a non-finite output is a disagreement.
 */
#include <math.h>

#include "gen.h"
#include "gen_large.h"

enum { P_BLOCK, NP };
enum { R_SRC, R_DST, NR };

#define TD_SPEC_FILE "mul_exponent_compensator.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {{"src", TD_F32, TD_R_IN}, {"dst", TD_F32, TD_R_OUT}};
static const int all_regs[NR] = {R_SRC, R_DST};

/* Every binary32 x with |x| < 2^16: the largest is (2 - 2^-23) 2^15. */
#define MEC_BOUND 0x1.fffffep15

/* B a power of two up to 2^10, G programs (one a third of the time), G * B <= 2^14;
 * dst sometimes longer than G * B, so a write past the last tile lands in a cell. */
static void gen(td_producer *p, td_case *c) {
    uint64_t B = td_gen_pow2(p, 0, 10);
    uint64_t maxg = ((uint64_t)1 << 14) / B;
    uint64_t G = td_prod_u32(p, 0, 2) == 0 ? 1 : td_prod_u32(p, 1, (uint32_t)(maxg > 64 ? 64 : maxg));
    uint64_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, (uint32_t)B) : 0;
    c->p[P_BLOCK].i = (int64_t)B;
    c->grid[0] = (uint32_t)G;
    td_gen_mark_shape(G * B, B, G, &c->classes);
    td_case_alloc(c, R_SRC, G * B);
    td_case_alloc(c, R_DST, G * B + slack);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, MEC_BOUND);
    td_vgen_fill(&g, c, R_SRC);
}

static const char *check(const td_case *c) {
    int64_t B = c->p[P_BLOCK].i, n = (int64_t)c->grid[0] * B;
    if (B <= 0) return "hB: 0 < B";
    if ((int64_t)c->r[R_SRC].len < n) return "src holds every program's tile (read = pid * B, no mask)";
    if ((int64_t)c->r[R_DST].len < n) return "dst holds every program's tile (write = pid * B, no mask)";
    /* (a large case: its windows; every other element reads 0, in the domain) */
    for (uint64_t i = td_large_next(c, R_SRC, 0); i < (uint64_t)n; i = td_large_next(c, R_SRC, i + 1))
        if (!(fabs(td_get(c, R_SRC, (size_t)i)) <= MEC_BOUND)) return "domain: |x| < 2^16 (x * 2^112 finite)";
    return NULL;
}

static void write_lane(td_wset *ws, uint64_t off, uint64_t B) {
    td_olane l = {.o = 0, .region = R_DST, .off = off, .pid = {(uint32_t)(off / B), 0, 0}, .j = off % B,
                  .idx = {(int64_t)off}};
    td_wset_add(ws, &l);
}

/* Unmasked: every lane j < B of every program.  A large case: the lanes of its windows
 * (whole programs, the grid covers exactly G * B), the others counted, not judged. */
static void writes(const td_case *c, td_wset *ws) {
    uint64_t B = (uint64_t)c->p[P_BLOCK].i, n = (uint64_t)c->grid[0] * B, kept = 0;
    if (c->nwin) {
        for (int w = 0; w < c->nwin; w++)
            for (uint64_t off = c->win[w].lo; off < c->win[w].hi && off < n; off++, kept++) write_lane(ws, off, B);
        ws->dropped += n - kept;
        return;
    }
    for (uint64_t off = 0; off < n; off++) write_lane(ws, off, B);
}

/* The large tier (gen_large.h): 2^31 + d elements of src and dst, d a multiple of
 * BLOCK_SIZE (the wrapper launches src.shape[0] // BLOCK_SIZE programs, no count and no
 * mask; src.shape[0] is a Python int, not a tl.int32). */
static void large(td_producer *p, td_case *c) { (void)td_flat_large(p, c, -1, P_BLOCK, all_regs, NR); }

static const td_intent intent = {
    .operation = "x * 2^112 for each element (the fp8 exponent compensation)",
    .definition = "torch.mul(x, 2**112) (PyTorch documentation)",
    TD_SPECS(mec_intent),
};

const td_contract td_c_mul_exponent_compensator = {
    .id = "mul_exponent_compensator.mul_kernel_correctness",
    .file = "mul_exponent_compensator",
    .family = "elementwise",
    .io_class = "KernelIO_1 (mulIO, unmasked)",
    .kind = "exact",
    .formula = "dst[i] = src[i] * 2^112",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "inputs are finite with |x| < 2^16, so x * 2^112 is finite (at most FLT_MAX)",
    .error_model = "one multiplication by the power of two 2^112, exact for every normal product (tolerance 0)",
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) |
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE),
    .gen = gen,
    .check = check,
    .writes = writes,
    .large = large,
    TD_SPECS(mec),
    .intent = &intent,
};
