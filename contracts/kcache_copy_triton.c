/* kcache_copy_triton.copy_to_kcache_seqlen_n1_correctness  (catalogue part 1)
 *   ChainMetaMasked2DKernelIO_2x2 (kcacheCopyN1IO), second channel off:
 *     m1 = seq_lengths[pid0]; m2 = BLOCK_TABLES[pid0*stride_bts + ((m1-1)/block_size)*stride_btb]
 *     read1  = pid0*stride_kt + pid1*stride_kh + (SPLIT_X*KCACHE_X + j)*stride_kd
 *     write1 = m2*stride_kcb + pid1*stride_kch + SPLIT_X*stride_kcsplit_x
 *              + ((m1-1)%block_size)*stride_kcs + j          (j < KCACHE_X, no mask)
 *   KCache[write1] = K[read1]: the decode step's new key of sequence pid0, head pid1,
 *   x-split SPLIT_X, into the last slot of its paged cache.
 * Checked against VeriTile's KcacheCopyTriton.lean and kcache_copy_triton.py: the theorem
 * is the n_tokens = 1 path of _copy_to_kcache_seqlen_n_kernel (cur_token_shift = -1, so
 * the position is seq_lengths - 1), with the x-split fixed as the parameter SPLIT_X
 * (the Python grid's third axis; the cache layout [blocks, heads, head_dim/x, block_size,
 * x], x lanes contiguous: stride_kcx = 1 is fixed in the surface).  The grid here is
 * (bsz, num_kv_heads); the other x-splits are not written (their cells keep the
 * sentinel).  Metadata (kvcopy_common.h, kv_gen_paged): context lengths >= 1 at block
 * edges, block tables one injection into the physical blocks, so the launch's writes
 * are injective (the catalogue's per-context WriteInj, extended across programs).
 * Error model: a copy; tolerance 0 for every implementation (nothing is rounded).
 * Special values: every finite binary32 is drawn; no arithmetic, so none arise. */
#include "kvcopy_common.h"

enum { P_SPLIT, P_SKT, P_SKH, P_SKD, P_SKCB, P_SKCH, P_SKCX, P_SKCS, P_SBTS, P_SBTB, P_BS, P_X, NP };
enum { R_K, R_KC, R_BT, R_LEN, NR };

#define TD_SPEC_FILE "kcache_copy_triton.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"SPLIT_X", TD_P_INT},    {"stride_kt", TD_P_INT},  {"stride_kh", TD_P_INT},        {"stride_kd", TD_P_INT},
    {"stride_kcb", TD_P_INT}, {"stride_kch", TD_P_INT}, {"stride_kcsplit_x", TD_P_INT}, {"stride_kcs", TD_P_INT},
    {"stride_bts", TD_P_INT}, {"stride_btb", TD_P_INT}, {"block_size", TD_P_INT},       {"KCACHE_X", TD_P_INT}};
static const td_region_decl regions[NR] = {{"K", TD_F32, TD_R_IN},
                                           {"KCache", TD_F32, TD_R_OUT},
                                           {"BLOCK_TABLES", TD_I64, TD_R_META},
                                           {"seq_lengths", TD_I64, TD_R_META}};

static void gen(td_producer *p, td_case *c) {
    kv_paged pg;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, KV_VALUE_BOUND);
    kv_gen_paged(p, &g.rng, &pg, &c->classes);
    int64_t H = td_prod_u32(p, 1, 4), X = td_gen_pow2(p, 0, 4), nsplit = td_prod_u32(p, 1, 4);
    int64_t split = td_prod_u32(p, 0, 1) ? nsplit - 1 : (int64_t)td_prod_u32(p, 0, (uint32_t)(nsplit - 1));
    int64_t kn[3] = {pg.bsz, H, nsplit * X}, ks[3], cn[4] = {pg.nblocks, H, nsplit, pg.bs}, cs[4];
    int64_t kspan = td_gen_layout(p, 3, kn, ks, 0, &c->classes);
    int64_t cspan = td_gen_layout(p, 4, cn, cs, 1, &c->classes); /* in units of x-chunks */
    const int64_t v[NP] = {split,     ks[0],     ks[1],  ks[2],  cs[0] * X, cs[1] * X,
                           cs[2] * X, cs[3] * X, pg.bts, pg.btb, pg.bs,     X};
    for (int i = 0; i < NP; i++) c->p[i].i = v[i];
    td_case_alloc(c, R_K, (size_t)kspan);
    td_vgen_fill(&g, c, R_K);
    td_case_alloc(c, R_KC, (size_t)(cspan * X + td_prod_u32(p, 0, 8)));
    kv_store_table(c, R_BT, &pg);
    kv_store_meta(c, R_LEN, pg.lens, pg.bsz, 0);
    c->grid[0] = (uint32_t)pg.bsz, c->grid[1] = (uint32_t)H, c->grid[2] = 1;
    if (pg.bsz * H == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (nsplit > 1) c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* x-splits this launch leaves alone */
}

/* Offsets beyond 2^31: K's token rows moved to a far stride_kt (kv_far_tokens,
 * kvcopy_common.h), each token's heads and the dims up to the split read kept; the
 * first programs' lengths and block tables, and the cache, keep theirs. */
static void far(td_producer *p, td_case *c) {
    kv_far_tokens(p, c, R_K, P_SKT, P_SKH, P_SKD, c->grid[1], (c->p[P_SPLIT].i + 1) * c->p[P_X].i);
}

static const char *check(const td_case *c) {
    const td_pval *q = c->p;
    int64_t bsz = c->grid[0], H = c->grid[1], X = q[P_X].i, split = q[P_SPLIT].i;
    if (X < 1 || split < 0) return "KCACHE_X >= 1, SPLIT_X Nat";
    if ((int64_t)c->r[R_LEN].len < bsz) return "seq_lengths holds one entry per program";
    const char *e = kv_check_paged(c, R_BT, R_LEN, bsz, q[P_SBTS].i, q[P_SBTB].i, q[P_BS].i);
    if (e) return e;
    int64_t kn[3] = {bsz, H, (split + 1) * X}, ks[3] = {q[P_SKT].i, q[P_SKH].i, q[P_SKD].i};
    if ((e = kv_check_fits(c, R_K, 3, kn, ks))) return e;
    for (int64_t d = P_SKCB; d <= P_SKCS; d++)
        if (q[d].i < 0) return "strides are Nat";
    for (int64_t b = 0; b < bsz; b++) {
        int64_t slot, blk = kv_last_block(c, R_BT, R_LEN, b, q[P_SBTS].i, q[P_SBTB].i, q[P_BS].i, &slot);
        int64_t last = blk * q[P_SKCB].i + (H - 1) * q[P_SKCH].i + split * q[P_SKCX].i + slot * q[P_SKCS].i + X - 1;
        if (last >= (int64_t)c->r[R_KC].len) return "KCache holds every written lane (block ids < #blocks)";
    }
    if (H > 1 && q[P_SKCH].i < X) return "WriteInj: the heads' x-chunks do not overlap";
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    const td_pval *q = c->p;
    for (uint32_t b = 0; b < c->grid[0]; b++) {
        int64_t slot, blk = kv_last_block(c, R_BT, R_LEN, b, q[P_SBTS].i, q[P_SBTB].i, q[P_BS].i, &slot);
        for (uint32_t h = 0; h < c->grid[1]; h++)
            for (int64_t j = 0; j < q[P_X].i; j++) {
                td_olane l = {.o = 0, .region = R_KC, .pid = {b, h, 0}, .j = (uint64_t)j, .idx = {b, h, j, blk}};
                l.off = (uint64_t)(blk * q[P_SKCB].i + h * q[P_SKCH].i + q[P_SPLIT].i * q[P_SKCX].i +
                                   slot * q[P_SKCS].i + j);
                td_wset_add(ws, &l);
            }
    }
}

const td_contract td_c_kcache_copy_n1 = {
    .id = "kcache_copy_triton.copy_to_kcache_seqlen_n1_correctness",
    .file = "kcache_copy_triton",
    .family = "copy",
    .io_class = "ChainMetaMasked2DKernelIO_2x2 (kcacheCopyN1IO)",
    .kind = "exact",
    .formula = "KCache[BT[b, (len[b]-1)/bs], h, SPLIT_X, (len[b]-1)%bs, x] = K[b, h, SPLIT_X*KCACHE_X + x]",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "a copy: finite inputs, no arithmetic",
    .error_model = "a copy rounds nothing (tolerance 0 for every implementation)",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_STRIDE_GT_ROW) |
               TD_BC(TD_BC_IDX_PERMUTATION) | TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_SEQ_SINGLE) |
               TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |
               TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(kcn1),
};
