/* chunked_cumsum_fwd (catalogue part 1, src lines 2579-2711)
 *
 *   chunked_cumsum_fwd_correctness (DtPrepared A DtOut DACumsum; 12 strides; nheads
 *     chunk_size BLOCK_SIZE_H BLOCK_SIZE_CHUNK; hDtNe: DtOut != DACumsum, hCK: 0 < BSC,
 *     hDtOutInj, hDACsInj: each program's [BSH, BSC] output tile offsets are injective):
 *     Masked3DKernelIO_2x2 (chunkedCumsumFwdIO) ⊨ (DtOut[j] = xs j,
 *     DACumsum[j] = dACumsumLaneClosed = sum_{k <= col, k < chunk_size} xs(row, k) * ys j),
 *     lane j = (row, col) = (j / BSC, j % BSC), h = pid_h*BSH + row; read1 = pid_b*sdb +
 *     (pid_c*chunk_size + col)*sds + h*sdh, read2 = h*sAh; write1/2 = pid_b*s_batch +
 *     pid_c*s_chunk + h*s_head + col*s_csize; mask h < nheads && col < chunk_size.
 *   chunked_cumsum_fwd_summary_general: the full surface (dt_bias, softplus, clamp) lowers,
 *     and the same IO contract holds; its parameter list is the surface's (regions dt_ptr ...
 *     dA_cumsum_ptr, batch, seqlen, dt_min, dt_max, stride_dt_bias_head, DT_SOFTPLUS,
 *     HAS_DT_BIAS), which the IO contract's kernel (the fused DtPrepared slice) never reads.
 *
 * Checked against bench/tritonbench_g/chunked_cumsum_fwd (.py and ChunkedCumsumFwd.lean).
 * The contracts are about chunked_cumsum_fused_slice: _chunk_cumsum_fwd_kernel with dt
 * already prepared (bias, softplus, clamp applied: the "DtPrepared slice"), reading dt with
 * the mask col < chunk_size (not the Python's chunk_size_limit: the slice has no seqlen,
 * so the last chunk reads its whole chunk_size rows and DtPrepared holds them), storing dt,
 * dA = dt * A[:, None] (one binary32 product per lane) and dA_cs = tl.cumsum(dA, axis=1):
 * the inclusive prefix along the chunk's columns, restarting in every chunk (pid_c), per
 * head (not along heads, not exclusive).  The summary_general's surface regions are
 * passed (length 1; dt_out_ptr and dA_cumsum_ptr are outputs nobody may touch), its scalars
 * drawn in their ranges; nothing in the value claim depends on them.
 *
 * Error model (any admissible implementation).  DtOut: a copy, exact.  DACumsum at column
 * col: a sum of the col+1 binary32 products dt_k * A_h in any order: each product rounded
 * once (u |dt_k A_h|, plus half the smallest subnormal), the sum gamma_col sum_k |dt_k A_h|
 * (Higham ASNA (4.4); the N(mul) + N(acc) rules of oracle/shadow.h).  This covers the
 * Kogge-Stone or sequential tl.cumsum and FMA contraction (fma(dt, A, s) removes a
 * product's rounding).  A factored out (A * cumsum(dt)) is algebraically equal and rounds
 * differently: gamma_col sum|dt||A| + u |A cumsum dt| (+ half the smallest subnormal),
 * which exceeds the first form's bound where the products dt_k A are exact; the spec
 * gives both forms to N(either) (the larger bound).  An exclusive scan, a scan along heads or a stride slip is an error of
 * size |dt_k A_h| or more.
 *
 * Layouts: DtPrepared (batch, seqlen, nheads) with the heads contiguous or strided,
 * A with stride 1 or 2; outputs (batch, nheads, nchunks, CSP) or (batch, nchunks, nheads,
 * CSP) with CSP >= max(chunk_size, BSC) so that each program's whole tile is injective
 * (hDtOutInj quantifies over every tile lane, masked or not).  Special values: none: finite
 * inputs, |dt|, |A| <= 2^50 keeps every sum finite (TD_SV_REAL).
 */
#include <float.h>
#include <stdlib.h>

#include "gen.h"
#include "gen_far.h"

/* The parameters and regions both theorems use, by meaning; each contract maps them to
 * its own catalogue order (ccf_map). */
enum { K_SDB, K_SDS, K_SDH, K_SAH, K_SOB, K_SOC, K_SOH, K_SOS, K_SAB, K_SAC, K_SAHD, K_SAS, K_NH, K_CS, K_BSH, K_BSC, NK };
enum { Q_DT, Q_A, Q_DTOUT, Q_DACS, NQ };

/* correctness: the 16 Nat parameters in catalogue order, the 4 regions */
enum { NP_CORR = 16, NR_CORR = 4 };
/* summary_general: regions dt_ptr A_ptr dt_bias_ptr dt_out_ptr dA_cumsum_ptr DtPrepared A
 * DtOut DACumsum; parameters batch seqlen nheads chunk_size dt_min dt_max, 13 strides,
 * DT_SOFTPLUS HAS_DT_BIAS BLOCK_SIZE_H BLOCK_SIZE_CHUNK */
enum { G_DT_PTR, G_A_PTR, G_BIAS_PTR, G_DTOUT_PTR, G_DACS_PTR, NR_SUM = 9 };
enum { G_BATCH, G_SEQLEN, G_NH, G_CS, G_DTMIN, G_DTMAX, G_SDB, G_SDS, G_SDH, G_SAH, G_SBIAS, G_SOB, G_SOC, G_SOH, G_SOS,
       G_SAB, G_SAC, G_SAHD, G_SAS, G_SOFTPLUS, G_HASBIAS, G_BSH, G_BSC, NP_SUM };

typedef struct ccf_map {
    int p[NK], r[NQ];
} ccf_map;
static const ccf_map map_corr = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {0, 1, 2, 3}};
static const ccf_map map_sum = {{G_SDB, G_SDS, G_SDH, G_SAH, G_SOB, G_SOC, G_SOH, G_SOS, G_SAB, G_SAC, G_SAHD, G_SAS,
                                 G_NH, G_CS, G_BSH, G_BSC},
                                {5, 6, 7, 8}};
static const ccf_map *ccf_m(const td_case *c) { return c->k->nparams == NP_CORR ? &map_corr : &map_sum; }
static int64_t ccf_p(const td_case *c, int k) { return c->p[ccf_m(c)->p[k]].i; }
static int ccf_r(const td_case *c, int q) { return ccf_m(c)->r[q]; }

/* The addresses of the IO class, lane (h, col) of program (b, ck). */
static int64_t ccf_read1(const td_case *c, int64_t b, int64_t ck, int64_t h, int64_t col) {
    return b * ccf_p(c, K_SDB) + (ck * ccf_p(c, K_CS) + col) * ccf_p(c, K_SDS) + h * ccf_p(c, K_SDH);
}
static int64_t ccf_write(const td_case *c, int o, int64_t b, int64_t ck, int64_t h, int64_t col) {
    int base = o == 0 ? K_SOB : K_SAB;
    return b * ccf_p(c, base) + ck * ccf_p(c, base + 1) + h * ccf_p(c, base + 2) + col * ccf_p(c, base + 3);
}

#define TD_SPEC_FILE "chunked_cumsum_fwd.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_corr[NP_CORR] = {
    {"stride_dt_batch", TD_P_INT},      {"stride_dt_seqlen", TD_P_INT},    {"stride_dt_head", TD_P_INT},
    {"stride_A_head", TD_P_INT},        {"stride_dt_out_batch", TD_P_INT}, {"stride_dt_out_chunk", TD_P_INT},
    {"stride_dt_out_head", TD_P_INT},   {"stride_dt_out_csize", TD_P_INT}, {"stride_dA_cs_batch", TD_P_INT},
    {"stride_dA_cs_chunk", TD_P_INT},   {"stride_dA_cs_head", TD_P_INT},   {"stride_dA_cs_csize", TD_P_INT},
    {"nheads", TD_P_INT},               {"chunk_size", TD_P_INT},          {"BLOCK_SIZE_H", TD_P_INT},
    {"BLOCK_SIZE_CHUNK", TD_P_INT}};
static const td_param_decl params_sum[NP_SUM] = {
    {"batch", TD_P_INT},              {"seqlen", TD_P_INT},              {"nheads", TD_P_INT},
    {"chunk_size", TD_P_INT},         {"dt_min", TD_P_REAL},             {"dt_max", TD_P_REAL},
    {"stride_dt_batch", TD_P_INT},    {"stride_dt_seqlen", TD_P_INT},    {"stride_dt_head", TD_P_INT},
    {"stride_A_head", TD_P_INT},      {"stride_dt_bias_head", TD_P_INT}, {"stride_dt_out_batch", TD_P_INT},
    {"stride_dt_out_chunk", TD_P_INT}, {"stride_dt_out_head", TD_P_INT}, {"stride_dt_out_csize", TD_P_INT},
    {"stride_dA_cs_batch", TD_P_INT}, {"stride_dA_cs_chunk", TD_P_INT},  {"stride_dA_cs_head", TD_P_INT},
    {"stride_dA_cs_csize", TD_P_INT}, {"DT_SOFTPLUS", TD_P_BOOL},        {"HAS_DT_BIAS", TD_P_BOOL},
    {"BLOCK_SIZE_H", TD_P_INT},       {"BLOCK_SIZE_CHUNK", TD_P_INT}};
static const td_region_decl regions_corr[NR_CORR] = {{"DtPrepared", TD_F32, TD_R_IN},
                                                     {"A", TD_F32, TD_R_IN},
                                                     {"DtOut", TD_F32, TD_R_OUT},
                                                     {"DACumsum", TD_F32, TD_R_OUT}};
static const td_region_decl regions_sum[NR_SUM] = {
    {"dt_ptr", TD_F32, TD_R_IN},      {"A_ptr", TD_F32, TD_R_IN},    {"dt_bias_ptr", TD_F32, TD_R_IN},
    {"dt_out_ptr", TD_F32, TD_R_OUT}, {"dA_cumsum_ptr", TD_F32, TD_R_OUT}, {"DtPrepared", TD_F32, TD_R_IN},
    {"A", TD_F32, TD_R_IN},           {"DtOut", TD_F32, TD_R_OUT},   {"DACumsum", TD_F32, TD_R_OUT}};

static void ccf_set(td_case *c, int k, int64_t v) { c->p[ccf_m(c)->p[k]].i = v; }

/* Output strides (batch, chunk, head, csize) of one of the two layouts, csp >= max(cs, BSC). */
static void ccf_out_layout(td_producer *p, td_case *c, int o, int64_t nh, int64_t nck, int64_t csp) {
    int base = o == 0 ? K_SOB : K_SAB;
    if (td_prod_bool(p)) { /* (batch, nheads, nchunks, csp): the Python host's dt_out layout */
        ccf_set(c, base + 3, 1), ccf_set(c, base + 1, csp), ccf_set(c, base + 2, nck * csp);
        ccf_set(c, base, nh * nck * csp);
    } else { /* (batch, nchunks, nheads, csp) */
        ccf_set(c, base + 3, 1), ccf_set(c, base + 2, csp), ccf_set(c, base + 1, nh * csp);
        ccf_set(c, base, nck * nh * csp);
    }
}

/* The largest offset an active lane reads (o < 0: DtPrepared) or writes (output o). */
static int64_t ccf_last(const td_case *c, int o) {
    int64_t nh = ccf_p(c, K_NH), cs = ccf_p(c, K_CS), bsc = ccf_p(c, K_BSC), col = (cs < bsc ? cs : bsc) - 1;
    int64_t b = (int64_t)c->grid[0] - 1, ck = (int64_t)c->grid[1] - 1;
    return o < 0 ? ccf_read1(c, b, ck, nh - 1, col) : ccf_write(c, o, b, ck, nh - 1, col);
}

static void gen(td_producer *p, td_case *c) {
    int sum = c->k->nparams != NP_CORR;
    /* one case in 16: one chunk of up to 2049 columns (the scan's accumulated error) */
    int long_chunk = td_prod_u32(p, 0, 15) == 0;
    int64_t BSC = long_chunk ? 2048 : td_gen_pow2(p, 0, 8), BSH = long_chunk ? 1 : td_gen_pow2(p, 0, 3);
    uint64_t ignored = 0;
    int64_t cs = (int64_t)td_gen_count(p, (uint64_t)BSC, (uint64_t)BSC + 1, &ignored);
    uint64_t shape = 0; /* the head axis's tiling classes; the grid's own below */
    int64_t nh = (int64_t)td_gen_count(p, (uint64_t)BSH, long_chunk ? 1 : 12, &shape);
    int64_t batch = long_chunk ? 1 : td_prod_u32(p, 1, 2), nck = long_chunk ? 1 : td_prod_u32(p, 1, 3);
    c->classes |= shape & ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM));
    if (batch * nck * ((nh + BSH - 1) / BSH) == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (batch * nck * nh * (cs < BSC ? cs : BSC) == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    if (cs == 1) c->classes |= TD_BC(TD_BC_SEQ_SINGLE);
    if (cs + 1 >= BSC && cs <= BSC + 1 && cs > 1) c->classes |= TD_BC(TD_BC_SEQ_BLOCK_EDGE);
    ccf_set(c, K_NH, nh), ccf_set(c, K_CS, cs), ccf_set(c, K_BSH, BSH), ccf_set(c, K_BSC, BSC);
    c->grid[0] = (uint32_t)batch, c->grid[1] = (uint32_t)nck, c->grid[2] = (uint32_t)((nh + BSH - 1) / BSH);
    int64_t pad = td_prod_bool(p) ? (int64_t)td_prod_u32(p, 1, 3) : 0;
    if (td_prod_bool(p)) /* (batch, seqlen, nheads), heads contiguous (padded) */
        ccf_set(c, K_SDH, 1), ccf_set(c, K_SDS, nh + pad), ccf_set(c, K_SDB, nck * cs * (nh + pad));
    else /* head-major: time contiguous */
        ccf_set(c, K_SDS, 1), ccf_set(c, K_SDH, nck * cs + pad), ccf_set(c, K_SDB, nh * (nck * cs + pad));
    if (pad || ccf_p(c, K_SDS) == 1) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    ccf_set(c, K_SAH, td_prod_bool(p) ? 2 : 1);
    int64_t csp = (cs > BSC ? cs : BSC) + (td_prod_bool(p) ? 1 : 0);
    ccf_out_layout(p, c, 0, nh, nck, csp);
    ccf_out_layout(p, c, 1, nh, nck, csp);
    if (sum) {
        c->p[G_BATCH].i = batch;
        c->p[G_SEQLEN].i = nck * cs - (int64_t)td_prod_u32(p, 0, (uint32_t)(cs - 1)); /* cdiv(seqlen, cs) = nck */
        c->p[G_DTMIN].r = td_gen_real(p, 0.0, 0.01);
        c->p[G_DTMAX].r = td_gen_real(p, 0.1, 1000.0);
        c->p[G_SBIAS].i = 1;
        c->p[G_SOFTPLUS].i = td_prod_bool(p);
        c->p[G_HASBIAS].i = td_prod_bool(p);
        for (int r = G_DT_PTR; r <= G_DACS_PTR; r++) td_case_alloc(c, r, 1); /* the surface's: never read or written */
    }
    int64_t slack = td_prod_bool(p) ? BSC : 0;
    td_case_alloc(c, ccf_r(c, Q_DT), (size_t)ccf_last(c, -1) + 1);
    td_case_alloc(c, ccf_r(c, Q_A), (size_t)((nh - 1) * ccf_p(c, K_SAH) + 1));
    td_case_alloc(c, ccf_r(c, Q_DTOUT), (size_t)(ccf_last(c, 0) + 1 + slack));
    td_case_alloc(c, ccf_r(c, Q_DACS), (size_t)(ccf_last(c, 1) + 1 + slack));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p50);
    td_vgen_fill(&g, c, ccf_r(c, Q_DT));
    td_vgen_fill(&g, c, ccf_r(c, Q_A));
}

/* Offsets beyond 2^31 (gen_far.h): both batches (grid axis 0, at most 2) of DtPrepared at
 * a stride_dt_batch near 2^31 over a sparse region, as a kernel forming pid_b *
 * stride_dt_batch in int32 gets wrong; A and the outputs keep their layout. */
static void far(td_producer *p, td_case *c) {
    int64_t R = c->grid[0] < TD_FAR_MAX_ROWS ? c->grid[0] : TD_FAR_MAX_ROWS;
    /* a batch's extent: the last batch's last read (the last chunk's last column, which a
     * partial last chunk or BLOCK_SIZE_CHUNK < chunk_size cuts), less its base; every batch
     * reads the same offsets from its base */
    int64_t w = ccf_last(c, -1) + 1 - ((int64_t)c->grid[0] - 1) * ccf_p(c, K_SDB);
    const td_far_reg r = {ccf_r(c, Q_DT), ccf_m(c)->p[K_SDB], w};
    (void)td_far_heads(p, c, 0, R, &r, 1);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}
/* hDtOutInj / hDACsInj for output o: the program's whole [BSH, BSC] tile is injective (the
 * pids add the same offset to every lane, so one tile decides it). */
static int ccf_tile_injective(const td_case *c, int o) {
    int64_t BSH = ccf_p(c, K_BSH), BSC = ccf_p(c, K_BSC), n = BSH * BSC;
    uint64_t *v = malloc((size_t)n * sizeof *v);
    if (!v) return 0;
    for (int64_t r = 0; r < BSH; r++)
        for (int64_t k = 0; k < BSC; k++) v[r * BSC + k] = (uint64_t)ccf_write(c, o, 0, 0, r, k);
    qsort(v, (size_t)n, sizeof *v, cmp_u64);
    int ok = 1;
    for (int64_t k = 1; k < n && ok; k++) ok = v[k] != v[k - 1];
    free(v);
    return ok;
}

static const char *check(const td_case *c) {
    int64_t BSH = ccf_p(c, K_BSH), BSC = ccf_p(c, K_BSC), nh = ccf_p(c, K_NH), cs = ccf_p(c, K_CS);
    if (BSC <= 0) return "hCK: 0 < BLOCK_SIZE_CHUNK";
    if (BSH <= 0 || (BSH & (BSH - 1)) || (BSC & (BSC - 1))) return "BLOCK_SIZE_H, BLOCK_SIZE_CHUNK powers of two (tl.arange)";
    for (int k = 0; k < NK; k++)
        if (ccf_p(c, k) < 0) return "strides and sizes : Nat";
    if (nh < 1 || cs < 1 || !c->grid[0] || !c->grid[1] || c->grid[2] != (uint32_t)((nh + BSH - 1) / BSH))
        return "grid = (batch, nchunks, cdiv(nheads, BLOCK_SIZE_H)), nheads, chunk_size >= 1";
    if (!ccf_tile_injective(c, 0)) return "hDtOutInj: every program's dt_out tile offsets are injective";
    if (!ccf_tile_injective(c, 1)) return "hDACsInj: every program's dA_cumsum tile offsets are injective";
    if (ccf_last(c, -1) >= (int64_t)c->r[ccf_r(c, Q_DT)].len || (nh - 1) * ccf_p(c, K_SAH) >= (int64_t)c->r[ccf_r(c, Q_A)].len ||
        ccf_last(c, 0) >= (int64_t)c->r[ccf_r(c, Q_DTOUT)].len || ccf_last(c, 1) >= (int64_t)c->r[ccf_r(c, Q_DACS)].len)
        return "the regions hold every active lane's read and write";
    if (c->k->nparams != NP_CORR) {
        double lo = c->p[G_DTMIN].r, hi = c->p[G_DTMAX].r;
        if ((double)(float)lo != lo || (double)(float)hi != hi) return "dt_min, dt_max are binary32 (kernel scalars)";
    }
    for (int q = Q_DT; q <= Q_A; q++) /* finite: |x| <= FLT_MAX; a sparse region's written pages only */
        if (!td_region_abs_le(c, ccf_r(c, q), FLT_MAX)) return "DtPrepared and A hold real (finite) values";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t BSH = ccf_p(c, K_BSH), BSC = ccf_p(c, K_BSC), nh = ccf_p(c, K_NH), cs = ccf_p(c, K_CS);
    for (uint32_t b = 0; b < c->grid[0]; b++)
        for (uint32_t ck = 0; ck < c->grid[1]; ck++)
            for (uint32_t ph = 0; ph < c->grid[2]; ph++)
                for (int64_t r = 0; r < BSH && ph * BSH + r < nh; r++)
                    for (int64_t col = 0; col < BSC && col < cs; col++)
                        for (uint32_t o = 0; o < 2; o++) {
                            int64_t h = ph * BSH + r;
                            td_olane l = {.o = o, .region = (uint32_t)ccf_r(c, o ? Q_DACS : Q_DTOUT),
                                          .off = (uint64_t)ccf_write(c, (int)o, b, ck, h, col), .pid = {b, ck, ph},
                                          .j = (uint64_t)(r * BSC + col), .idx = {b, ck, h, col}};
                            td_wset_add(ws, &l);
                        }
}

static const td_intent intent = {
    .operation = "dt copied, and dA_cumsum = the cumulative sum of dt * A[head] along each chunk of chunk_size steps",
    .definition = "torch.cumsum(dt * A, dim=-1) per chunk, as Mamba-2's reference _chunk_cumsum_fwd (mamba_ssm ssd)",
    TD_SPECS(intent),
};

#define CCF_COMMON                                                                                             \
    .file = "chunked_cumsum_fwd", .family = "scan", .kind = "exact", .sv = TD_SV_REAL,                        \
    .sv_note = "finite inputs, |dt|, |A| <= 2^50: every product and sum is finite",                          \
    .io_class = "Masked3DKernelIO_2x2 (chunkedCumsumFwdIO)",                                                  \
    .formula = "DtOut = DtPrepared; DACumsum[b, c, h, col] = sum_{k <= col} DtPrepared[b, c*cs + k, h] * A[h]", \
    .error_model = "dt copied exactly; each dA prefix a sum of its col+1 rounded products dt*A in any order",  \
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) |                  \
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_OFFSET_2_31),                                          \
    .gen = gen, .far = far, .check = check, .writes = writes, TD_SPECS(lane), .intent = &intent

const td_contract td_c_ccf_corr = {
    .id = "chunked_cumsum_fwd.chunked_cumsum_fwd_correctness",
    .nparams = NP_CORR, .params = params_corr, .nregions = NR_CORR, .regions = regions_corr,
    CCF_COMMON,
};
const td_contract td_c_ccf_summary = {
    .id = "chunked_cumsum_fwd.chunked_cumsum_fwd_summary_general",
    .nparams = NP_SUM, .params = params_sum, .nregions = NR_SUM, .regions = regions_sum,
    CCF_COMMON,
};
