/* fused_rotary_embedding  (catalogue part 1; ColossalAI's decoding_fused_rotary_embedding_kernel)
 *
 *   decoding_fused_rotary_embedding_q_correctness: GroupedMasked2DKernelIO (decodingRotaryQIO),
 *     nIn 4 (q, q, cos, sin), nOut 2 (q, q in place), B = HALF_DIM, masks True:
 *       q[qFirstAddr]  := q0*c - q1*sn,   q[qSecondAddr] := q0*sn + q1*c
 *       qFirstAddr = pid1*q_token_stride + pid0*q_head_stride + j*head_dim_stride,
 *       qSecondAddr = ... + (j + HALF_DIM)*head_dim_stride,
 *       cos/sin at pid1*cos_token_stride + j*cos_stride;  hstride: 0 < head_dim_stride.
 *   decoding_fused_rotary_embedding_vcache_chain_correctness: ChainMetaGroupedMasked2DKernelIO:
 *       m1 = context_lengths[pid1], m2 = BLOCK_TABLES[pid1*bts_stride + ((m1-1)/block_size)*btb_stride],
 *       v_cache[m2*vcb + (pid0/KV_GROUP_NUM)*vch + ((m1-1) % block_size)*vcs + j*vcd]
 *         := v[pid1*k_token_stride + (pid0/KV_GROUP_NUM)*k_head_stride + j*head_dim_stride],
 *       written by the programs with pid0 % KV_GROUP_NUM = 0, j < HEAD_DIM.
 *
 * Checked against the original (fused_rotary_embedding.py, FusedRotaryEmbedding.lean):
 * grid (q_head_num, q_total_tokens), program (head, token); the q formula is the kernel's
 * `loaded_q0 * loaded_cos - loaded_q1 * loaded_sin` / `loaded_q0 * loaded_sin +
 * loaded_q1 * loaded_cos` [quoted]; cos/sin are indexed by the token (the caller gathers
 * the rows of the tokens' positions: the tables here are the angles of each token's
 * position, positions non-monotone across a decode batch).  Both halves are loaded before
 * either store.  The v-cache statement [named] is the kernel's last store: the slot of the
 * token's last position (context_length - 1) in its last block, head pid0/KV_GROUP_NUM,
 * only for the first program of each KV group.  Each contract is a slice of the fused
 * kernel (q; v into the cache), run as such: the k part and the k-cache store are not
 * stated by either theorem.  context_length >= 1 (the nat subtraction): a precondition.
 * Block ids of different tokens are distinct (each decode token is its own sequence with
 * its own blocks), so the cache writes are injective.
 * Error model: q as rope_common.spec.h (two products with their exact rounding errors and
 * one rounded sum, any order, FMA or not: |err| <= e(a*c) + e(b*s) + u*(|r| + e(a*c) +
 * e(b*s)) + subnormal terms, u = 2^-24); the v-cache copy is exact (tolerance 0). */
#include "gen_far.h"
#include "rope_common.h"

enum { PQ_QTS, PQ_QHS, PQ_HDS, PQ_CTS, PQ_CS, PQ_HALF, NPQ };
enum { RQ_Q, RQ_COS, RQ_SIN, NRQ };
enum { PV_G, PV_KTS, PV_KHS, PV_HDS, PV_VCB, PV_VCH, PV_VCS, PV_VCD, PV_BTS, PV_BTB, PV_BS, PV_HD, NPV };
enum { RV_V, RV_VC, RV_BT, RV_CL, NRV };

#define TD_SPEC_FILE "fused_rotary_embedding.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_q[NPQ] = {{"q_token_stride", TD_P_INT},   {"q_head_stride", TD_P_INT},
                                            {"head_dim_stride", TD_P_INT},  {"cos_token_stride", TD_P_INT},
                                            {"cos_stride", TD_P_INT},       {"HALF_DIM", TD_P_INT}};
static const td_region_decl regions_q[NRQ] = {
    {"q", TD_F32, TD_R_INOUT}, {"cos", TD_F32, TD_R_IN}, {"sin", TD_F32, TD_R_IN}};

static void gen_q(td_producer *p, td_case *c) {
    int64_t H = 1 + td_prod_u32(p, 0, 7), T = 1 + td_prod_u32(p, 0, 15), half = (int64_t)td_gen_pow2(p, 0, 6);
    int64_t hds = 1 + (td_prod_u32(p, 0, 3) == 0), cst = 1 + (td_prod_u32(p, 0, 3) == 0);
    int64_t qhs = 2 * half * hds + (td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, 5) : 0);
    int64_t qts = H * qhs + (td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, 9) : 0);
    int64_t cts = half * cst + td_prod_u32(p, 0, 2);
    int64_t v[NPQ] = {qts, qhs, hds, cts, cst, half};
    for (int k = 0; k < NPQ; k++) c->p[k].i = v[k];
    c->grid[0] = (uint32_t)H, c->grid[1] = (uint32_t)T, c->grid[2] = 1;
    td_case_alloc(c, RQ_Q, (size_t)(T * qts));
    td_case_alloc(c, RQ_COS, (size_t)(T * cts));
    td_case_alloc(c, RQ_SIN, (size_t)(T * cts));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, RQ_Q);
    rope_fill_tables(p, c, &g, RQ_COS, cts, cst, RQ_SIN, cts, cst, T, half, NULL);
    c->classes |= TD_BC(TD_BC_INPLACE);
    if (H * T == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (half == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE); /* one pair per program */
    if (hds > 1 || cst > 1 || qhs > 2 * half * hds || qts > H * qhs) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* Offsets beyond 2^31 (gen_far.h): cos and sin are the read-only regions (q is rotated
 * in place: outputs stay dense), both read at cur_token_idx * cos_token_stride, in the
 * original an int32 product (program_id, the stride unannotated).  The tokens (grid[1])
 * are cut to at most TD_FAR_MAX_ROWS and the one table stride moves near 2^31. */
static void far_q(td_producer *p, td_case *c) {
    static const int regs[2] = {RQ_COS, RQ_SIN}, strides[2] = {PQ_CTS, PQ_CTS};
    int64_t T = c->grid[1], R = T < TD_FAR_MAX_ROWS ? T : TD_FAR_MAX_ROWS;
    int64_t wt = (c->p[PQ_HALF].i - 1) * c->p[PQ_CS].i + 1, w[2] = {wt, wt};
    if (R < 2) return; /* one token: no offset to move */
    if (R < T) c->classes &= ~(TD_BC(TD_BC_POS_EXTREME) | TD_BC(TD_BC_POS_NONMONOTONE)); /* tokens cut: unknown */
    c->grid[1] = (uint32_t)R;
    if (td_far_rows_n(p, c, 2, regs, strides, R, w)) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check_q(const td_case *c) {
    const td_pval *v = c->p;
    int64_t half = v[PQ_HALF].i, H = c->grid[0], T = c->grid[1];
    if (v[PQ_HDS].i <= 0) return "hstride: 0 < head_dim_stride";
    if (half < 1 || (half & (half - 1))) return "HALF_DIM: a power of two (HEAD_DIM = 2*HALF_DIM is a tl.arange bound)";
    if (v[PQ_QHS].i < 2 * half * v[PQ_HDS].i || v[PQ_QTS].i < H * v[PQ_QHS].i)
        return "q strides: heads and tokens do not overlap (the two halves' writes are injective)";
    if (v[PQ_CS].i <= 0 || v[PQ_CTS].i < half * v[PQ_CS].i) return "cos/sin strides hold HALF_DIM columns";
    if (c->r[RQ_Q].len < (size_t)((T - 1) * v[PQ_QTS].i + H * v[PQ_QHS].i) ||
        c->r[RQ_COS].len < (size_t)((T - 1) * v[PQ_CTS].i + half * v[PQ_CS].i) ||
        c->r[RQ_SIN].len < (size_t)((T - 1) * v[PQ_CTS].i + half * v[PQ_CS].i) || c->grid[2] != 1)
        return "regions hold every token's heads and table row";
    return NULL;
}

static void writes_q(const td_case *c, td_wset *ws) {
    const td_pval *v = c->p;
    int64_t half = v[PQ_HALF].i;
    for (uint32_t h = 0; h < c->grid[0]; h++)
        for (uint32_t t = 0; t < c->grid[1]; t++)
            for (int64_t j = 0; j < half; j++) {
                int64_t x0 = t * v[PQ_QTS].i + h * v[PQ_QHS].i + j * v[PQ_HDS].i;
                int64_t x1 = x0 + half * v[PQ_HDS].i, cs = t * v[PQ_CTS].i + j * v[PQ_CS].i;
                for (int second = 0; second < 2; second++) rope_lane(ws, RQ_Q, x0, x1, cs, cs, second, 0, h, t, (uint64_t)j);
            }
}

/* ---- the v-cache chain ---- */
static const td_param_decl params_v[NPV] = {
    {"KV_GROUP_NUM", TD_P_INT}, {"k_token_stride", TD_P_INT}, {"k_head_stride", TD_P_INT},
    {"head_dim_stride", TD_P_INT}, {"vcb_stride", TD_P_INT},  {"vch_stride", TD_P_INT},
    {"vcs_stride", TD_P_INT},   {"vcd_stride", TD_P_INT},     {"bts_stride", TD_P_INT},
    {"btb_stride", TD_P_INT},   {"block_size", TD_P_INT},     {"HEAD_DIM", TD_P_INT}};
static const td_region_decl regions_v[NRV] = {{"v", TD_F32, TD_R_IN},
                                              {"v_cache", TD_F32, TD_R_INOUT},
                                              {"BLOCK_TABLES", TD_I32, TD_R_META},
                                              {"context_lengths", TD_I32, TD_R_META}};

static void gen_v(td_producer *p, td_case *c) {
    static const int64_t bss[] = {1, 2, 4, 8, 16};
    int64_t G = (int64_t)td_gen_pow2(p, 0, 2), HK = 1 + td_prod_u32(p, 0, 3), T = 1 + td_prod_u32(p, 0, 7);
    int64_t D = (int64_t)td_gen_pow2(p, 0, 6), bsz = bss[td_prod_u32(p, 0, 4)], maxlen = bsz * (1 + td_prod_u32(p, 0, 3)) + 1;
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p120);
    int64_t lens[8], starts[9], nblk[8], tot = 0, maxb = 0;
    td_gen_ragged(p, &g.rng, lens, starts, (int)T, 1, maxlen, bsz, &c->classes);
    for (int64_t t = 0; t < T; t++) {
        nblk[t] = (lens[t] + bsz - 1) / bsz, tot += nblk[t];
        if (nblk[t] > maxb) maxb = nblk[t];
    }
    int64_t nb = tot + td_prod_u32(p, 0, 3), btb = 1, bts = maxb + 1 + td_prod_u32(p, 0, 2);
    int64_t hds = 1 + (td_prod_u32(p, 0, 3) == 0), khs = D * hds, kts = HK * khs + td_prod_u32(p, 0, 3);
    int64_t vcd = 1, vcs = D + (td_prod_u32(p, 0, 3) == 0), vch = bsz * vcs, vcb = HK * vch;
    int64_t v[NPV] = {G, kts, khs, hds, vcb, vch, vcs, vcd, bts, btb, bsz, D};
    for (int k = 0; k < NPV; k++) c->p[k].i = v[k];
    c->grid[0] = (uint32_t)(HK * G), c->grid[1] = (uint32_t)T, c->grid[2] = 1;
    td_case_alloc(c, RV_V, (size_t)(T * kts));
    td_case_alloc(c, RV_VC, (size_t)(nb * vcb));
    td_case_alloc(c, RV_BT, (size_t)(T * bts));
    td_case_alloc(c, RV_CL, (size_t)T);
    td_vgen_fill(&g, c, RV_V);
    td_vgen_fill(&g, c, RV_VC);
    int64_t *ids = malloc((size_t)tot * sizeof *ids);
    if (!ids) abort();
    td_gen_slots(p, &g.rng, ids, tot, nb, &c->classes); /* every token's blocks distinct */
    for (int64_t t = 0, k = 0; t < T; t++) {
        td_seti(c, RV_CL, (size_t)t, lens[t]);
        for (int64_t b = 0; b < bts; b++) /* unused cells: valid ids (a wrong read stays in range) */
            td_seti(c, RV_BT, (size_t)(t * bts + b), b < nblk[t] ? ids[k + b] : (int64_t)td_rng_below(&g.rng, (uint64_t)nb));
        k += nblk[t];
    }
    free(ids);
    if (G > 1) c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* programs of a group that write nothing */
    if (hds > 1 || vcs > D) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* Offsets beyond 2^31: v is the read-only region, read at cur_token_idx *
 * k_token_stride (int32 in the original, as above).  The tokens are cut to at most
 * TD_FAR_MAX_ROWS (their block tables and lengths kept) and v's token stride moves near
 * 2^31; the classes of the cut tokens' lengths and blocks go. */
static void far_v(td_producer *p, td_case *c) {
    static const int reg = RV_V, stride = PV_KTS;
    const uint64_t cut = TD_BC(TD_BC_IDX_PERMUTATION) | TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_SEQ_SINGLE) |
                         TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_SEQ_ENDS_AT_END);
    int64_t T = c->grid[1], R = T < TD_FAR_MAX_ROWS ? T : TD_FAR_MAX_ROWS, G = c->p[PV_G].i;
    int64_t HK = (int64_t)c->grid[0] / G, w = (HK - 1) * c->p[PV_KHS].i + (c->p[PV_HD].i - 1) * c->p[PV_HDS].i + 1;
    if (R < 2) return; /* one token: no offset to move */
    if (R < T) c->classes &= ~cut;
    c->grid[1] = (uint32_t)R;
    if (td_far_rows_n(p, c, 1, &reg, &stride, R, &w)) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check_v(const td_case *c) {
    const td_pval *v = c->p;
    int64_t G = v[PV_G].i, T = c->grid[1], D = v[PV_HD].i, bsz = v[PV_BS].i, HK = (int64_t)c->grid[0] / (G ? G : 1);
    if (G < 1 || bsz < 1 || D < 1 || c->grid[0] % (uint32_t)G || c->grid[2] != 1) return "KV_GROUP_NUM divides the heads";
    if (v[PV_KHS].i < D * v[PV_HDS].i || v[PV_KTS].i < HK * v[PV_KHS].i || v[PV_HDS].i < 1) return "v strides";
    if (v[PV_VCD].i < 1 || v[PV_VCS].i < D * v[PV_VCD].i || v[PV_VCH].i < bsz * v[PV_VCS].i || v[PV_VCB].i < HK * v[PV_VCH].i)
        return "v_cache strides: [blocks, kv heads, block_size, HEAD_DIM] do not overlap";
    if (c->r[RV_V].len < (size_t)((T - 1) * v[PV_KTS].i + HK * v[PV_KHS].i) || c->r[RV_CL].len < (size_t)T)
        return "v and context_lengths hold every token";
    int64_t nb = (int64_t)(c->r[RV_VC].len / (size_t)v[PV_VCB].i);
    char *used = calloc((size_t)(nb > 0 ? nb : 1), 1);
    const char *why = NULL;
    for (int64_t t = 0; t < T && !why; t++) {
        int64_t L = td_geti(c, RV_CL, (size_t)t), cell = t * v[PV_BTS].i + ((L - 1) / bsz) * v[PV_BTB].i;
        if (L < 1) why = "context_lengths >= 1 (m1 - 1 is a nat subtraction)";
        else if (cell < 0 || (size_t)cell >= c->r[RV_BT].len) why = "BLOCK_TABLES holds the last block of every token";
        else {
            int64_t b = td_geti(c, RV_BT, (size_t)cell);
            if (b < 0 || b >= nb) why = "block ids inside v_cache";
            else if (used[b]++) why = "distinct tokens' last blocks are distinct (injective cache writes)";
        }
    }
    free(used);
    return why;
}

static void writes_v(const td_case *c, td_wset *ws) {
    const td_pval *v = c->p;
    int64_t G = v[PV_G].i, bsz = v[PV_BS].i;
    for (uint32_t h = 0; h < c->grid[0]; h += (uint32_t)G)
        for (uint32_t t = 0; t < c->grid[1]; t++) {
            int64_t L = td_geti(c, RV_CL, t), kh = h / G;
            int64_t b = td_geti(c, RV_BT, (size_t)(t * v[PV_BTS].i + ((L - 1) / bsz) * v[PV_BTB].i));
            for (int64_t j = 0; j < v[PV_HD].i; j++) {
                td_olane l = {0};
                l.region = RV_VC;
                l.off = (uint64_t)(b * v[PV_VCB].i + kh * v[PV_VCH].i + ((L - 1) % bsz) * v[PV_VCS].i + j * v[PV_VCD].i);
                l.pid[0] = h, l.pid[1] = t, l.j = (uint64_t)j;
                l.idx[0] = t * v[PV_KTS].i + kh * v[PV_KHS].i + j * v[PV_HDS].i;
                td_wset_add(ws, &l);
            }
        }
}

#define FR_CLASSES_Q                                                                                             \
    (TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | \
     TD_BC(TD_BC_INPLACE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_POS_EXTREME) | TD_BC(TD_BC_POS_NONMONOTONE) | \
     TD_BC(TD_BC_OFFSET_2_31))

/* ---- intent (docs/intent.md; the definitions in rope_common.h) ---- */
static const td_intent i_q = {
    .operation = "GPT-NeoX rotary embedding of q in place: pairs (j, j + HALF_DIM), angle of the token's table row",
    .definition = ROPE_DEF_NEOX,
    TD_SPECS(frq_intent),
};

const td_contract td_c_fused_rotary_q = {
    .id = "fused_rotary_embedding.decoding_fused_rotary_embedding_q_correctness",
    .file = "fused_rotary_embedding",
    .family = "rotary",
    .io_class = "GroupedMasked2DKernelIO (decodingRotaryQIO)",
    .kind = "exact",
    .formula = "q0' = q0*c - q1*sn; q1' = q0*sn + q1*c (table row = token)",
    .nparams = NPQ,
    .params = params_q,
    .nregions = NRQ,
    .regions = regions_q,
    .sv = TD_SV_REAL,
    .sv_note = "|q| <= 2^100, tables in [-1, 1]: every intermediate is finite",
    .error_model = "two binary32 products (exact rounding errors) + one rounded sum: any order, FMA or not",
    .classes = FR_CLASSES_Q,
    .gen = gen_q,
    .far = far_q,
    .check = check_q,
    .writes = writes_q,
    TD_SPECS(frq),
    .intent = &i_q,
};

const td_contract td_c_fused_rotary_vcache = {
    .id = "fused_rotary_embedding.decoding_fused_rotary_embedding_vcache_chain_correctness",
    .file = "fused_rotary_embedding",
    .family = "rotary",
    .io_class = "ChainMetaGroupedMasked2DKernelIO (decodingVCacheChainIO)",
    .kind = "exact",
    .formula = "v_cache[BLOCK_TABLES[t, (len-1)/bs], pid0/G, (len-1)%bs, d] = v[t, pid0/G, d] (pid0 % G = 0)",
    .nparams = NPV,
    .params = params_v,
    .nregions = NRV,
    .regions = regions_v,
    .sv = TD_SV_REAL,
    .sv_note = "a copy: finite values stay finite",
    .error_model = "a copy (tolerance 0)",
    .classes = TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_FULLY_MASKED) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_IDX_PERMUTATION) | TD_BC(TD_BC_IDX_FIRST_LAST) |
               TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_SEQ_ENDS_AT_END) |
               TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen_v,
    .far = far_v,
    .check = check_v,
    .writes = writes_v,
    TD_SPECS(frv),
};
