/* bmm_chunk_fwd: Mamba2's chunked C B^T (catalogue part 1, src lines 1714-1781).
 *
 *   bmm_chunk_fwd_output_summary_general (hBK : 0 < BK) (hInj : outOffset injective)
 *     (hmlt : every row of the tile < chunk_size) (hnlt : every column < chunk_size) (hundef):
 *     lowering exists and Out[b, c, h, m, n] = outputCell = sum_{k < BK*numKBlocks}
 *     A[b, c*cs + m, h, k] * B[b, c*cs + n, h, k]  (a .real cell)
 *   bmm_chunk_fwd_io_correctness (hBK) (hmlt : forall pid0 i, pidM pid0 * BM + i < cs)
 *     (hnlt : forall pid0 j, pidN pid0 * BN + j < cs) (hOutInj : forall pids, bmmOutAddr
 *     injective): bmm_chunk_fwd_IO |=[R] fun _ _ _ _ xs ys l => bmmStreamSum BM BN BK
 *     numKBlocks xs ys l = sum_t sum_e xs t (m*BK + e) * ys t (e*BN + n),
 *     StreamMetaMasked3DKernelIO_2 (nMeta = 0, outDType .real), read1 = bmmAAddr,
 *     read2 = bmmBAddr, write = bmmOutAddr, every mask True.
 *   (b = pid1, c = pid2 // ngroups, h = pid2 - c*ngroups, pidM = pid0 / cdiv(cs, BN),
 *    pidN = pid0 % cdiv(cs, BN); A[b, s, h, k] at b*SAB + s*SAS + h*SAH + k*SAK, B alike,
 *    Out[b, c, h, m, n] at b*SOB + c*SOC + h*SOH + m*SOM + n*SON.)
 *
 * Reading of the IO's hmlt / hnlt: as printed they quantify over every pid0 : Nat, and
 * pidM pid0 grows without bound, so for BM, BN > 0 they are unsatisfiable and the
 * theorem is vacuous.  The evident intent (the catalogue: "forces full tiles to fit")
 * is the launch's programs, pid0 < cdiv(cs, BM) * cdiv(cs, BN): chunk_size a multiple
 * of BM and BN.  tilediff checks that reading (the summary's per-program hmlt / hnlt
 * give the same condition).
 *
 * Kernel (bench/tritonbench_g/bmm_chunk_fwd/bmm_chunk_fwd.py, _bmm_chunk_fwd_kernel)
 * in the configuration the Lean surface bmm_matmul_surface transcribes: IS_CAUSAL =
 * False, HAS_SEQ_IDX = False and seqlen = nchunks * chunk_size (chunk_size_limit =
 * chunk_size), so the row / column masks are vacuous on whole tiles; the K loop
 * `acc += tl.dot(a, b)` with the (vacuous) K masks; `acc.to(out dtype)`; the store
 * masked by m, n < chunk_size.  bmmSpec / bmmStreamSum in BmmChunkFwd.lean; checked.
 *
 * Dtypes: A, B fp16 (dot_dtype fp16: exact products, binary32 accumulator), Out
 * binary32 (the wrapper's output_dtype=torch.float32).  The contract's outDType is
 * .real: an fp16 Out (the wrapper's default, a's dtype) would round on the store,
 * which the contract does not describe; with binary32 Out the store is exact.  An fp32
 * A/B would send tl.dot to TF32 on sm_80+ (dot_dtype fp32, default input_precision).
 * Layouts: A / B as [batch, seqlen, ngroups, K] contiguous or seqlen-contiguous (the
 * two the wrapper accepts without a copy), Out [batch, nchunks, ngroups, cs, cs] row-
 * or column-major per chunk, sometimes with padding.
 * Error model: contracts/matmul_common.h (exact products, pairwise tree per BK tile,
 * numKBlocks sequential adds).  Special values: finite fp16 operands, K <= 64: the
 * binary32 sums stay finite.
 */
#include "matmul_common.h"

enum { P_CS, P_G, P_SAB, P_SAS, P_SAH, P_SAK, P_SBB, P_SBS, P_SBH, P_SBK, P_SOB, P_SOC, P_SOH, P_SOM, P_SON,
       P_BM, P_BN, P_BK, P_NKB, NP };
enum { R_A, R_B, R_OUT, NR };

#define TD_SPEC_FILE "bmm_chunk_fwd.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"chunk_size", TD_P_INT}, {"ngroups", TD_P_INT}, {"SAB", TD_P_INT}, {"SAS", TD_P_INT}, {"SAH", TD_P_INT},
    {"SAK", TD_P_INT},        {"SBB", TD_P_INT},     {"SBS", TD_P_INT}, {"SBH", TD_P_INT}, {"SBK", TD_P_INT},
    {"SOB", TD_P_INT},        {"SOC", TD_P_INT},     {"SOH", TD_P_INT}, {"SOM", TD_P_INT}, {"SON", TD_P_INT},
    {"BM", TD_P_INT},         {"BN", TD_P_INT},      {"BK", TD_P_INT},  {"numKBlocks", TD_P_INT}};
static const td_region_decl regions[NR] = {{"A", TD_F16, TD_R_IN}, {"B", TD_F16, TD_R_IN}, {"Out", TD_F32, TD_R_OUT}};

/* [batch, S, G, K] strides: contiguous, or seqlen-contiguous; pad widens the inner dim */
static void seq_layout(td_producer *p, int64_t S, int64_t G, int64_t K, int64_t pad, int64_t *sb, int64_t *ss,
                       int64_t *sh, int64_t *sk) {
    if (td_prod_u32(p, 0, 2) == 0) *ss = 1, *sk = S + pad, *sh = K * *sk, *sb = G * *sh;
    else *sk = 1, *sh = K + pad, *ss = G * *sh, *sb = S * *ss;
}
/* the largest offset of a [batch, S, G, K] view, plus one */
static size_t seq_span(int64_t nb, int64_t S, int64_t G, int64_t K, int64_t sb, int64_t ss, int64_t sh, int64_t sk) {
    return (size_t)((nb - 1) * sb + (S - 1) * ss + (G - 1) * sh + (K - 1) * sk + 1);
}

static void gen(td_producer *p, td_case *c) {
    int64_t BM = td_gen_pow2(p, 4, 5), BN = td_gen_pow2(p, 4, 5), BK = td_gen_pow2(p, 4, 5);
    int64_t cs = mm_max(BM, BN) * (mm_max(BM, BN) < 32 ? td_prod_u32(p, 1, 2) : 1);
    int64_t T = td_prod_u32(p, 1, 2), K = BK * T;
    int64_t nb = td_prod_u32(p, 1, 2), nc = td_prod_u32(p, 1, 2), G = td_prod_u32(p, 1, 3);
    while (nb * nc * G * cs * cs * K > (1 << 15) && (G > 1 || nc > 1 || nb > 1)) {
        if (G > 1) G--;
        else if (nc > 1) nc--;
        else nb--;
    }
    int64_t S = nc * cs, pad = td_prod_bool(p) ? td_prod_u32(p, 1, 3) : 0;
    int64_t v[NP];
    seq_layout(p, S, G, K, pad, &v[P_SAB], &v[P_SAS], &v[P_SAH], &v[P_SAK]);
    seq_layout(p, S, G, K, pad, &v[P_SBB], &v[P_SBS], &v[P_SBH], &v[P_SBK]);
    if (td_prod_u32(p, 0, 2) == 0) v[P_SOM] = 1, v[P_SON] = cs + pad; /* per-chunk column-major Out */
    else v[P_SON] = 1, v[P_SOM] = cs + pad;
    v[P_SOH] = cs * (cs + pad), v[P_SOC] = G * v[P_SOH], v[P_SOB] = nc * v[P_SOC];
    v[P_CS] = cs, v[P_G] = G, v[P_BM] = BM, v[P_BN] = BN, v[P_BK] = BK, v[P_NKB] = T;
    for (int i = 0; i < NP; i++) c->p[i].i = v[i];
    c->grid[0] = (uint32_t)((cs / BM) * (cs / BN)), c->grid[1] = (uint32_t)nb, c->grid[2] = (uint32_t)(nc * G);
    c->classes |= TD_BC(TD_BC_EXACT_MULTIPLE) | (pad ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) |
                  (T > 1 ? TD_BC(TD_BC_MULTI_TILE) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0);
    td_case_alloc(c, R_A, seq_span(nb, S, G, K, v[P_SAB], v[P_SAS], v[P_SAH], v[P_SAK]));
    td_case_alloc(c, R_B, seq_span(nb, S, G, K, v[P_SBB], v[P_SBS], v[P_SBH], v[P_SBK]));
    td_case_alloc(c, R_OUT, (size_t)(nb * v[P_SOB]));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F16));
    /* every [S, K] slab of A and B */
    for (int64_t b = 0; b < nb; b++)
        for (int64_t h = 0; h < G; h++)
            for (int64_t s = 0; s < S; s++)
                for (int64_t k = 0; k < K; k++) {
                    td_set(c, R_A, (size_t)(b * v[P_SAB] + s * v[P_SAS] + h * v[P_SAH] + k * v[P_SAK]),
                           td_vgen_value(&g, TD_F16));
                    td_set(c, R_B, (size_t)(b * v[P_SBB] + s * v[P_SBS] + h * v[P_SBH] + k * v[P_SBK]),
                           td_vgen_value(&g, TD_F16));
                }
    if (K >= 3 && td_prod_u32(p, 0, 5) == 0)
        for (int64_t b = 0; b < nb; b++)
            for (int64_t h = 0; h < G; h++)
                mm_absorb_at(&g, c, R_A, R_B, b * v[P_SAB] + h * v[P_SAH], b * v[P_SBB] + h * v[P_SBH], S, S, K,
                             v[P_SAS], v[P_SAK], v[P_SBK], v[P_SBS]);
}

static const char *check_common(const td_case *c) {
    for (int i = 0; i < NP; i++)
        if (c->p[i].i < 0) return "parameters are Nat";
    int64_t cs = c->p[P_CS].i, G = c->p[P_G].i, BM = c->p[P_BM].i, BN = c->p[P_BN].i;
    if (c->p[P_BK].i <= 0) return "hBK: 0 < BK";
    if (BM <= 0 || BN <= 0 || G <= 0 || cs <= 0) return "BM, BN, ngroups, chunk_size > 0 (a launchable grid)";
    if ((int64_t)c->grid[0] != mm_cdiv(cs, BM) * mm_cdiv(cs, BN) || c->grid[2] % G)
        return "grid = (cdiv(cs, BM) * cdiv(cs, BN), batch, nchunks * ngroups)";
    /* hmlt / hnlt for every program of the launch (see the header): whole tiles */
    if (cs % BM) return "hmlt: pidM * BM + i < chunk_size for every program";
    if (cs % BN) return "hnlt: pidN * BN + j < chunk_size for every program";
    if (!mm_tile_injective(BM, BN, c->p[P_SOM].i, c->p[P_SON].i)) return "hOutInj / hInj: out offsets injective";
    int64_t nb = c->grid[1], nc = c->grid[2] / G, S = nc * cs, K = c->p[P_BK].i * c->p[P_NKB].i;
    if (c->r[R_A].len < seq_span(nb, S, G, K, c->p[P_SAB].i, c->p[P_SAS].i, c->p[P_SAH].i, c->p[P_SAK].i) ||
        c->r[R_B].len < seq_span(nb, S, G, K, c->p[P_SBB].i, c->p[P_SBS].i, c->p[P_SBH].i, c->p[P_SBK].i))
        return "A, B hold the read windows";
    int64_t last = (nb - 1) * c->p[P_SOB].i + (nc - 1) * c->p[P_SOC].i + (G - 1) * c->p[P_SOH].i +
                   (cs - 1) * (c->p[P_SOM].i + c->p[P_SON].i);
    if ((int64_t)c->r[R_OUT].len <= last) return "Out holds the write window";
    return NULL;
}

/* Region reg (one batch of w elements) becomes two copies of it, w apart: a second
 * batch with the first one's values. */
static void dup_batch(td_case *c, int reg, int64_t w) {
    size_t bytes = (size_t)w * td_fmt_get(c->r[reg].fmt)->bytes;
    uint8_t *keep = malloc(bytes);
    if (!keep) abort();
    memcpy(keep, c->r[reg].data, bytes);
    uint8_t *d = td_case_alloc(c, reg, (size_t)(2 * w));
    memcpy(d, keep, bytes);
    memcpy(d + bytes, keep, bytes);
    free(keep);
}

/* Offsets beyond 2^31 (gen_far.h): A's second batch at a stride_a_batch of 2^31 + d over
 * a sparse region (each batch's [S, G, K] slab moved whole), as the kernel's
 * pid_b * stride_a_batch, int32 arithmetic in Triton, gets wrong.  A launch of one batch
 * first gets a second one with the first one's A and B (B and Out dense, Out sized for
 * both batches); Out, the output, stays dense. */
static void far(td_producer *p, td_case *c) {
    int64_t G = c->p[P_G].i, S = (int64_t)c->grid[2] / G * c->p[P_CS].i, K = c->p[P_BK].i * c->p[P_NKB].i;
    int64_t wa = (int64_t)seq_span(1, S, G, K, c->p[P_SAB].i, c->p[P_SAS].i, c->p[P_SAH].i, c->p[P_SAK].i);
    int64_t wb = (int64_t)seq_span(1, S, G, K, c->p[P_SBB].i, c->p[P_SBS].i, c->p[P_SBH].i, c->p[P_SBK].i);
    if (c->grid[1] == 1) {
        dup_batch(c, R_A, wa);
        dup_batch(c, R_B, wb);
        c->p[P_SAB].i = wa, c->p[P_SBB].i = wb, c->grid[1] = 2;
        td_case_alloc(c, R_OUT, (size_t)(2 * c->p[P_SOB].i));
    }
    int64_t nb = c->grid[1], sab = c->p[P_SAB].i;
    if (nb > TD_FAR_MAX_ROWS || sab < wa) return;
    int64_t s = td_far_stride(p, nb, wa);
    if (td_far_restride(c, R_A, nb, wa, sab, s)) return;
    c->p[P_SAB].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

static void writes(const td_case *c, td_wset *ws) {
    int64_t cs = c->p[P_CS].i, G = c->p[P_G].i, BM = c->p[P_BM].i, BN = c->p[P_BN].i, nnb = mm_cdiv(cs, BN);
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++) {
                int64_t ch = p2 / G, h = p2 - ch * G, pm = p0 / nnb, pn = p0 % nnb;
                for (int64_t i = 0; i < BM; i++)
                    for (int64_t j = 0; j < BN; j++) {
                        int64_t m = pm * BM + i, n = pn * BN + j;
                        int64_t off = p1 * c->p[P_SOB].i + ch * c->p[P_SOC].i + h * c->p[P_SOH].i +
                                      m * c->p[P_SOM].i + n * c->p[P_SON].i;
                        int64_t a0 = p1 * c->p[P_SAB].i + (ch * cs + m) * c->p[P_SAS].i + h * c->p[P_SAH].i;
                        int64_t b0 = p1 * c->p[P_SBB].i + (ch * cs + n) * c->p[P_SBS].i + h * c->p[P_SBH].i;
                        td_olane l = {.region = R_OUT, .off = (uint64_t)off, .pid = {p0, p1, p2},
                                      .j = (uint64_t)(i * BN + j), .idx = {a0, b0, m, n}};
                        td_wset_add(ws, &l);
                    }
            }
}

static const td_intent intent = {
    .operation = "the batched product C B^T of each chunk: Out[b, c, h, m, n] = sum_k A[b, c*cs + m, h, k] * "
                 "B[b, c*cs + n, h, k] over the K = BK * numKBlocks columns",
    .definition = "Mamba2's chunked batched matmul (mamba_ssm ops/triton/ssd_bmm.py, its reference bmm_chunk_ref: "
                  "out[b, c, g, l, s] = sum_k a[b, c*cs + l, g, k] * b[b, c*cs + s, g, k])",
    TD_SPECS(bcf_intent),
};

#define BCF_COMMON                                                                                                 \
    .file = "bmm_chunk_fwd", .family = "matmul", .nparams = NP, .params = params, .nregions = NR,                 \
    .regions = regions, .sv = TD_SV_IEEE,                                                                           \
    .sv_note = "finite fp16 operands: the exact sum and the binary32 partial sums are finite",                      \
    .error_model = "exact fp16 products, pairwise tree per BK tile, numKBlocks sequential adds",                    \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) |                 \
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |             \
               TD_BC(TD_BC_OFFSET_2_31),                                                                           \
    .gen = gen, .far = far, .check = check_common, .writes = writes

const td_contract td_c_bmm_chunk_fwd_summary = {
    .id = "bmm_chunk_fwd.bmm_chunk_fwd_output_summary_general",
    .io_class = "Realizes_without_Rounding over TileIndex [BM,BN] + lowering (3-D grid)",
    .kind = "exact",
    .formula = "Out[b,c,h,m,n] = sum_{k < BK*numKBlocks} A[b, c*cs+m, h, k] * B[b, c*cs+n, h, k]",
    BCF_COMMON,
    TD_SPECS(bcf),
    .intent = &intent,
};

const td_contract td_c_bmm_chunk_fwd_io = {
    .id = "bmm_chunk_fwd.bmm_chunk_fwd_io_correctness",
    .io_class = "StreamMetaMasked3DKernelIO_2 (bmm_chunk_fwd_IO), outDType .real",
    .kind = "rounding",
    .formula = "Out[l] = bmmStreamSum = sum_t sum_e xs[t][m*BK+e] * ys[t][e*BN+n]  (the .real store is exact)",
    BCF_COMMON,
    TD_SPECS(bcf),
    .intent = &intent,
};
