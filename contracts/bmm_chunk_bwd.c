/* bmm_chunk_bwd: Mamba2's chunked backward product dB = dout^T-contraction with A over
 * the chunk positions (catalogue part 1, src lines 1644-1712).
 *
 *   bmm_chunk_bwd_output_summary_general (hBCS : 0 < BCS) (hInj : dbOffset injective)
 *     (hmlt : every row of the tile < BCS*numCSBlocks) (hmlt' : every row < chunk_size)
 *     (hnlt : every column < K) (hundef): lowering exists and Db[b, c*cs + m, h, n] =
 *     dbCell = sum_{s < BCS*numCSBlocks} Dout[b, c, h, s, m] * A[b, c*cs + s, h, n]
 *   bmm_chunk_bwd_io_correctness (hBCS) (hOutInj : forall pids, dbOffset injective):
 *     bmm_chunk_bwd_IO |=[R] fun pid0 _ _ _ xs ys l => bbwdStreamSum = sum_t sum_e
 *     (if row < chunk_size then xs t (..) else 0) * (if col < K then ys t (..) else 0),
 *     StreamMetaMasked3DKernelIO_2 (nMeta = 0, outDType .real), T = numCSBlocks,
 *     read1 = bbwdDoutAddr, read2 = bbwdAAddr, write = bbwdDbAddr, mask1 = mask2 = True,
 *     writeMask = bbwdWriteOk: row < BCS*numCSBlocks & col < K.
 *   (b = pid1, c = pid2 // ngroups, h = the rest, pidM = pid0 / cdiv(K, BN), pidN =
 *    pid0 % cdiv(K, BN); Dout[b,c,h,s,m] at b*SDB + c*SDC + h*SDH + s*SDM + m*SDN
 *    (the kernel reads dout transposed: offs_m * stride_dout_csize_n + offs_cs *
 *    stride_dout_csize_m), A[b,t,h,n] at b*SAB + t*SAS + h*SAH + n*SAK, Db alike.)
 *
 * Kernel (bench/tritonbench_g/bmm_chunk_bwd/bmm_chunk_bwd.py, _bmm_chunk_bwd_kernel)
 * with HAS_RESIDUAL = False, as the Lean surface bbwd_matmul_surface transcribes it:
 * the reduction extent is the surface's CSL = BCS*numCSBlocks, the Python's
 * chunk_size_limit = min(chunk_size, seqlen - pid_c*chunk_size).  The two agree when
 * every chunk is whole (CSL = chunk_size, several chunks) or when there is one chunk
 * with seqlen = CSL < chunk_size (a partial chunk: rows CSL.. are neither reduced nor
 * stored); the generator draws both, and for the IO contract also one chunk with
 * CSL > chunk_size (the surface reads dout rows past chunk_size as 0 and A's rows up
 * to CSL; the Python never launches it, the contract covers it).  The K loop
 * `acc += tl.dot(dout, a)` with the masks above, `acc.to(db dtype)`, store masked by
 * row < CSL & col < K.  dbCell / bbwdStreamSum in BmmChunkBwd.lean; checked.
 * The summary's hmlt/hmlt'/hnlt for every program need whole tiles inside
 * min(CSL, chunk_size) rows and K columns: the generator gives it CSL >= chunk_size,
 * chunk_size a multiple of BM, K a multiple of BN.
 *
 * Dtypes: A, Dout fp16 (dot_dtype fp16: exact products), Db binary32 (the `out`
 * argument may be any dtype; the contract's outDType .real needs an exact store; an
 * fp32 A would mean TF32 dots).  Layouts: A / Db as [batch, seqlen, ngroups, K]
 * contiguous or seqlen-contiguous, Dout [batch, nchunks, ngroups, csize_m, csize_n].
 * Error model: contracts/matmul_common.h (exact products, pairwise tree per BCS tile,
 * numCSBlocks sequential adds; a row past chunk_size sums exact zeros).
 * Special values: finite fp16 operands: everything finite.
 */
#include "matmul_common.h"

/* the IO's order; the summary's differs (K last), see params_sum and the maps */
enum { Q_CS, Q_K, Q_G, Q_SAB, Q_SAS, Q_SAH, Q_SAK, Q_SDB, Q_SDC, Q_SDH, Q_SDM, Q_SDN, Q_SOB, Q_SOS, Q_SOH, Q_SOK,
       Q_BM, Q_BN, Q_BCS, Q_NCS, NQ };
enum { R_A, R_DOUT, R_DB, NR };
#define NP NQ
/* position of each logical parameter in the summary's list
 * (chunk_size ngroups SAB SAS SAH SAK SDB SDC SDH SDM SDN SOB SOS SOH SOK BM BN BCS numCSBlocks K) */
static const int pos_sum[NQ] = {0, 19, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18};
static const int pos_io[NQ] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
static inline int64_t qv(const td_case *c, const int *pos, int q) { return c->p[pos[q]].i; }

#define TD_SPEC_FILE "bmm_chunk_bwd.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_io[NP] = {
    {"chunk_size", TD_P_INT}, {"K", TD_P_INT},   {"ngroups", TD_P_INT}, {"SAB", TD_P_INT}, {"SAS", TD_P_INT},
    {"SAH", TD_P_INT},        {"SAK", TD_P_INT}, {"SDB", TD_P_INT},     {"SDC", TD_P_INT}, {"SDH", TD_P_INT},
    {"SDM", TD_P_INT},        {"SDN", TD_P_INT}, {"SOB", TD_P_INT},     {"SOS", TD_P_INT}, {"SOH", TD_P_INT},
    {"SOK", TD_P_INT},        {"BM", TD_P_INT},  {"BN", TD_P_INT},      {"BCS", TD_P_INT}, {"numCSBlocks", TD_P_INT}};
static const td_param_decl params_sum[NP] = {
    {"chunk_size", TD_P_INT}, {"ngroups", TD_P_INT}, {"SAB", TD_P_INT}, {"SAS", TD_P_INT}, {"SAH", TD_P_INT},
    {"SAK", TD_P_INT},        {"SDB", TD_P_INT},     {"SDC", TD_P_INT}, {"SDH", TD_P_INT}, {"SDM", TD_P_INT},
    {"SDN", TD_P_INT},        {"SOB", TD_P_INT},     {"SOS", TD_P_INT}, {"SOH", TD_P_INT}, {"SOK", TD_P_INT},
    {"BM", TD_P_INT},         {"BN", TD_P_INT},      {"BCS", TD_P_INT}, {"numCSBlocks", TD_P_INT}, {"K", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"A", TD_F16, TD_R_IN}, {"Dout", TD_F16, TD_R_IN}, {"Db", TD_F32, TD_R_OUT}};

/* [batch, S, G, K] strides: contiguous or seqlen-contiguous; pad widens the inner dim,
 * which also spans at least a tile (BM rows / BN columns), so that the offsets of a
 * program's whole tile are distinct (hOutInj quantifies over the tile's every lane) */
static void seq_layout(td_producer *p, int64_t S, int64_t G, int64_t K, int64_t BM, int64_t BN, int64_t pad,
                       int64_t *sb, int64_t *ss, int64_t *sh, int64_t *sk) {
    if (td_prod_u32(p, 0, 2) == 0) *ss = 1, *sk = mm_max(S, BM) + pad, *sh = K * *sk, *sb = G * *sh;
    else *sk = 1, *sh = mm_max(K, BN) + pad, *ss = G * *sh, *sb = S * *ss;
}

/* the rows of A / Db the launch touches (seqlen), the rows of a Dout block (csize_m) */
static void extents(const td_case *c, const int *pos, int64_t *nb, int64_t *nc, int64_t *S, int64_t *DM) {
    int64_t cs = qv(c, pos, Q_CS), G = qv(c, pos, Q_G), csl = qv(c, pos, Q_BCS) * qv(c, pos, Q_NCS);
    *nb = c->grid[1], *nc = G ? c->grid[2] / G : 0;
    *S = mm_max(*nc * cs, (*nc - 1) * cs + csl);
    *DM = mm_max(cs, csl);
}

static void gen_with(td_producer *p, td_case *c, const int *pos, int summary) {
    int64_t v[NQ];
    int64_t BM = td_gen_pow2(p, 4, 5), BN = td_gen_pow2(p, 4, 5), BCS = td_gen_pow2(p, 4, 5);
    int64_t ncs = td_prod_u32(p, 1, 2), csl = BCS * ncs;
    uint64_t cls = 0;
    int64_t K = summary ? BN * td_prod_u32(p, 1, 2) : (int64_t)td_gen_count(p, (uint64_t)BN, 48, &cls);
    if (summary) cls |= TD_BC(TD_BC_EXACT_MULTIPLE); /* the summary's whole tiles */
    int64_t cs, nc = 1;
    int mode = td_prod_u32(p, 0, summary ? 1 : 2);
    if (mode == 0) { /* whole chunks: CSL = chunk_size */
        cs = csl, nc = td_prod_u32(p, 1, 2);
    } else if (summary) { /* one chunk, CSL > chunk_size, whole row tiles */
        cs = BM;
        if (cs >= csl) cs = csl, mode = 0;
        cls |= TD_BC(TD_BC_META_EXTREME);
    } else if (mode == 1) { /* one partial chunk: seqlen = CSL < chunk_size */
        cs = csl + td_prod_u32(p, 1, (uint32_t)BM);
        cls |= TD_BC(TD_BC_TAIL);
    } else { /* one chunk, CSL > chunk_size: dout rows past chunk_size read as 0 */
        cs = td_prod_u32(p, 1, (uint32_t)csl);
        cls |= TD_BC(TD_BC_META_EXTREME);
    }
    if (summary)
        while (cs % BM) BM /= 2; /* whole row tiles */
    int64_t nb = td_prod_u32(p, 1, 2), G = td_prod_u32(p, 1, 2);
    while (nb * nc * G * mm_max(cs, csl) * K * csl > (1 << 16) && (G > 1 || nc > 1 || nb > 1)) {
        if (nb > 1) nb--;
        else if (nc > 1) nc--;
        else G--;
    }
    int64_t S = mm_max(nc * cs, (nc - 1) * cs + csl), DM = mm_max(cs, csl);
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 3) : 0;
    if (pad) cls |= TD_BC(TD_BC_STRIDE_GT_ROW);
    seq_layout(p, S, G, K, BM, BN, pad, &v[Q_SAB], &v[Q_SAS], &v[Q_SAH], &v[Q_SAK]);
    seq_layout(p, S, G, K, BM, BN, pad, &v[Q_SOB], &v[Q_SOS], &v[Q_SOH], &v[Q_SOK]);
    if (td_prod_u32(p, 0, 2) == 0) v[Q_SDM] = 1, v[Q_SDN] = DM + pad, v[Q_SDH] = cs * v[Q_SDN]; /* csize_m contiguous */
    else v[Q_SDN] = 1, v[Q_SDM] = cs + pad, v[Q_SDH] = DM * v[Q_SDM];
    v[Q_SDC] = G * v[Q_SDH], v[Q_SDB] = nc * v[Q_SDC];
    v[Q_CS] = cs, v[Q_K] = K, v[Q_G] = G, v[Q_BM] = BM, v[Q_BN] = BN, v[Q_BCS] = BCS, v[Q_NCS] = ncs;
    for (int q = 0; q < NQ; q++) c->p[pos[q]].i = v[q];
    c->grid[0] = (uint32_t)(mm_cdiv(cs, BM) * mm_cdiv(K, BN)), c->grid[1] = (uint32_t)nb, c->grid[2] = (uint32_t)(nc * G);
    if (ncs > 1) cls |= TD_BC(TD_BC_MULTI_TILE);
    if (c->grid[0] * c->grid[1] * c->grid[2] == 1) cls |= TD_BC(TD_BC_ONE_PROGRAM);
    c->classes |= cls;
    td_case_alloc(c, R_A, (size_t)(nb * v[Q_SAB]));
    td_case_alloc(c, R_DOUT, (size_t)(nb * v[Q_SDB]));
    td_case_alloc(c, R_DB, (size_t)(nb * v[Q_SOB]));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, mm_pick_bound(p, TD_F16));
    for (int64_t b = 0; b < nb; b++)
        for (int64_t h = 0; h < G; h++) {
            for (int64_t s = 0; s < S; s++)
                for (int64_t n = 0; n < K; n++)
                    td_set(c, R_A, (size_t)(b * v[Q_SAB] + s * v[Q_SAS] + h * v[Q_SAH] + n * v[Q_SAK]),
                           td_vgen_value(&g, TD_F16));
            for (int64_t ch = 0; ch < nc; ch++)
                for (int64_t s = 0; s < DM; s++)
                    for (int64_t m = 0; m < cs; m++)
                        td_set(c, R_DOUT, (size_t)(b * v[Q_SDB] + ch * v[Q_SDC] + h * v[Q_SDH] + s * v[Q_SDM] + m * v[Q_SDN]),
                               td_vgen_value(&g, TD_F16));
        }
}
static void gen_sum(td_producer *p, td_case *c) { gen_with(p, c, pos_sum, 1); }
static void gen_io(td_producer *p, td_case *c) { gen_with(p, c, pos_io, 0); }

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
 * a sparse region (its whole batch slab moved), as the kernel's pid_b * stride_a_batch,
 * int32 arithmetic in Triton, gets wrong.  A launch of one batch first gets a second
 * one with the first one's A and Dout (Db sized for both); Db, the output, stays dense. */
static void far_with(td_producer *p, td_case *c, const int *pos) {
    int64_t sab = qv(c, pos, Q_SAB);
    if (c->grid[1] == 1) {
        dup_batch(c, R_A, sab);
        dup_batch(c, R_DOUT, qv(c, pos, Q_SDB));
        td_case_alloc(c, R_DB, (size_t)(2 * qv(c, pos, Q_SOB)));
        c->grid[1] = 2;
    }
    int64_t nb = c->grid[1];
    if (nb > TD_FAR_MAX_ROWS || sab <= 0) return;
    int64_t s = td_far_stride(p, nb, sab);
    if (td_far_restride(c, R_A, nb, sab, sab, s)) return;
    c->p[pos[Q_SAB]].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}
static void far_sum(td_producer *p, td_case *c) { far_with(p, c, pos_sum); }
static void far_io(td_producer *p, td_case *c) { far_with(p, c, pos_io); }

static const char *check_with(const td_case *c, const int *pos, int summary) {
    for (int q = 0; q < NQ; q++)
        if (qv(c, pos, q) < 0) return "parameters are Nat";
    int64_t cs = qv(c, pos, Q_CS), K = qv(c, pos, Q_K), G = qv(c, pos, Q_G), BM = qv(c, pos, Q_BM);
    int64_t BN = qv(c, pos, Q_BN), BCS = qv(c, pos, Q_BCS), csl = BCS * qv(c, pos, Q_NCS);
    if (BCS <= 0) return "hBCS: 0 < BCS";
    if (BM <= 0 || BN <= 0 || G <= 0 || cs <= 0 || K <= 0) return "BM, BN, ngroups, chunk_size, K > 0";
    if ((int64_t)c->grid[0] != mm_cdiv(cs, BM) * mm_cdiv(K, BN) || c->grid[2] % G)
        return "grid = (cdiv(chunk_size, BM) * cdiv(K, BN), batch, nchunks * ngroups)";
    int64_t nb, nc, S, DM;
    extents(c, pos, &nb, &nc, &S, &DM);
    if (nc > 1 && csl != cs)
        return "CSL (the surface's chunk_size_limit) = chunk_size when there are several chunks";
    if (!mm_tile_injective(BM, BN, qv(c, pos, Q_SOS), qv(c, pos, Q_SOK))) return "hOutInj / hInj: dbOffset injective";
    if (summary) {
        if (mm_cdiv(cs, BM) * BM > mm_min(cs, csl)) return "hmlt / hmlt': every row of every tile < min(CSL, chunk_size)";
        if (K % BN) return "hnlt: every column of every tile < K";
    }
    int64_t alast = (nb - 1) * qv(c, pos, Q_SAB) + (S - 1) * qv(c, pos, Q_SAS) + (G - 1) * qv(c, pos, Q_SAH) +
                    (K - 1) * qv(c, pos, Q_SAK);
    int64_t olast = (nb - 1) * qv(c, pos, Q_SOB) + (S - 1) * qv(c, pos, Q_SOS) + (G - 1) * qv(c, pos, Q_SOH) +
                    (K - 1) * qv(c, pos, Q_SOK);
    int64_t dlast = (nb - 1) * qv(c, pos, Q_SDB) + (nc - 1) * qv(c, pos, Q_SDC) + (G - 1) * qv(c, pos, Q_SDH) +
                    (DM - 1) * qv(c, pos, Q_SDM) + (cs - 1) * qv(c, pos, Q_SDN);
    if ((int64_t)c->r[R_A].len <= alast || (int64_t)c->r[R_DB].len <= olast || (int64_t)c->r[R_DOUT].len <= dlast)
        return "A, Dout, Db hold the read and write windows";
    return NULL;
}
static const char *check_sum(const td_case *c) { return check_with(c, pos_sum, 1); }
static const char *check_io(const td_case *c) { return check_with(c, pos_io, 0); }

static void writes_with(const td_case *c, td_wset *ws, const int *pos) {
    int64_t cs = qv(c, pos, Q_CS), K = qv(c, pos, Q_K), G = qv(c, pos, Q_G), BM = qv(c, pos, Q_BM);
    int64_t BN = qv(c, pos, Q_BN), csl = qv(c, pos, Q_BCS) * qv(c, pos, Q_NCS), nnb = mm_cdiv(K, BN);
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++) {
                int64_t ch = p2 / G, h = p2 - ch * G, pm = p0 / nnb, pn = p0 % nnb;
                for (int64_t i = 0; i < BM; i++)
                    for (int64_t j = 0; j < BN; j++) {
                        int64_t m = pm * BM + i, n = pn * BN + j;
                        if (!(m < csl && n < K)) continue; /* bbwdWriteOk */
                        int64_t off = p1 * qv(c, pos, Q_SOB) + (ch * cs + m) * qv(c, pos, Q_SOS) +
                                      h * qv(c, pos, Q_SOH) + n * qv(c, pos, Q_SOK);
                        /* the dout row of lane m (0 past chunk_size: the load mask) and A's column n */
                        int64_t d0 = m < cs ? p1 * qv(c, pos, Q_SDB) + ch * qv(c, pos, Q_SDC) + h * qv(c, pos, Q_SDH) +
                                                  m * qv(c, pos, Q_SDN)
                                            : -1;
                        int64_t a0 = p1 * qv(c, pos, Q_SAB) + ch * cs * qv(c, pos, Q_SAS) + h * qv(c, pos, Q_SAH) +
                                     n * qv(c, pos, Q_SAK);
                        td_olane l = {.region = R_DB, .off = (uint64_t)off, .pid = {p0, p1, p2},
                                      .j = (uint64_t)(i * BN + j), .idx = {d0, a0, m, n}};
                        td_wset_add(ws, &l);
                    }
            }
}
static void writes_sum(const td_case *c, td_wset *ws) { writes_with(c, ws, pos_sum); }
static void writes_io(const td_case *c, td_wset *ws) { writes_with(c, ws, pos_io); }

/* Mamba's chunk_size_limit = min(chunk_size, seqlen - c*chunk_size) never exceeds the
 * chunk; a launch with BCS*numCSBlocks > chunk_size reduces over rows past the chunk. */
static const char *gap_with(const td_case *c, const int *pos) {
    return qv(c, pos, Q_BCS) * qv(c, pos, Q_NCS) > qv(c, pos, Q_CS)
               ? "BCS*numCSBlocks > chunk_size: the reduction runs past the chunk's rows (the chunk_size_limit of "
                 "the operation is at most chunk_size)"
               : NULL;
}
static const char *gap_sum(const td_case *c) { return gap_with(c, pos_sum); }
static const char *gap_io(const td_case *c) { return gap_with(c, pos_io); }

#define BCB_INTENT(spec, gapfn)                                                                                 \
    {.operation = "the gradient of the chunked product C B^T with respect to B: Db[b, c*cs + m, h, n] = sum_s "    \
                  "Dout[b, c, h, s, m] * A[b, c*cs + s, h, n] over the chunk's rows s",                          \
     .definition = "the derivative of Mamba2's chunked batched matmul (mamba_ssm ops/triton/ssd_bmm.py, "          \
                   "bmm_chunk_ref: out[b, c, g, l, s] = sum_k a[b, c*cs + l, g, k] * b[b, c*cs + s, g, k])",      \
     TD_SPECS(spec), .gap = gapfn}
static const td_intent intent_sum = BCB_INTENT(bcb_sum_intent, gap_sum);
static const td_intent intent_io = BCB_INTENT(bcb_io_intent, gap_io);

#define BCB_COMMON                                                                                                 \
    .file = "bmm_chunk_bwd", .family = "matmul", .nparams = NP, .nregions = NR, .regions = regions,               \
    .sv = TD_SV_IEEE, .sv_note = "finite fp16 operands: the exact sum and the binary32 partial sums are finite",    \
    .error_model = "exact fp16 products, pairwise tree per BCS tile, numCSBlocks sequential adds"

const td_contract td_c_bmm_chunk_bwd_summary = {
    .id = "bmm_chunk_bwd.bmm_chunk_bwd_output_summary_general",
    .io_class = "Realizes_without_Rounding over TileIndex [BM,BN] + lowering (3-D grid)",
    .kind = "exact",
    .formula = "Db[b, c*cs+m, h, n] = sum_{s < BCS*numCSBlocks} Dout[b,c,h,s,m] * A[b, c*cs+s, h, n]",
    .params = params_sum, .gen = gen_sum, .far = far_sum, .check = check_sum, .writes = writes_sum,
    /* the summary speaks of whole [BM, BN] tiles (K and chunk_size multiples of them):
     * no tails, no single lane, no BLOCK >> n */
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_VALUES_SPECIAL) |
               TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31),
    BCB_COMMON,
    TD_SPECS(bcb_sum),
    .intent = &intent_sum,
};

const td_contract td_c_bmm_chunk_bwd_io = {
    .id = "bmm_chunk_bwd.bmm_chunk_bwd_io_correctness",
    .io_class = "StreamMetaMasked3DKernelIO_2 (bmm_chunk_bwd_IO), outDType .real",
    .kind = "rounding",
    .formula = "Db[l] = bbwdStreamSum = sum_t sum_e (row < cs ? xs : 0) * (col < K ? ys : 0)  (exact .real store)",
    .params = params_io, .gen = gen_io, .far = far_io, .check = check_io, .writes = writes_io,
    .classes = TD_BCLASSES_TILED | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_OFFSET_2_31),
    BCB_COMMON,
    TD_SPECS(bcb_io),
    .intent = &intent_io,
};
