/* dequantize_rowwise (catalogue part 1, src lines 3484-3502)
 *
 *   dequantize_rowwise_correctness (hBS: 0 < BLOCK_SIZE, hP2: 0 < P2):
 *     dequantizeRowwiseIO ⊨ fun xs ys i => ys i * xs i * inv_127
 *     Masked2DKernelIO_2: B = P2; read1 = write = pid*BLOCK_SIZE + j; read2 = pid (the
 *     row's absmax, broadcast); mask j < BLOCK_SIZE.  n_elements is not used.
 *
 * Kernel (bench/tritonbench_g/dequantize_rowwise/dequantize_rowwise.py, checked): one
 * program per row, x int8 (converted to binary32 exactly), state_x binary32 (the row's
 * absmax from quantize_rowwise), inv_127 a binary32 scalar (the host passes 1.0/127, so
 * the kernel holds RN32(1/127), not 1/127), `max_val * x * inv_127` evaluated left to
 * right in binary32, stored into a float16 tensor.  The Lean statement is over the reals
 * ("real (no rounding)"): the store is the cast slot "store" (fp16:rne:inf, Triton's
 * fp32->fp16 conversion), applied to the real product.  P2 is any power of two (Lean
 * only asks 0 < P2; tl.arange needs a power of two): the host's next power of two >=
 * BLOCK_SIZE, larger ones, and smaller ones (then only the first P2 lanes of a row are
 * written, as the write set says).
 *
 * Error model (the shadow derives it; no constant): two binary32 products of exact
 * operands (x an integer of at most 8 bits, state_x and inv_127 binary32), each
 * |RN(p) - p| <= u|p| (u = 2^-24) in the normal range and 2^-150 below it, in either
 * association (state*(x*inv) gives the same first-order bound 2u|state x inv|);
 * then the fp16 store: half an ulp of fp16 at the result (the cast's interval).
 * Special values: state_x finite (0 for a zero row: output 0; negative values allowed,
 * Lean has no sign precondition); |state_x| up to 2^17, so the product may exceed
 * fp16's 65504: the store then gives +-inf (TD_SV_IEEE). */
#include "gen.h"
#include "gen_large.h"

enum { P_INV, P_N, P_BLOCK, P_P2, NP };
enum { R_X, R_STATE, R_OUT, NR };
enum { C_STORE };

#define TD_SPEC_FILE "dequantize_rowwise.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"inv_127", TD_P_REAL}, {"n_elements", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}, {"P2", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"x_ptr", TD_I8, TD_R_IN}, {"state_x", TD_F32, TD_R_IN}, {"output_ptr", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp16:rne:inf", "the float16 store of max_val * x * inv_127"}};

static int64_t next_pow2(int64_t n) {
    int64_t p = 1;
    while (p < n) p *= 2;
    return p;
}

/* int8 rows: uniform, the extremes -128 / 127 / 0, or an all-zero row */
static void fill_x(td_vgen *g, td_case *c, int64_t G, int64_t B) {
    for (int64_t r = 0; r < G; r++) {
        uint64_t mode = td_rng_below(&g->rng, 6);
        for (int64_t j = 0; j < B; j++) {
            uint64_t k = td_rng_below(&g->rng, 256);
            int64_t v = mode == 0 ? 0 : mode == 1 ? (k & 1 ? 127 : -128) : mode == 2 && k < 64 ? -128 + (int64_t)(k & 1) * 255
                                                                                        : (int64_t)k - 128;
            td_seti(c, R_X, (size_t)(r * B + j), v);
        }
    }
}

static void gen(td_producer *p, td_case *c) {
    int64_t B = (int64_t)td_gen_count(p, 64, 320, &c->classes) , P2;
    c->classes = 0; /* the shape classes of a row are marked below */
    switch (td_prod_u32(p, 0, 5)) {
    case 0: P2 = next_pow2(B) * (2 << td_prod_u32(p, 0, 2)); break; /* lanes far past the row */
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
    size_t slack = td_prod_bool(p) ? (size_t)P2 : 0; /* cells a lane past the row could reach */
    td_case_alloc(c, R_X, (size_t)(G * B) + slack);
    td_case_alloc(c, R_STATE, (size_t)G + 1);
    td_case_alloc(c, R_OUT, (size_t)(G * B) + slack);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p17);
    td_vgen_fill(&g, c, R_STATE);
    if (td_rng_below(&g.rng, 4) == 0) { /* absmax values as quantize_rowwise stores them: >= 0, zero rows */
        for (int64_t r = 0; r <= G; r++) td_set(c, R_STATE, (size_t)r, fabs(td_get(c, R_STATE, (size_t)r)));
        td_set(c, R_STATE, (size_t)td_rng_below(&g.rng, (uint64_t)G), 0.0);
    }
    fill_x(&g, c, G, B);
    if (slack) for (size_t e = (size_t)(G * B); e < (size_t)(G * B) + slack; e++) td_seti(c, R_X, e, 127);
    /* inv_127: the host's RN32(1/127), or another binary32 scale */
    c->p[P_INV].r = td_prod_u32(p, 0, 3) ? (double)(1.0f / 127.0f) : td_gen_real(p, 0x1p-10, 1.0);
}

static const char *check(const td_case *c) {
    int64_t B = c->p[P_BLOCK].i, P2 = c->p[P_P2].i, G = c->grid[0];
    double inv = c->p[P_INV].r;
    if (!(B > 0)) return "hBS: 0 < BLOCK_SIZE";
    if (!(P2 > 0)) return "hP2: 0 < P2";
    if (P2 & (P2 - 1)) return "P2 a power of two (tl.arange)";
    if ((double)(float)inv != inv || !isfinite(inv)) return "inv_127 : a finite binary32 scalar";
    if (G < 1 || c->grid[1] != 1 || c->grid[2] != 1) return "grid = (rows,)";
    if (c->r[R_X].len < (size_t)(G * B) || c->r[R_OUT].len < (size_t)(G * B)) return "x and output hold rows*BLOCK_SIZE";
    if (c->r[R_STATE].len < (size_t)G) return "state_x holds one value per row";
    if (c->nwin) { /* a large case: the windows' rows and the slack; every other entry reads 0 */
        for (int w = 0; w < c->nwin; w++)
            for (uint64_t r = c->win[w].lo / (uint64_t)B; r < (uint64_t)G && r * (uint64_t)B < c->win[w].hi; r++)
                if (!isfinite(td_get(c, R_STATE, r))) return "state_x holds real (finite) values";
        for (size_t e = (size_t)G; e < c->r[R_STATE].len; e++)
            if (!isfinite(td_get(c, R_STATE, e))) return "state_x holds real (finite) values";
        return NULL;
    }
    for (size_t e = 0; e < c->r[R_STATE].len; e++)
        if (!isfinite(td_get(c, R_STATE, e))) return "state_x holds real (finite) values";
    return NULL;
}

static void write_row(td_wset *ws, uint32_t pid, int64_t B, int64_t n) {
    for (int64_t j = 0; j < n; j++) {
        td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)((int64_t)pid * B + j), .pid = {pid, 0, 0},
                      .j = (uint64_t)j, .idx = {pid, j}};
        td_wset_add(ws, &l);
    }
}

/* Every row's first min(BLOCK_SIZE, P2) lanes; a large case: the rows of its windows
 * (whole programs), the others counted, not judged. */
static void writes(const td_case *c, td_wset *ws) {
    int64_t B = c->p[P_BLOCK].i, P2 = c->p[P_P2].i, n = B < P2 ? B : P2;
    if (c->nwin) {
        uint64_t kept = 0;
        for (int w = 0; w < c->nwin; w++)
            for (uint64_t r = c->win[w].lo / (uint64_t)B; r < c->grid[0] && r * (uint64_t)B < c->win[w].hi; r++, kept++)
                write_row(ws, (uint32_t)r, B, n);
        ws->dropped += (c->grid[0] - kept) * (uint64_t)n;
        return;
    }
    for (uint32_t pid = 0; pid < c->grid[0]; pid++) write_row(ws, pid, B, n);
}

/* The large tier (gen_large.h): rows * BLOCK_SIZE = 2^31 + d elements of x and output
 * (the wrapper's rows and BLOCK_SIZE = x.shape[1] are Python ints and n_elements is
 * untyped, so nothing bounds them below 2^31), BLOCK_SIZE a power of two 64 .. 1024
 * (then the host's P2 is BLOCK_SIZE; the ordinary case's P2 below or above its row
 * keeps that relation), and state_x one entry per row (td_large_per_program). */
static void large(td_producer *p, td_case *c) {
    static const int big[2] = {R_X, R_OUT};
    uint64_t g0 = c->grid[0];
    int64_t B0 = c->p[P_BLOCK].i, P20 = c->p[P_P2].i;
    if (td_flat_large(p, c, -1, P_BLOCK, big, 2) != 0) return;
    int64_t B = c->p[P_BLOCK].i;
    c->p[P_P2].i = P20 < B0 ? B / 2 : P20 > next_pow2(B0) ? B * (P20 / next_pow2(B0)) : B;
    c->p[P_N].i = (int64_t)c->grid[0] * B;
    (void)td_large_per_program(c, R_STATE, P_BLOCK, g0);
}

static const td_intent intent = {
    .operation = "rowwise int8 dequantization: x[r, j] * absmax[r] / 127",
    .definition = "bitsandbytes' rowwise dequantization (x * state / 127, state = the row's absmax), with the "
                  "supplied inv_127 as the 1/127 factor, stored as float16",
    TD_SPECS(dq_intent),
};

/* .far: none -- read = write = pid*BLOCK_SIZE + j over every element (a flat contiguous launch): an offset
 * beyond 2^31 means 2^31 elements and a dense output of as many (the large tier, not a far stride). */
const td_contract td_c_dequantize_rowwise = {
    .id = "dequantize_rowwise.dequantize_rowwise_correctness",
    .file = "dequantize_rowwise",
    .family = "quantization",
    .io_class = "Masked2DKernelIO_2 (dequantizeRowwiseIO)",
    .kind = "exact",
    .formula = "out[r*BLOCK_SIZE + j] = fp16(state_x[r] * x[r*BLOCK_SIZE + j] * inv_127), j < min(BLOCK_SIZE, P2)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .ncasts = 1,
    .casts = casts,
    .sv = TD_SV_IEEE,
    .sv_note = "finite inputs; |state_x| <= 2^17, so the fp16 store may overflow to +-inf (IEEE)",
    .error_model = "two binary32 products of exact operands (u|p| each, any association), then the fp16 store "
                   "(half an ulp)",
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) |
               TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE),
    .gen = gen,
    .check = check,
    .writes = writes,
    .large = large,
    TD_SPECS(dq),
    .intent = &intent,
};
