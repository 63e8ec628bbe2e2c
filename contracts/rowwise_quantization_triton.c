/* rowwise_quantization_triton (catalogue part 2, src lines 9982-10007)
 *
 *   quantize_rowwise_correctness (hP: 0 < P2, hRegions: output_ptr != output_maxs):
 *     quantizeRowwiseIO ⊨ fun xs _ => (qrOutSpec xs i, qrMaxSpec xs)
 *     qrMaxSpec = max(0, max_{j < min(BLOCK_SIZE, P2)} |x[j]|) (tl.where(row_mask, |x|, 0));
 *     qrOutSpec i = 127 * (x[i] / max)  (Lean: x / 0 = 0, so a zero row gives 0);
 *     Masked2DKernelIO_2x2: B = P2; read1 = write1 = pid*BLOCK_SIZE + j; write2 = pid;
 *     mask j < BLOCK_SIZE; writeMask2 j = 0; in2 = inert (never read, read2Mask False).
 *
 * The "pre-rounding" reading, checked against bench/tritonbench_g/rowwise_quantization_triton
 * (.py and RowwiseQuantizationTriton.lean): Lean erases the kernel's
 * `tl.extra.cuda.libdevice.llrint` and the int8 store; the kernel really stores
 * llrint(127 * (x / max_val)) (cvt.rni.s64.f32: half to EVEN) into an int8 tensor (the
 * low byte: wrap, never reached since |x| <= max_val), and max_val into a FLOAT16 tensor
 * (output_maxs is torch.float16 in the host).  So: cast slot "store" int8:rne:wrap on
 * qrOutSpec, cast slot "maxs" fp16:rne:inf on qrMaxSpec.
 * Zero rows (max_val = 0): the kernel computes 0/0 = NaN, llrint(NaN) is converted to 0
 * by PTX's cvt (and the rounding library's NaN -> 0 rule), and max 0 is stored: that is
 * Lean's defined value (x / 0 = 0), so the contract DEFINES out = 0, maxs = 0 there and
 * the generator draws zero rows (no precondition).
 *
 * Error model (shadow-derived): the row max is exact (a maximum of |binary32|); the
 * division and the product by 127 are binary32 roundings of exact operands, u|r| each
 * (u = 2^-24; 2^-150 below the normal range); an implementation may instead form
 * r = 127 / max_val once per row and multiply (alt_reciprocal), so the spec is
 * N(either) of Lean's 127 * (x / m) and x * (127 / m), each form's own two roundings;
 * then the integer store: the integers of that interval.  Exact ties: 127 x / m = k + 1/2 needs x/m = (2k+1)/254, never
 * formed exactly by a binary32 division, so the interval of a real tie straddles it and
 * both neighbours are admissible: half-away vs half-even is not observable here (see
 * int8_quantization, whose scale makes exact ties).  The maxs store: fp16 of an exact
 * value, bit-exact (overflow to +-inf above 65504: TD_SV_IEEE). */
#include "gen.h"
#include "gen_large.h"

enum { P_N, P_BLOCK, P_P2, NP };
enum { R_X, R_INERT, R_OUT, R_MAXS, NR };
enum { C_STORE, C_MAXS };

/* qrMaxCarrier: max(0, |x| over the active lanes j < min(BLOCK_SIZE, P2)), exact */
static double qr_rowmax(const td_case *c, int64_t row) {
    int64_t B = c->p[P_BLOCK].i, P2 = c->p[P_P2].i, n = B < P2 ? B : P2;
    double m = 0;
    for (int64_t j = 0; j < n; j++) m = fmax(m, fabs(td_get(c, R_X, (size_t)(row * B + j))));
    return m;
}

#define TD_SPEC_FILE "rowwise_quantization_triton.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"n_elements", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}, {"P2", TD_P_INT}};
static const td_region_decl regions[NR] = {{"x_ptr", TD_F32, TD_R_IN},
                                           {"inert", TD_F32, TD_R_IN},
                                           {"output_ptr", TD_I8, TD_R_OUT},
                                           {"output_maxs", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[2] = {
    {"store", "int8:rne:wrap", "llrint (half to even, to int64) then the int8 store (low byte)"},
    {"maxs", "fp16:rne:inf", "the float16 store of max_val"}};

static int64_t next_pow2(int64_t n) {
    int64_t p = 1;
    while (p < n) p *= 2;
    return p;
}

/* row values: the menu's, with zero rows, rows whose max repeats, and rows scaled to
 * put 127 x / max near .5 boundaries (max = 254 * 2^e, x = odd * 2^e) */
static void fill_rows(td_vgen *g, td_case *c, int64_t G, int64_t B, size_t len) {
    td_vgen_fill(g, c, R_X);
    for (int64_t r = 0; r < G; r++) {
        uint64_t mode = td_rng_below(&g->rng, 6);
        if (mode == 0) {
            for (int64_t j = 0; j < B; j++) td_set(c, R_X, (size_t)(r * B + j), 0.0);
            c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
        } else if (mode == 1) {
            int e = (int)td_rng_below(&g->rng, 40) - 20;
            for (int64_t j = 0; j < B; j++) {
                double k = (double)td_rng_below(&g->rng, 254) - 126.0; /* -126 .. 127 */
                td_set(c, R_X, (size_t)(r * B + j), ldexp(2 * k + 1 > 254 ? 253 : 2 * k + 1, e));
            }
            td_set(c, R_X, (size_t)(r * B + (int64_t)td_rng_below(&g->rng, (uint64_t)B)), ldexp(-254, e));
            c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
        }
    }
    (void)len;
}

static void gen(td_producer *p, td_case *c) {
    int64_t B = (int64_t)td_gen_count(p, 64, 320, &c->classes), P2;
    c->classes = 0;
    switch (td_prod_u32(p, 0, 5)) {
    case 0: P2 = next_pow2(B) * (2 << td_prod_u32(p, 0, 2)); break; /* far more lanes than the row */
    case 1: P2 = B > 1 ? next_pow2(B) / 2 : 1; break;                 /* P2 < BLOCK_SIZE: a row prefix */
    default: P2 = next_pow2(B); break;                                /* the host's choice */
    }
    int64_t G = 1 + td_prod_u32(p, 0, (uint32_t)(4096 / B < 40 ? 4096 / B : 40));
    c->p[P_N].i = G * B;
    c->p[P_BLOCK].i = B;
    c->p[P_P2].i = P2;
    c->grid[0] = (uint32_t)G;
    c->grid[1] = c->grid[2] = 1;
    c->classes |= G == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : TD_BC(TD_BC_MULTI_TILE);
    if (G == 1 && (B == 1 || P2 == 1)) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    c->classes |= B == P2 ? TD_BC(TD_BC_EXACT_MULTIPLE) : B == P2 - 1 ? TD_BC(TD_BC_TAIL_BELOW) : TD_BC(TD_BC_TAIL);
    if (P2 >= 4 * B) c->classes |= TD_BC(TD_BC_BLOCK_GT_N);
    /* x always holds P2 cells past the last row: what an unmasked load would read */
    size_t len = (size_t)(G * B + P2);
    td_case_alloc(c, R_X, len);
    td_case_alloc(c, R_INERT, 1);
    td_case_alloc(c, R_OUT, (size_t)(G * B) + (td_prod_bool(p) ? (size_t)P2 : 0));
    td_case_alloc(c, R_MAXS, (size_t)G + (td_prod_bool(p) ? 2 : 0));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p20);
    fill_rows(&g, c, G, B, len);
}

static const char *check(const td_case *c) {
    int64_t B = c->p[P_BLOCK].i, P2 = c->p[P_P2].i, G = c->grid[0];
    if (!(P2 > 0)) return "hP: 0 < P2";
    if (P2 & (P2 - 1)) return "P2 a power of two (tl.arange)";
    if (!(B > 0)) return "0 < BLOCK_SIZE (a row)";
    if (G < 1 || c->grid[1] != 1 || c->grid[2] != 1) return "grid = (rows,)";
    if (c->r[R_X].len < (size_t)(G * B) || c->r[R_OUT].len < (size_t)(G * B)) return "x and output hold rows*BLOCK_SIZE";
    if (c->r[R_MAXS].len < (size_t)G) return "output_maxs holds one value per row";
    /* (a large case: its window rows; every other element reads 0) */
    for (uint64_t e = td_large_next(c, R_X, 0); e < c->r[R_X].len; e = td_large_next(c, R_X, e + 1))
        if (!isfinite(td_get(c, R_X, (size_t)e))) return "x holds real (finite) values";
    return NULL; /* hRegions: output_ptr and output_maxs are distinct regions */
}

/* Row pid's n quantized values and its max.  A large case: the rows of its windows; the
 * others only counted. */
static void writes(const td_case *c, td_wset *ws) {
    int64_t B = c->p[P_BLOCK].i, P2 = c->p[P_P2].i, n = B < P2 ? B : P2;
    uint64_t seen = 0;
    for (uint64_t r = td_large_row_next(c, 0); r < c->grid[0]; r = td_large_row_next(c, r + 1), seen++) {
        uint32_t pid = (uint32_t)r;
        for (int64_t j = 0; j < n; j++) {
            td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)((int64_t)pid * B + j), .pid = {pid, 0, 0},
                          .j = (uint64_t)j, .idx = {pid, j}};
            td_wset_add(ws, &l);
        }
        td_olane m = {.o = 1, .region = R_MAXS, .off = pid, .pid = {pid, 0, 0}, .idx = {pid, 0}};
        td_wset_add(ws, &m);
    }
    if (c->nwin) ws->dropped += (c->grid[0] - seen) * (uint64_t)(n + 1);
}

/* The large tier (gen_large.h, td_rows_large): more than 2^31 / BLOCK_SIZE rows, so the
 * original's offsets = pid * BLOCK_SIZE + arange (int32: pid and BLOCK_SIZE are int32 in
 * Triton, n_elements unannotated) pass 2^31; a row-block is a row: BLOCK_SIZE elements of
 * x and output, one max.  A row narrower than TD_ROWS_LARGE_MIN_LEN is widened by a
 * power of two f, and P2 with it (P2 / BLOCK_SIZE as drawn): the new columns read zero,
 * which leaves the row's max and its quantized values as they were.  x's P2 cells of
 * slack past the last row are not kept: the kernel masks its loads by j < BLOCK_SIZE (an
 * unmasked load past the last row is an illegal address, as on a device). */
static void large(td_producer *p, td_case *c) {
    uint64_t B0 = (uint64_t)c->p[P_BLOCK].i, f = 1, G;
    while (B0 * f < TD_ROWS_LARGE_MIN_LEN) f *= 2;
    uint64_t B = B0 * f, P2 = (uint64_t)c->p[P_P2].i * f;
    td_rows_region rr[3] = {{R_X, B, B0}, {R_OUT, B, 0}, {R_MAXS, 1, 0}};
    if (td_rows_large(p, c, c->grid[0], rr, 3, &G) != 0) return;
    c->grid[0] = (uint32_t)G;
    c->p[P_N].i = (int64_t)(G * B), c->p[P_BLOCK].i = (int64_t)B, c->p[P_P2].i = (int64_t)P2;
    c->classes &= ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_BELOW) |
                    TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N));
    c->classes |= B == P2 ? TD_BC(TD_BC_EXACT_MULTIPLE) : B == P2 - 1 ? TD_BC(TD_BC_TAIL_BELOW) : TD_BC(TD_BC_TAIL);
    if (P2 >= 4 * B) c->classes |= TD_BC(TD_BC_BLOCK_GT_N);
}

static const char *intent_gap(const td_case *c) {
    return c->p[P_P2].i < c->p[P_BLOCK].i ? "P2 < BLOCK_SIZE: the kernel quantizes a row prefix only" : NULL;
}
static const td_intent intent = {
    .operation = "symmetric rowwise int8 quantization: round(127 * x / max_j |x[r, j]|), and the row absmax",
    .definition = "bitsandbytes quantize_rowwise: round-half-even(127 * x / absmax_row) as int8, absmax_row as "
                  "float16 (a zero row quantizes to 0)",
    TD_SPECS(qr_intent),
    .gap = intent_gap,
};

/* .far: none -- read = write = pid*BLOCK_SIZE + j over every element (a flat contiguous launch): an offset
 * beyond 2^31 means 2^31 elements and a dense output of as many (the large tier: `large`). */
const td_contract td_c_quantize_rowwise = {
    .id = "rowwise_quantization_triton.quantize_rowwise_correctness",
    .file = "rowwise_quantization_triton",
    .family = "quantization",
    .io_class = "Masked2DKernelIO_2x2 (quantizeRowwiseIO)",
    .kind = "rounding",
    .formula = "out[r, j] = int8(llrint(127 * (x[r, j] / m_r))) (0 if m_r = 0); maxs[r] = fp16(m_r), "
               "m_r = max_{j < min(BLOCK_SIZE, P2)} |x[r, j]|",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .ncasts = 2,
    .casts = casts,
    .sv = TD_SV_IEEE,
    .sv_note = "finite x; a zero row is DEFINED: out 0 (Lean x/0 = 0; the kernel's llrint(NaN) -> 0), maxs 0; "
               "maxs above 65504 stores +-inf (fp16 overflow)",
    .error_model = "exact row max; binary32 division and product by 127 (u|r| each; a reciprocal-multiply form "
                   "within the same bound); the int8 store admits the integers of that interval; maxs bit-exact",
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) |
               TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE),
    .gen = gen,
    .large = large,
    .check = check,
    .writes = writes,
    TD_SPECS(qr),
    .intent = &intent,
};
