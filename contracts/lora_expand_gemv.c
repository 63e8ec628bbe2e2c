/* lora_expand_gemv: the LoRA-B expand GEMV (catalogue part 2), two contracts.
 *
 *   gemv_full_output_summary: bgmv_loop_surface (the Lean's kernel: the "-1" sentinel
 *     guard elided, lora_indices : Region .nat, ADD_INPUTS = CAST_TYPE = EVEN_K = false)
 *     realises, for every m < split_n_length of program (pid0, pid1),
 *     out[pid1*cm_stride + pid0*split_n_length + m*cn_stride]
 *       = Σ_{k<K} input[pid1*xm_stride + k*xk_stride]
 *                 * lora[l0_stride*lora_indices[pid1] + (pid0*split_n_length + m)*lora_k_stride + k*lora_n_stride];
 *     hBN: 0 < BLOCK_N, hKB: K ≤ BLOCK_K, hcn: 0 < cn_stride, out ≠ lora.
 *   gemv_full_io_correctness (R): loraExpandGemvIO (StreamMetaEmitMasked3DKernelIO₂) ⊨[R]
 *     the same sum as Σ_{k<BLOCK_K} [k<K] xs[t,k]·ys[t, j·BLOCK_K + k], lane m = t·BLOCK_N + j,
 *     write = pid1*cm_stride + pid0*split_n_length + (t*BLOCK_N + j)*cn_stride, writeMask
 *     m < split_n_length; hsnl: 0 < split_n_length.
 *
 * Checked against the kernel (bench/tritonbench_g/lora_expand_gemv/, the .py and the Lean
 * transcription): the slice of program pid0 starts at pid0*split_n_length in out WITHOUT a
 * cn_stride factor (the wrapper's out is contiguous along n); a layout with cn_stride > 1
 * and several slices could make slices collide, so the generator draws cn_stride > 1 only
 * with one slice, and the checker asks that the write addresses are distinct (the IO
 * class's write injectivity).  The adapter id comes from lora_indices[pid1] (a Nat here:
 * "no adapter" = −1 is the Python wrapper's branch, which the contract elides, so
 * TD_BC_ADAPTER_NONE is not reachable and not declared).  TD_BC_SLICE_EDGE: several
 * slices abutting, the last ending exactly at the end of out's row (cm_stride = the row).
 *
 * Error model (every admissible kernel): K binary32 products and their sum in any order
 * and tree shape, with or without FMA (the oracle's any-order sum: γ-bound over Σ|x_k w_k|);
 * K ≤ BLOCK_K makes it one tile (tl.sum over BLOCK_K, masked lanes 0).  The R twin adds the
 * binary32 store cast of that value (R.round on a binary32 output: slot "store",
 * fp32:rne:inf), which costs nothing beyond where the interval straddles a boundary.
 * Values |x| <= 2^40 keep every product and partial sum finite.
 */
#include "gen.h"
#include "gen_meta.h"
#include "gen_far.h"

#include <stdlib.h>

enum { P_K, P_SPLIT, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_BN, P_BK, NP };
enum { R_IN, R_LORA, R_OUT, R_IDX, NR };
enum { C_STORE };

#define LG_BOUND 0x1p40
#define LG_MAX_BATCH 6

#define TD_SPEC_FILE "lora_expand_gemv.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"K", TD_P_INT},           {"split_n_length", TD_P_INT}, {"xm_stride", TD_P_INT}, {"xk_stride", TD_P_INT},
    {"l0_stride", TD_P_INT},   {"lora_k_stride", TD_P_INT},  {"lora_n_stride", TD_P_INT},
    {"cm_stride", TD_P_INT},   {"cn_stride", TD_P_INT},      {"BLOCK_N", TD_P_INT},   {"BLOCK_K", TD_P_INT}};
static const td_region_decl regions[NR] = {{"input_ptr", TD_F32, TD_R_IN},
                                           {"lora_ptr", TD_F32, TD_R_IN},
                                           {"out_ptr", TD_F32, TD_R_OUT},
                                           {"lora_indices", TD_I64, TD_R_META}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round of the stored sum (a binary32 store)"}};

static int64_t lg_off(const td_case *c, int64_t pid0, int64_t pid1, int64_t m) {
    return pid1 * c->p[P_CM].i + pid0 * c->p[P_SPLIT].i + m * c->p[P_CN].i;
}

/* lora_b weights [n_lora, N, K]: contiguous (lora_k_stride = K) or K-major (lora_n_stride = N) */
static size_t gen_lora_layout(td_producer *p, td_case *c, int64_t nl, int64_t N, int64_t K) {
    int64_t pad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    if (td_prod_bool(p)) c->p[P_LK].i = K, c->p[P_LN].i = 1;
    else c->p[P_LK].i = 1, c->p[P_LN].i = N;
    if (pad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    c->p[P_L0].i = N * K + pad;
    return (size_t)(nl * (N * K + pad));
}

static void gen(td_producer *p, td_case *c) {
    int64_t batch = (int64_t)td_prod_u32(p, 1, LG_MAX_BATCH), nsplit = (int64_t)td_prod_u32(p, 1, 4);
    int64_t bn = td_gen_pow2(p, 0, 5), K = (int64_t)td_prod_u32(p, 1, 64), bk = 1;
    while (bk < K) bk *= 2;                          /* the wrapper: next_power_of_2(K) */
    if (td_prod_u32(p, 0, 3) == 0) bk *= 2;          /* hKB allows a wider tile */
    int64_t split = (int64_t)td_gen_count(p, (uint64_t)bn, 96, &c->classes), N = nsplit * split;
    int64_t xk = td_prod_u32(p, 0, 3) == 0 ? 2 : 1, xpad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    int64_t cn = nsplit == 1 && td_prod_u32(p, 0, 2) == 0 ? (int64_t)td_prod_u32(p, 2, 3) : 1;
    int64_t cpad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    int64_t n_lora = (int64_t)td_prod_u32(p, 1, 4);
    c->p[P_K].i = K, c->p[P_SPLIT].i = split, c->p[P_XK].i = xk, c->p[P_XM].i = K * xk + xpad;
    c->p[P_CN].i = cn, c->p[P_CM].i = (split - 1) * cn + 1 + (nsplit - 1) * split + cpad;
    c->p[P_BN].i = bn, c->p[P_BK].i = bk;
    if (xk > 1 || xpad || cn > 1 || cpad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (nsplit > 1 && cpad == 0) c->classes |= TD_BC(TD_BC_SLICE_EDGE);
    c->grid[0] = (uint32_t)nsplit, c->grid[1] = (uint32_t)batch, c->grid[2] = 1;
    td_case_alloc(c, R_IN, (size_t)((batch - 1) * c->p[P_XM].i + (K - 1) * xk + 1));
    td_case_alloc(c, R_LORA, gen_lora_layout(p, c, n_lora, N, K));
    td_case_alloc(c, R_OUT, (size_t)((batch - 1) * c->p[P_CM].i + c->p[P_CM].i));
    td_case_alloc(c, R_IDX, (size_t)batch);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, LG_BOUND);
    td_vgen_fill(&g, c, R_IN);
    td_vgen_fill(&g, c, R_LORA);
    int64_t ids[LG_MAX_BATCH];
    td_gen_adapters(p, &g.rng, ids, batch, n_lora, 0, &c->classes);
    for (int64_t b = 0; b < batch; b++) td_seti(c, R_IDX, (size_t)b, ids[b]);
}

/* the IO class's write injectivity, and every write inside out (the bitmap is freed) */
static const char *check_writes(const td_case *c) {
    size_t len = c->r[R_OUT].len;
    uint8_t *seen = calloc(len ? len : 1, 1);
    if (!seen) return "internal: out of memory in the checker";
    const char *bad = NULL;
    for (int64_t b = 0; b < c->grid[1] && !bad; b++)
        for (int64_t s = 0; s < c->grid[0] && !bad; s++)
            for (int64_t m = 0; m < c->p[P_SPLIT].i && !bad; m++) {
                int64_t o = lg_off(c, s, b, m);
                if (o < 0 || (size_t)o >= len) bad = "writes inside out_ptr";
                else if (seen[o]++) bad = "WriteInj: distinct output addresses over the launch";
            }
    free(seen);
    return bad;
}

static const char *check(const td_case *c) {
    int64_t K = c->p[P_K].i, split = c->p[P_SPLIT].i, bk = c->p[P_BK].i;
    if (c->p[P_BN].i <= 0) return "hBN: 0 < BLOCK_N";
    if (K < 1 || K > bk) return "hKB: K <= BLOCK_K (and K >= 1)";
    if (split <= 0) return "hsnl: 0 < split_n_length";
    if (c->p[P_CN].i <= 0) return "hcn: 0 < cn_stride";
    for (int k = 0; k < NP; k++)
        if (c->p[k].i < 0) return "Nat parameters";
    if (c->grid[0] < 1 || c->grid[1] < 1 || c->grid[2] != 1) return "grid = (SPLIT_N, batch)";
    if (c->r[R_IDX].len < c->grid[1]) return "lora_indices holds one id per batch row";
    int64_t rows = (int64_t)c->grid[0] * split;
    for (int64_t b = 0; b < c->grid[1]; b++) {
        int64_t li = td_geti(c, R_IDX, (size_t)b);
        if (li < 0) return "lora_indices : Nat (the sentinel -1 is elided by the contract)";
        if (li * c->p[P_L0].i + (rows - 1) * c->p[P_LK].i + (K - 1) * c->p[P_LN].i >= (int64_t)c->r[R_LORA].len)
            return "reads of lora_ptr inside the region (lora index < #adapters)";
        if (b * c->p[P_XM].i + (K - 1) * c->p[P_XK].i >= (int64_t)c->r[R_IN].len) return "reads of input_ptr in bounds";
    }
    for (int r = R_IN; r <= R_LORA; r++) /* of a sparse (far) input, its written pages */
        if (!td_region_abs_le(c, r, LG_BOUND)) return "domain: |input|, |lora| <= 2^40 (every partial sum finite)";
    return check_writes(c);
}

/* Offsets beyond 2^31: the input rows of the first batch rows moved to a far
 * xm_stride (td_far_move_rows along grid axis 1, the batch); lora_ptr, the indices'
 * first rows and out keep theirs. */
static void far(td_producer *p, td_case *c) {
    td_far_move_rows(p, c, R_IN, 1, P_XM, (c->p[P_K].i - 1) * c->p[P_XK].i + 1);
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t split = c->p[P_SPLIT].i, bn = c->p[P_BN].i;
    for (uint32_t b = 0; b < c->grid[1]; b++)
        for (uint32_t s = 0; s < c->grid[0]; s++)
            for (int64_t m = 0; m < split; m++) {
                td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)lg_off(c, s, b, m), .pid = {s, b, 0},
                              .t = (uint32_t)(m / bn), .j = (uint64_t)(m % bn), .idx = {s, b, m}};
                td_wset_add(ws, &l);
            }
}

#define LG_COMMON                                                                                               \
    .file = "lora_expand_gemv", .family = "lora", .nparams = NP, .params = params, .nregions = NR,              \
    .regions = regions, .sv = TD_SV_REAL,                                                                       \
    .sv_note = "|input|, |lora| <= 2^40, K <= 64: every product and partial sum finite",                       \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SLICE_EDGE) |                       \
               TD_BC(TD_BC_OFFSET_2_31),                                                                        \
    .gen = gen, .far = far, .check = check, .writes = writes
#define LG_FORMULA                                                                                              \
    "out[pid1*cm + pid0*split_n_length + m*cn] = sum_{k<K} input[pid1*xm + k*xk] * "                            \
    "lora[l0*lora_indices[pid1] + (pid0*split_n_length + m)*lora_k_stride + k*lora_n_stride]"

const td_contract td_c_lora_expand_gemv_summary = {
    .id = "lora_expand_gemv.gemv_full_output_summary",
    .io_class = "ComputeCorrect (Realizes_without_Rounding) of bgmv_loop_surface",
    .kind = "exact",
    .formula = LG_FORMULA,
    .error_model = "K binary32 products summed in any order (with or without FMA): gamma-bound over sum|x w|",
    LG_COMMON,
    TD_SPECS(lora_gemv),
};
const td_contract td_c_lora_expand_gemv_io = {
    .id = "lora_expand_gemv.gemv_full_io_correctness",
    .io_class = "StreamMetaEmitMasked3DKernelIO_2 (loraExpandGemvIO), |=[R]",
    .kind = "rounding",
    .formula = "R.round(" LG_FORMULA "); R = the binary32 store",
    .ncasts = 1,
    .casts = casts,
    .error_model = "the any-order dot product, then the binary32 store cast",
    LG_COMMON,
    TD_SPECS(lora_gemv_r),
};
