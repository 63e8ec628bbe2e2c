/* sgmv_expand_slice: the LoRA-B expand over a ragged batch of sequences into a slice of
 * the output (catalogue part 2), two contracts.
 *
 *   sgmv_expand_slice_one_row_block_output_summary: the surface realises, for every active
 *     lane (m = pid0*BM + i < seq_lens[b], n = pid1*BN + j < N) of program (pid0, pid1, b),
 *     out[(start_b + m)*cm + (n + slice_offset)*cn] = sgmvSpec
 *       = Σ_{k < BLOCK_K*numKBlocks} x[start_b*xm + (m % M_b)*xm + k*xk]
 *                                   * lora[l0*idx_b + k*lora_n + (n % N)*lora_k];
 *     hBK, hInj (cOffset injective), hundef.
 *   sgmv_expand_slice_io_correctness (R): sgmvExpandSliceIO ⊨[R], the same double fold over
 *     t < numKBlocks, e < BLOCK_K with the metadata slots (seq_len, seq_start, lora index).
 *
 * Checked against the kernel (.py and the Lean's sgmv_expand_slice_surface): the Lean keeps
 * the EVEN_K path (K = BLOCK_K*numKBlocks, unmasked K loads), ADD_INPUTS = CAST_TYPE =
 * false, and takes (pid_m, pid_n, cur_batch) as three grid axes (the .py linearises pid
 * over cdiv(N, BN); that is the host boundary): the grid here is (cdiv(max seq_len, BM),
 * cdiv(N, BN), batch), so programs whose row block starts at or past a shorter sequence's
 * end write nothing (the .py's `pid_m*BM > M` return, or every row masked:
 * TD_BC_FULLY_MASKED).  Rows and columns are wrapped (% M, % N) on the loads only; for the
 * lanes that are written m < M and n < N, so the wrap never changes a written value, and
 * the metadata's m[0] = seq_len must be > 0 (x % 0 is no row): lengths are >= 1.  The
 * metadata regions are Region .nat, so the .py's `lora_index == -1` return is never taken
 * (no "no adapter" id here: TD_BC_ADAPTER_NONE not declared).  Starts are the cumulative
 * lengths (td_gen_ragged; the last sequence ends at the end of input and out).
 * TD_BC_SLICE_EDGE: slice_offset = 0, or the slice ends exactly at the end of out's row.
 *
 * Dtypes: input and lora fp16, out binary32.  The .py takes fp16/bf16 LoRA weights (and
 * casts fp32 inputs to them, CAST_TYPE); tl.dot on fp32 operands would default to TF32 on
 * sm_80+, outside a binary32 model of the real sum, while fp16 operands multiply exactly
 * (11 + 11 significand bits <= 24, subnormal products stay normal binary32).  The .py's
 * final cast to the weights' dtype is dropped by the Lean (outDType .real): out is the
 * binary32 accumulator.
 *
 * Error model (every admissible kernel; oracle/shadow.c's any-order sum): K = BK*numKBlocks
 * exact products summed in ANY order (tl.dot's MMA tree, the K-block loop, split-K, FMA
 * chains): gamma_K Σ|x w| (Higham, ASNA 2nd ed. 3.1, 4.2; the shadow sees the products are
 * exact and charges no product rounding); R (io) adds the binary32 store cast, half an ulp
 * (slot "store", fp32:rne:inf, as in bgmv_expand_slice).  |values| <= 65504 (fp16),
 * K <= 32: every partial sum finite.
 */
#include "gen.h"
#include "gen_meta.h"
#include "gen_far.h"

#include <stdlib.h>

enum { P_N, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_SLICE, P_BM, P_BN, P_BK, P_NKB, NP };
enum { R_IN, R_LORA, R_OUT, R_START, R_LEN, R_IDX, NR };
enum { C_STORE };

#define SG_MAX_BATCH 4
#define SG_MAX_LEN 24

static int64_t pv(const td_case *c, int k) { return c->p[k].i; }

#define TD_SPEC_FILE "sgmv_expand_slice.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"N", TD_P_INT},         {"xm_stride", TD_P_INT},     {"xk_stride", TD_P_INT},     {"l0_stride", TD_P_INT},
    {"lora_k_stride", TD_P_INT}, {"lora_n_stride", TD_P_INT}, {"cm_stride", TD_P_INT},     {"cn_stride", TD_P_INT},
    {"slice_offset", TD_P_INT},  {"BLOCK_M", TD_P_INT},       {"BLOCK_N", TD_P_INT},       {"BLOCK_K", TD_P_INT},
    {"numKBlocks", TD_P_INT}};
static const td_region_decl regions[NR] = {{"input_ptr", TD_F16, TD_R_IN},        {"lora_ptr", TD_F16, TD_R_IN},
                                           {"out_ptr", TD_F32, TD_R_OUT},         {"b_seq_start_loc", TD_I64, TD_R_META},
                                           {"seq_lens", TD_I64, TD_R_META},       {"lora_indices", TD_I64, TD_R_META}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round of the stored sum (a binary32 store)"}};

static int64_t sg_off(const td_case *c, int64_t b, int64_t m, int64_t n) {
    return (td_geti(c, R_START, (size_t)b) + m) * pv(c, P_CM) + (n + pv(c, P_SLICE)) * pv(c, P_CN);
}

/* N, the blocks, the strides of out (rows of the total token count) */
static void gen_cols(td_producer *p, td_case *c) {
    int64_t bn = td_gen_pow2(p, 0, 4);
    uint64_t ncls = 0; /* the column axis; lane and program counts are marked in gen_meta */
    int64_t N = (int64_t)td_gen_count(p, (uint64_t)bn, 48, &ncls);
    c->classes |= ncls & ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM));
    int64_t cn = td_prod_u32(p, 0, 2) == 0 ? 2 : 1, cpad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    int64_t slice = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 40) : 0;
    c->p[P_N].i = N, c->p[P_BN].i = bn, c->p[P_CN].i = cn, c->p[P_SLICE].i = slice;
    c->p[P_CM].i = (slice + N - 1) * cn + 1 + cpad;
    c->p[P_BM].i = td_gen_pow2(p, 0, 4), c->p[P_BK].i = td_gen_pow2(p, 0, 3);
    c->p[P_NKB].i = (int64_t)td_prod_u32(p, 1, 4);
    if (cn > 1 || cpad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (cpad == 0 || slice == 0) c->classes |= TD_BC(TD_BC_SLICE_EDGE);
}

static size_t gen_lora(td_producer *p, td_case *c, int64_t nl) {
    int64_t N = pv(c, P_N), K = pv(c, P_BK) * pv(c, P_NKB);
    int64_t pad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    int contiguous = td_prod_bool(p); /* (lora, N, K) row-major, or (lora, K, N) */
    c->p[P_LK].i = contiguous ? K : 1, c->p[P_LN].i = contiguous ? 1 : N, c->p[P_L0].i = N * K + pad;
    if (pad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    return (size_t)(nl * (N * K + pad));
}

static void gen_meta(td_producer *p, td_case *c, td_vgen *g, int nb, int64_t n_lora) {
    int64_t lens[SG_MAX_BATCH], starts[SG_MAX_BATCH + 1], ids[SG_MAX_BATCH], maxlen = 0;
    int64_t total = td_gen_ragged(p, &g->rng, lens, starts, nb, 1, SG_MAX_LEN, pv(c, P_BM), &c->classes);
    td_gen_adapters(p, &g->rng, ids, nb, n_lora, 0, &c->classes);
    td_case_alloc(c, R_START, (size_t)nb), td_case_alloc(c, R_LEN, (size_t)nb), td_case_alloc(c, R_IDX, (size_t)nb);
    for (int b = 0; b < nb; b++) {
        td_seti(c, R_START, (size_t)b, starts[b]), td_seti(c, R_LEN, (size_t)b, lens[b]);
        td_seti(c, R_IDX, (size_t)b, ids[b]);
        maxlen = lens[b] > maxlen ? lens[b] : maxlen;
    }
    int64_t bm = pv(c, P_BM), rowblocks = (maxlen + bm - 1) / bm;
    for (int b = 0; b < nb; b++)
        if ((lens[b] + bm - 1) / bm < rowblocks) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    c->grid[0] = (uint32_t)rowblocks, c->grid[1] = (uint32_t)((pv(c, P_N) + pv(c, P_BN) - 1) / pv(c, P_BN));
    c->grid[2] = (uint32_t)nb;
    if (total == 1 && pv(c, P_N) == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    if (c->grid[0] * c->grid[1] * c->grid[2] == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    int64_t K = pv(c, P_BK) * pv(c, P_NKB);
    td_case_alloc(c, R_IN, (size_t)((total - 1) * pv(c, P_XM) + (K - 1) * pv(c, P_XK) + 1));
    td_case_alloc(c, R_OUT, (size_t)(total * pv(c, P_CM)));
}

static void gen(td_producer *p, td_case *c) {
    int nb = (int)td_prod_u32(p, 1, SG_MAX_BATCH);
    gen_cols(p, c);
    int64_t K = pv(c, P_BK) * pv(c, P_NKB), n_lora = (int64_t)td_prod_u32(p, 1, 4);
    int64_t xk = td_prod_u32(p, 0, 3) == 0 ? 2 : 1, xpad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    c->p[P_XK].i = xk, c->p[P_XM].i = K * xk + xpad;
    if (xk > 1 || xpad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    td_case_alloc(c, R_LORA, gen_lora(p, c, n_lora));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 65504.0);
    gen_meta(p, c, &g, nb, n_lora);
    td_vgen_fill(&g, c, R_IN);
    td_vgen_fill(&g, c, R_LORA);
}

/* Offsets beyond 2^31: the batch becomes one sequence of the first min(total, 4) token
 * rows (start 0, the first sequence's adapter), whose input rows move to a far
 * xm_stride (td_far_stride, td_far_restride): row m of the sequence at m * xm_stride,
 * the product the kernel forms from its int32 row index ram.  lora_ptr and out keep
 * their layouts (out's rows 0 .. R-1 exist: it holds total rows). */
static void far(td_producer *p, td_case *c) {
    int64_t total = 0, K = pv(c, P_BK) * pv(c, P_NKB), w = (K - 1) * pv(c, P_XK) + 1;
    for (uint32_t b = 0; b < c->grid[2]; b++) total += td_geti(c, R_LEN, b);
    int64_t R = total < TD_FAR_MAX_ROWS ? total : TD_FAR_MAX_ROWS;
    if (R < 2 || td_geti(c, R_START, 0) != 0) return; /* gen packs the sequences from row 0 */
    int64_t s = td_far_stride(p, R, w);
    if (td_far_restride(c, R_IN, R, w, pv(c, P_XM), s)) return;
    c->p[P_XM].i = s;
    td_seti(c, R_LEN, 0, R);
    c->grid[0] = (uint32_t)((R + pv(c, P_BM) - 1) / pv(c, P_BM)), c->grid[2] = 1;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* hInj over the launch (and every write inside out) */
static const char *check_writes(const td_case *c) {
    size_t len = c->r[R_OUT].len;
    uint8_t *seen = calloc(len ? len : 1, 1);
    if (!seen) return "internal: out of memory in the checker";
    const char *bad = NULL;
    for (int64_t b = 0; b < c->grid[2] && !bad; b++)
        for (int64_t m = 0; m < td_geti(c, R_LEN, (size_t)b) && !bad; m++)
            for (int64_t n = 0; n < pv(c, P_N) && !bad; n++) {
                int64_t o = sg_off(c, b, m, n);
                if (o < 0 || (size_t)o >= len) bad = "writes inside out_ptr";
                else if (seen[o]++) bad = "hInj: distinct output addresses over the launch";
            }
    free(seen);
    return bad;
}

static const char *check_meta(const td_case *c) {
    int64_t K = pv(c, P_BK) * pv(c, P_NKB), nb = c->grid[2], maxlen = 0;
    if (c->r[R_START].len < (size_t)nb || c->r[R_LEN].len < (size_t)nb || c->r[R_IDX].len < (size_t)nb)
        return "metadata: one entry per batch (sgmvMetaBuf at pid2)";
    for (int64_t b = 0; b < nb; b++) {
        int64_t st = td_geti(c, R_START, (size_t)b), M = td_geti(c, R_LEN, (size_t)b);
        int64_t li = td_geti(c, R_IDX, (size_t)b);
        if (st < 0 || li < 0) return "metadata: Region .nat";
        if (M < 1) return "m[0] = seq_len > 0 (the loads wrap rows % seq_len)";
        maxlen = M > maxlen ? M : maxlen;
        if ((st + M - 1) * pv(c, P_XM) + (K - 1) * pv(c, P_XK) >= (int64_t)c->r[R_IN].len)
            return "reads of input_ptr in bounds (rows start .. start + seq_len - 1)";
        if (li * pv(c, P_L0) + (K - 1) * pv(c, P_LN) + (pv(c, P_N) - 1) * pv(c, P_LK) >= (int64_t)c->r[R_LORA].len)
            return "reads of lora_ptr inside the region (lora index < #adapters)";
    }
    if ((int64_t)c->grid[0] * pv(c, P_BM) < maxlen || (int64_t)c->grid[1] * pv(c, P_BN) < pv(c, P_N))
        return "grid covers (max seq_len, N) in (BLOCK_M, BLOCK_N) tiles";
    return NULL;
}

static const char *check(const td_case *c) {
    if (pv(c, P_BK) <= 0) return "hBK: 0 < BLOCK_K";
    if (pv(c, P_BM) <= 0 || pv(c, P_BN) <= 0 || pv(c, P_N) < 1) return "BLOCK_M, BLOCK_N, N > 0 (the loads wrap % N)";
    if (pv(c, P_NKB) < 1 || pv(c, P_BK) * pv(c, P_NKB) > 32) return "1 <= numKBlocks, K = BLOCK_K*numKBlocks <= 32";
    for (int k = 0; k < NP; k++)
        if (c->p[k].i < 0) return "Nat parameters";
    if (c->grid[2] < 1) return "grid[2] = batch >= 1";
    const char *e = check_meta(c);
    if (e) return e;
    for (int r = R_IN; r <= R_LORA; r++) /* of a sparse (far) input, its written pages */
        if (!td_region_abs_le(c, r, 65504.0)) return "domain: finite fp16 input and lora";
    return check_writes(c);
}

/* activeLane: m = pid0*BM + i < seq_len, n = pid1*BN + j < N */
static void writes(const td_case *c, td_wset *ws) {
    int64_t bm = pv(c, P_BM), bn = pv(c, P_BN);
    for (uint32_t b = 0; b < c->grid[2]; b++)
        for (int64_t m = 0; m < td_geti(c, R_LEN, b); m++)
            for (int64_t n = 0; n < pv(c, P_N); n++) {
                td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)sg_off(c, b, m, n),
                              .pid = {(uint32_t)(m / bm), (uint32_t)(n / bn), b},
                              .j = (uint64_t)((m % bm) * bn + n % bn), .idx = {b, m, n}};
                td_wset_add(ws, &l);
            }
}

#define SG_COMMON                                                                                               \
    .file = "sgmv_expand_slice", .family = "lora", .nparams = NP, .params = params, .nregions = NR,            \
    .regions = regions, .sv = TD_SV_REAL,                                                                      \
    .sv_note = "fp16 input and lora, K <= 32: every product exact and every partial sum finite", .gen = gen,   \
    .far = far, .check = check, .writes = writes
#define SG_FORMULA                                                                                              \
    "out[(start_b + m)*cm + (n + slice_offset)*cn] = sum_{k<BLOCK_K*numKBlocks} input[(start_b + m)*xm + k*xk] " \
    "* lora[l0*lora_indices[b] + k*lora_n_stride + n*lora_k_stride], m < seq_lens[b], n < N"
#define SG_CLASSES                                                                                              \
    (TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SLICE_EDGE) | TD_BC(TD_BC_FULLY_MASKED) |     \
     TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_SEQ_ENDS_AT_END) | TD_BC(TD_BC_OFFSET_2_31))

const td_contract td_c_sgmv_expand_slice_summary = {
    .id = "sgmv_expand_slice.sgmv_expand_slice_one_row_block_output_summary",
    .io_class = "ComputeCorrect over TileIndex [BLOCK_M, BLOCK_N] (Realizes_without_Rounding), every program",
    .kind = "exact",
    .formula = SG_FORMULA,
    .error_model = "BLOCK_K*numKBlocks exact fp16 products summed in any order (with or without FMA)",
    .classes = SG_CLASSES,
    SG_COMMON,
    TD_SPECS(sgmv_expand),
};
const td_contract td_c_sgmv_expand_slice_io = {
    .id = "sgmv_expand_slice.sgmv_expand_slice_io_correctness",
    .io_class = "StreamMetaMasked3DKernelIO_2 (sgmvExpandSliceIO), |=[R]",
    .kind = "rounding",
    .formula = "R.round(" SG_FORMULA "); R = the binary32 store",
    .ncasts = 1,
    .casts = casts,
    .error_model = "the any-order dot product of exact products, then the binary32 store cast",
    .classes = SG_CLASSES,
    SG_COMMON,
    TD_SPECS(sgmv_expand_r),
};
