/* kv_cache_filling  (catalogue part 2): lmdeploy's paged KV-cache fill, unquantized
 * tiles and the quantization-metadata store.
 *
 *   fill_kv_cache_output_summary_general (ComputeCorrect over [BLOCK_H, BLOCK_D] / [BLOCK_H, BLOCK_DV])
 *     hKInj / hVInj: the tile's cache offsets injective
 *     blk = BlockOffsets[pid0*stride_boff + KV_BLOCK_IDX]
 *     KCaches[blk*kcn + BIDX*kcb + h*kch + d*kcd] = KStates[SIDX*kss + h*ksh + d*ksd]  (h < num_heads, d < head_dim)
 *     VCaches[blk*vcn + BIDX*vcb + h*vch + d*vcd] = VStates[SIDX*vss + h*vsh + d*vsd]  (h < num_heads, d < head_dim_v)
 *   fill_quant_meta_store_io_correctness (Meta1MaskedTileKernelIO_1)
 *     hOutInj: i -> m*stride_mn + BIDX*stride_mb + i*stride_mh + SZD*stride_md injective
 *     MetaOut[BlockOffsets[pid*stride_boff + KV_BLOCK_IDX]*mn + BIDX*mb + i*mh + SZD*md] = MetaPre[i]  (i < num_heads)
 *
 * Checked against VeriTile's KvCacheFilling.lean and kv_cache_filling.py.  The first
 * theorem's outputs are the two tile kernels fill_k_cache_tile and fill_v_cache_tile
 * (its other conjunct only says the full surface lowers): the token SIDX, the slot
 * BIDX inside the block and the block-table column KV_BLOCK_IDX are parameters the full
 * kernel derives from q_startloc / history lengths; here one launch is the K tile then
 * the V tile over grid (batch,), each program reading its own BlockOffsets row (the
 * surface's QStartLoc / QSeqLens / KVSeqLens are passed, filled from one consistent
 * ragged model, and read by neither tile).  BLOCK_DV = 0 (no V cache, the Python
 * `if BLOCK_DV > 0`) is drawn too.  The second theorem stores the supplied per-head
 * metadata MetaPre (scale or zero point, SZD = 0 / 1 of the last axis of a
 * [blocks, BLOCK, heads, 2] layout) into each program's block; every program reads the
 * same MetaPre[i] (read = i), as the Lean slice states.  BlockOffsets rows are one
 * injection into the physical blocks (td_gen_slots), so the programs' writes are
 * disjoint and the write set is exact.
 * Error model: a copy; tolerance 0 for every implementation (nothing is rounded).
 * Special values: every finite binary32 is drawn; no arithmetic, so none arise. */
#include "kvcopy_common.h"

enum {
    P_SIDX, P_BIDX, P_KVB, P_NH, P_HD, P_HDV, P_SKSS, P_SKSH, P_SKSD, P_SVSS, P_SVSH, P_SVSD, P_SKCN, P_SKCB, P_SKCH,
    P_SKCD, P_SVCN, P_SVCB, P_SVCH, P_SVCD, P_SBOFF, P_BLOCK, P_BD, P_BDV, P_BH, NP
};
enum { R_KS, R_VS, R_KC, R_VC, R_QSTART, R_QLEN, R_KVLEN, R_BO, NR };
enum { PM_BIDX, PM_KVB, PM_SZD, PM_SMN, PM_SMB, PM_SMH, PM_SMD, PM_SBOFF, PM_NH, PM_BH, NPM };
enum { RM_PRE, RM_OUT, RM_BO, NRM };

#define TD_SPEC_FILE "kv_cache_filling.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"SIDX", TD_P_INT},       {"BIDX", TD_P_INT},       {"KV_BLOCK_IDX", TD_P_INT}, {"num_heads", TD_P_INT},
    {"head_dim", TD_P_INT},   {"head_dim_v", TD_P_INT}, {"stride_kss", TD_P_INT},   {"stride_ksh", TD_P_INT},
    {"stride_ksd", TD_P_INT}, {"stride_vss", TD_P_INT}, {"stride_vsh", TD_P_INT},   {"stride_vsd", TD_P_INT},
    {"stride_kcn", TD_P_INT}, {"stride_kcb", TD_P_INT}, {"stride_kch", TD_P_INT},   {"stride_kcd", TD_P_INT},
    {"stride_vcn", TD_P_INT}, {"stride_vcb", TD_P_INT}, {"stride_vch", TD_P_INT},   {"stride_vcd", TD_P_INT},
    {"stride_boff", TD_P_INT}, {"BLOCK", TD_P_INT},     {"BLOCK_D", TD_P_INT},      {"BLOCK_DV", TD_P_INT},
    {"BLOCK_H", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"KStates", TD_F32, TD_R_IN},       {"VStates", TD_F32, TD_R_IN},      {"KCaches", TD_F32, TD_R_OUT},
    {"VCaches", TD_F32, TD_R_OUT},      {"QStartLoc", TD_I64, TD_R_META},  {"QSeqLens", TD_I64, TD_R_META},
    {"KVSeqLens", TD_I64, TD_R_META},   {"BlockOffsets", TD_I64, TD_R_META}};
static const td_param_decl params_meta[NPM] = {
    {"BIDX", TD_P_INT},      {"KV_BLOCK_IDX", TD_P_INT}, {"SZD", TD_P_INT},         {"stride_mn", TD_P_INT},
    {"stride_mb", TD_P_INT}, {"stride_mh", TD_P_INT},    {"stride_md", TD_P_INT},   {"stride_boff", TD_P_INT},
    {"num_heads", TD_P_INT}, {"BLOCK_H", TD_P_INT}};
static const td_region_decl regions_meta[NRM] = {
    {"MetaPre", TD_F32, TD_R_IN}, {"MetaOut", TD_F32, TD_R_OUT}, {"BlockOffsets", TD_I64, TD_R_META}};

/* BlockOffsets [nb, width] row-major with row stride stride_boff >= width: one injection
 * of all nb*width entries into nblocks physical blocks; padding cells 0. */
static int64_t fill_block_offsets(td_producer *p, td_rng *r, td_case *c, int reg, int64_t nb, int64_t width,
                                  int64_t nblocks, int64_t boff) {
    int64_t tbl[KV_MAX_SEQS * KV_MAX_TBL];
    td_gen_slots(p, r, tbl, nb * width, nblocks, &c->classes);
    td_case_alloc(c, reg, (size_t)((nb - 1) * boff + width));
    for (int64_t b = 0; b < nb; b++)
        for (int64_t k = 0; k < width; k++) td_seti(c, reg, (size_t)(b * boff + k), tbl[b * width + k]);
    if (boff > width) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    return nblocks;
}

/* a states [tokens, heads, dim] and a cache [nblocks, BLOCK, heads, dim] layout */
static void fill_pair(td_producer *p, td_case *c, td_vgen *g, int64_t ntok, int64_t nblocks, int64_t blk, int64_t H,
                      int64_t D, int ps, int pc, int rs, int rc) {
    int64_t sn[3] = {ntok, H, D > 0 ? D : 1}, ss[3], cn[4] = {nblocks, blk, H, D > 0 ? D : 1}, cs[4];
    int64_t sspan = td_gen_layout(p, 3, sn, ss, 0, &c->classes), cspan = td_gen_layout(p, 4, cn, cs, 0, &c->classes);
    for (int d = 0; d < 3; d++) c->p[ps + d].i = ss[d];
    for (int d = 0; d < 4; d++) c->p[pc + d].i = cs[d];
    td_case_alloc(c, rs, (size_t)sspan);
    td_vgen_fill(g, c, rs);
    td_case_alloc(c, rc, (size_t)(cspan + td_prod_u32(p, 0, 8)));
}

static void gen(td_producer *p, td_case *c) {
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, KV_VALUE_BOUND);
    int nb = (int)td_prod_u32(p, 1, KV_MAX_SEQS);
    int64_t H, BH, D, BD, DV, BDV, lens[KV_MAX_SEQS], starts[KV_MAX_SEQS + 1], hist[KV_MAX_SEQS];
    kv_dim_block(p, 6, &H, &BH, &c->classes);
    kv_dim_block(p, 24, &D, &BD, &c->classes);
    kv_dim_block(p, 24, &DV, &BDV, &c->classes);
    if (td_prod_u32(p, 0, 7) == 0) DV = BDV = 0; /* no V cache */
    int64_t blk = td_prod_u32(p, 1, 8), width = td_prod_u32(p, 1, KV_MAX_TBL);
    int64_t boff = width + (td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 2) : 0);
    int64_t total = td_gen_ragged(p, &g.rng, lens, starts, nb, 1, blk * width, blk, &c->classes);
    for (int b = 0; b < nb; b++) hist[b] = (int64_t)td_rng_below(&g.rng, (uint64_t)(blk * width - lens[b] + 1)), hist[b] += lens[b];
    int64_t nblocks = kv_cache_rows(p, nb * width);
    fill_block_offsets(p, &g.rng, c, R_BO, nb, width, nblocks, boff);
    kv_store_meta(c, R_QSTART, starts, nb, 0);
    kv_store_meta(c, R_QLEN, lens, nb, 0);
    kv_store_meta(c, R_KVLEN, hist, nb, 0);
    int64_t sidx = td_prod_u32(p, 0, (uint32_t)(total - 1)); /* one draw per statement: a fixed order */
    int64_t bidx = td_prod_u32(p, 0, (uint32_t)(blk - 1));
    int64_t kvb = td_prod_u32(p, 0, (uint32_t)(width - 1));
    const int64_t v[] = {sidx, bidx, kvb, H, D, DV};
    for (int i = 0; i <= P_HDV; i++) c->p[i].i = v[i];
    fill_pair(p, c, &g, total, nblocks, blk, H, D, P_SKSS, P_SKCN, R_KS, R_KC);
    fill_pair(p, c, &g, total, nblocks, blk, H, DV, P_SVSS, P_SVCN, R_VS, R_VC);
    c->p[P_SBOFF].i = boff, c->p[P_BLOCK].i = blk, c->p[P_BD].i = BD, c->p[P_BDV].i = BDV, c->p[P_BH].i = BH;
    c->grid[0] = (uint32_t)nb, c->grid[1] = c->grid[2] = 1;
    if (nb == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (DV == 0) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
}

/* Offsets beyond 2^31: every program reads the one token SIDX of KStates / VStates;
 * SIDX becomes 1 or 3 (at most TD_FAR_MAX_ROWS rows) and the states move to far
 * token strides (td_far_stride: SIDX * stride past 2^31, the product the kernel forms
 * from its int32 token index) over sparse regions holding that one token (old token
 * SIDX's heads and dims, where the layout put them).  The caches keep theirs. */
/* the token slab of region rs (width w, in elements) that one token's heads and dims span */
static int64_t fill_slab(const td_case *c, int ps, int64_t D) {
    int64_t H = c->p[P_NH].i;
    return H > 0 && D > 0 ? (H - 1) * c->p[ps + 1].i + (D - 1) * c->p[ps + 2].i + 1 : 0;
}
static void far(td_producer *p, td_case *c) {
    static const int rs[2] = {R_KS, R_VS}, ps[2] = {P_SKSS, P_SVSS};
    int64_t sidx = c->p[P_SIDX].i, to = sidx % 2 ? 3 : 1, w[2], s[2]; /* odd: to * stride wraps negative in int32 */
    w[0] = fill_slab(c, P_SKSS, c->p[P_HD].i), w[1] = fill_slab(c, P_SVSS, c->p[P_HDV].i);
    if (!w[0]) return;
    td_region old[2] = {c->r[R_KS], c->r[R_VS]};
    int ok = 1, moved[2] = {0, 0};
    for (int o = 0; o < 2 && ok; o++) { /* both reserved, or the case left as it was */
        if (!w[o]) continue;
        s[o] = td_far_stride(p, to + 1, w[o]);
        c->r[rs[o]].data = NULL, c->r[rs[o]].mapped = 0, c->r[rs[o]].len = 0;
        ok = moved[o] = td_case_alloc_sparse(c, rs[o], (size_t)(to * s[o] + w[o])) != NULL;
    }
    for (int o = 0; o < 2; o++) {
        if (!moved[o]) continue;
        if (!ok) {
            td_region_release(&c->r[rs[o]]);
            continue;
        }
        size_t eb = td_fmt_get(old[o].fmt)->bytes;
        memcpy((uint8_t *)c->r[rs[o]].data + (size_t)(to * s[o]) * eb,
               (const uint8_t *)old[o].data + (size_t)(sidx * c->p[ps[o]].i) * eb, (size_t)w[o] * eb);
        td_region_release(&old[o]);
        c->p[ps[o]].i = s[o];
    }
    if (!ok) {
        c->r[R_KS] = old[0], c->r[R_VS] = old[1];
        return;
    }
    c->p[P_SIDX].i = to;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* the block id program b reads (or -1 when the cell is outside the region) */
static int64_t fill_blk(const td_case *c, int reg, int64_t b, int64_t boff, int64_t kvb) {
    int64_t cell = b * boff + kvb;
    return cell >= 0 && cell < (int64_t)c->r[reg].len ? td_geti(c, reg, (size_t)cell) : -1;
}

/* NULL when every program's block id is readable, Nat and distinct from the others' */
static const char *check_blocks(const td_case *c, int reg, int64_t boff, int64_t kvb) {
    for (int64_t b = 0; b < (int64_t)c->grid[0]; b++) {
        int64_t m = fill_blk(c, reg, b, boff, kvb);
        if (m < 0) return "BlockOffsets cells read are in range and Nat";
        for (int64_t k = 0; k < b; k++)
            if (fill_blk(c, reg, k, boff, kvb) == m) return "the programs' block ids are distinct (writes disjoint)";
    }
    return NULL;
}

/* one tile (K: o = 0, V: o = 1): source fits, tile injective, cache holds every lane */
static const char *check_tile(const td_case *c, int o) {
    const td_pval *q = c->p;
    int64_t H = q[P_NH].i, D = o ? q[P_HDV].i : q[P_HD].i, B = o ? q[P_BDV].i : q[P_BD].i;
    int ps = o ? P_SVSS : P_SKSS, pc = o ? P_SVCN : P_SKCN, rs = o ? R_VS : R_KS, rc = o ? R_VC : R_KC;
    if (D > B || H > q[P_BH].i) return "the tile covers every head and dim";
    if (H == 0 || D == 0) return NULL;
    int64_t sn[3] = {q[P_SIDX].i + 1, H, D}, ss[3] = {q[ps].i, q[ps + 1].i, q[ps + 2].i};
    const char *e = kv_check_fits(c, rs, 3, sn, ss);
    if (e) return e;
    if (!kv_injective2(H, D, q[pc + 2].i, q[pc + 3].i)) return o ? "hVInj" : "hKInj";
    for (int d = 0; d < 4; d++)
        if (q[pc + d].i < 0) return "strides are Nat";
    for (int64_t b = 0; b < (int64_t)c->grid[0]; b++) {
        int64_t m = fill_blk(c, R_BO, b, q[P_SBOFF].i, q[P_KVB].i);
        if (m * q[pc].i + q[P_BIDX].i * q[pc + 1].i + (H - 1) * q[pc + 2].i + (D - 1) * q[pc + 3].i >= (int64_t)c->r[rc].len)
            return "the cache holds every written lane (block ids < #blocks)";
    }
    return NULL;
}

static const char *check(const td_case *c) {
    const td_pval *q = c->p;
    for (int i = 0; i < NP; i++)
        if (q[i].i < 0) return "parameters are Nat";
    if (q[P_SBOFF].i < 1 || q[P_KVB].i >= q[P_SBOFF].i) return "KV_BLOCK_IDX < stride_boff (a cell of the row)";
    if (q[P_BIDX].i >= q[P_BLOCK].i) return "BIDX < BLOCK (a slot of the block)";
    const char *e = check_blocks(c, R_BO, q[P_SBOFF].i, q[P_KVB].i);
    if (e || (e = check_tile(c, 0))) return e;
    return check_tile(c, 1);
}

static void writes(const td_case *c, td_wset *ws) {
    const td_pval *q = c->p;
    for (uint32_t o = 0; o < 2; o++) {
        int64_t D = o ? q[P_HDV].i : q[P_HD].i, B = o ? q[P_BDV].i : q[P_BD].i;
        int pc = o ? P_SVCN : P_SKCN;
        for (uint32_t b = 0; b < c->grid[0]; b++) {
            int64_t m = fill_blk(c, R_BO, b, q[P_SBOFF].i, q[P_KVB].i);
            for (int64_t h = 0; h < q[P_NH].i; h++)
                for (int64_t d = 0; d < D; d++) {
                    td_olane l = {.o = o, .region = o ? R_VC : R_KC, .pid = {b, 0, 0}, .j = (uint64_t)(h * B + d),
                                  .idx = {b, h, d, m}};
                    l.off = (uint64_t)(m * q[pc].i + q[P_BIDX].i * q[pc + 1].i + h * q[pc + 2].i + d * q[pc + 3].i);
                    td_wset_add(ws, &l);
                }
        }
    }
}

static void gen_meta(td_producer *p, td_case *c) {
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, KV_VALUE_BOUND);
    int64_t nb = td_prod_u32(p, 1, KV_MAX_SEQS), H, BH, blk = td_prod_u32(p, 1, 8), width = td_prod_u32(p, 1, KV_MAX_TBL);
    kv_dim_block(p, 8, &H, &BH, &c->classes);
    int64_t boff = width + (td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 2) : 0);
    int64_t nblocks = kv_cache_rows(p, nb * width);
    fill_block_offsets(p, &g.rng, c, RM_BO, nb, width, nblocks, boff);
    int64_t n[4] = {nblocks, blk, H, 2}, s[4];
    int64_t span = td_gen_layout(p, 4, n, s, 0, &c->classes);
    int64_t bidx = td_prod_u32(p, 0, (uint32_t)(blk - 1)); /* one draw per statement: a fixed order */
    int64_t kvb = td_prod_u32(p, 0, (uint32_t)(width - 1));
    int64_t szd = td_prod_u32(p, 0, 1);
    const int64_t v[NPM] = {bidx, kvb, szd, s[0], s[1], s[2], s[3], boff, H, BH};
    for (int i = 0; i < NPM; i++) c->p[i].i = v[i];
    td_case_alloc(c, RM_PRE, (size_t)BH); /* MetaPre is read at i < num_heads; the host's tile holds BLOCK_H */
    td_vgen_fill(&g, c, RM_PRE);
    td_case_alloc(c, RM_OUT, (size_t)(span + td_prod_u32(p, 0, 8)));
    c->grid[0] = (uint32_t)nb, c->grid[1] = c->grid[2] = 1;
    if (nb == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}

/* Offsets beyond 2^31 (meta): MetaOut's block axis at a far stride_mn.  The first R =
 * min(programs, TD_FAR_MAX_ROWS) programs stay, their (distinct) block ids re-ranked
 * to 0 .. R-1 in BlockOffsets' cells they read, and MetaOut becomes R blocks at a
 * td_far_stride over R rows (block R - 1's cells past 2^31), its other axes packed
 * (td_far_move_param_axis), a sparse output.  MetaPre, read at i < num_heads with no
 * stride, stays. */
static void far_meta(td_producer *p, td_case *c) {
    int64_t R = c->grid[0] < TD_FAR_MAX_ROWS ? c->grid[0] : TD_FAR_MAX_ROWS, m[TD_FAR_MAX_ROWS];
    int64_t boff = c->p[PM_SBOFF].i, kvb = c->p[PM_KVB].i, H = c->p[PM_NH].i, blk = c->p[PM_BIDX].i + 1;
    const int64_t n[4] = {R, blk, H, 2}; /* the blocks, and the slots, heads and cells up to those written */
    static const int ps[4] = {PM_SMN, PM_SMB, PM_SMH, PM_SMD};
    if (R < 2 || H < 1) return;
    if (!td_far_move_param_axis(p, c, RM_OUT, 4, n, ps, 0)) return;
    for (int64_t b = 0; b < R; b++) m[b] = fill_blk(c, RM_BO, b, boff, kvb);
    for (int64_t b = 0; b < R; b++) { /* the rank of m[b] among the R distinct ids */
        int64_t k = 0;
        for (int64_t q = 0; q < R; q++) k += m[q] < m[b];
        td_seti(c, RM_BO, (size_t)(b * boff + kvb), k);
    }
    c->grid[0] = (uint32_t)R;
    c->classes &= ~TD_BC(TD_BC_ONE_PROGRAM);
    c->classes |= TD_BC(TD_BC_IDX_PERMUTATION) | TD_BC(TD_BC_IDX_FIRST_LAST); /* R programs, R blocks, one each */
}

static const char *check_meta(const td_case *c) {
    const td_pval *q = c->p;
    for (int i = 0; i < NPM; i++)
        if (q[i].i < 0) return "parameters are Nat";
    int64_t H = q[PM_NH].i;
    if (H > q[PM_BH].i) return "BLOCK_H >= num_heads";
    if (q[PM_SBOFF].i < 1 || q[PM_KVB].i >= q[PM_SBOFF].i) return "KV_BLOCK_IDX < stride_boff (a cell of the row)";
    if (H > 1 && q[PM_SMH].i == 0) return "hOutInj: i -> i*stride_mh injective";
    if ((int64_t)c->r[RM_PRE].len < H) return "MetaPre holds num_heads cells";
    const char *e = check_blocks(c, RM_BO, q[PM_SBOFF].i, q[PM_KVB].i);
    if (e || H == 0) return e;
    for (int64_t b = 0; b < (int64_t)c->grid[0]; b++) {
        int64_t m = fill_blk(c, RM_BO, b, q[PM_SBOFF].i, q[PM_KVB].i);
        if (m * q[PM_SMN].i + q[PM_BIDX].i * q[PM_SMB].i + (H - 1) * q[PM_SMH].i + q[PM_SZD].i * q[PM_SMD].i >=
            (int64_t)c->r[RM_OUT].len)
            return "MetaOut holds every written cell";
    }
    return NULL;
}

static void writes_meta(const td_case *c, td_wset *ws) {
    const td_pval *q = c->p;
    for (uint32_t b = 0; b < c->grid[0]; b++) {
        int64_t m = fill_blk(c, RM_BO, b, q[PM_SBOFF].i, q[PM_KVB].i);
        for (int64_t i = 0; i < q[PM_NH].i; i++) {
            td_olane l = {.o = 0, .region = RM_OUT, .pid = {b, 0, 0}, .j = (uint64_t)i, .idx = {b, i, m, 0}};
            l.off = (uint64_t)(m * q[PM_SMN].i + q[PM_BIDX].i * q[PM_SMB].i + i * q[PM_SMH].i + q[PM_SZD].i * q[PM_SMD].i);
            td_wset_add(ws, &l);
        }
    }
}

#define FILL_CLASSES                                                                                             \
    (TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_BLOCK_GT_N) |      \
     TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_IDX_PERMUTATION) | TD_BC(TD_BC_IDX_FIRST_LAST) |                    \
     TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE))

const td_contract td_c_kv_cache_filling = {
    .id = "kv_cache_filling.fill_kv_cache_output_summary_general",
    .file = "kv_cache_filling",
    .family = "copy",
    .io_class = "ComputeCorrect over TileIndex [BLOCK_H, BLOCK_D] / [BLOCK_H, BLOCK_DV]",
    .kind = "exact",
    .formula = "KCaches[BO[b, KV_BLOCK_IDX], BIDX, h, d] = KStates[SIDX, h, d]; VCaches likewise (h < num_heads)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "a copy: finite inputs, no arithmetic",
    .error_model = "a copy rounds nothing (tolerance 0 for every implementation)",
    .classes = FILL_CLASSES | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) |
               TD_BC(TD_BC_SEQ_ENDS_AT_END) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(fill_kv),
};

const td_contract td_c_kv_cache_fill_meta = {
    .id = "kv_cache_filling.fill_quant_meta_store_io_correctness",
    .file = "kv_cache_filling",
    .family = "copy",
    .io_class = "Meta1MaskedTileKernelIO_1 (metaStoreIO)",
    .kind = "exact",
    .formula = "MetaOut[BO[b, KV_BLOCK_IDX], BIDX, i, SZD] = MetaPre[i]  (i < num_heads)",
    .nparams = NPM,
    .params = params_meta,
    .nregions = NRM,
    .regions = regions_meta,
    .sv = TD_SV_REAL,
    .sv_note = "a copy: finite inputs, no arithmetic",
    .error_model = "a copy rounds nothing (tolerance 0 for every implementation)",
    .classes = FILL_CLASSES | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_meta,
    .far = far_meta,
    .check = check_meta,
    .writes = writes_meta,
    TD_SPECS(fill_meta),
};
