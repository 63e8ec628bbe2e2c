/* chunk_cumsum_vector (catalogue part 1, src lines 1930-1990)
 *
 *   chunk_cumsum_vector_output_summary_general (SReg Z s_s_h s_s_t s_s_d T S BT BS;
 *     hNoCollision: the tile offsets of the active lanes are injective):
 *     Realizes_without_Rounding of chunk_cumsum_vector_single_block_surface, writeIf
 *     singleBlockActive (t < T, i_s*BS + c < S) at Z[i_bh*s_s_h + t*s_s_t + (i_s*BS + c)*s_s_d],
 *     expected singleBlockCumsumVectorClosed = sum_{m <= t, m < T} SReg[i_bh*s_s_h + m*s_s_t
 *     + (i_s*BS + c)*s_s_d]  (per feature column, a cumsum along time; grid (cdiv(S,BS), B*H)).
 *   chunk_cumsum_vector_block_store_io_correctness (BC Z ...; hOutInj per program):
 *     Masked3DTileKernelIO_1 (blockStoreIO) ⊨ Z[idx] = BC[idx] on the [BT, BS] tile at
 *     p1*s_s_h + (p2*BT + r)*s_s_t + (p0*BS + c)*s_s_d, mask p2*BT + r < T, p0*BS + c < S.
 *   chunk_cumsum_vector_block_store_io_correctnessR: the same ⊨[R, .real].
 *
 * Checked against bench/tritonbench_g/chunk_cumsum_vector (.py and ChunkCumsumVector.lean).
 * The summary's kernel is the single-block surface: the Python kernel's chunk loop run once
 * (offsets (0, i_s*BS)), b_c = tl.dot(m_s, b_s) with m_s the lower triangle (o_i[:, None] >=
 * o_i[None, :]: inclusive), no carry; the Lean header says the summary covers the
 * single-chunk regime T <= BT, where the looped Python kernel is exactly that surface, so
 * the generator draws T <= BT (T = 1, BT - 1, BT and free) and the host kernel is the Python
 * kernel itself (its loop runs once).  The expected value is the inclusive prefix along time
 * of each feature column (not a per-row sum, not exclusive).  The two store theorems are the
 * proof slice that copies a precomputed tile BC into Z (no cumsum: "cumulative-sum
 * production is outside this contract"); their grid is 3-D (i_s, i_bh, i_t) and their mask
 * covers the whole [T, S] matrix in BT x BS tiles.
 *
 * Error model.  Summary: each output is a sum of its t+1 terms in any order (tl.dot's
 * products by 1.0 and 0.0 are exact, its binary32 accumulation any order, allow_tf32=False;
 * a sequential or parallel-prefix scan is one order among those): gamma_t sum_{m<=t}|S|
 * (Higham ASNA (4.4)), the N(acc) rule (oracle/shadow.h).  A tf32 dot (allow_tf32=True)
 * rounds each input to 10 mantissa bits, 2^-11 |S[m]|, beyond gamma_t sum|S| for t < 2^13.
 * Stores: a copy, tolerance 0 for every implementation; R.round .real on a binary32 Z is the
 * binary32 store (cast slot "store", fp32:rne:inf), exact on binary32 values.
 *
 * Layouts: (B, H, T, S) contiguous (the Python host: z = empty_like(s), the same strides),
 * rows padded, or feature-major (s_s_t = 1); the stores need hOutInj over the whole tile, so
 * their row (column) stride is at least BS (BT).  Special values: none (finite inputs,
 * |S| <= 2^100 keeps every sum finite): TD_SV_REAL.
 */
#include <stdlib.h>

#include "gen.h"
#include "gen_far.h"

enum { P_SH, P_ST, P_SD, P_T, P_S, P_BT, P_BS, NP };
enum { R_IN, R_Z, NR };
enum { C_STORE };

static int64_t ccv_off(const td_case *c, int64_t bh, int64_t t, int64_t d) {
    return bh * c->p[P_SH].i + t * c->p[P_ST].i + d * c->p[P_SD].i;
}

#define TD_SPEC_FILE "chunk_cumsum_vector.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {{"s_s_h", TD_P_INT}, {"s_s_t", TD_P_INT}, {"s_s_d", TD_P_INT},
                                         {"T", TD_P_INT},     {"S", TD_P_INT},     {"BT", TD_P_INT},
                                         {"BS", TD_P_INT}};
static const td_region_decl regions_sum[NR] = {{"SReg", TD_F32, TD_R_IN}, {"Z", TD_F32, TD_R_OUT}};
static const td_region_decl regions_store[NR] = {{"BC", TD_F32, TD_R_IN}, {"Z", TD_F32, TD_R_OUT}};
static const td_cast_decl casts[1] = {{"store", "fp32:rne:inf", "R.round .real of the stored tile (a binary32 store)"}};

/* Strides of one of three layouts of a [B*H, T, S] tensor; `tile`: the row (column)
 * stride also covers a whole BS (BT) tile, as the stores' hOutInj needs. */
static void ccv_layout(td_producer *p, td_case *c, int64_t rows, int tile) {
    int64_t T = c->p[P_T].i, S = c->p[P_S].i, BT = c->p[P_BT].i, BS = c->p[P_BS].i;
    int64_t sh, st, sd, pad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 5) : 0;
    uint32_t layout = td_prod_u32(p, 0, 2);
    switch (layout) {
    case 0: /* time-major, contiguous unless the tile needs more */
        sd = 1, st = (tile && BS > S ? BS : S);
        break;
    case 1: /* time-major with padded rows */
        sd = 1, st = (tile && BS > S ? BS : S) + pad + 1;
        break;
    default: /* feature-major: time is the fast axis */
        st = 1, sd = (tile && BT > T ? BT : T) + pad;
        break;
    }
    sh = layout < 2 ? T * st + pad : S * sd + pad;
    if (sh < 1) sh = 1;
    c->p[P_SH].i = sh, c->p[P_ST].i = st, c->p[P_SD].i = sd;
    if (layout == 2 || st != S || pad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    int64_t len = (rows - 1) * sh + (T - 1) * st + (S - 1) * sd + 1;
    int64_t slack = td_prod_bool(p) ? BS : 0;
    td_case_alloc(c, R_IN, (size_t)len);
    td_case_alloc(c, R_Z, (size_t)(len + slack));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, R_IN);
}

/* The shape classes of a count n in blocks of B (td_gen_mark_shape), with the grid's
 * own: one program, a single lane in all (`lanes`). */
static void ccv_mark(uint64_t n, uint64_t B, uint64_t lanes, td_case *c) {
    uint64_t shape = 0;
    td_gen_mark_shape(n, B, (n + B - 1) / B, &shape);
    c->classes |= shape & ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM));
    if ((uint64_t)c->grid[0] * c->grid[1] * c->grid[2] == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (lanes == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
}

static void gen_sum(td_producer *p, td_case *c) {
    int64_t BT = td_gen_pow2(p, 0, 6), BS = td_gen_pow2(p, 0, 5);
    uint64_t ignored = 0;
    int64_t T = (int64_t)td_gen_count(p, (uint64_t)BT, (uint64_t)BT, &ignored); /* T <= BT: one chunk */
    int64_t S = (int64_t)td_gen_count(p, (uint64_t)BS, 96, &ignored);
    int64_t rows = td_prod_u32(p, 1, 3);
    c->p[P_T].i = T, c->p[P_S].i = S, c->p[P_BT].i = BT, c->p[P_BS].i = BS;
    c->grid[0] = (uint32_t)((S + BS - 1) / BS), c->grid[1] = (uint32_t)rows, c->grid[2] = 1;
    ccv_mark((uint64_t)S, (uint64_t)BS, (uint64_t)(rows * T * S), c);
    if (T == 1) c->classes |= TD_BC(TD_BC_SEQ_SINGLE);
    if (T + 1 >= BT && T > 1) c->classes |= TD_BC(TD_BC_SEQ_BLOCK_EDGE);
    ccv_layout(p, c, rows, 0);
}

static void gen_store(td_producer *p, td_case *c) {
    int64_t BT = td_gen_pow2(p, 0, 5), BS = td_gen_pow2(p, 0, 5);
    uint64_t ignored = 0;
    int64_t T = (int64_t)td_gen_count(p, (uint64_t)BT, 80, &ignored);
    int64_t S = (int64_t)td_gen_count(p, (uint64_t)BS, 64, &ignored);
    int64_t rows = td_prod_u32(p, 1, 3);
    c->p[P_T].i = T, c->p[P_S].i = S, c->p[P_BT].i = BT, c->p[P_BS].i = BS;
    c->grid[0] = (uint32_t)((S + BS - 1) / BS), c->grid[1] = (uint32_t)rows;
    c->grid[2] = (uint32_t)((T + BT - 1) / BT);
    ccv_mark((uint64_t)T, (uint64_t)BT, (uint64_t)(rows * T * S), c);
    ccv_layout(p, c, rows, 1);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}
/* 1 when the n offsets are pairwise distinct (sorts them). */
static int ccv_distinct(uint64_t *o, size_t n) {
    qsort(o, n, sizeof *o, cmp_u64);
    for (size_t k = 1; k < n; k++)
        if (o[k] == o[k - 1]) return 0;
    return 1;
}

typedef struct {
    const td_case *c;
    int bad;
} ccv_vscan;
/* the input's elements in bytes [lo, hi): finite */
static void ccv_finite_span(void *u, size_t lo, size_t hi) {
    ccv_vscan *q = u;
    for (size_t e = lo / 4; e < hi / 4 && e < q->c->r[R_IN].len && !q->bad; e++) q->bad = !isfinite(td_get(q->c, R_IN, e));
}
/* 1 when every input element is finite; of a sparse input (offsets beyond 2^31) only
 * the touched pages can hold anything but zeros, so only they are scanned */
static int ccv_finite(const td_case *c) {
    ccv_vscan q = {c, 0};
    size_t bytes = c->r[R_IN].len * 4; /* binary32 */
    if (c->r[R_IN].mapped) td_touched_pages(c->r[R_IN].data, bytes, ccv_finite_span, &q);
    else ccv_finite_span(&q, 0, bytes);
    return !q.bad;
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS heads (grid axis 1, i_bh) of s
 * and z at one head stride s_s_h near 2^31, as the kernel forming i_bh * s_s_h in int32
 * (program_id times an int32 stride: Triton's default) gets wrong.  s and z share s_s_h,
 * so both move: s as a sparse read-only region, z as a sparse output (engine/harness.c
 * judges it over the pages of its write set).  A head's extent w fits under s_s_h in
 * every layout ccv_layout draws, so heads never interleave. */
static void ccv_far(td_producer *p, td_case *c) {
    int64_t R = c->grid[1] < TD_FAR_MAX_ROWS ? c->grid[1] : TD_FAR_MAX_ROWS;
    int64_t w = ccv_off(c, 0, c->p[P_T].i - 1, c->p[P_S].i - 1) + 1;
    const td_far_reg r[2] = {{R_IN, P_SH, w}, {R_Z, P_SH, w}};
    (void)td_far_heads(p, c, 1, R, r, 2);
}

/* What both readings share: parameters, grid, regions, values. */
static const char *ccv_check_common(const td_case *c) {
    int64_t T = c->p[P_T].i, S = c->p[P_S].i, BT = c->p[P_BT].i, BS = c->p[P_BS].i;
    if (BT <= 0 || BS <= 0 || (BT & (BT - 1)) || (BS & (BS - 1))) return "BT, BS powers of two (tl.arange)";
    if (T < 1 || S < 1 || c->p[P_SH].i < 0 || c->p[P_ST].i < 0 || c->p[P_SD].i < 0) return "T, S, strides : Nat";
    if (c->grid[0] != (uint32_t)((S + BS - 1) / BS) || c->grid[1] < 1) return "grid = (cdiv(S, BS), B*H, ...)";
    int64_t last = ccv_off(c, c->grid[1] - 1, T - 1, S - 1);
    if ((int64_t)c->r[R_IN].len <= last || (int64_t)c->r[R_Z].len <= last) return "the regions hold every lane";
    if (!ccv_finite(c)) return "the input holds real (finite) values";
    return NULL;
}

static const char *check_sum(const td_case *c) {
    const char *why = ccv_check_common(c);
    if (why) return why;
    int64_t T = c->p[P_T].i, S = c->p[P_S].i, BS = c->p[P_BS].i;
    if (T > c->p[P_BT].i) return "T <= BT (the single-chunk regime the summary covers)";
    if (c->grid[2] != 1) return "grid = (cdiv(S, BS), B*H)";
    uint64_t *o = malloc((size_t)(T * BS) * sizeof *o);
    if (!o) return "out of memory checking hNoCollision";
    for (uint32_t is = 0; is < c->grid[0] && !why; is++) {
        size_t n = 0;
        for (int64_t t = 0; t < T; t++)
            for (int64_t k = 0; k < BS && is * BS + k < S; k++) o[n++] = (uint64_t)ccv_off(c, 0, t, is * BS + k);
        if (!ccv_distinct(o, n)) why = "hNoCollision: the active lanes' offsets are injective";
    }
    free(o);
    return why;
}

static const char *check_store(const td_case *c) {
    const char *why = ccv_check_common(c);
    if (why) return why;
    int64_t T = c->p[P_T].i, BT = c->p[P_BT].i, BS = c->p[P_BS].i;
    if (c->grid[2] != (uint32_t)((T + BT - 1) / BT)) return "grid = (cdiv(S, BS), B*H, cdiv(T, BT))";
    uint64_t *o = malloc((size_t)(BT * BS) * sizeof *o);
    if (!o) return "out of memory checking hOutInj";
    size_t n = 0; /* the pids shift every offset alike: injectivity of one tile is the hypothesis */
    for (int64_t r = 0; r < BT; r++)
        for (int64_t k = 0; k < BS; k++) o[n++] = (uint64_t)(r * c->p[P_ST].i + k * c->p[P_SD].i);
    if (!ccv_distinct(o, n)) why = "hOutInj: the tile's offsets are injective";
    free(o);
    return why;
}

static void writes_sum(const td_case *c, td_wset *ws) {
    int64_t T = c->p[P_T].i, S = c->p[P_S].i, BT = c->p[P_BT].i, BS = c->p[P_BS].i;
    for (uint32_t bh = 0; bh < c->grid[1]; bh++)
        for (uint32_t is = 0; is < c->grid[0]; is++)
            for (int64_t t = 0; t < T && t < BT; t++)
                for (int64_t k = 0; k < BS && is * BS + k < S; k++) {
                    td_olane l = {.region = R_Z, .off = (uint64_t)ccv_off(c, bh, t, is * BS + k), .pid = {is, bh, 0},
                                  .j = (uint64_t)(t * BS + k), .idx = {bh, t, is * BS + k}};
                    td_wset_add(ws, &l);
                }
}

static void writes_store(const td_case *c, td_wset *ws) {
    int64_t T = c->p[P_T].i, S = c->p[P_S].i, BT = c->p[P_BT].i, BS = c->p[P_BS].i;
    for (uint32_t it = 0; it < c->grid[2]; it++)
        for (uint32_t bh = 0; bh < c->grid[1]; bh++)
            for (uint32_t is = 0; is < c->grid[0]; is++)
                for (int64_t r = 0; r < BT && it * BT + r < T; r++)
                    for (int64_t k = 0; k < BS && is * BS + k < S; k++) {
                        int64_t off = ccv_off(c, bh, it * BT + r, is * BS + k);
                        td_olane l = {.region = R_Z, .off = (uint64_t)off, .pid = {is, bh, it},
                                      .j = (uint64_t)(r * BS + k), .idx = {off}};
                        td_wset_add(ws, &l);
                    }
}

static const td_intent intent = {
    .operation = "the inclusive cumulative sum along time of each feature column of s[B, H, T, S]",
    .definition = "torch.cumsum(s, dim=2) (PyTorch documentation)",
    TD_SPECS(intent),
};

#define CCV_COMMON                                                                                             \
    .file = "chunk_cumsum_vector", .nparams = NP, .params = params, .nregions = NR, .sv = TD_SV_REAL,          \
    .sv_note = "finite inputs, |x| <= 2^100: every sum is finite"

const td_contract td_c_ccv_summary = {
    .id = "chunk_cumsum_vector.chunk_cumsum_vector_output_summary_general",
    .family = "scan",
    .io_class = "Realizes_without_Rounding (chunk_cumsum_vector_single_block_surface)",
    .kind = "exact",
    .formula = "Z[bh, t, d] = sum_{m <= t} SReg[bh, m, d] for t < min(T, BT), d < S (one chunk)",
    .regions = regions_sum,
    .error_model = "each prefix one sum of its t+1 terms in any order (tl.dot's 0/1 products are exact)",
    CCV_COMMON,
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_STRIDE_GT_ROW) |
               TD_BC(TD_BC_OFFSET_2_31),
    .far = ccv_far,
    .gen = gen_sum, .check = check_sum, .writes = writes_sum,
    TD_SPECS(prefix),
    .intent = &intent,
};
const td_contract td_c_ccv_store = {
    .id = "chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctness",
    .family = "copy",
    .io_class = "Masked3DTileKernelIO_1 (blockStoreIO)",
    .kind = "exact",
    .formula = "Z[bh, t, d] = BC[bh, t, d] for t < T, d < S in BT x BS tiles",
    .regions = regions_store,
    .error_model = "a copy: exact for every implementation",
    CCV_COMMON,
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),
    .far = ccv_far,
    .gen = gen_store, .check = check_store, .writes = writes_store,
    TD_SPECS(copy),
};
const td_contract td_c_ccv_store_r = {
    .id = "chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctnessR",
    .family = "copy",
    .io_class = "Masked3DTileKernelIO_1 (blockStoreIO), |=[R, .real]",
    .kind = "rounding",
    .formula = "Z[bh, t, d] = R.round(.real)(BC[bh, t, d]); R = the binary32 store",
    .regions = regions_store,
    .ncasts = 1,
    .casts = casts,
    .error_model = "a copy then the binary32 store cast of a binary32 value: exact",
    CCV_COMMON,
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),
    .far = ccv_far,
    .gen = gen_store, .check = check_store, .writes = writes_store,
    TD_SPECS(copy_r),
};
