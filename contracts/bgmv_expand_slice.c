/* bgmv_expand_slice: the LoRA-B expand GEMV into a slice of the output (catalogue part 1),
 * two contracts.
 *
 *   bgmv_full_output_summary: bgmv_full (the kernel with the `lora_index != -1` guard)
 *     realises, for the program's loaded index li (hlx: lora_indices[pid1] = Int.ofNat li),
 *     out[pid1*cm + pid0*split_n_length + slice_offset*cn + g*cn] = bgmvFullSpec g
 *       = Σ_{k<BLOCK_K} [k<K] input[pid1*xm + k*xk] * lora[l0*li + (pid0*split_n_length + g)*lora_k + k*lora_n]
 *     for g < split_n_length; hBN, hcn: 0 < cn_stride, out ≠ input, out ≠ lora.
 *   bgmv_expand_slice_io_correctness (R): bgmvExpandSliceIO ⊨[R], the same guarded sum over
 *     k < BLOCK_K with the int lora_indices as the metadata slot; hsn: 0 < split_n_length.
 *
 * Checked against the kernel (.py and the Lean's bgmv_full): the sum runs over the one
 * BLOCK_K tile with mask k < K, so when K > BLOCK_K only k < BLOCK_K enter (both
 * statements say so: Σ over Fin BLOCK_K); the generator draws K above BLOCK_K too.  The
 * output slice starts at pid_sn*split_n_length + slice_offset*cn_stride (the first term
 * without cn_stride, as in lora_expand_gemv), so cn_stride > 1 is drawn with one slice
 * only and the checker asks for distinct write addresses.  A row whose index is -1 is
 * skipped by the kernel (memory unchanged): in the io contract it is outside the write
 * set (the catalogue's "sentinel -1: memory unchanged"), and td_gen_adapters' "no adapter"
 * pattern reaches it (TD_BC_ADAPTER_NONE).  The summary's hlx names ONE li for the
 * program: the whole launch meets it for every program when all rows hold the same
 * adapter li, so the summary's generator draws one adapter for all rows (never -1) and
 * passes it as the parameter li.  TD_BC_SLICE_EDGE: the slice ends exactly at the end of
 * out's row (no padding after it), or starts at column 0 with slice_offset = 0 and
 * several slices abutting.
 *
 * Error model (every admissible kernel): min(K, BLOCK_K) binary32 products summed in any
 * order, with or without FMA (the oracle's any-order sum); the R twin adds the binary32
 * store cast (R on a binary32 output: slot "store", fp32:rne:inf).  |values| <= 2^40.
 */
#include "gen.h"
#include "gen_meta.h"
#include "gen_far.h"

#include <stdlib.h>

/* parameter indices of the io contract; the summary's are one higher (li comes first) */
enum { P_K, P_SPLIT, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_SLICE, P_BN, P_BK, NP_IO };
#define NP_SUM (NP_IO + 1)
enum { R_IN, R_LORA, R_OUT, R_IDX, NR };
enum { C_STORE };

#define BE_BOUND 0x1p40
#define BE_MAX_BATCH 6

static int be_sum(const td_case *c) { return c->k->nparams == NP_SUM; }
static int64_t pv(const td_case *c, int k) { return c->p[k + be_sum(c)].i; }

#define TD_SPEC_FILE "bgmv_expand_slice.spec.h"
#include "spec_instantiate.h"

#define BE_PARAMS                                                                                                 \
    {"K", TD_P_INT}, {"split_n_length", TD_P_INT}, {"xm_stride", TD_P_INT}, {"xk_stride", TD_P_INT},             \
        {"l0_stride", TD_P_INT}, {"lora_k_stride", TD_P_INT}, {"lora_n_stride", TD_P_INT}, {"cm_stride", TD_P_INT}, \
        {"cn_stride", TD_P_INT}, {"slice_offset", TD_P_INT}, {"BLOCK_N", TD_P_INT}, {"BLOCK_K", TD_P_INT}
static const td_param_decl params_io[NP_IO] = {BE_PARAMS};
static const td_param_decl params_sum[NP_SUM] = {{"li", TD_P_INT}, BE_PARAMS};
static const td_region_decl regions[NR] = {{"input_ptr", TD_F32, TD_R_IN},
                                           {"lora_ptr", TD_F32, TD_R_IN},
                                           {"out_ptr", TD_F32, TD_R_OUT},
                                           {"lora_indices", TD_I64, TD_R_META}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round of the stored sum (a binary32 store)"}};

static int64_t be_off(const td_case *c, int64_t s, int64_t b, int64_t g) {
    return b * pv(c, P_CM) + s * pv(c, P_SPLIT) + (pv(c, P_SLICE) + g) * pv(c, P_CN);
}
static void setp(td_case *c, int k, int64_t v) { c->p[k + be_sum(c)].i = v; }

static size_t gen_lora(td_producer *p, td_case *c, int64_t nl, int64_t N, int64_t K) {
    int64_t pad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    int contiguous = td_prod_bool(p);
    setp(c, P_LK, contiguous ? K : 1), setp(c, P_LN, contiguous ? 1 : N), setp(c, P_L0, N * K + pad);
    if (pad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    return (size_t)(nl * (N * K + pad));
}

static void gen_shape(td_producer *p, td_case *c, int64_t batch, int64_t nsplit) {
    int64_t bn = td_gen_pow2(p, 0, 5), K = (int64_t)td_prod_u32(p, 1, 64), bk = 1;
    while (bk < K) bk *= 2;
    int pick = (int)td_prod_u32(p, 0, 3);
    if (pick == 0) bk *= 2;
    if (pick == 1 && bk > 1) bk /= 2; /* K > BLOCK_K: only the first BLOCK_K terms */
    int64_t split = (int64_t)td_gen_count(p, (uint64_t)bn, 96, &c->classes);
    int64_t xk = td_prod_u32(p, 0, 3) == 0 ? 2 : 1, xpad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    int64_t cn = nsplit == 1 && td_prod_u32(p, 0, 2) == 0 ? (int64_t)td_prod_u32(p, 2, 3) : 1;
    int64_t slice = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 40) : 0;
    int64_t cpad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    setp(c, P_K, K), setp(c, P_SPLIT, split), setp(c, P_XK, xk), setp(c, P_XM, K * xk + xpad);
    setp(c, P_CN, cn), setp(c, P_SLICE, slice), setp(c, P_BN, bn), setp(c, P_BK, bk);
    setp(c, P_CM, (slice + split - 1) * cn + 1 + (nsplit - 1) * split + cpad);
    if (xk > 1 || xpad || cn > 1 || cpad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (cpad == 0 || (slice == 0 && nsplit > 1)) c->classes |= TD_BC(TD_BC_SLICE_EDGE);
    c->grid[0] = (uint32_t)nsplit, c->grid[1] = (uint32_t)batch, c->grid[2] = 1;
}

static void gen(td_producer *p, td_case *c) {
    int64_t batch = (int64_t)td_prod_u32(p, 1, BE_MAX_BATCH), nsplit = (int64_t)td_prod_u32(p, 1, 4);
    gen_shape(p, c, batch, nsplit);
    int64_t n_lora = (int64_t)td_prod_u32(p, 1, 4), K = pv(c, P_K);
    td_case_alloc(c, R_IN, (size_t)((batch - 1) * pv(c, P_XM) + (K - 1) * pv(c, P_XK) + 1));
    td_case_alloc(c, R_LORA, gen_lora(p, c, n_lora, nsplit * pv(c, P_SPLIT), K));
    td_case_alloc(c, R_OUT, (size_t)(batch * pv(c, P_CM)));
    td_case_alloc(c, R_IDX, (size_t)batch);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, BE_BOUND);
    td_vgen_fill(&g, c, R_IN);
    td_vgen_fill(&g, c, R_LORA);
    int64_t ids[BE_MAX_BATCH];
    if (be_sum(c)) { /* hlx: one li for every program */
        int64_t li = (int64_t)td_rng_below(&g.rng, (uint64_t)n_lora);
        for (int64_t b = 0; b < batch; b++) ids[b] = li;
        c->p[0].i = li;
    } else {
        td_gen_adapters(p, &g.rng, ids, batch, n_lora, 1, &c->classes);
    }
    for (int64_t b = 0; b < batch; b++) td_seti(c, R_IDX, (size_t)b, ids[b]);
}

/* Offsets beyond 2^31: the input rows of the first batch rows moved to a far
 * xm_stride (td_far_move_rows along grid axis 1, the batch); lora_ptr and out keep
 * theirs.  Every kept row gets an adapter (a "no adapter" row becomes adapter 0): a
 * skipped row reads nothing, and the far rows are the point of the case. */
static void far(td_producer *p, td_case *c) {
    if (!td_far_move_rows(p, c, R_IN, 1, P_XM + be_sum(c), (pv(c, P_K) - 1) * pv(c, P_XK) + 1)) return;
    for (uint32_t b = 0; b < c->grid[1]; b++)
        if (td_geti(c, R_IDX, b) == -1) td_seti(c, R_IDX, b, 0);
}

/* the IO class's write injectivity over the rows that write, every write inside out */
static const char *check_writes(const td_case *c) {
    size_t len = c->r[R_OUT].len;
    uint8_t *seen = calloc(len ? len : 1, 1);
    if (!seen) return "internal: out of memory in the checker";
    const char *bad = NULL;
    for (int64_t b = 0; b < c->grid[1] && !bad; b++) {
        if (td_geti(c, R_IDX, (size_t)b) == -1) continue;
        for (int64_t s = 0; s < c->grid[0] && !bad; s++)
            for (int64_t g = 0; g < pv(c, P_SPLIT) && !bad; g++) {
                int64_t o = be_off(c, s, b, g);
                if (o < 0 || (size_t)o >= len) bad = "writes inside out_ptr";
                else if (seen[o]++) bad = "WriteInj: distinct output addresses over the launch";
            }
    }
    free(seen);
    return bad;
}

static const char *check_rows(const td_case *c) {
    int64_t K = pv(c, P_K), bk = pv(c, P_BK), kk = K < bk ? K : bk;
    int64_t rows = (int64_t)c->grid[0] * pv(c, P_SPLIT);
    if (c->r[R_IDX].len < c->grid[1]) return "lora_indices holds one id per batch row";
    for (int64_t b = 0; b < c->grid[1]; b++) {
        int64_t li = td_geti(c, R_IDX, (size_t)b);
        if (be_sum(c) && li != c->p[0].i) return "hlx: lora_indices[pid1] = Int.ofNat li for every program";
        if (li == -1) continue; /* the kernel's sentinel: the row is skipped */
        if (li < 0) return "lora_indices: an adapter id or the sentinel -1";
        if (li * pv(c, P_L0) + (rows - 1) * pv(c, P_LK) + (kk - 1) * pv(c, P_LN) >= (int64_t)c->r[R_LORA].len)
            return "reads of lora_ptr inside the region (lora index < #adapters)";
        if (b * pv(c, P_XM) + (kk - 1) * pv(c, P_XK) >= (int64_t)c->r[R_IN].len) return "reads of input_ptr in bounds";
    }
    return NULL;
}

static const char *check(const td_case *c) {
    if (pv(c, P_BN) <= 0) return "hBN: 0 < BLOCK_N";
    if (pv(c, P_BK) <= 0 || pv(c, P_K) < 1) return "BLOCK_K > 0, K >= 1";
    if (pv(c, P_SPLIT) <= 0) return "hsn: 0 < split_n_length";
    if (pv(c, P_CN) <= 0) return "hcn: 0 < cn_stride";
    for (int k = 0; k < c->k->nparams; k++)
        if (c->p[k].i < 0) return "Nat parameters";
    if (c->grid[0] < 1 || c->grid[1] < 1 || c->grid[2] != 1) return "grid = (SPLIT_N, batch)";
    const char *e = check_rows(c);
    if (e) return e;
    for (int r = R_IN; r <= R_LORA; r++) /* of a sparse (far) input, its written pages */
        if (!td_region_abs_le(c, r, BE_BOUND)) return "domain: |input|, |lora| <= 2^40 (partial sums finite)";
    return check_writes(c);
}

/* rows whose index is -1 write nothing (the kernel returns; memory unchanged) */
static void writes(const td_case *c, td_wset *ws) {
    int64_t split = pv(c, P_SPLIT), bn = pv(c, P_BN);
    for (uint32_t b = 0; b < c->grid[1]; b++) {
        if (td_geti(c, R_IDX, b) == -1) continue;
        for (uint32_t s = 0; s < c->grid[0]; s++)
            for (int64_t g = 0; g < split; g++) {
                td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)be_off(c, s, b, g), .pid = {s, b, 0},
                              .t = (uint32_t)(g / bn), .j = (uint64_t)(g % bn), .idx = {s, b, g}};
                td_wset_add(ws, &l);
            }
    }
}

#define BE_COMMON                                                                                               \
    .file = "bgmv_expand_slice", .family = "lora", .nregions = NR, .regions = regions, .sv = TD_SV_REAL,         \
    .sv_note = "|input|, |lora| <= 2^40, K <= 64: every product and partial sum finite", .gen = gen,            \
    .far = far, .check = check, .writes = writes
#define BE_FORMULA                                                                                              \
    "out[pid1*cm + pid0*split_n_length + (slice_offset + g)*cn] = sum_{k<min(K,BLOCK_K)} input[pid1*xm + k*xk] " \
    "* lora[l0*lora_indices[pid1] + (pid0*split_n_length + g)*lora_k_stride + k*lora_n_stride]"
#define BE_CLASSES                                                                                              \
    (TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SLICE_EDGE) | TD_BC(TD_BC_OFFSET_2_31))

const td_contract td_c_bgmv_expand_slice_summary = {
    .id = "bgmv_expand_slice.bgmv_full_output_summary",
    .io_class = "ComputeCorrect (Realizes_without_Rounding) of bgmv_full, hlx: one adapter li",
    .kind = "exact",
    .formula = BE_FORMULA,
    .nparams = NP_SUM,
    .params = params_sum,
    .error_model = "min(K, BLOCK_K) binary32 products summed in any order (with or without FMA)",
    .classes = BE_CLASSES,
    BE_COMMON,
    TD_SPECS(bgmv_expand),
};
const td_contract td_c_bgmv_expand_slice_io = {
    .id = "bgmv_expand_slice.bgmv_expand_slice_io_correctness",
    .io_class = "StreamMetaEmitMasked3DKernelIO_2 (bgmvExpandSliceIO), |=[R]; rows with index -1 untouched",
    .kind = "rounding",
    .formula = "R.round(" BE_FORMULA "); rows with lora_indices = -1 unchanged; R = the binary32 store",
    .nparams = NP_IO,
    .params = params_io,
    .ncasts = 1,
    .casts = casts,
    .error_model = "the any-order dot product, then the binary32 store cast",
    .classes = BE_CLASSES | TD_BC(TD_BC_ADAPTER_NONE),
    BE_COMMON,
    TD_SPECS(bgmv_expand_r),
};
