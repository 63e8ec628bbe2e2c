/* bgmv_shrink_kernel: the LoRA-A shrink GEMV with SPLIT_K (catalogue part 1), two contracts.
 *
 *   bgmv_shrink_kernel_output_summary_general: the faithful surface (the lora_index = -1
 *     early return, the SPLIT_K_ONE store / atomic_add tail) with
 *       shrinkSpec(pid0)[n] = scaling * Σ_{t<numKIters(K, BK*SK)} Σ_{e<BK} [k<K]
 *                             x[pid1*xm + k] * lora[l0*idx + n*lora_k + k*lora_n],
 *       k = t*BK*SK + pid0*BK + e;
 *     (3) idx = -1: memory unchanged; (4) SPLIT_K = 1: out[pid1*cm + n*cn] = shrinkSpec[n];
 *     (5) SPLIT_K > 1: out[...] = old_out[...] + shrinkSpec(pid0)[n]; for n < N, n < BLOCK_N.
 *   bgmv_shrink_store_io_correctness (R): bgmvShrinkStoreIO ⊨[R], the store surface's
 *     per-program scaled sum (the same k set for this pid0), lora_indices a Nat (no -1).
 *
 * Checked against the kernel (.py and the Lean's bgmv_shrink_surface / _store_surface):
 * the input row is read at cur_batch*xm_stride + k with no xk_stride (the .py receives
 * xk_stride and never uses it; the Lean drops it), the adapter enters only lora's base
 * l0_stride*lora_index, the output address cur_batch*cm + n*cn does not depend on pid0,
 * and the kernel handles the first BLOCK_N rank rows only (lanes n < min(N, BLOCK_N);
 * the generator draws N > BLOCK_N too, whose rows past BLOCK_N must stay untouched).
 * One launch of the summary is grid (SPLIT_K, batch): the SPLIT_K programs of a row each
 * add their scaled partial, so the row ends as old + Σ_{pid0<SK} shrinkSpec(pid0)[n]
 * (out is in place: TD_R_INOUT); SPLIT_K_ONE = decide (SPLIT_K = 1) is the host's (the
 * Lean's "trusted host boundary"), checked.  The store io contract is per program and its
 * write address ignores pid0, so a launch is grid (1, batch): SPLIT_K > 1 there means the
 * first split's k set only (the loop stride BK*SK), which the generator draws.  The summary's
 * two index regions (.int for the guard, .nat for the branch surfaces) are one buffer in
 * the kernel: one int64 region here; td_gen_adapters' "no adapter" pattern reaches -1
 * (TD_BC_ADAPTER_NONE) in the summary only (the io's Region .nat has no -1).
 * Shape classes: tails, multiples and several steps of the K axis against the loop step
 * BK*SK (td_gen_count); single-lane and one-program count the launch's lanes and programs;
 * TD_BC_SLICE_EDGE: the rank N equal to BLOCK_N (the rank tile full) or one past it.
 *
 * Dtypes: input, lora and out binary32, as in the bgmv_expand_slice siblings.  The .py is
 * called with fp16/bf16 operands, whose tiled_a * tiled_b Triton rounds in that format
 * before tl.sum; the contract's products are real, and binary32 operands give each one
 * binary32 rounding (the model's u|x w|), with the fp32 accumulator of the .py.
 *
 * Error model (every admissible kernel; oracle/shadow.c's any-order sum):
 *   one program's partial: its |k set| <= K binary32 products summed in ANY order, with or
 *   without FMA (tl.sum's tree, a sequential chain, split chains): gamma_n Σ|x w| (Higham,
 *   ASNA 2nd ed. 3.1, 4.2); then the multiply by scaling: u|result| (exact when scaling is
 *   a power of two, which the shadow sees);
 *   SPLIT_K > 1: old + the SK scaled partials, added by atomics in ANY order: another
 *   any-order sum over SK + 1 terms, each carrying its own bound;
 *   R (io): the binary32 store cast, half an ulp (slot "store", fp32:rne:inf, as in
 *   bgmv_expand_slice).  |values|, |old out| <= 2^40, |scaling| <= 4, K <= 96: finite.
 */
#include "gen.h"
#include "gen_meta.h"
#include "gen_far.h"

#include <stdlib.h>

/* parameters in catalogue order; the summary has SPLIT_K_ONE last */
enum { P_N, P_K, P_SCALE, P_XM, P_L0, P_LK, P_LN, P_CM, P_CN, P_BN, P_BK, P_SK, NP_IO };
enum { P_SK1 = NP_IO, NP_SUM };
enum { R_IN, R_LORA, R_OUT, R_IDX, NR };
enum { C_STORE };

#define BS_BOUND 0x1p40
#define BS_MAX_BATCH 6
#define BS_MAX_K 96

static int bs_sum(const td_case *c) { return c->k->nparams == NP_SUM; }
static int64_t pv(const td_case *c, int k) { return c->p[k].i; }
static int64_t bs_lanes(const td_case *c) { return pv(c, P_N) < pv(c, P_BN) ? pv(c, P_N) : pv(c, P_BN); }

#define TD_SPEC_FILE "bgmv_shrink_kernel.spec.h"
#include "spec_instantiate.h"

#define BS_PARAMS                                                                                                 \
    {"N", TD_P_INT}, {"K", TD_P_INT}, {"scaling", TD_P_REAL}, {"xm_stride", TD_P_INT}, {"l0_stride", TD_P_INT},  \
        {"lora_k_stride", TD_P_INT}, {"lora_n_stride", TD_P_INT}, {"cm_stride", TD_P_INT}, {"cn_stride", TD_P_INT}, \
        {"BLOCK_N", TD_P_INT}, {"BLOCK_K", TD_P_INT}, {"SPLIT_K", TD_P_INT}
static const td_param_decl params_io[NP_IO] = {BS_PARAMS};
static const td_param_decl params_sum[NP_SUM] = {BS_PARAMS, {"SPLIT_K_ONE", TD_P_BOOL}};
static const td_region_decl regions_io[NR] = {{"input_ptr", TD_F32, TD_R_IN},
                                              {"lora_ptr", TD_F32, TD_R_IN},
                                              {"out_ptr", TD_F32, TD_R_OUT},
                                              {"lora_indices", TD_I64, TD_R_META}};
static const td_region_decl regions_sum[NR] = {{"input_ptr", TD_F32, TD_R_IN},
                                               {"lora_ptr", TD_F32, TD_R_IN},
                                               {"out_ptr", TD_F32, TD_R_INOUT},
                                               {"lora_indices", TD_I64, TD_R_META}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round of the stored scaled sum (a binary32 store)"}};

static int64_t bs_off(const td_case *c, int64_t b, int64_t n) { return b * pv(c, P_CM) + n * pv(c, P_CN); }

static void gen_shape(td_producer *p, td_case *c, int64_t batch) {
    int64_t bn = td_gen_pow2(p, 0, 5), bk = td_gen_pow2(p, 0, 4);
    int64_t sk = (int64_t)td_prod_u32(p, 1, bs_sum(c) ? 4 : 3);
    uint64_t kcls = 0; /* the K axis against the loop step BK*SK; lane and program counts below */
    int64_t K = (int64_t)td_gen_count(p, (uint64_t)(bk * sk), BS_MAX_K, &kcls);
    c->classes |= kcls & ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM));
    int over = td_prod_u32(p, 0, 5) == 0; /* N > BLOCK_N: rows past BLOCK_N untouched */
    int64_t N = over ? bn + (int64_t)td_prod_u32(p, 1, 3) : (int64_t)td_prod_u32(p, 1, (uint32_t)bn);
    int64_t cn = td_prod_u32(p, 0, 2) == 0 ? (int64_t)td_prod_u32(p, 2, 3) : 1;
    int64_t cpad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    int64_t xpad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    c->p[P_N].i = N, c->p[P_K].i = K, c->p[P_XM].i = K + xpad, c->p[P_CN].i = cn;
    c->p[P_CM].i = (N - 1) * cn + 1 + cpad, c->p[P_BN].i = bn, c->p[P_BK].i = bk, c->p[P_SK].i = sk;
    if (bs_sum(c)) c->p[P_SK1].i = sk == 1;
    if (xpad || cn > 1 || cpad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (N == bn || N == bn + 1) c->classes |= TD_BC(TD_BC_SLICE_EDGE);
    c->grid[0] = bs_sum(c) ? (uint32_t)sk : 1, c->grid[1] = (uint32_t)batch, c->grid[2] = 1;
}

static size_t gen_lora(td_producer *p, td_case *c, int64_t nl) {
    int64_t N = pv(c, P_N), K = pv(c, P_K);
    int64_t pad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    int contiguous = td_prod_bool(p);
    c->p[P_LK].i = contiguous ? K : 1, c->p[P_LN].i = contiguous ? 1 : N, c->p[P_L0].i = N * K + pad;
    if (pad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    return (size_t)(nl * (N * K + pad));
}

static void gen(td_producer *p, td_case *c) {
    int64_t batch = (int64_t)td_prod_u32(p, 1, BS_MAX_BATCH);
    gen_shape(p, c, batch);
    int64_t n_lora = (int64_t)td_prod_u32(p, 1, 4);
    int pick = (int)td_prod_u32(p, 0, 3);
    double sc = pick == 0 ? 1.0 : pick == 1 ? 0.5 : td_gen_real(p, 0.125, 4.0);
    c->p[P_SCALE].r = td_prod_bool(p) ? -sc : sc;
    td_case_alloc(c, R_IN, (size_t)((batch - 1) * pv(c, P_XM) + pv(c, P_K)));
    td_case_alloc(c, R_LORA, gen_lora(p, c, n_lora));
    td_case_alloc(c, R_OUT, (size_t)(batch * pv(c, P_CM)));
    td_case_alloc(c, R_IDX, (size_t)batch);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, BS_BOUND);
    td_vgen_fill(&g, c, R_IN);
    td_vgen_fill(&g, c, R_LORA);
    if (bs_sum(c)) td_vgen_fill(&g, c, R_OUT); /* the atomic adds' old values */
    int64_t ids[BS_MAX_BATCH];
    td_gen_adapters(p, &g.rng, ids, batch, n_lora, bs_sum(c), &c->classes);
    for (int64_t b = 0; b < batch; b++) td_seti(c, R_IDX, (size_t)b, ids[b]);
    if (batch == 1 && ids[0] != -1 && bs_lanes(c) == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    if (c->grid[0] * c->grid[1] == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}

/* Offsets beyond 2^31: the input rows of the first batch rows moved to a far
 * xm_stride (td_far_move_rows along grid axis 1, the batch); lora_ptr and out keep
 * theirs.  Every kept row gets an adapter (a "no adapter" row of the summary becomes
 * adapter 0): a skipped row reads nothing, and the far rows are the point of the case. */
static void far(td_producer *p, td_case *c) {
    if (!td_far_move_rows(p, c, R_IN, 1, P_XM, pv(c, P_K))) return;
    for (uint32_t b = 0; b < c->grid[1]; b++)
        if (td_geti(c, R_IDX, b) == -1) td_seti(c, R_IDX, b, 0);
}

/* WriteInj over the rows that write, every write inside out */
static const char *check_writes(const td_case *c) {
    size_t len = c->r[R_OUT].len;
    uint8_t *seen = calloc(len ? len : 1, 1);
    if (!seen) return "internal: out of memory in the checker";
    const char *bad = NULL;
    for (int64_t b = 0; b < c->grid[1] && !bad; b++) {
        if (td_geti(c, R_IDX, (size_t)b) == -1) continue;
        for (int64_t n = 0; n < bs_lanes(c) && !bad; n++) {
            int64_t o = bs_off(c, b, n);
            if (o < 0 || (size_t)o >= len) bad = "writes inside out_ptr";
            else if (seen[o]++) bad = "WriteInj: distinct output addresses over the launch";
        }
    }
    free(seen);
    return bad;
}

static const char *check_rows(const td_case *c) {
    int64_t K = pv(c, P_K);
    if (c->r[R_IDX].len < c->grid[1]) return "lora_indices holds one id per batch row";
    for (int64_t b = 0; b < c->grid[1]; b++) {
        int64_t li = td_geti(c, R_IDX, (size_t)b);
        if (li == -1 && bs_sum(c)) continue; /* the faithful surface's sentinel: the row is skipped */
        if (li < 0) return bs_sum(c) ? "lora_indices: an adapter id or the sentinel -1" : "lora_indices: Region .nat";
        if (li * pv(c, P_L0) + (bs_lanes(c) - 1) * pv(c, P_LK) + (K - 1) * pv(c, P_LN) >= (int64_t)c->r[R_LORA].len)
            return "reads of lora_ptr inside the region (lora index < #adapters)";
        if (b * pv(c, P_XM) + K - 1 >= (int64_t)c->r[R_IN].len) return "reads of input_ptr in bounds";
    }
    return NULL;
}

static const char *check_domain(const td_case *c) {
    double sc = c->p[P_SCALE].r;
    if ((double)(float)sc != sc || !(fabs(sc) <= 4)) return "scaling: a binary32 value, |scaling| <= 4";
    for (int r = R_IN; r <= R_OUT; r++) /* of a sparse (far) input, its written pages */
        if ((r != R_OUT || bs_sum(c)) && !td_region_abs_le(c, r, BS_BOUND))
            return "domain: |input|, |lora|, |old out| <= 2^40 (sums finite)";
    return NULL;
}

static const char *check(const td_case *c) {
    if (pv(c, P_BK) <= 0) return "hBK: 0 < BLOCK_K";
    if (pv(c, P_SK) <= 0) return "hSK: 0 < SPLIT_K";
    if (pv(c, P_CN) <= 0) return "hcn: 0 < cn_stride";
    if (pv(c, P_BN) <= 0 || pv(c, P_N) < 1 || pv(c, P_K) < 1 || pv(c, P_K) > BS_MAX_K) return "1 <= N, 1 <= K <= 96";
    for (int k = 0; k < c->k->nparams; k++)
        if (k != P_SCALE && c->p[k].i < 0) return "Nat parameters";
    if (bs_sum(c) && c->p[P_SK1].i != (pv(c, P_SK) == 1)) return "SPLIT_K_ONE = decide (SPLIT_K = 1)";
    if (c->grid[1] < 1 || c->grid[2] != 1) return "grid = (programs along K, batch)";
    if (bs_sum(c) ? c->grid[0] != (uint32_t)pv(c, P_SK) : c->grid[0] != 1)
        return bs_sum(c) ? "grid[0] = SPLIT_K (every split of K)" : "grid[0] = 1 (a store per output row)";
    const char *e = check_rows(c);
    if (!e) e = check_domain(c);
    return e ? e : check_writes(c);
}

/* rows whose index is -1 write nothing; lanes n < min(N, BLOCK_N) */
static void writes(const td_case *c, td_wset *ws) {
    for (uint32_t b = 0; b < c->grid[1]; b++) {
        if (td_geti(c, R_IDX, b) == -1) continue;
        for (int64_t n = 0; n < bs_lanes(c); n++) {
            td_olane l = {.o = 0, .region = R_OUT, .off = (uint64_t)bs_off(c, b, n), .pid = {0, b, 0},
                          .j = (uint64_t)n, .idx = {b, n}};
            td_wset_add(ws, &l);
        }
    }
}

#define BS_COMMON                                                                                               \
    .file = "bgmv_shrink_kernel", .family = "lora", .nregions = NR, .sv = TD_SV_REAL,                           \
    .sv_note = "|input|, |lora|, |old out| <= 2^40, |scaling| <= 4, K <= 96: every partial sum finite",         \
    .gen = gen, .far = far, .check = check, .writes = writes
#define BS_PART                                                                                                  \
    "scaling * sum_{t<ceil(K/(BK*SK))} sum_{e<BK} [k<K] input[pid1*xm + k] * lora[l0*lora_indices[pid1] + "     \
    "n*lora_k_stride + k*lora_n_stride], k = t*BK*SK + pid0*BK + e"
#define BS_CLASSES                                                                                              \
    (TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SLICE_EDGE) | TD_BC(TD_BC_OFFSET_2_31))

const td_contract td_c_bgmv_shrink_summary = {
    .id = "bgmv_shrink_kernel.bgmv_shrink_kernel_output_summary_general",
    .io_class = "Realizes_without_Rounding of the store (SPLIT_K = 1) and atomic (SPLIT_K > 1) surfaces, -1 guard",
    .kind = "exact",
    .formula = "out[pid1*cm + n*cn] = S(0) if SPLIT_K = 1, else old_out + sum_{pid0<SPLIT_K} S(pid0); "
               "S(pid0) = " BS_PART ", n < min(N, BLOCK_N); rows with lora_indices = -1 unchanged",
    .nparams = NP_SUM,
    .params = params_sum,
    .regions = regions_sum,
    .error_model = "each split's products summed in any order (with or without FMA), times scaling; "
                   "SPLIT_K > 1: old out and the scaled partials added in any order",
    .classes = BS_CLASSES | TD_BC(TD_BC_ADAPTER_NONE),
    BS_COMMON,
    TD_SPECS(bgmv_shrink),
};
const td_contract td_c_bgmv_shrink_store_io = {
    .id = "bgmv_shrink_kernel.bgmv_shrink_store_io_correctness",
    .io_class = "StreamMetaMasked3DKernelIO_2 (bgmvShrinkStoreIO), |=[R]; one program along K",
    .kind = "rounding",
    .formula = "out[pid1*cm + n*cn] = R.round(" BS_PART "), n < min(N, BLOCK_N); R = the binary32 store",
    .nparams = NP_IO,
    .params = params_io,
    .regions = regions_io,
    .ncasts = 1,
    .casts = casts,
    .error_model = "the split's products summed in any order, times scaling, then the binary32 store cast",
    .classes = BS_CLASSES,
    BS_COMMON,
    TD_SPECS(bgmv_shrink_r),
};
