/* destindex_copy.destindex_copy_correctness  (catalogue part 1)
 *   MetaMasked2DKernelIO_2x2 (destindexCopyIO): the DeepSeek MLA KV cache, two streams
 *   (nope, rope) scattered to the cache row Dest_loc[t] by program t, no mask:
 *     read1  = t*stride_kv_nope_bs + stride_kv_nope_d*j    (j < BLOCK_DMODEL_NOPE)
 *     read2  = t*stride_kv_rope_bs + stride_kv_rope_d*j    (j < BLOCK_DMODEL_ROPE)
 *     write1 = Dest_loc[t]*stride_o_nope_bs + stride_o_nope_d*j
 *     write2 = Dest_loc[t]*stride_o_rope_bs + stride_o_rope_d*j
 *   O_nope[Dest_loc[t], d] = KV_nope[t, d];  O_rope[Dest_loc[t], d] = KV_rope[t, d].
 * Checked against VeriTile's DestindexCopy.lean and destindex_copy.py: the kernel never
 * uses the head index (head strides and head counts are passed but unused), so only head
 * 0 of each token is copied: MLA's compressed KV has one head.  The generator draws one
 * head mostly and sometimes two, whose second head the contract leaves untouched (the
 * harness checks its cells keep the sentinel).  The host wrapper passes the next power
 * of two of the head dim as the block without a mask; the theorem's lanes are the whole
 * block, so the generator keeps head dim = block (a power of two), as MLA's 512/64 are.
 * hRegion (O_nope != O_rope) holds by construction (two regions); hNopeInj / hRopeInj
 * (j -> stride_o_*_d * j injective) hold because the layouts are mixed radix.  Dest_loc
 * is injective (td_gen_slots): the launch's write set must be exact.
 * Error model: a copy; tolerance 0 for every implementation (nothing is rounded).
 * Special values: every finite binary32 is drawn; no arithmetic, so none arise. */
#include "kvcopy_common.h"

enum {
    P_SKN_BS, P_SKN_H, P_SKN_D, P_SKR_BS, P_SKR_H, P_SKR_D, P_SON_BS, P_SON_H, P_SON_D, P_SOR_BS, P_SOR_H, P_SOR_D,
    P_HN, P_HR, P_BDN, P_BDR, NP
};
enum { R_KN, R_KR, R_DEST, R_ON, R_OR, NR };

#define TD_SPEC_FILE "destindex_copy.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride_kv_nope_bs", TD_P_INT}, {"stride_kv_nope_h", TD_P_INT}, {"stride_kv_nope_d", TD_P_INT},
    {"stride_kv_rope_bs", TD_P_INT}, {"stride_kv_rope_h", TD_P_INT}, {"stride_kv_rope_d", TD_P_INT},
    {"stride_o_nope_bs", TD_P_INT},  {"stride_o_nope_h", TD_P_INT},  {"stride_o_nope_d", TD_P_INT},
    {"stride_o_rope_bs", TD_P_INT},  {"stride_o_rope_h", TD_P_INT},  {"stride_o_rope_d", TD_P_INT},
    {"kv_nope_head_num", TD_P_INT},  {"kv_rope_head_num", TD_P_INT}, {"BLOCK_DMODEL_NOPE", TD_P_INT},
    {"BLOCK_DMODEL_ROPE", TD_P_INT}};
static const td_region_decl regions[NR] = {{"KV_nope", TD_F32, TD_R_IN},
                                           {"KV_rope", TD_F32, TD_R_IN},
                                           {"Dest_loc", TD_I64, TD_R_META},
                                           {"O_nope", TD_F32, TD_R_OUT},
                                           {"O_rope", TD_F32, TD_R_OUT}};

/* one stream: its input (ntok, heads, D) and cache (cap, heads, D) layouts */
static void stream(td_producer *p, td_case *c, td_vgen *g, int64_t ntok, int64_t cap, int64_t heads, int64_t D,
                   int pin, int rin, int pout, int rout) {
    int64_t kn[3] = {ntok, heads, D}, on[3] = {cap, heads, D}, ks[3], os[3];
    int64_t kspan = td_gen_layout(p, 3, kn, ks, 0, &c->classes);
    int64_t ospan = td_gen_layout(p, 3, on, os, 0, &c->classes);
    for (int d = 0; d < 3; d++) c->p[pin + d].i = ks[d], c->p[pout + d].i = os[d];
    td_case_alloc(c, rin, (size_t)kspan);
    td_vgen_fill(g, c, rin);
    td_case_alloc(c, rout, (size_t)(ospan + td_prod_u32(p, 0, 8)));
}

static void gen(td_producer *p, td_case *c) {
    int64_t ntok = td_prod_u32(p, 0, 3) == 0 ? 1 : (int64_t)td_prod_u32(p, 1, 24);
    int64_t cap = kv_cache_rows(p, ntok), dest[24];
    int64_t hn = td_prod_u32(p, 0, 3) == 0 ? 2 : 1, hr = td_prod_u32(p, 0, 3) == 0 ? 2 : 1;
    int64_t bdn = td_gen_pow2(p, 0, 6), bdr = td_gen_pow2(p, 0, 6);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, KV_VALUE_BOUND);
    td_gen_slots(p, &g.rng, dest, ntok, cap, &c->classes);
    c->p[P_HN].i = hn, c->p[P_HR].i = hr, c->p[P_BDN].i = bdn, c->p[P_BDR].i = bdr;
    stream(p, c, &g, ntok, cap, hn, bdn, P_SKN_BS, R_KN, P_SON_BS, R_ON);
    stream(p, c, &g, ntok, cap, hr, bdr, P_SKR_BS, R_KR, P_SOR_BS, R_OR);
    kv_store_meta(c, R_DEST, dest, ntok, 0);
    c->grid[0] = (uint32_t)ntok, c->grid[1] = c->grid[2] = 1;
    if (ntok == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (hn > 1 || hr > 1) c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* a head the kernel never touches */
}

/* Offsets beyond 2^31: both token streams moved to far row strides (kv_far_tokens,
 * kvcopy_common.h; each draws its own stride); Dest_loc's first tokens and the caches
 * keep theirs.  Only head 0 is read, but each token's heads stay contiguous. */
static void far(td_producer *p, td_case *c) {
    kv_far_tokens(p, c, R_KN, P_SKN_BS, P_SKN_H, P_SKN_D, c->p[P_HN].i, c->p[P_BDN].i);
    kv_far_tokens(p, c, R_KR, P_SKR_BS, P_SKR_H, P_SKR_D, c->p[P_HR].i, c->p[P_BDR].i);
}

static const char *check(const td_case *c) {
    const td_pval *q = c->p;
    int64_t ntok = c->grid[0], cap;
    if (q[P_BDN].i < 1 || q[P_BDR].i < 1) return "BLOCK_DMODEL_NOPE, BLOCK_DMODEL_ROPE >= 1";
    if (q[P_HN].i < 1 || q[P_HR].i < 1) return "head counts >= 1 (head 0 is the one copied)";
    if (q[P_BDN].i > 1 && q[P_SON_D].i == 0) return "hNopeInj: j -> stride_o_nope_d * j injective";
    if (q[P_BDR].i > 1 && q[P_SOR_D].i == 0) return "hRopeInj: j -> stride_o_rope_d * j injective";
    const char *e = kv_check_dest(c, R_DEST, ntok, &cap);
    if (e) return e;
    int64_t kn[2] = {ntok, q[P_BDN].i}, on[2] = {cap, q[P_BDN].i}, kr[2] = {ntok, q[P_BDR].i},
            orr[2] = {cap, q[P_BDR].i};
    int64_t skn[2] = {q[P_SKN_BS].i, q[P_SKN_D].i}, son[2] = {q[P_SON_BS].i, q[P_SON_D].i},
            skr[2] = {q[P_SKR_BS].i, q[P_SKR_D].i}, sor[2] = {q[P_SOR_BS].i, q[P_SOR_D].i};
    if ((e = kv_check_fits(c, R_KN, 2, kn, skn)) || (e = kv_check_fits(c, R_ON, 2, on, son)) ||
        (e = kv_check_fits(c, R_KR, 2, kr, skr)))
        return e;
    return kv_check_fits(c, R_OR, 2, orr, sor);
}

static void writes(const td_case *c, td_wset *ws) {
    const td_pval *q = c->p;
    for (uint32_t t = 0; t < c->grid[0]; t++) {
        int64_t m = td_geti(c, R_DEST, t);
        for (uint32_t o = 0; o < 2; o++) {
            int64_t B = o ? q[P_BDR].i : q[P_BDN].i, sbs = o ? q[P_SOR_BS].i : q[P_SON_BS].i,
                    sd = o ? q[P_SOR_D].i : q[P_SON_D].i;
            for (int64_t j = 0; j < B; j++) {
                td_olane l = {.o = o, .region = o ? R_OR : R_ON, .off = (uint64_t)(m * sbs + j * sd),
                              .pid = {t, 0, 0}, .j = (uint64_t)j, .idx = {t, j, m, 0}};
                td_wset_add(ws, &l);
            }
        }
    }
}

const td_contract td_c_destindex_copy = {
    .id = "destindex_copy.destindex_copy_correctness",
    .file = "destindex_copy",
    .family = "copy",
    .io_class = "MetaMasked2DKernelIO_2x2 (destindexCopyIO)",
    .kind = "exact",
    .formula = "O_nope[Dest_loc[t], d] = KV_nope[t, d]; O_rope[Dest_loc[t], d] = KV_rope[t, d]  (head 0)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "a copy: finite inputs, no arithmetic",
    .error_model = "a copy rounds nothing (tolerance 0 for every implementation)",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_STRIDE_GT_ROW) |
               TD_BC(TD_BC_IDX_PERMUTATION) | TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_VALUES_SPECIAL) |
               TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(dcopy),
};
