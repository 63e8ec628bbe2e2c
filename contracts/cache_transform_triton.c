/* cache_transform_triton  (catalogue part 1): gathers rotary cos/sin cache rows by
 * position into per-token (prefill) or per-sequence (decoding) outputs (ColossalAI's
 * get_xine_cache).  GatherMasked2DKernelIO_2x2, spec (xs, ys): a pure gather.
 *
 *   decoding_cache_correctness (decodingCacheIO; hRegion: cos_output != sin_output)
 *     program (s, hb), lane i, hid = hb*BLOCK_H + i; active: s < NUM_SEQS and hid < HIDDEN_DIM
 *     cos_output[s*cache_stride + hid*hidden_stride] = cos_cache[lengths[s]*cache_stride + hid*hidden_stride]
 *     (sin likewise)
 *   prefill_cache_correctness (prefillCacheIO; hRegion, hN: 0 < N_ELEMENTS)
 *     program (p0, p1), tok = p0*BLOCK_SIZE + p1, lane i < HIDDEN_DIM; active: tok < total_length
 *     ori(tok) = tok - max({cumsum_lengths[k] : k < N_ELEMENTS, cumsum_lengths[k] <= tok} U {0})
 *     cos_output[tok*cache_stride + i*hidden_stride] = cos_cache[ori(tok)*cache_stride + i*hidden_stride]
 *
 * Checked against VeriTile's CacheTransformTriton.lean and cache_transform_triton.py.
 * Decoding: the theorem is about `decoding_cache_one_seq_block`, the Lean slice with one
 * program per (sequence, hidden block), not the Python kernel's BLOCK_SIZE rows per
 * program; its lengths region holds the source row itself (the Python host passes
 * lengths - 1, the last position), so the generator draws rows in [0, cache rows) with
 * repeats (td_gen_indices: sequences at one position, the first and last rows), and
 * launches surplus programs in both axes (s >= NUM_SEQS, hidden blocks past HIDDEN_DIM)
 * that the masks switch off.  Prefill: the named `prefillOriSeqIdxOfIds` is the
 * kernel's `idx - tl.max(tl.where(cumsum_lens <= idx, cumsum_lens, 0))` over all
 * N_ELEMENTS cells (no mask on that load): with cumsum_lengths the inclusive cumsum of
 * the lengths (torch.cumsum), ori(tok) is tok's position inside its sequence.  The Python
 * host passes N_ELEMENTS = next_power_of_2(num_seqs) and the kernel reads all of them,
 * so the region holds N_ELEMENTS cells; the generator pads with total_length (empty
 * trailing sequences: a cumsum that never passes a live token).  The outputs use the
 * caches' strides (as the kernel does); td_gen_layout draws them.
 * Error model: a gather; tolerance 0 for every implementation (nothing is rounded).
 * Special values: every finite binary32 is drawn; no arithmetic, so none arise. */
#include "kvcopy_common.h"

enum { PD_CS, PD_HS, PD_HID, PD_NSEQ, PD_BH, NPD };        /* decoding */
enum { PP_CS, PP_HS, PP_TOTAL, PP_HID, PP_N, PP_BS, NPP }; /* prefill */
enum { R_COS, R_SIN, R_IDX, R_COUT, R_SOUT, NR };

/* ori(tok) of the prefill spec, from the region's N_ELEMENTS cells */
static inline int64_t ct_ori(const td_case *c, int64_t tok) {
    int64_t m = 0;
    for (int64_t k = 0; k < c->p[PP_N].i; k++) {
        int64_t v = td_geti(c, R_IDX, (size_t)k);
        if (v <= tok && v > m) m = v;
    }
    return tok - m;
}

#define TD_SPEC_FILE "cache_transform_triton.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_dec[NPD] = {{"cache_stride", TD_P_INT},
                                              {"hidden_stride", TD_P_INT},
                                              {"HIDDEN_DIM", TD_P_INT},
                                              {"NUM_SEQS", TD_P_INT},
                                              {"BLOCK_H", TD_P_INT}};
static const td_param_decl params_pre[NPP] = {{"cache_stride", TD_P_INT}, {"hidden_stride", TD_P_INT},
                                              {"total_length", TD_P_INT}, {"HIDDEN_DIM", TD_P_INT},
                                              {"N_ELEMENTS", TD_P_INT},   {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl regions[NR] = {{"cos_cache", TD_F32, TD_R_IN},
                                           {"sin_cache", TD_F32, TD_R_IN},
                                           {"lengths", TD_I64, TD_R_META},
                                           {"cos_output", TD_F32, TD_R_OUT},
                                           {"sin_output", TD_F32, TD_R_OUT}};
static const td_region_decl regions_pre[NR] = {{"cos_cache", TD_F32, TD_R_IN},
                                               {"sin_cache", TD_F32, TD_R_IN},
                                               {"cumsum_lengths", TD_I64, TD_R_META},
                                               {"cos_output", TD_F32, TD_R_OUT},
                                               {"sin_output", TD_F32, TD_R_OUT}};

/* caches of `rows` rows and outputs of `orows` rows, one (cache_stride, hidden_stride) */
static void ct_regions(td_producer *p, td_case *c, td_vgen *g, int64_t rows, int64_t orows, int64_t hid, int p_cs) {
    int64_t n[2] = {rows > orows ? rows : orows, hid}, s[2];
    td_gen_layout(p, 2, n, s, 0, &c->classes);
    c->p[p_cs].i = s[0], c->p[p_cs + 1].i = s[1];
    int64_t cn[2] = {rows, hid}, on[2] = {orows, hid};
    for (int r = R_COS; r <= R_SIN; r++) {
        td_case_alloc(c, r, (size_t)(kv_max_off(2, cn, s) + 1));
        td_vgen_fill(g, c, r);
    }
    size_t olen = (size_t)(orows > 0 ? kv_max_off(2, on, s) + 1 + td_prod_u32(p, 0, 8) : 1);
    td_case_alloc(c, R_COUT, olen);
    td_case_alloc(c, R_SOUT, olen);
}

static void gen_dec(td_producer *p, td_case *c) {
    int64_t hid, bh, nseq = td_prod_u32(p, 0, 3) == 0 ? 1 : (int64_t)td_prod_u32(p, 1, 16);
    kv_dim_block(p, 40, &hid, &bh, &c->classes);
    if (td_prod_u32(p, 0, 2) == 0) bh = td_gen_pow2(p, 0, 5); /* a block narrower than the row: several */
    int64_t rows = kv_cache_rows(p, 1 + (int64_t)td_prod_u32(p, 0, 24)), idx[16];
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, KV_VALUE_BOUND);
    td_gen_indices(p, &g.rng, idx, nseq, rows, &c->classes);
    c->p[PD_HID].i = hid, c->p[PD_NSEQ].i = nseq, c->p[PD_BH].i = bh;
    ct_regions(p, c, &g, rows, nseq, hid, PD_CS);
    kv_store_meta(c, R_IDX, idx, nseq, 0);
    int64_t hb = (hid + bh - 1) / bh, extra = td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 3) : 0;
    c->grid[0] = (uint32_t)(nseq + extra), c->grid[1] = (uint32_t)(hb + (td_prod_u32(p, 0, 4) == 0)), c->grid[2] = 1;
    if (extra || c->grid[1] > hb) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    if (hb > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (c->grid[0] * c->grid[1] == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}

static void gen_pre(td_producer *p, td_case *c) {
    int nb = (int)td_prod_u32(p, 1, 6);
    int64_t bs = td_gen_pow2(p, 0, 4), hid = td_gen_pow2(p, 0, 5), lens[6], starts[7], cum[8];
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, KV_VALUE_BOUND);
    int64_t total = td_gen_ragged(p, &g.rng, lens, starts, nb, 0, 20, bs, &c->classes), maxlen = 1;
    int64_t N = 1;
    while (N < nb) N *= 2;
    for (int b = 0; b < N; b++) cum[b] = b < nb ? starts[b + 1] : total; /* inclusive cumsum, padded */
    for (int b = 0; b < nb; b++) maxlen = lens[b] > maxlen ? lens[b] : maxlen;
    int64_t rows = kv_cache_rows(p, maxlen);
    const int64_t v[] = {0, 0, total, hid, N, bs};
    for (int i = PP_TOTAL; i < NPP; i++) c->p[i].i = v[i];
    ct_regions(p, c, &g, rows, total, hid, PP_CS);
    kv_store_meta(c, R_IDX, cum, N, 0);
    c->grid[0] = (uint32_t)(total > 0 ? (total + bs - 1) / bs : 1), c->grid[1] = (uint32_t)bs, c->grid[2] = 1;
    if (total > 0) td_gen_mark_shape((uint64_t)total, (uint64_t)bs, c->grid[0], &c->classes); /* tokens vs BLOCK_SIZE */
    else c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    if (total * hid != 1) c->classes &= ~TD_BC(TD_BC_SINGLE_LANE);
}

/* Offsets beyond 2^31 (decoding): one sequence (NUM_SEQS = 1: its output row 0 stays
 * near, the surplus programs are masked) reading cache row 1 + lengths[0] % 3 (old row
 * lengths[0]'s cells) at a far cache_stride (td_far_stride: ori * cache_stride past
 * 2^31, the product the kernel forms from its int32 position) over sparse caches.  The
 * prefill writes token idx at idx * cache_stride >= ori * cache_stride: a far cache row
 * is a far output row there (far_pre below moves both).  The row is odd: an
 * int32 product to * stride then wraps negative for either stride td_far_stride draws
 * (row 2 at stride 2^31 + d wraps to 2d, a silent wrong read rather than a fault). */
static void far_dec(td_producer *p, td_case *c) {
    int64_t hid = c->p[PD_HID].i, hs = c->p[PD_HS].i, cs = c->p[PD_CS].i;
    if (c->p[PD_NSEQ].i < 1 || hid < 1) return;
    int64_t ori = td_geti(c, R_IDX, 0), to = ori % 2 ? 3 : 1, w = (hid - 1) * hs + 1;
    int64_t s = td_far_stride(p, to + 1, w);
    td_region old[2] = {c->r[R_COS], c->r[R_SIN]};
    for (int o = 0; o < 2; o++) {
        c->r[R_COS + o].data = NULL, c->r[R_COS + o].mapped = 0, c->r[R_COS + o].len = 0;
        if (!td_case_alloc_sparse(c, R_COS + o, (size_t)(to * s + w))) { /* no address space: as it was */
            if (o) td_region_release(&c->r[R_COS]);
            c->r[R_COS] = old[0], c->r[R_SIN] = old[1];
            return;
        }
    }
    for (int o = 0; o < 2; o++) {
        size_t eb = td_fmt_get(old[o].fmt)->bytes;
        memcpy((uint8_t *)c->r[R_COS + o].data + (size_t)(to * s) * eb,
               (const uint8_t *)old[o].data + (size_t)(ori * cs) * eb, (size_t)w * eb);
        td_region_release(&old[o]);
    }
    c->p[PD_CS].i = s, c->p[PD_NSEQ].i = 1;
    td_seti(c, R_IDX, 0, to);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* Offsets beyond 2^31 (prefill): the first R = min(total_length, TD_FAR_MAX_ROWS) tokens
 * (the cumsum cells clamped to R: a kept token's ori is unchanged, the cells stay a
 * nondecreasing cumsum), the output rows tok < R and the cache rows ori(tok) < Rc at
 * one far cache_stride (td_far_stride over R rows: token R - 1's output row starts past
 * 2^31, the idx * cache_stride the kernel forms in int32; a cache row ori <= tok is
 * far when its token sits in a sequence that long).  Caches and outputs move together
 * (one stride addresses them), the outputs as sparse outputs. */
#define CT_SHAPE_CLASSES                                                                                         \
    (TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) |       \
     TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) |        \
     TD_BC(TD_BC_FULLY_MASKED))
static void far_pre(td_producer *p, td_case *c) {
    int64_t total = c->p[PP_TOTAL].i, hid = c->p[PP_HID].i, cs = c->p[PP_CS].i, bs = c->p[PP_BS].i;
    int64_t R = total < TD_FAR_MAX_ROWS ? total : TD_FAR_MAX_ROWS, w = (hid - 1) * c->p[PP_HS].i + 1, Rc = 1;
    if (R < 2 || hid < 1) return;
    for (int64_t k = 0; k < c->p[PP_N].i; k++)
        if (td_geti(c, R_IDX, (size_t)k) > R) td_seti(c, R_IDX, (size_t)k, R);
    for (int64_t t = 0; t < R; t++) Rc = ct_ori(c, t) + 1 > Rc ? ct_ori(c, t) + 1 : Rc;
    int64_t S = td_far_stride(p, R, w);
    static const int caches[2] = {R_COS, R_SIN}, outs[2] = {R_COUT, R_SOUT};
    if (td_far_restride_all(c, caches, 2, Rc, w, cs, S)) return; /* no address space: the cells clamped only */
    if (td_far_restride_all(c, outs, 2, R, w, cs, S)) {
        (void)td_far_restride_all(c, caches, 2, Rc, w, S, cs); /* back at cache_stride (a smaller map: fits) */
        return;
    }
    c->p[PP_TOTAL].i = R, c->p[PP_CS].i = S;
    c->grid[0] = (uint32_t)((R + bs - 1) / bs);
    c->classes &= ~CT_SHAPE_CLASSES;
    td_gen_mark_shape((uint64_t)R, (uint64_t)bs, c->grid[0], &c->classes);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* the regions hold every row read and written (strides Nat, layout injective) */
static const char *ct_fits(const td_case *c, int64_t rows, int64_t orows, int64_t hid, int p_cs) {
    int64_t cn[2] = {rows, hid}, on[2] = {orows, hid}, s[2] = {c->p[p_cs].i, c->p[p_cs + 1].i};
    if (hid > 1 && !kv_injective2(orows > 1 ? 2 : 1, hid, s[0], s[1])) return "the output rows' offsets are injective";
    const char *e;
    if ((e = kv_check_fits(c, R_COS, 2, cn, s)) || (e = kv_check_fits(c, R_SIN, 2, cn, s)) ||
        (e = kv_check_fits(c, R_COUT, 2, on, s)))
        return e;
    return kv_check_fits(c, R_SOUT, 2, on, s);
}

static const char *check_dec(const td_case *c) {
    int64_t nseq = c->p[PD_NSEQ].i, hid = c->p[PD_HID].i, bh = c->p[PD_BH].i, rows = 1;
    if (bh < 1 || hid < 0 || nseq < 0) return "BLOCK_H >= 1, HIDDEN_DIM and NUM_SEQS Nat";
    if ((int64_t)c->grid[0] < nseq || (int64_t)c->grid[1] * bh < hid) return "the grid covers every (sequence, dim)";
    if ((int64_t)c->r[R_IDX].len < nseq) return "lengths holds NUM_SEQS entries";
    for (int64_t s = 0; s < nseq; s++) {
        int64_t v = td_geti(c, R_IDX, (size_t)s);
        if (v < 0) return "lengths are Nat";
        rows = v + 1 > rows ? v + 1 : rows;
    }
    return ct_fits(c, rows, nseq, hid, PD_CS);
}

static const char *check_pre(const td_case *c) {
    int64_t N = c->p[PP_N].i, total = c->p[PP_TOTAL].i, bs = c->p[PP_BS].i, hid = c->p[PP_HID].i, rows = 1;
    if (N <= 0) return "hN: 0 < N_ELEMENTS";
    if (bs < 1 || total < 0 || hid < 0) return "BLOCK_SIZE >= 1, total_length and HIDDEN_DIM Nat";
    if ((int64_t)c->r[R_IDX].len < N) return "cumsum_lengths holds N_ELEMENTS cells (all are read)";
    if ((int64_t)c->grid[1] != bs || (int64_t)c->grid[0] * bs < total) return "grid = (cdiv(total, BS), BS)";
    for (int64_t k = 0; k < N; k++) { /* the host's domain: torch.cumsum of Nat lengths */
        if (td_geti(c, R_IDX, (size_t)k) < 0) return "cumsum_lengths are Nat";
        if (k && td_geti(c, R_IDX, (size_t)k) < td_geti(c, R_IDX, (size_t)k - 1))
            return "cumsum_lengths is an inclusive cumsum (nondecreasing)";
    }
    for (int64_t t = 0; t < total; t++) rows = ct_ori(c, t) + 1 > rows ? ct_ori(c, t) + 1 : rows;
    return ct_fits(c, rows, total, hid, PP_CS);
}

static void ct_lane(td_wset *ws, uint32_t p0, uint32_t p1, int64_t row, int64_t col, uint64_t j, const td_pval *cs) {
    for (uint32_t o = 0; o < 2; o++) {
        td_olane l = {.o = o, .region = o ? R_SOUT : R_COUT, .off = (uint64_t)(row * cs[0].i + col * cs[1].i),
                      .pid = {p0, p1, 0}, .j = j, .idx = {row, col, 0, 0}};
        td_wset_add(ws, &l);
    }
}

static void writes_dec(const td_case *c, td_wset *ws) {
    int64_t bh = c->p[PD_BH].i;
    for (uint32_t s = 0; s < c->grid[0] && s < c->p[PD_NSEQ].i; s++)
        for (uint32_t hb = 0; hb < c->grid[1]; hb++)
            for (int64_t i = 0; i < bh && hb * bh + i < c->p[PD_HID].i; i++)
                ct_lane(ws, s, hb, s, hb * bh + i, (uint64_t)i, &c->p[PD_CS]);
}

static void writes_pre(const td_case *c, td_wset *ws) {
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++) {
            int64_t tok = p0 * c->p[PP_BS].i + p1;
            if (tok >= c->p[PP_TOTAL].i) continue;
            for (int64_t i = 0; i < c->p[PP_HID].i; i++) ct_lane(ws, p0, p1, tok, i, (uint64_t)i, &c->p[PP_CS]);
        }
}

const td_contract td_c_cache_transform_decoding = {
    .id = "cache_transform_triton.decoding_cache_correctness",
    .file = "cache_transform_triton",
    .family = "copy",
    .io_class = "GatherMasked2DKernelIO_2x2 (decodingCacheIO)",
    .kind = "exact",
    .formula = "cos_output[s, h] = cos_cache[lengths[s], h]; sin_output[s, h] = sin_cache[lengths[s], h]",
    .nparams = NPD,
    .params = params_dec,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "a gather: finite inputs, no arithmetic",
    .error_model = "a gather rounds nothing (tolerance 0 for every implementation)",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_EXACT_MULTIPLE) |
               TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) |
               TD_BC(TD_BC_IDX_REPEATS) | TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_VALUES_SPECIAL) |
               TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_dec,
    .far = far_dec,
    .check = check_dec,
    .writes = writes_dec,
    TD_SPECS(ct_dec),
};

const td_contract td_c_cache_transform_prefill = {
    .id = "cache_transform_triton.prefill_cache_correctness",
    .file = "cache_transform_triton",
    .family = "copy",
    .io_class = "GatherMasked2DKernelIO_2x2 (prefillCacheIO)",
    .kind = "exact",
    .formula = "cos_output[tok, i] = cos_cache[tok - max{cumsum[k] <= tok}, i] (sin likewise), tok < total_length",
    .nparams = NPP,
    .params = params_pre,
    .nregions = NR,
    .regions = regions_pre,
    .sv = TD_SV_REAL,
    .sv_note = "a gather: finite inputs, no arithmetic",
    .error_model = "a gather rounds nothing (tolerance 0 for every implementation)",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_TAIL_BELOW) |
               TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) |
               TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SEQ_EMPTY) |
               TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_SEQ_ENDS_AT_END) |
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31),
    .far = far_pre,
    .gen = gen_pre,
    .check = check_pre,
    .writes = writes_pre,
    TD_SPECS(ct_pre),
};
