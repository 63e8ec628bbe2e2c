/* quantize_global (catalogue part 2, src lines 8269-8290)
 *
 *   quantize_global_correctness (hBS: 0 < BLOCK_SIZE): (a) the faithful surface does not
 *     lower (llrint / int8 rejected); (b) quantizeGlobalIO ⊨ fun xs ys i =>
 *     scale127 * (xs i * ys i); Masked2DKernelIO_2: read1 = write = pid*BLOCK_SIZE + j,
 *     read2 = 0 (absmax_inv, broadcast), mask pid*BLOCK_SIZE + j < n_elements.
 *
 * The "pre-rounding" reading, checked against bench/tritonbench_g/quantize_global (.py
 * and QuantizeGlobal.lean): the statement (b) is the real value before the kernel's
 * rounding; the kernel stores `llrint(127.0 * (x * absmax_inv))` into an int8 tensor.
 * libdevice llrint is cvt.rni.s64.f32 (round to nearest, ties to EVEN, to int64), and
 * the int64 -> int8 store keeps the low byte (wrap).  So this contract checks what the
 * kernel really stores: the cast slot "store" = int8:rne:wrap applied to the real value
 * scale127 * (x * absmax_inv), with scale127 the kernel's literal 127.0 (the checker
 * requires scale127 = 127; the statement's parameter is instantiated there).
 * Preconditions beyond Lean's (the host's, and the real statement's domain): absmax_inv
 * finite and > 0 with absmax_inv * max|x| <= 1 + 2^-23 (the host passes RN32(1/max|x|),
 * at most 1 + 2^-24 above 1/max|x|), so every value is within [-127.0001, 127.0001] and
 * no wrap occurs; and 127 * absmax_inv finite in binary32 (an implementation may form the
 * factor 127 * absmax_inv first: max|x| >= 127 / FLT_MAX, about 3.7e-37).  An all-zero
 * x makes the host's absmax_inv = 1/0 = inf: outside the real statement (x * inf),
 * excluded by the finiteness precondition and documented.
 *
 * Error model (derived by the shadow, no constant): the two binary32 products of exact
 * operands (x, absmax_inv binary32, 127 exact), each u|p| (u = 2^-24; 2^-150 below the
 * normal range), in either association (127*absmax_inv formed first is admissible: the
 * same first-order 2u bound); then the integer store: the tolerance is the set of
 * integers the store can give over the real value's error interval, so a value within
 * that interval of a .5 boundary admits both neighbours, anything else is exact.
 * Ties: 127 * y = m + 1/2 needs y = (2m+1)/254, never a binary32, so no input makes the
 * real value an exact tie; the half-even / half-away difference is then within the
 * admissible interval (an implementation's own rounding decides it) and is not a
 * mutant of this contract (int8_quantization has exact ties).  The truncating store
 * (`.to(tl.int8)` of the float, a shipped bug) is one. */
#include "gen.h"
#include "gen_large.h"

enum { P_N, P_BLOCK, P_SCALE, NP };
enum { R_X, R_INV, R_OUT, NR };
enum { C_STORE };

#define TD_SPEC_FILE "quantize_global.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"n_elements", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}, {"scale127", TD_P_REAL}};
static const td_region_decl regions[NR] = {
    {"x_ptr", TD_F32, TD_R_IN}, {"absmax_inv_ptr", TD_F32, TD_R_IN}, {"output_ptr", TD_I8, TD_R_OUT}};
static const td_cast_decl casts[1] = {
    {"store", "int8:rne:wrap", "llrint (round half to even, to int64) then the int64 -> int8 store (low byte)"}};
static const int xo_regs[2] = {R_X, R_OUT}, outs[1] = {R_OUT};

/* (of a large case the windows: every other element reads 0) */
static double absmax_of(const td_case *c, int reg, size_t n) {
    double m = 0;
    for (uint64_t e = td_large_next(c, reg, 0); e < n; e = td_large_next(c, reg, e + 1))
        m = fmax(m, fabs(td_get(c, reg, (size_t)e)));
    return m;
}

static void gen(td_producer *p, td_case *c) {
    td_flat_shape(p, c, P_N, P_BLOCK, 10, 1 << 14, xo_regs, 2);
    size_t n = (size_t)c->p[P_N].i;
    td_case_alloc(c, R_INV, 1 + (td_prod_bool(p) ? 2 : 0));
    c->p[P_SCALE].r = 127.0;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, R_X);
    double m = absmax_of(c, R_X, n);
    if (m == 0) { /* an all-zero x is outside the statement (1/0): one element made nonzero */
        td_set(c, R_X, 0, 1.0);
        m = 1.0;
    }
    /* RN32(1/max|x|) as the host computes it; sometimes a smaller scale (a looser absmax) */
    double inv = (double)(1.0f / (float)m);
    if (td_rng_below(&g.rng, 4) == 0) inv = (double)(float)(inv * (0.25 + 0.75 * td_rng_unit(&g.rng)));
    if (!(inv * 127 <= 0x1.fffffep127)) /* tiny max|x|: a smaller scale, 127 * absmax_inv finite */
        inv = (double)nextafterf((float)(0x1.fffffep127 / 127), 0.0f);
    if (!(inv > 0)) inv = 0x1p-149;           /* keep absmax_inv > 0 where the product underflows */
    td_set(c, R_INV, 0, inv);
}

static const char *check(const td_case *c) {
    size_t n = (size_t)c->p[P_N].i;
    if (c->p[P_SCALE].r != 127.0) return "scale127 = 127 (the kernel's literal 127.0)";
    const char *e = td_flat_check(c, P_N, P_BLOCK, xo_regs, 2);
    if (e) return e;
    if (c->r[R_INV].len < 1) return "absmax_inv_ptr holds one value";
    double inv = td_get(c, R_INV, 0);
    if (!(inv * 127 <= 0x1.fffffep127)) return "127 * absmax_inv finite in binary32 (max|x| >= 127 / FLT_MAX)";
    if (!(inv > 0) || !isfinite(inv)) return "absmax_inv finite and > 0 (an all-zero x gives 1/0: excluded)";
    for (uint64_t k = td_large_next(c, R_X, 0); k < c->r[R_X].len; k = td_large_next(c, R_X, k + 1))
        if (!isfinite(td_get(c, R_X, (size_t)k))) return "x holds real (finite) values";
    if (absmax_of(c, R_X, n) * inv > 1 + 0x1p-23) return "absmax_inv * max|x| <= 1 + 2^-23 (values within int8)";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) { td_flat_writes(c, ws, P_N, P_BLOCK, outs, 1); }

/* The large tier (gen_large.h): 2^31 + d elements of x and output (n_elements is
 * unannotated in the original: 64-bit past 2^31, while pid * BLOCK_SIZE is int32); the
 * windows repeat x's values, so max|x| over them is at most the old one and absmax_inv
 * keeps every value within int8. */
static void large(td_producer *p, td_case *c) { (void)td_flat_large(p, c, P_N, P_BLOCK, xo_regs, 2); }

/* the intent's gap: it is defined where absmax_inv is the host's RN32(1/max|x|) */
static const char *intent_gap(const td_case *c) {
    double m = absmax_of(c, R_X, (size_t)c->p[P_N].i);
    return td_get(c, R_INV, 0) == (double)(1.0f / (float)m) ? NULL
                                                            : "absmax_inv is not the host's 1/max|x| (a looser scale)";
}
static const td_intent intent = {
    .operation = "symmetric global int8 quantization: round(127 * x / max|x|)",
    .definition = "bitsandbytes quantize_global: absmax = x.abs().max(), output = round-half-even(127 * x * "
                  "(1/absmax)) as int8",
    TD_SPECS(qg_intent),
    .gap = intent_gap,
};

const td_contract td_c_quantize_global = {
    .id = "quantize_global.quantize_global_correctness",
    .file = "quantize_global",
    .family = "quantization",
    .io_class = "Masked2DKernelIO_2 (quantizeGlobalIO, read2Mask True)",
    .kind = "rounding",
    .formula = "out[i] = int8(llrint(scale127 * (x[i] * absmax_inv[0]))), scale127 = 127",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .ncasts = 1,
    .casts = casts,
    .sv = TD_SV_REAL,
    .sv_note = "finite x, absmax_inv finite > 0 with |x| * absmax_inv <= 1 + 2^-23: values within int8, no wrap",
    .error_model = "two binary32 products (u|p| each, any association), then the integer store: the integers "
                   "of the error interval",
    .classes = TD_BCLASSES_TILED,
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(qg),
    .intent = &intent,
};
