/* rotary_emb.rotary_emb_kernel_correctness  (catalogue part 2; lightllm's `_rotary_kernel`)
 *
 *   rotaryQ0IO / Q1IO / K0IO / K1IO (4-lane inputs: data even, data odd, cos, sin) + the
 *   surface's lowering:  even lane  x[2i]*cos - x[2i+1]*sin,  odd lane  x[2i]*sin + x[2i+1]*cos
 *   hQEven, hQOdd, hKEven, hKOdd: i -> 2i*stride_qd, (2i+1)*stride_qd (and _kd) injective.
 *
 * Kernel (bench/tritonbench_g/rotary_emb/rotary_emb.py): grid (cdiv(HEAD_Q, BLOCK_HEAD),
 * cdiv(max_total_len, BLOCK_SEQ)); program (h, s) rotates, in place, the interleaved pairs
 * (2i, 2i+1), i < BLOCK_DMODEL/2, of every token t in [s*BLOCK_SEQ, ...) < max_total_len
 * and head in [h*BLOCK_HEAD, ...) < HEAD_Q of Q (< HEAD_K of K) by the table row t.  The
 * dims from BLOCK_DMODEL on are not touched (partial_rotary_factor < 1).
 *
 * What was checked ([named] IO classes, RotaryEmb.lean and the .py):
 *   - The Lean slices are one (token, head) program each; the surface (the kernel) tiles
 *     BLOCK_SEQ x BLOCK_HEAD.  The write set is the same (every token < max_total_len, head
 *     < HEAD_Q / HEAD_K, pair i < BLOCK_HALF, both elements); the grid here is the kernel's.
 *   - rotaryQ1Spec reads Cos/Sin at dimEven (2i); the .py's out1 reads cos1/sin1 at the odd
 *     column 2i+1.  They agree exactly when the tables repeat each angle over its pair
 *     (cos[t, 2i] = cos[t, 2i+1], the repeat_interleave layout interleaved caches have):
 *     a precondition here, built by the generator and checked ("hPairTables").
 *   - K heads beyond cdiv(HEAD_Q, BLOCK_HEAD)*BLOCK_HEAD are never visited: the generator
 *     keeps HEAD_K <= HEAD_Q (grouped-query attention), as lightllm's callers do.
 *   - Both elements of a pair are loaded before either is stored (composition holds).
 * Error model (every admissible implementation; rope_common.spec.h): per lane
 *   |err| <= e(a*c) + e(b*s) + u*(|r| + e(a*c) + e(b*s)) + subnormal terms,
 * e(p) the exact rounding error of the binary32 product of two exact inputs (0 if fused
 * into an FMA), u = 2^-24.  Special values: |Q|, |K| <= 2^100, tables in [-1, 1] (finite). */
#include "gen_far.h"
#include "rope_common.h"

enum {
    P_QBS, P_QH, P_QD, P_KBS, P_KH, P_KD, P_CBS, P_CD, P_SBS, P_SD, P_TOTAL, P_HQ, P_HK,
    P_BH, P_BS, P_BD, P_BHALF, NP
};
enum { R_Q, R_K, R_COS, R_SIN, NR };

#define TD_SPEC_FILE "rotary_emb.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride_qbs", TD_P_INT},   {"stride_qh", TD_P_INT},  {"stride_qd", TD_P_INT},    {"stride_kbs", TD_P_INT},
    {"stride_kh", TD_P_INT},    {"stride_kd", TD_P_INT},  {"stride_cosbs", TD_P_INT}, {"stride_cosd", TD_P_INT},
    {"stride_sinbs", TD_P_INT}, {"stride_sind", TD_P_INT}, {"max_total_len", TD_P_INT}, {"HEAD_Q", TD_P_INT},
    {"HEAD_K", TD_P_INT},       {"BLOCK_HEAD", TD_P_INT}, {"BLOCK_SEQ", TD_P_INT},    {"BLOCK_DMODEL", TD_P_INT},
    {"BLOCK_HALF", TD_P_INT}};
static const td_region_decl regions[NR] = {
    {"Q", TD_F32, TD_R_INOUT}, {"K", TD_F32, TD_R_INOUT}, {"Cos", TD_F32, TD_R_IN}, {"Sin", TD_F32, TD_R_IN}};

/* a [T, H, head_dim] tensor's strides: dims stride d in {1, 2}, head and token strides
 * at least the extent below them, sometimes padded */
static void re_strides(td_producer *p, int64_t H, int64_t hd, int64_t *bs, int64_t *hs, int64_t *ds) {
    *ds = 1 + (td_prod_u32(p, 0, 3) == 0);
    *hs = hd * *ds + (td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, 5) : 0);
    *bs = H * *hs + (td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, 9) : 0);
}

static void gen(td_producer *p, td_case *c) {
    static const unsigned wbs[] = {3, 1, 1}, wbh[] = {3, 1, 1, 1};
    static const int64_t bss[] = {16, 4, 8}, bhs[] = {4, 1, 2, 8};
    int64_t BS = bss[td_prod_pick(p, wbs, 3)], BH = bhs[td_prod_pick(p, wbh, 4)];
    int64_t T = (int64_t)td_gen_count(p, (uint64_t)BS, 48, &c->classes);
    int64_t HQ = 1 + td_prod_u32(p, 0, 8), HK = 1 + td_prod_u32(p, 0, (uint32_t)(HQ - 1));
    int64_t BD = (int64_t)td_gen_pow2(p, 1, 6), hd = BD * (td_prod_u32(p, 0, 3) == 0 ? 2 : 1);
    int64_t qbs, qh, qd, kbs, kh, kd;
    re_strides(p, HQ, hd, &qbs, &qh, &qd);
    re_strides(p, HK, hd, &kbs, &kh, &kd);
    int64_t cbs = BD + td_prod_u32(p, 0, 2), sbs = BD + td_prod_u32(p, 0, 2);
    int64_t v[NP] = {qbs, qh, qd, kbs, kh, kd, cbs, 1, sbs, 1, T, HQ, HK, BH, BS, BD, BD / 2};
    for (int k = 0; k < NP; k++) c->p[k].i = v[k];
    c->grid[0] = (uint32_t)((HQ + BH - 1) / BH), c->grid[1] = (uint32_t)((T + BS - 1) / BS), c->grid[2] = 1;
    td_case_alloc(c, R_Q, (size_t)(T * qbs));
    td_case_alloc(c, R_K, (size_t)(T * kbs));
    td_case_alloc(c, R_COS, (size_t)(T * cbs));
    td_case_alloc(c, R_SIN, (size_t)(T * sbs));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, R_Q);
    td_vgen_fill(&g, c, R_K);
    /* the angle of pair i at both of its columns (2i, 2i+1): column stride 2 */
    rope_fill_tables(p, c, &g, R_COS, cbs, 2, R_SIN, sbs, 2, T, BD / 2, NULL);
    for (int64_t t = 0; t < T; t++)
        for (int64_t i = 0; i < BD / 2; i++) {
            td_set(c, R_COS, (size_t)(t * cbs + 2 * i + 1), td_get(c, R_COS, (size_t)(t * cbs + 2 * i)));
            td_set(c, R_SIN, (size_t)(t * sbs + 2 * i + 1), td_get(c, R_SIN, (size_t)(t * sbs + 2 * i)));
        }
    c->classes &= ~(TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM)); /* td_gen_count counted tokens only */
    if (c->grid[0] * c->grid[1] == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    c->classes |= TD_BC(TD_BC_INPLACE);
    if (qd > 1 || kd > 1 || qbs > HQ * qh || kbs > HK * kh) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (hd > BD) c->classes |= TD_BC(TD_BC_SLICE_EDGE); /* partial rotary: dims from BLOCK_DMODEL on untouched */
    if (HQ % BH != 0) c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* the last head block is partly masked */
}

/* Offsets beyond 2^31 (gen_far.h): Cos and Sin are the read-only regions (Q and K are
 * rotated in place: outputs stay dense).  Token t reads its table row at
 * t * stride_cosbs, in the original an int32 product (cur_seq_range is
 * program_id * BLOCK_SEQ + arange, the stride unannotated: both int32).
 * max_total_len is cut to at most TD_FAR_MAX_ROWS tokens (the grid to cover them) and
 * both tables' token strides move near 2^31; the shape classes of the old count go. */
static void far(td_producer *p, td_case *c) {
    static const int regs[2] = {R_COS, R_SIN}, strides[2] = {P_CBS, P_SBS};
    const uint64_t count = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_EXACT_MULTIPLE) |
                           TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) |
                           TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_POS_EXTREME) | TD_BC(TD_BC_POS_NONMONOTONE);
    int64_t T = c->p[P_TOTAL].i, R = T < TD_FAR_MAX_ROWS ? T : TD_FAR_MAX_ROWS, BS = c->p[P_BS].i;
    int64_t w[2] = {(c->p[P_BD].i - 1) * c->p[P_CD].i + 1, (c->p[P_BD].i - 1) * c->p[P_SD].i + 1};
    if (R < 2) return; /* one token: no offset to move */
    c->classes &= ~count;
    c->p[P_TOTAL].i = R;
    c->grid[1] = (uint32_t)((R + BS - 1) / BS);
    if (td_far_rows_n(p, c, 2, regs, strides, R, w)) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

static const char *check(const td_case *c) {
    const td_pval *v = c->p;
    int64_t T = v[P_TOTAL].i, HQ = v[P_HQ].i, HK = v[P_HK].i, BD = v[P_BD].i, BH = v[P_BH].i, BS = v[P_BS].i;
    if (v[P_BHALF].i * 2 != BD || BD <= 0 || (BD & (BD - 1))) return "BLOCK_HALF = BLOCK_DMODEL/2, a power of two";
    if (v[P_QD].i <= 0 || v[P_KD].i <= 0) return "hQEven/hQOdd/hKEven/hKOdd: 0 < stride_qd, stride_kd";
    if (v[P_QH].i < BD * v[P_QD].i || v[P_QBS].i < HQ * v[P_QH].i) return "Q strides: heads and tokens do not overlap";
    if (v[P_KH].i < BD * v[P_KD].i || v[P_KBS].i < HK * v[P_KH].i) return "K strides: heads and tokens do not overlap";
    if (HK > HQ || HK < 1 || BH < 1 || BS < 1 || T < 1) return "1 <= HEAD_K <= HEAD_Q (K heads are visited by the Q grid)";
    if (c->grid[0] * (uint64_t)BH < (uint64_t)HQ || c->grid[1] * (uint64_t)BS < (uint64_t)T) return "grid covers heads, tokens";
    if (v[P_CBS].i < BD * v[P_CD].i || v[P_SBS].i < BD * v[P_SD].i || v[P_CD].i <= 0 || v[P_SD].i <= 0)
        return "table strides hold BLOCK_DMODEL columns";
    if (c->r[R_Q].len < (size_t)((T - 1) * v[P_QBS].i + HQ * v[P_QH].i) ||
        c->r[R_K].len < (size_t)((T - 1) * v[P_KBS].i + HK * v[P_KH].i) ||
        c->r[R_COS].len < (size_t)((T - 1) * v[P_CBS].i + BD * v[P_CD].i) ||
        c->r[R_SIN].len < (size_t)((T - 1) * v[P_SBS].i + BD * v[P_SD].i))
        return "regions hold max_total_len tokens";
    for (int64_t t = 0; t < T; t++)
        for (int64_t i = 0; i < BD / 2; i++) {
            size_t c0 = (size_t)(t * v[P_CBS].i + 2 * i * v[P_CD].i), s0 = (size_t)(t * v[P_SBS].i + 2 * i * v[P_SD].i);
            if (td_get(c, R_COS, c0) != td_get(c, R_COS, c0 + (size_t)v[P_CD].i) ||
                td_get(c, R_SIN, s0) != td_get(c, R_SIN, s0 + (size_t)v[P_SD].i))
                return "hPairTables: cos/sin repeat each angle over its pair (the Lean slice reads dimEven)";
        }
    return NULL;
}

static void writes(const td_case *c, td_wset *ws) {
    const td_pval *v = c->p;
    for (int w = 0; w < 2; w++) {
        int64_t bs = v[w ? P_KBS : P_QBS].i, hs = v[w ? P_KH : P_QH].i, ds = v[w ? P_KD : P_QD].i;
        int64_t H = v[w ? P_HK : P_HQ].i;
        for (int64_t t = 0; t < v[P_TOTAL].i; t++)
            for (int64_t h = 0; h < H; h++)
                for (int64_t i = 0; i < v[P_BHALF].i; i++) {
                    int64_t x0 = t * bs + h * hs + 2 * i * ds, x1 = x0 + ds;
                    int64_t co = t * v[P_CBS].i + 2 * i * v[P_CD].i, so = t * v[P_SBS].i + 2 * i * v[P_SD].i;
                    for (int second = 0; second < 2; second++)
                        rope_lane(ws, w ? R_K : R_Q, x0, x1, co, so, second, 0, (uint32_t)(h / v[P_BH].i),
                                  (uint32_t)(t / v[P_BS].i), (uint64_t)i);
                }
    }
}

/* ---- intent (docs/intent.md; the definitions in rope_common.h) ---- */
static const td_intent i_one = {
    .operation = "RoFormer / GPT-J rotary embedding of Q and K in place: interleaved pairs (2i, 2i + 1), i < BLOCK_DMODEL/2 (the rest passed through), angle of the token's table row",
    .definition = ROPE_DEF_GPTJ,
    TD_SPECS(rotary_emb_intent),
};

const td_contract td_c_rotary_emb = {
    .id = "rotary_emb.rotary_emb_kernel_correctness",
    .file = "rotary_emb",
    .family = "rotary",
    .io_class = "rotaryQ0IO/Q1IO/K0IO/K1IO (4-lane inputs) + lowering",
    .kind = "exact",
    .formula = "x[2i] := x[2i]*cos - x[2i+1]*sin; x[2i+1] := x[2i]*sin + x[2i+1]*cos (Q and K, table row = token)",
    .nparams = NP,
    .params = params,
    .nregions = NR,
    .regions = regions,
    .sv = TD_SV_REAL,
    .sv_note = "|Q|, |K| <= 2^100, tables in [-1, 1]: every intermediate is finite",
    .error_model = "two binary32 products (exact rounding errors) + one rounded sum: any order, FMA or not",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) |
               TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) |
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |
               TD_BC(TD_BC_INPLACE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_SLICE_EDGE) |
               TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_POS_EXTREME) | TD_BC(TD_BC_POS_NONMONOTONE) |
               TD_BC(TD_BC_OFFSET_2_31),
    .gen = gen,
    .far = far,
    .check = check,
    .writes = writes,
    TD_SPECS(rotary_emb),
    .intent = &i_one,
};
