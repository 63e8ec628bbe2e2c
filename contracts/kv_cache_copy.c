/* kv_cache_copy.kv_cache_copy_correctness  (catalogue part 2)
 *   ChainMetaMasked2DKernelIO_2x2 (kvCacheCopyIO), hKV: KCache != VCache:
 *     m1 = context_lengths[pid0]; m2 = BLOCK_TABLES[pid0*stride_bts + ((m1-1)/block_size)*stride_btb]
 *     d = SPLIT_X*KCACHE_X + j, mask1 = mask2 = d < HEAD_DIM, slot = (m1-1)%block_size
 *     KCache[m2*kcb + pid1*kch + SPLIT_X*kcsplit_x + slot*kcs + j] = K[pid0*kt + pid1*kh + d*kd]
 *     VCache[m2*vcb + pid1*vch + slot*vcs + d*vcd]                = V[pid0*vt + pid1*vh + d*vd]
 * The decode step's new key and value of sequence pid0, head pid1, into the last slot
 * of its paged caches: K in the x-split layout [blocks, heads, head_dim/x, block_size, x]
 * (x lanes contiguous), V in [blocks, heads, block_size, head_dim].
 * Checked against VeriTile's KvCacheCopy.lean and kv_cache_copy.py: the theorem states
 * one iteration split_x = SPLIT_X of the kernel's `tl.static_range(HEAD_DIM // KCACHE_X)`
 * loop, with a mask d < HEAD_DIM the Python kernel does not have (it assumes KCACHE_X
 * divides HEAD_DIM); the generator draws HEAD_DIM up to a partial last split and favours
 * SPLIT_X = the last split.  Grid (bsz, num_kv_heads).  Metadata (kv_gen_paged):
 * context lengths >= 1 at block edges, block tables one injection into the physical
 * blocks (validity and region separation are the contract's premises).
 * Error model: a copy; tolerance 0 for every implementation (nothing is rounded).
 * Special values: every finite binary32 is drawn; no arithmetic, so none arise. */
#include "kvcopy_common.h"

enum {
    P_SPLIT, P_SKT, P_SKH, P_SKD, P_SVT, P_SVH, P_SVD, P_SKCB, P_SKCH, P_SKCX, P_SKCS, P_SVCB, P_SVCH, P_SVCS, P_SVCD,
    P_SBTS, P_SBTB, P_BS, P_HD, P_X, NP
};
enum { R_K, R_V, R_KC, R_VC, R_BT, R_LEN, NR };

#define TD_SPEC_FILE "kv_cache_copy.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"SPLIT_X", TD_P_INT},    {"stride_kt", TD_P_INT},  {"stride_kh", TD_P_INT},        {"stride_kd", TD_P_INT},
    {"stride_vt", TD_P_INT},  {"stride_vh", TD_P_INT},  {"stride_vd", TD_P_INT},        {"stride_kcb", TD_P_INT},
    {"stride_kch", TD_P_INT}, {"stride_kcsplit_x", TD_P_INT}, {"stride_kcs", TD_P_INT}, {"stride_vcb", TD_P_INT},
    {"stride_vch", TD_P_INT}, {"stride_vcs", TD_P_INT}, {"stride_vcd", TD_P_INT},       {"stride_bts", TD_P_INT},
    {"stride_btb", TD_P_INT}, {"block_size", TD_P_INT}, {"HEAD_DIM", TD_P_INT},         {"KCACHE_X", TD_P_INT}};
static const td_region_decl regions[NR] = {{"K", TD_F32, TD_R_IN},
                                           {"V", TD_F32, TD_R_IN},
                                           {"KCache", TD_F32, TD_R_OUT},
                                           {"VCache", TD_F32, TD_R_OUT},
                                           {"BLOCK_TABLES", TD_I64, TD_R_META},
                                           {"context_lengths", TD_I64, TD_R_META}};

static void gen(td_producer *p, td_case *c) {
    kv_paged pg;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, KV_VALUE_BOUND);
    kv_gen_paged(p, &g.rng, &pg, &c->classes);
    int64_t H = td_prod_u32(p, 1, 4), X = td_gen_pow2(p, 0, 4), nsplit = td_prod_u32(p, 1, 4);
    int64_t hd = td_prod_u32(p, 0, 1) ? nsplit * X : (nsplit - 1) * X + (int64_t)td_prod_u32(p, 1, (uint32_t)X);
    int64_t split = td_prod_u32(p, 0, 1) ? nsplit - 1 : (int64_t)td_prod_u32(p, 0, (uint32_t)(nsplit - 1));
    if (hd < nsplit * X && split == nsplit - 1) c->classes |= TD_BC(TD_BC_TAIL); /* a partial split */
    int64_t kn[3] = {pg.bsz, H, hd}, ks[3], vs[3], kcn[4] = {pg.nblocks, H, nsplit, pg.bs}, kcs[4],
            vcn[4] = {pg.nblocks, H, pg.bs, hd}, vcs[4];
    int64_t kspan = td_gen_layout(p, 3, kn, ks, 0, &c->classes), vspan = td_gen_layout(p, 3, kn, vs, 0, &c->classes);
    int64_t kcspan = td_gen_layout(p, 4, kcn, kcs, 1, &c->classes); /* in units of x-chunks */
    int64_t vcspan = td_gen_layout(p, 4, vcn, vcs, 0, &c->classes);
    const int64_t v[NP] = {split,      ks[0],      ks[1],      ks[2],  vs[0],  vs[1],  vs[2],
                           kcs[0] * X, kcs[1] * X, kcs[2] * X, kcs[3] * X, vcs[0], vcs[1], vcs[2],
                           vcs[3],     pg.bts,     pg.btb,     pg.bs,  hd,     X};
    for (int i = 0; i < NP; i++) c->p[i].i = v[i];
    td_case_alloc(c, R_K, (size_t)kspan);
    td_vgen_fill(&g, c, R_K);
    td_case_alloc(c, R_V, (size_t)vspan);
    td_vgen_fill(&g, c, R_V);
    td_case_alloc(c, R_KC, (size_t)(kcspan * X + td_prod_u32(p, 0, 8)));
    td_case_alloc(c, R_VC, (size_t)(vcspan + td_prod_u32(p, 0, 8)));
    kv_store_table(c, R_BT, &pg);
    kv_store_meta(c, R_LEN, pg.lens, pg.bsz, 0);
    c->grid[0] = (uint32_t)pg.bsz, c->grid[1] = (uint32_t)H, c->grid[2] = 1;
    if (pg.bsz * H == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (nsplit > 1) c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* x-splits this launch leaves alone */
}

/* lanes j < KCACHE_X with SPLIT_X*KCACHE_X + j < HEAD_DIM */
static int64_t kvc_lanes(const td_pval *q) {
    int64_t w = q[P_HD].i - q[P_SPLIT].i * q[P_X].i;
    return w < 0 ? 0 : w > q[P_X].i ? q[P_X].i : w;
}

/* Offsets beyond 2^31: K's and V's token rows moved to far strides (kv_far_tokens,
 * kvcopy_common.h; one stride each); the first programs' lengths and block tables, and
 * the caches, keep theirs. */
static void far(td_producer *p, td_case *c) {
    kv_far_tokens(p, c, R_K, P_SKT, P_SKH, P_SKD, c->grid[1], c->p[P_HD].i);
    kv_far_tokens(p, c, R_V, P_SVT, P_SVH, P_SVD, c->grid[1], c->p[P_HD].i);
}

static const char *check(const td_case *c) {
    const td_pval *q = c->p;
    int64_t bsz = c->grid[0], H = c->grid[1], X = q[P_X].i, w = kvc_lanes(q);
    if (X < 1 || q[P_SPLIT].i < 0 || q[P_HD].i < 0) return "KCACHE_X >= 1, SPLIT_X and HEAD_DIM Nat";
    if ((int64_t)c->r[R_LEN].len < bsz) return "context_lengths holds one entry per program";
    const char *e = kv_check_paged(c, R_BT, R_LEN, bsz, q[P_SBTS].i, q[P_SBTB].i, q[P_BS].i);
    if (e || w == 0) return e;
    int64_t dmax = q[P_SPLIT].i * X + w;
    int64_t kn[3] = {bsz, H, dmax}, ks[3] = {q[P_SKT].i, q[P_SKH].i, q[P_SKD].i}, vs[3] = {q[P_SVT].i, q[P_SVH].i, q[P_SVD].i};
    if ((e = kv_check_fits(c, R_K, 3, kn, ks)) || (e = kv_check_fits(c, R_V, 3, kn, vs))) return e;
    for (int d = P_SKCB; d <= P_SVCD; d++)
        if (q[d].i < 0) return "strides are Nat";
    if (H > 1 && q[P_SKCH].i < X) return "WriteInj: the heads' x-chunks do not overlap";
    if (w > 1 && q[P_SVCD].i == 0) return "WriteInj: d -> stride_vcd * d injective";
    for (int64_t b = 0; b < bsz; b++) {
        int64_t s, m2 = kv_last_block(c, R_BT, R_LEN, b, q[P_SBTS].i, q[P_SBTB].i, q[P_BS].i, &s);
        int64_t klast = m2 * q[P_SKCB].i + (H - 1) * q[P_SKCH].i + q[P_SPLIT].i * q[P_SKCX].i + s * q[P_SKCS].i + w - 1;
        int64_t vlast = m2 * q[P_SVCB].i + (H - 1) * q[P_SVCH].i + s * q[P_SVCS].i + (dmax - 1) * q[P_SVCD].i;
        if (klast >= (int64_t)c->r[R_KC].len || vlast >= (int64_t)c->r[R_VC].len)
            return "the caches hold every written lane (block ids < #blocks)";
    }
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    const td_pval *q = c->p;
    int64_t w = kvc_lanes(q), split = q[P_SPLIT].i;
    for (uint32_t b = 0; b < c->grid[0]; b++) {
        int64_t s, m2 = kv_last_block(c, R_BT, R_LEN, b, q[P_SBTS].i, q[P_SBTB].i, q[P_BS].i, &s);
        for (uint32_t h = 0; h < c->grid[1]; h++)
            for (int64_t j = 0; j < w; j++) {
                int64_t d = split * q[P_X].i + j;
                td_olane k = {.o = 0, .region = R_KC, .pid = {b, h, 0}, .j = (uint64_t)j, .idx = {b, h, d, m2}};
                k.off = (uint64_t)(m2 * q[P_SKCB].i + h * q[P_SKCH].i + split * q[P_SKCX].i + s * q[P_SKCS].i + j);
                td_wset_add(ws, &k);
                td_olane v = k;
                v.o = 1, v.region = R_VC;
                v.off = (uint64_t)(m2 * q[P_SVCB].i + h * q[P_SVCH].i + s * q[P_SVCS].i + d * q[P_SVCD].i);
                td_wset_add(ws, &v);
            }
    }
}

const td_contract td_c_kv_cache_copy = {
    .id = "kv_cache_copy.kv_cache_copy_correctness",
    .file = "kv_cache_copy",
    .family = "copy",
    .io_class = "ChainMetaMasked2DKernelIO_2x2 (kvCacheCopyIO)",
    .kind = "exact",
    .formula = "KCache[blk, h, SPLIT_X, slot, x] = K[b, h, d]; VCache[blk, h, slot, d] = V[b, h, d]  "
               "(blk = BT[b, (len[b]-1)/bs], slot = (len[b]-1)%bs, d = SPLIT_X*KCACHE_X + x < HEAD_DIM)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "a copy: finite inputs, no arithmetic",
    .error_model = "a copy rounds nothing (tolerance 0 for every implementation)",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_FULLY_MASKED) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_IDX_PERMUTATION) | TD_BC(TD_BC_IDX_FIRST_LAST) |
               TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_VALUES_SPECIAL) |
               TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(kvcc),
};
