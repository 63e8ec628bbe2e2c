/* rotary_emb_nopad.rotary_emb_nopad_output_summary_general  (catalogue part 2; ColossalAI's
 * rotary_embedding_kernel and fused_rotary_embedding_kernel_v2)
 *
 *   (1) the surface of rotary_embedding_kernel lowers (surf_* : its 12 launch arguments);
 *   (2) rotaryNopadQIO: Q[dataFirstP / dataSecondP] := rotaryPair(q0, q1, c, s, o),
 *       rotaryPair o=0: q0*c - q1*s, o=1: q0*s + q1*c; lanes (token in the BLOCK_TOKENS
 *       tile, i < HEAD_HALF), active when pid0 < Q_HEAD_NUM and token < q_total_tokens;
 *       Cos and Sin both read at cosP (the sin tile uses the cos strides);
 *   (3) rotaryNopadKIO: the same on K, head pid0/KV_GROUP_NUM, active when pid0 % KV_GROUP_NUM = 0;
 *   (4) the surface of fused_rotary_embedding_kernel_v2 lowers;
 *   (5) fusedV2QIO: Q of program (head, token) rotated (c, s replaced by 0 when
 *       pid1 >= v2_q_total_tokens), writeMask pid0 < v2_Q_HEAD_NUM;
 *   (6) fusedV2CacheIO: KVCache[block*cacheb + pid0*cacheh + ((len-1) % block_size)*cachebs
 *       + i*cached (first half) / (i + HALF)*cached (second)] := rotaryPair(k0, k1, c, s),
 *       len = ContextLengths[pid1], block = BlockTables[pid1*bts + ((len-1)/block_size)*btb].
 *   hQInj.., hKInj.., hV2QInj..: the halves' offsets injective and disjoint; hV2CacheDisjoint.
 *
 * How the six conjuncts become one differential contract.  They are statements about two
 * kernels, each from its own initial state; the wrapper `rotary_embedding` runs one or the
 * other (k_cache given or not).  A case here is one of the two launches, chosen by the
 * parameter FUSED_V2 (not a catalogue parameter: the wrapper's `k_cache is not None`):
 *   FUSED_V2 = 0: rotary_embedding_kernel, grid (Q_HEAD_NUM, cdiv(q_total_tokens,
 *     BLOCK_TOKENS)); the write set is (2) and (3); KVCache is not written;
 *   FUSED_V2 = 1: fused_rotary_embedding_kernel_v2, grid (next_pow2(Q_HEAD_NUM),
 *     q_total_tokens) (programs with pid0 >= Q_HEAD_NUM return at once); the write set is
 *     (5) and (6); K is not written (the rotated key goes to the cache only).
 * The surface arguments surf_* are the kernel's launch arguments; the IO parameters of the
 * conjuncts describe the same launch: the checker requires them equal to the surf_* ones
 * ("the statement's surface and IO parameters describe one launch").
 *
 * Checked against the original (rotary_emb_nopad.py, RotaryEmbNopad.lean): the Q/K stores
 * are the kernel's `loaded_q0 * loaded_cos - loaded_q1 * loaded_sin` and
 * `loaded_q0 * loaded_sin + loaded_q1 * loaded_cos`; cos/sin indexed by the token (the
 * caller gathers each token's position row: the tables are the angles of the tokens'
 * positions); both halves loaded before either store; v2 reads K with the *q* head index
 * (block_head_index * k_head_stride) and stores into cache head pid0: K and the cache have
 * Q_HEAD_NUM heads in v2 cases (the kernel's own requirement; with fewer K heads it reads
 * past them); the v2 zeroing of c, s when pid1 >= v2_q_total_tokens is dead under the
 * wrapper's grid (pid1 < q_total_tokens), kept in the spec reading as a note only.
 * context_length >= 1 and distinct tokens' last blocks distinct (each decode token is its
 * own sequence) make the cache writes injective (hV2CacheDisjoint and across programs).
 * Error model (every admissible implementation; rope_common.spec.h): per lane
 *   |err| <= e(a*c) + e(b*s) + u*(|r| + e(a*c) + e(b*s)) + subnormal terms,
 * e(p) the exact rounding error of the binary32 product (0 if fused into an FMA), u = 2^-24.
 * Special values: |Q|, |K| <= 2^100, tables in [-1, 1]: every intermediate is finite. */
#include "gen_far.h"
#include "rope_common.h"

enum {
    /* surf_*: rotary_embedding_kernel's launch arguments (also the v2 kernel's) */
    S_QTS, S_QHS, S_KTS, S_KHS, S_HDS, S_CTS, S_CS, S_T, S_QH, S_G, S_HD, S_BT,
    /* rotaryNopadQIO */
    Q_QTS, Q_QHS, Q_HDS, Q_CTS, Q_CS, Q_T, Q_QH, Q_HALF, Q_BT,
    /* rotaryNopadKIO */
    K_KTS, K_KHS, K_T, K_G,
    /* fusedV2QIO */
    V_QTS, V_QHS, V_HDS, V_CTS, V_CS, V_T, V_QH, V_HALF,
    /* fusedV2CacheIO */
    V_KTS, V_KHS, C_B, C_H, C_BS, C_D, C_BTS, C_BTB, C_BSZ,
    P_V2, NP
};
enum { R_Q, R_K, R_COS, R_SIN, R_KVC, R_BT, R_CL, NR };

#define TD_SPEC_FILE "rotary_emb_nopad.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"surf_q_token_stride", TD_P_INT}, {"surf_q_head_stride", TD_P_INT}, {"surf_k_token_stride", TD_P_INT},
    {"surf_k_head_stride", TD_P_INT},  {"surf_head_dim_stride", TD_P_INT}, {"surf_cos_token_stride", TD_P_INT},
    {"surf_cos_stride", TD_P_INT},     {"surf_q_total_tokens", TD_P_INT}, {"surf_Q_HEAD_NUM", TD_P_INT},
    {"surf_KV_GROUP_NUM", TD_P_INT},   {"surf_HEAD_DIM", TD_P_INT},       {"surf_BLOCK_TOKENS", TD_P_INT},
    {"q_token_stride", TD_P_INT},      {"q_head_stride", TD_P_INT},       {"head_dim_stride", TD_P_INT},
    {"cos_token_stride", TD_P_INT},    {"cos_stride", TD_P_INT},          {"q_total_tokens", TD_P_INT},
    {"Q_HEAD_NUM", TD_P_INT},          {"HEAD_HALF", TD_P_INT},           {"BLOCK_TOKENS", TD_P_INT},
    {"k_token_stride", TD_P_INT},      {"k_head_stride", TD_P_INT},       {"k_q_total_tokens", TD_P_INT},
    {"KV_GROUP_NUM", TD_P_INT},        {"v2_q_token_stride", TD_P_INT},   {"v2_q_head_stride", TD_P_INT},
    {"v2_head_dim_stride", TD_P_INT},  {"v2_cos_token_stride", TD_P_INT}, {"v2_cos_stride", TD_P_INT},
    {"v2_q_total_tokens", TD_P_INT},   {"v2_Q_HEAD_NUM", TD_P_INT},       {"v2_HEAD_HALF", TD_P_INT},
    {"v2_k_token_stride", TD_P_INT},   {"v2_k_head_stride", TD_P_INT},    {"cacheb_stride", TD_P_INT},
    {"cacheh_stride", TD_P_INT},       {"cachebs_stride", TD_P_INT},      {"cached_stride", TD_P_INT},
    {"bts_stride", TD_P_INT},          {"btb_stride", TD_P_INT},          {"block_size", TD_P_INT},
    {"FUSED_V2", TD_P_BOOL}};
static const td_region_decl regions[NR] = {
    {"Q", TD_F32, TD_R_INOUT},         {"K", TD_F32, TD_R_INOUT},          {"Cos", TD_F32, TD_R_IN},
    {"Sin", TD_F32, TD_R_IN},          {"KVCache", TD_F32, TD_R_INOUT},    {"BlockTables", TD_I32, TD_R_META},
    {"ContextLengths", TD_I32, TD_R_META}};

static int64_t np2(int64_t n) {
    int64_t b = 1;
    while (b < n) b *= 2;
    return b;
}

/* the paged cache of the v2 kernel: per token its own blocks (lengths from the ragged
 * generator), block ids an injection into the cache; unused table cells hold valid ids */
static void gen_cache(td_producer *p, td_case *c, td_vgen *g, int64_t T, int64_t H, int64_t half) {
    static const int64_t bss[] = {1, 2, 4, 8, 16};
    int64_t bsz = bss[td_prod_u32(p, 0, 4)], maxlen = bsz * (1 + td_prod_u32(p, 0, 3)) + 1;
    int64_t lens[16], starts[17], nblk[16], tot = 0, maxb = 0;
    td_gen_ragged(p, &g->rng, lens, starts, (int)T, 1, maxlen, bsz, &c->classes);
    for (int64_t t = 0; t < T; t++) {
        nblk[t] = (lens[t] + bsz - 1) / bsz, tot += nblk[t];
        if (nblk[t] > maxb) maxb = nblk[t];
    }
    int64_t nb = tot + td_prod_u32(p, 0, 3), bts = maxb + 1 + td_prod_u32(p, 0, 2);
    int64_t cd = 1, cbs = 2 * half + (td_prod_u32(p, 0, 3) == 0), ch = bsz * cbs, cb = H * ch;
    int64_t v[] = {cb, ch, cbs, cd, bts, 1, bsz};
    for (int k = 0; k < 7; k++) c->p[C_B + k].i = v[k];
    td_case_alloc(c, R_KVC, (size_t)(nb * cb));
    td_case_alloc(c, R_BT, (size_t)(T * bts));
    td_case_alloc(c, R_CL, (size_t)T);
    td_vgen_fill(g, c, R_KVC);
    int64_t *ids = malloc((size_t)tot * sizeof *ids);
    if (!ids) abort();
    td_gen_slots(p, &g->rng, ids, tot, nb, &c->classes);
    for (int64_t t = 0, k = 0; t < T; t++) {
        td_seti(c, R_CL, (size_t)t, lens[t]);
        for (int64_t b = 0; b < bts; b++)
            td_seti(c, R_BT, (size_t)(t * bts + b), b < nblk[t] ? ids[k + b] : (int64_t)td_rng_below(&g->rng, (uint64_t)nb));
        k += nblk[t];
    }
    free(ids);
}

static void gen(td_producer *p, td_case *c) {
    int v2 = td_prod_bool(p);
    int64_t G = v2 ? 1 : (int64_t)td_gen_pow2(p, 0, 2), HK = 1 + td_prod_u32(p, 0, 3), QH = HK * G;
    static const unsigned wbt[] = {3, 1, 1, 1};
    static const int64_t bts_[] = {4, 1, 2, 8};
    int64_t T = 1 + td_prod_u32(p, 0, 15), half = (int64_t)td_gen_pow2(p, 0, 5);
    int64_t BT = v2 ? 1 : bts_[td_prod_pick(p, wbt, 4)]; /* the wrapper's BLOCK_TOKENS is 4 */
    int64_t hds = 1 + (td_prod_u32(p, 0, 3) == 0), cst = 1 + (td_prod_u32(p, 0, 3) == 0);
    int64_t qhs = 2 * half * hds + (td_prod_u32(p, 0, 3) == 0), qts = QH * qhs + td_prod_u32(p, 0, 3);
    int64_t khs = 2 * half * hds + (td_prod_u32(p, 0, 3) == 0), kts = HK * khs + td_prod_u32(p, 0, 3);
    int64_t cts = half * cst + td_prod_u32(p, 0, 2);
    int64_t s[12] = {qts, qhs, kts, khs, hds, cts, cst, T, QH, G, 2 * half, BT};
    for (int k = 0; k < 12; k++) c->p[S_QTS + k].i = s[k];
    int64_t q[9] = {qts, qhs, hds, cts, cst, T, QH, half, BT}, kk[4] = {kts, khs, T, G};
    for (int k = 0; k < 9; k++) c->p[Q_QTS + k].i = q[k];
    for (int k = 0; k < 4; k++) c->p[K_KTS + k].i = kk[k];
    int64_t w[10] = {qts, qhs, hds, cts, cst, T, QH, half, kts, khs};
    for (int k = 0; k < 10; k++) c->p[V_QTS + k].i = w[k];
    c->p[P_V2].i = v2;
    c->grid[0] = (uint32_t)(v2 ? np2(QH) : QH), c->grid[1] = (uint32_t)(v2 ? T : (T + BT - 1) / BT), c->grid[2] = 1;
    td_case_alloc(c, R_Q, (size_t)(T * qts));
    td_case_alloc(c, R_K, (size_t)(T * kts));
    td_case_alloc(c, R_COS, (size_t)(T * cts));
    td_case_alloc(c, R_SIN, (size_t)(T * cts));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, R_Q);
    td_vgen_fill(&g, c, R_K);
    rope_fill_tables(p, c, &g, R_COS, cts, cst, R_SIN, cts, cst, T, half, NULL);
    if (v2) gen_cache(p, c, &g, T, QH, half);
    else { /* no cache in this launch: the regions exist, the kernel never touches them */
        for (int k = C_B; k <= C_BSZ; k++) c->p[k].i = 1;
        td_case_alloc(c, R_KVC, 1), td_case_alloc(c, R_BT, 1), td_case_alloc(c, R_CL, 1);
        td_seti(c, R_CL, 0, 1);
    }
    c->classes |= TD_BC(TD_BC_INPLACE);
    td_gen_mark_shape((uint64_t)T, (uint64_t)BT, c->grid[1], &c->classes);
    c->classes &= ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM));
    if (c->grid[0] * c->grid[1] == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (G > 1 || c->grid[0] > (uint32_t)QH) c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* programs that write no K / nothing */
    if (hds > 1 || cst > 1 || qhs > 2 * half * hds || khs > 2 * half * hds) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* Offsets beyond 2^31 (gen_far.h): Cos and Sin are the read-only regions (Q, K and
 * the cache are written: outputs stay dense), both read at token * cos_token_stride, in
 * the original an int32 product (program_id-derived token range, the unannotated stride).
 * The tokens are cut to at most TD_FAR_MAX_ROWS (every copy of q_total_tokens and the
 * grid follow; the v2 cache's tables keep their rows) and the one table stride (all
 * three copies) moves near 2^31; the classes of the old count and cache go. */
static void far(td_producer *p, td_case *c) {
    static const int regs[2] = {R_COS, R_SIN}, strides[2] = {S_CTS, S_CTS};
    const uint64_t cut = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_EXACT_MULTIPLE) |
                         TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) |
                         TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_POS_EXTREME) | TD_BC(TD_BC_POS_NONMONOTONE) |
                         TD_BC(TD_BC_IDX_PERMUTATION) | TD_BC(TD_BC_IDX_FIRST_LAST) | TD_BC(TD_BC_SEQ_SINGLE) |
                         TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_SEQ_ENDS_AT_END);
    int64_t T = c->p[S_T].i, R = T < TD_FAR_MAX_ROWS ? T : TD_FAR_MAX_ROWS, BT = c->p[S_BT].i;
    int64_t wt = (c->p[Q_HALF].i - 1) * c->p[S_CS].i + 1, w[2] = {wt, wt};
    if (R < 2) return; /* one token: no offset to move */
    if (R < T) c->classes &= ~cut;
    c->p[S_T].i = c->p[Q_T].i = c->p[K_T].i = c->p[V_T].i = R;
    c->grid[1] = (uint32_t)(c->p[P_V2].i ? R : (R + BT - 1) / BT);
    if (!td_far_rows_n(p, c, 2, regs, strides, R, w)) return;
    c->p[Q_CTS].i = c->p[V_CTS].i = c->p[S_CTS].i;
    c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check(const td_case *c) {
    const td_pval *v = c->p;
    static const int same[][2] = {{Q_QTS, S_QTS}, {Q_QHS, S_QHS}, {Q_HDS, S_HDS}, {Q_CTS, S_CTS}, {Q_CS, S_CS},
                                  {Q_T, S_T},     {Q_QH, S_QH},   {Q_BT, S_BT},   {K_KTS, S_KTS}, {K_KHS, S_KHS},
                                  {K_T, S_T},     {K_G, S_G},     {V_QTS, S_QTS}, {V_QHS, S_QHS}, {V_HDS, S_HDS},
                                  {V_CTS, S_CTS}, {V_CS, S_CS},   {V_T, S_T},     {V_QH, S_QH},   {V_KTS, S_KTS},
                                  {V_KHS, S_KHS}, {V_HALF, Q_HALF}};
    for (size_t k = 0; k < sizeof same / sizeof same[0]; k++)
        if (v[same[k][0]].i != v[same[k][1]].i) return "the statement's surface and IO parameters describe one launch";
    int64_t half = v[Q_HALF].i, T = v[S_T].i, QH = v[S_QH].i, G = v[S_G].i, hds = v[S_HDS].i, v2 = v[P_V2].i;
    if (v2 & ~1) return "FUSED_V2: a bool";
    if (half < 1 || (half & (half - 1)) || v[S_HD].i != 2 * half) return "HEAD_DIM = 2*HEAD_HALF, a power of two";
    if (T < 1 || QH < 1 || G < 1 || QH % G || v[S_BT].i < 1) return "1 <= q_total_tokens, BLOCK_TOKENS; KV_GROUP_NUM divides Q_HEAD_NUM";
    if (v2 && G != 1) return "v2: K is read with the q head index (K has Q_HEAD_NUM heads, KV_GROUP_NUM = 1)";
    if (hds < 1 || v[S_QHS].i < 2 * half * hds || v[S_KHS].i < 2 * half * hds || v[S_QTS].i < QH * v[S_QHS].i ||
        v[S_KTS].i < (QH / G) * v[S_KHS].i)
        return "hQInj, hKInj, hQDisjoint, hKDisjoint: heads and tokens do not overlap";
    if (v[S_CS].i < 1 || v[S_CTS].i < half * v[S_CS].i) return "cos/sin strides hold HEAD_HALF columns";
    uint32_t g0 = (uint32_t)(v2 ? 0 : QH), g1 = (uint32_t)(v2 ? T : (T + v[S_BT].i - 1) / v[S_BT].i);
    if ((v2 ? c->grid[0] < (uint32_t)QH : c->grid[0] != g0) || c->grid[1] != g1 || c->grid[2] != 1)
        return "grid: the wrapper's for the launch";
    if (c->r[R_Q].len < (size_t)((T - 1) * v[S_QTS].i + QH * v[S_QHS].i) ||
        c->r[R_K].len < (size_t)((T - 1) * v[S_KTS].i + (QH / G) * v[S_KHS].i) ||
        c->r[R_COS].len < (size_t)((T - 1) * v[S_CTS].i + half * v[S_CS].i) ||
        c->r[R_SIN].len < (size_t)((T - 1) * v[S_CTS].i + half * v[S_CS].i))
        return "Q, K, Cos, Sin hold every token";
    if (!v2) return NULL;
    int64_t bsz = v[C_BSZ].i, cb = v[C_B].i;
    if (bsz < 1 || v[C_D].i < 1 || v[C_BS].i < 2 * half * v[C_D].i || v[C_H].i < bsz * v[C_BS].i || cb < QH * v[C_H].i)
        return "hV2CacheDisjoint: cache strides [blocks, heads, block_size, HEAD_DIM] do not overlap";
    if (c->r[R_CL].len < (size_t)T) return "ContextLengths holds every token";
    int64_t nb = (int64_t)(c->r[R_KVC].len / (size_t)cb);
    char *used = calloc((size_t)(nb > 0 ? nb : 1), 1);
    const char *why = NULL;
    for (int64_t t = 0; t < T && !why; t++) {
        int64_t L = td_geti(c, R_CL, (size_t)t), cell = t * v[C_BTS].i + ((L - 1) / bsz) * v[C_BTB].i;
        if (L < 1) why = "ContextLengths >= 1 (len - 1 is a nat subtraction)";
        else if (cell < 0 || (size_t)cell >= c->r[R_BT].len) why = "BlockTables holds every token's last block";
        else {
            int64_t b = td_geti(c, R_BT, (size_t)cell);
            if (b < 0 || b >= nb) why = "block ids inside KVCache";
            else if (used[b]++) why = "distinct tokens' last blocks are distinct (injective cache writes)";
        }
    }
    free(used);
    return why;
}

static void writes(const td_case *c, td_wset *ws) {
    const td_pval *v = c->p;
    int64_t half = v[Q_HALF].i, T = v[S_T].i, QH = v[S_QH].i, G = v[S_G].i, hds = v[S_HDS].i, BT = v[S_BT].i;
    for (int64_t h = 0; h < QH; h++)
        for (int64_t t = 0; t < T; t++) {
            uint32_t p0 = (uint32_t)h, p1 = (uint32_t)(v[P_V2].i ? t : t / BT);
            int64_t cs = t * v[S_CTS].i, q0 = t * v[S_QTS].i + h * v[S_QHS].i;
            int64_t k0 = t * v[S_KTS].i + (h / G) * v[S_KHS].i, blk = 0, slot = 0;
            if (v[P_V2].i) {
                int64_t L = td_geti(c, R_CL, (size_t)t);
                blk = td_geti(c, R_BT, (size_t)(t * v[C_BTS].i + ((L - 1) / v[C_BSZ].i) * v[C_BTB].i));
                slot = blk * v[C_B].i + h * v[C_H].i + ((L - 1) % v[C_BSZ].i) * v[C_BS].i;
            }
            for (int64_t i = 0; i < half; i++) {
                int64_t co = cs + i * v[S_CS].i, a = q0 + i * hds, b = k0 + i * hds;
                uint64_t j = (uint64_t)((t % BT) * half + i);
                for (int second = 0; second < 2; second++) {
                    rope_lane(ws, R_Q, a, a + half * hds, co, co, second, 0, p0, p1, j);
                    if (v[P_V2].i)
                        rope_lane_to(ws, R_KVC, slot + (i + (second ? half : 0)) * v[C_D].i, b, b + half * hds, co, co,
                                     second, p0, p1, j);
                    else if (h % G == 0)
                        rope_lane(ws, R_K, b, b + half * hds, co, co, second, 0, p0, p1, j);
                }
            }
        }
}

/* ---- intent (docs/intent.md; the definitions in rope_common.h) ---- */
static const td_intent i_one = {
    .operation = "GPT-NeoX rotary embedding of Q and K (or of K into its cache slot under FUSED_V2): pairs (i, i + HEAD_HALF), angle of the token's table row",
    .definition = ROPE_DEF_NEOX,
    TD_SPECS(nopad_intent),
};

const td_contract td_c_rotary_emb_nopad = {
    .id = "rotary_emb_nopad.rotary_emb_nopad_output_summary_general",
    .file = "rotary_emb_nopad",
    .family = "rotary",
    .io_class = "GroupedMasked2DKernelIO (rotaryNopadQIO, rotaryNopadKIO, fusedV2QIO) + ChainMetaGroupedMasked2DKernelIO "
                "(fusedV2CacheIO) + 2 lowerings",
    .kind = "exact",
    .formula = "rotaryPair: x0*c - x1*s, x0*s + x1*c on Q, K (nopad) or Q and KVCache[slot of len-1] from K (v2)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "|Q|, |K| <= 2^100, tables in [-1, 1]: every intermediate is finite",
    .error_model = "two binary32 products (exact rounding errors) + one rounded sum: any order, FMA or not",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_EXACT_MULTIPLE) |
               TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_INPLACE) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_POS_EXTREME) |
               TD_BC(TD_BC_POS_NONMONOTONE) | TD_BC(TD_BC_IDX_PERMUTATION) | TD_BC(TD_BC_IDX_FIRST_LAST) |
               TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_SEQ_ENDS_AT_END) |
               TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(nopad),
    .intent = &i_one,
};
