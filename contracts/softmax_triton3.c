/* softmax_triton3: the row softmax with an optional additive mask  (catalogue part 2)
 *
 *   softmax_kernel_correctness (USE_MASK = false):
 *     softmaxIO output_ptr input_ptr mask_ptr row_stride n_cols BLOCK_SIZE
 *       ⊨ fun xs i => softmaxSpec n_cols BLOCK_SIZE none xs i          (hB : 0 < BLOCK_SIZE)
 *     MaskedKernelIO₁: read = write = pid * row_stride, mask j < n_cols, B = BLOCK_SIZE
 *   softmax_kernel_masked_correctness (USE_MASK = true):
 *     softmaxMaskedIO ... ⊨ fun xs ms i => softmaxSpec n_cols BLOCK_SIZE (some ms) xs i
 *     MaskedKernelIO₂: in1 = input_ptr, in2 = mask_ptr, read1 = read2 = write = pid * row_stride
 *
 * The Triton kernel (bench/tritonbench_g/softmax_triton3): program pid loads its row
 * (other = -inf) .to(float32), row_minus_max = row - tl.max(row); when a mask is
 * given it loads the mask row at the same offset (other = 0) and adds it AFTER the max
 * subtraction; then exp, tl.sum, division, masked store.  Input, output and mask share
 * row_stride.  The named spec softmaxSpec (SoftmaxTriton3.lean) is that evaluation in
 * the reals: reduceMax over the ⊥-padded row, shifted = row - max (+ mask tile),
 * exp, reduceSum, division; the catalogue's reading exp(x_i - max + m_i) / sum_j
 * exp(x_j - max + m_j) agrees, over w = min(n_cols, BLOCK_SIZE) columns (the contract
 * allows n_cols > BLOCK_SIZE; the kernel then reduces the first BLOCK_SIZE columns).
 * Note the max is of x, not of x + mask: the reals do not care (the shift cancels),
 * binary32 does (below).
 *
 * Error model: the family's tile softmax (softmax_common.h) with the mask addition
 * written where the kernel does it: d_j = (x_j - m) + mask_j, two roundings.
 *
 * Special values.  Unmasked contract: TD_SV_REAL (exp(x - max) <= 1, the sum >= 1).
 * Masked contract: TD_SV_IEEE.  The generator's masks are realistic additive masks:
 * 0 / 1, small biases, biases up to +-80, and masked lanes at -1e4, -65504 (binary16's
 * lowest) or -1e9.  Because the max is taken before the mask, a row whose unmasked
 * lanes all sit far below its (masked) max, or a fully masked row, has every
 * exp(d_j) underflow to 0 in binary32: the kernel computes 0/0 = NaN where the real
 * softmax is finite (the mask shifts cancel).  That is the kernel's IEEE behaviour and
 * the policy accepts NaN exactly on lanes whose modelled denominator may be 0
 * (TD_LF_UNBOUNDED); a finite output there is unchecked (the model cannot bound
 * it), everywhere else the bound applies.  Biases stay <= 80 so no exp overflows (the
 * sum of <= 2^12 terms of <= e^80 is finite).
 */
#include "gen_far.h"
#include "softmax_common.h"

enum { P_STRIDE, P_NCOLS, P_BLOCK, NP };
enum { R_OUT, R_IN, R_MASK, NR };

#define TD_SPEC_FILE "softmax_triton3.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"row_stride", TD_P_INT}, {"n_cols", TD_P_INT}, {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"output_ptr", TD_F32, TD_R_OUT}, {"input_ptr", TD_F32, TD_R_IN}, {"mask_ptr", TD_F32, TD_R_IN}};

/* An additive mask: per case a kind of unmasked value (0, 0/1, a small bias, a bias up
 * to +-80), a masked value (-1e4, -65504, -1e9) and a masking probability (0, 1/4, 3/4,
 * 1: all lanes masked). */
static void fill_mask(td_producer *p, td_case *c, sm_vals *v) {
    td_rng *r = &v->g.rng;
    static const double neg[3] = {-1e4, -65504, -1e9};
    static const double prob[4] = {0, 0.25, 0.75, 1};
    static const unsigned wprob[4] = {3, 4, 3, 2};
    int kind = td_prod_u32(p, 0, 3);
    double masked = sm_f32(neg[td_prod_u32(p, 0, 2)]), pm = prob[td_prod_pick(p, wprob, 4)];
    if (pm == 1) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    for (size_t i = 0; i < c->r[R_MASK].len; i++) {
        double m;
        if (td_rng_unit(r) < pm) m = masked;
        else if (kind == 0) m = 0;
        else if (kind == 1) m = (double)(td_rng_next(r) & 1);
        else if (kind == 2) m = sm_f32(2 * td_rng_unit(r) - 1);
        else m = sm_f32(160 * td_rng_unit(r) - 80);
        td_set(c, R_MASK, i, m);
    }
}

static void gen(td_producer *p, td_case *c) {
    sm_rows s;
    sm_gen_rows(p, c, &s, 1);
    c->p[P_STRIDE].i = s.sout;
    c->p[P_NCOLS].i = s.n;
    c->p[P_BLOCK].i = s.B;
    int64_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, 16) : 0;
    sm_vals v;
    sm_vals_init(&v, p, c, 0x1p20);
    sm_alloc_fill_rows(&v, c, R_IN, &s, slack);
    td_case_alloc(c, R_OUT, c->r[R_IN].len);
    td_case_alloc(c, R_MASK, c->r[R_IN].len);
    fill_mask(p, c, &v);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS rows at a row_stride near
 * 2^31, as a kernel that forms pid * row_stride in int32 gets wrong.  Input, mask and
 * output share row_stride, so all three move: the input and the mask as sparse
 * read-only regions, the output as a sparse output (the harness puts sentinels on the
 * pages of its written rows and checks every other page the kernel touched:
 * engine/harness.c, image_fill_write_pages). */
static void far(td_producer *p, td_case *c) {
    static const int regs[] = {R_IN, R_MASK, R_OUT};
    int64_t n = c->p[P_NCOLS].i, B = c->p[P_BLOCK].i;
    td_far_rows(p, c, regs, 3, P_STRIDE, n < B ? n : B);
}

static const char *check(const td_case *c) {
    int64_t s = c->p[P_STRIDE].i, n = c->p[P_NCOLS].i, B = c->p[P_BLOCK].i;
    const char *bad = sm_rows_check(c, B, n, s, s, R_IN, R_OUT);
    if (bad) return bad;
    int64_t w = n < B ? n : B;
    if (w > 0 && ((int64_t)c->grid[0] - 1) * s + w > (int64_t)c->r[R_MASK].len)
        return "the mask region holds every active lane's read";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t B = c->p[P_BLOCK].i, n = c->p[P_NCOLS].i, s = c->p[P_STRIDE].i;
    for (uint32_t pid = 0; pid < c->grid[0]; pid++)
        for (int64_t j = 0; j < B && j < n; j++) {
            td_olane l = {.region = R_OUT, .off = (uint64_t)(pid * s + j), .pid = {pid, 0, 0}, .j = (uint64_t)j,
                          .idx = {pid, j}};
            td_wset_add(ws, &l);
        }
}

#define SOFTMAX_TRITON3_COMMON                                                                                  \
    .file = "softmax_triton3", .family = "softmax", .kind = "exact", .nparams = NP, .params = params,           \
    .nregions = NR, .regions = regions,                                                                         \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED) |                     \
               TD_BC(TD_BC_OFFSET_2_31),                                                                        \
    .gen = gen, .far = far, .check = check, .writes = writes

/* Softmax needs every column of a row; the launch's one tile reads BLOCK_SIZE of them. */
static const char *row_gap(const td_case *c) {
    return c->p[P_NCOLS].i > c->p[P_BLOCK].i
               ? "n_cols > BLOCK_SIZE: the one tile reads BLOCK_SIZE of the row's n_cols columns"
               : NULL;
}
static const td_intent intent_t3 = {
    .operation = "softmax of each row over its n_cols columns",
    .definition = "torch.softmax(x, dim=-1) (PyTorch documentation): exp(x_i) / sum_j exp(x_j)",
    TD_SPECS(intent_t3),
    .gap = row_gap,
};
static const td_intent intent_t3_masked = {
    .operation = "softmax of each row plus its additive mask over its n_cols columns",
    .definition = "torch.softmax(x + mask, dim=-1) (PyTorch documentation; an additive attention mask)",
    TD_SPECS(intent_t3_masked),
    .gap = row_gap,
};

const td_contract td_c_softmax_triton3 = {
    .id = "softmax_triton3.softmax_kernel_correctness",
    .io_class = "MaskedKernelIO_1 (softmaxIO, USE_MASK = false)",
    .formula = "out[pid*rs + i] = exp(x[i] - max_j x[j]) / sum_j exp(x[j] - max), j < min(n_cols, BLOCK_SIZE); "
               "mask_ptr unread",
    .sv = TD_SV_REAL,
    .sv_note = "exp(x - max) <= 1 and the sum >= 1: no overflow, no division by 0; n_cols = 0 writes nothing",
    .error_model = "tile softmax as the kernel evaluates it: exact max, sub, exp, pairwise-tree sum, div",
    SOFTMAX_TRITON3_COMMON,
    TD_SPECS(softmax_t3),
    .intent = &intent_t3,
};

const td_contract td_c_softmax_triton3_masked = {
    .id = "softmax_triton3.softmax_kernel_masked_correctness",
    .io_class = "MaskedKernelIO_2 (softmaxMaskedIO, USE_MASK = true)",
    .formula = "out[pid*rs + i] = exp(x[i] - max_j x[j] + mask[i]) / sum_j exp(x[j] - max + mask[j]), "
               "j < min(n_cols, BLOCK_SIZE)",
    .sv = TD_SV_IEEE,
    .sv_note = "the max is of x, not x + mask: where every exp(x - max + mask) may underflow (fully masked rows, "
               "unmasked lanes far below a masked max) the kernel's 0/0 = NaN is accepted; masks <= 80: no overflow",
    .error_model = "tile softmax as the kernel evaluates it: exact max, sub, + mask, exp, pairwise-tree sum, div",
    SOFTMAX_TRITON3_COMMON,
    TD_SPECS(softmax_t3_masked),
    .intent = &intent_t3_masked,
};
