/* f8_conversion_utils: fp16 -> fp8 e5m2 and fp8 e5m2 -> fp16 conversion kernels
 * (catalogue part 1, src lines 3877-3901).
 *
 *   f16_to_f8_io_correctness: f16ToF8IO Y X N BLOCK ⊨[R, .f8e5] fun xs i => xs i
 *   f8_to_f16_io_correctness: f8ToF16IO Y X N BLOCK ⊨[R, .fp16] fun xs i => xs i
 *   MaskedKernelIO₁, read = write = pid * BLOCK_SIZE, mask = pid * BLOCK_SIZE + j < N
 *
 * Kernels (bench/tritonbench_g/f8_conversion_utils/f8_conversion_utils.py): a masked
 * load and a store through `triton.reinterpret(..., tl.float8e5)`: the store IS the
 * conversion.  R becomes a real cast profile:
 *   - fp16 -> e5m2: Triton on sm_89/sm_90 lowers it to cvt.rn.satfinite.e5m2x2.f16x2
 *     (triton#5927): round to nearest even, SATURATING (values beyond 57344, inf
 *     included, become +-57344).  Default profile "e5m2:rne:sat"; a kernel may declare
 *     another (the IEEE one is "e5m2:rne:inf").
 *   - e5m2 -> fp16: every e5m2 value is a binary16 value, so the cast is exact
 *     ("fp16:rne:inf"); the contract is bit-exact.
 * Inputs are the finite values of the input format (the spec is over the reals);
 * the generator favours the e5m2 rounding ties and the overflow threshold 61440.
 * The tolerance is 0 in both: the reference is the cast of the exact input.
 */
#include "gen.h"
#include "gen_large.h"

enum { P_N, P_BLOCK, NP };
enum { R_Y, R_X, NR }; /* catalogue order: Y (output) then X (input) */
enum { C_STORE };

#define TD_SPEC_FILE "f8_conversion_utils.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"N", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions_f16_to_f8[NR] = {{"Y", TD_E5M2, TD_R_OUT}, {"X", TD_F16, TD_R_IN}};
static const td_region_decl regions_f8_to_f16[NR] = {{"Y", TD_F16, TD_R_OUT}, {"X", TD_E5M2, TD_R_IN}};
static const td_cast_decl cast_f8[1] = {{"store", "e5m2:rne:sat", "R.round .f8e5: the store into the e5m2 output"}};
static const td_cast_decl cast_f16[1] = {{"store", "fp16:rne:inf", "R.round .fp16: the store into the fp16 output"}};
static const int all_regs[NR] = {R_Y, R_X}, outs[1] = {R_Y};

/* fp16 inputs: the value menu, plus whole runs of raw finite bit patterns and the
 * e5m2 ties (fp16 values with the 8 low mantissa bits 0x80: exactly between two e5m2
 * values). */
static void gen_f16_to_f8(td_producer *p, td_case *c) {
    td_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 65504);
    int mode = (int)td_prod_u32(p, 0, 2);
    for (size_t i = 0; i < c->r[R_X].len; i++) {
        uint16_t b;
        if (mode == 0) {
            td_set(c, R_X, i, td_vgen_value(&g, TD_F16));
            continue;
        }
        do {
            b = (uint16_t)td_rng_next(&g.rng);
            if (mode == 2) b = (uint16_t)((b & 0xff00u) | 0x0080u); /* a tie of e5m2 */
        } while ((b & 0x7c00u) == 0x7c00u); /* inf / NaN: not real values */
        td_seti(c, R_X, i, b);
    }
    if (mode) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
}

/* e5m2 inputs: every finite pattern is a candidate. */
static void gen_f8_to_f16(td_producer *p, td_case *c) {
    td_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, all_regs, NR);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM(TD_V_SMALL), 1);
    for (size_t i = 0; i < c->r[R_X].len; i++) {
        uint8_t b;
        do b = (uint8_t)td_rng_next(&g.rng);
        while ((b & 0x7cu) == 0x7cu);
        td_seti(c, R_X, i, b);
    }
    c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
}

static const char *check_finite(const td_case *c) {
    for (uint64_t i = td_large_next(c, R_X, 0); i < c->r[R_X].len; i = td_large_next(c, R_X, i + 1)) /* (large: windows) */
        if (!isfinite(td_get(c, R_X, (size_t)i))) return "X holds real values (no inf or NaN encodings)";
    return td_flat_check(c, P_N, P_BLOCK, all_regs, NR);
}

static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_N, P_BLOCK, outs, 1); }

/* The large tier (gen_large.h): 2^31 + d elements of Y and X (N is unannotated in the
 * original: 64-bit past 2^31, while pid * BLOCK_SIZE is int32). */
static void large(td_producer *p, td_case *c) { (void)td_flat_large(p, c, P_N, P_BLOCK, all_regs, NR); }

#define F8_COMMON                                                                                                   \
    .file = "f8_conversion_utils", .family = "casts", .kind = "rounding", .nparams = NP, .params = params,          \
    .nregions = NR, .ncasts = 1, .sv = TD_SV_IEEE, .check = check_finite,             \
    .writes = writes, .large = large

/* ---- intents (docs/intent.md) ---- */
static const td_intent i_to_f8 = {
    .operation = "each of the N elements converted to float8 e5m2",
    .definition = "torch.Tensor.to(torch.float8_e5m2) (c10::Float8_e5m2: round to nearest even, overflow to inf), "
                  "the exact input rounded once",
    TD_SPECS(convert_intent),
};
static const td_intent i_to_f16 = {
    .operation = "each of the N e5m2 elements converted to float16",
    .definition = "torch.Tensor.to(torch.float16) of a float8_e5m2 tensor (every e5m2 value is a binary16 value: exact)",
    TD_SPECS(convert_intent),
};

const td_contract td_c_f16_to_f8 = {
    .id = "f8_conversion_utils.f16_to_f8_io_correctness",
    .io_class = "MaskedKernelIO_1 (f16ToF8IO)",
    .formula = "Y[i] = R.round(.f8e5)(X[i]), X fp16, Y fp8 e5m2",
    .regions = regions_f16_to_f8,
    .casts = cast_f8,
    .sv_note = "finite fp16 inputs; overflow beyond e5m2 follows the kernel's declared profile (Triton: saturate)",
    .error_model = "a single cast of an exact input: bit-exact against the profile (tolerance 0)",
    .gen = gen_f16_to_f8,
    .classes = TD_BCLASSES_TILED,
    F8_COMMON,
    TD_SPECS(convert),
    .intent = &i_to_f8,
};

const td_contract td_c_f8_to_f16 = {
    .id = "f8_conversion_utils.f8_to_f16_io_correctness",
    .io_class = "MaskedKernelIO_1 (f8ToF16IO)",
    .formula = "Y[i] = R.round(.fp16)(X[i]), X fp8 e5m2, Y fp16",
    .regions = regions_f8_to_f16,
    .casts = cast_f16,
    .sv_note = "finite e5m2 inputs, all exactly representable in fp16",
    .error_model = "an exact widening: bit-exact (tolerance 0)",
    .gen = gen_f8_to_f16,
    F8_COMMON,
    /* every finite e5m2 pattern is drawn; "large" (naive-exp-overflow) values do not apply */
    .classes = TD_BCLASSES_TILED & ~TD_BC(TD_BC_VALUES_LARGE),
    TD_SPECS(convert),
    .intent = &i_to_f16,
};
