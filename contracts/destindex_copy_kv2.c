/* destindex_copy_kv2.fwd_kernel_destindex_copy_kv_correctness  (catalogue part 1)
 *   MetaMasked2DKernelIO_1 (destindexCopyKvIO): program t copies the tile
 *   [BLOCK_HEAD, BLOCK_DMODEL] of token t to cache row Dest_loc[t]:
 *     read  = t*stride_k_bs + stride_k_h*(j/BD) + stride_k_d*(j%BD)
 *     write = Dest_loc[t]*stride_o_bs + stride_o_h*(j/BD) + stride_o_d*(j%BD)
 *     mask  = j/BD < head_num            (no head_dim: BLOCK_DMODEL is the head dim)
 *   Out[Dest_loc[t], h, d] = K[t, h, d]  for h < head_num, d < BLOCK_DMODEL.
 * As destindex_copy_kv1 without the head_dim mask: the host passes BLOCK_DMODEL =
 * head_dim, so the head dim is a power of two (tl.arange needs one).  Checked against
 * VeriTile's DestindexCopyKv2.lean and destindex_copy_kv2.py: the theorem is per program
 * under hInj; the spec is quoted.  The generator makes Dest_loc injective
 * (td_gen_slots) so the launch's write set is exact.
 * Error model: a copy; tolerance 0 for every implementation (nothing is rounded).
 * Special values: every finite binary32 is drawn; no arithmetic, so none arise. */
#include "kvcopy_common.h"

enum { P_SKBS, P_SKH, P_SKD, P_SOBS, P_SOH, P_SOD, P_HEADS, P_BD, P_BH, NP };
enum { R_K, R_DEST, R_OUT, NR };

#define TD_SPEC_FILE "destindex_copy_kv2.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride_k_bs", TD_P_INT}, {"stride_k_h", TD_P_INT}, {"stride_k_d", TD_P_INT},   {"stride_o_bs", TD_P_INT},
    {"stride_o_h", TD_P_INT},  {"stride_o_d", TD_P_INT}, {"head_num", TD_P_INT},     {"BLOCK_DMODEL", TD_P_INT},
    {"BLOCK_HEAD", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"K", TD_F32, TD_R_IN}, {"Dest_loc", TD_I64, TD_R_META}, {"Out", TD_F32, TD_R_OUT}};

static void gen(td_producer *p, td_case *c) {
    int64_t H, BH;
    kv_dim_block(p, 8, &H, &BH, &c->classes);
    int64_t D = td_gen_pow2(p, 0, 5);
    int64_t ntok = td_prod_u32(p, 0, 3) == 0 ? 1 : (int64_t)td_prod_u32(p, 1, 24);
    int64_t cap = kv_cache_rows(p, ntok);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, KV_VALUE_BOUND);
    int64_t dest[24], kn[3] = {ntok, H, D}, on[3] = {cap, H, D}, ks[3], os[3];
    td_gen_slots(p, &g.rng, dest, ntok, cap, &c->classes);
    int64_t kspan = td_gen_layout(p, 3, kn, ks, 0, &c->classes);
    int64_t ospan = td_gen_layout(p, 3, on, os, 0, &c->classes);
    const int64_t v[NP] = {ks[0], ks[1], ks[2], os[0], os[1], os[2], H, D, BH};
    for (int i = 0; i < NP; i++) c->p[i].i = v[i];
    td_case_alloc(c, R_K, (size_t)kspan);
    td_vgen_fill(&g, c, R_K);
    kv_store_meta(c, R_DEST, dest, ntok, 0);
    td_case_alloc(c, R_OUT, (size_t)(ospan + td_prod_u32(p, 0, 8)));
    c->grid[0] = (uint32_t)ntok, c->grid[1] = c->grid[2] = 1;
    if (ntok == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (ntok * H * D == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
}

/* Offsets beyond 2^31: kv_far_tokens (kvcopy_common.h); BLOCK_DMODEL is the head dim. */
static void far(td_producer *p, td_case *c) {
    kv_far_tokens(p, c, R_K, P_SKBS, P_SKH, P_SKD, c->p[P_HEADS].i, c->p[P_BD].i);
}

static const char *check(const td_case *c) {
    const td_pval *q = c->p;
    int64_t ntok = c->grid[0], H = q[P_HEADS].i, D = q[P_BD].i;
    if (H < 0 || D < 1 || (D & (D - 1))) return "head_num is Nat, BLOCK_DMODEL a power of two";
    if (q[P_BH].i < H) return "the tile covers every head (BLOCK_HEAD >= next_power_of_2(head_num))";
    if (!kv_injective2(H, D, q[P_SOH].i, q[P_SOD].i)) return "hInj: the tile's output offsets are injective";
    int64_t cap;
    const char *e = kv_check_dest(c, R_DEST, ntok, &cap);
    if (e) return e;
    int64_t kn[3] = {ntok, H, D}, on[3] = {cap, H, D}, ks[3] = {q[P_SKBS].i, q[P_SKH].i, q[P_SKD].i},
            os[3] = {q[P_SOBS].i, q[P_SOH].i, q[P_SOD].i};
    if ((e = kv_check_fits(c, R_K, 3, kn, ks))) return e;
    return kv_check_fits(c, R_OUT, 3, on, os);
}

static void writes(const td_case *c, td_wset *ws) {
    const td_pval *q = c->p;
    for (uint32_t t = 0; t < c->grid[0]; t++) {
        int64_t m = td_geti(c, R_DEST, t);
        for (int64_t h = 0; h < q[P_HEADS].i; h++)
            for (int64_t d = 0; d < q[P_BD].i; d++) {
                td_olane l = {.o = 0, .region = R_OUT, .pid = {t, 0, 0}, .j = (uint64_t)(h * q[P_BD].i + d),
                              .idx = {t, h, d, m}};
                l.off = (uint64_t)(m * q[P_SOBS].i + h * q[P_SOH].i + d * q[P_SOD].i);
                td_wset_add(ws, &l);
            }
    }
}

const td_contract td_c_destindex_copy_kv2 = {
    .id = "destindex_copy_kv2.fwd_kernel_destindex_copy_kv_correctness",
    .file = "destindex_copy_kv2",
    .family = "copy",
    .io_class = "MetaMasked2DKernelIO_1 (destindexCopyKvIO)",
    .kind = "exact",
    .formula = "Out[Dest_loc[t], h, d] = K[t, h, d]  (h < head_num, d < BLOCK_DMODEL)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "a copy: finite inputs, no arithmetic",
    .error_model = "a copy rounds nothing (tolerance 0 for every implementation)",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) |
               TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_IDX_PERMUTATION) |
               TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |
               TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(dkv2),
};
