/* The Unsloth RoPE kernel `_rope_embedding` (fast_rope_embedding, rope_embedding):
 * generator, checker and write set shared by both files' contracts.
 *
 * Launch: grid (n_rows, n_groups); program (row, g) loads the cos/sin row
 * (row mod seqlen) for the columns i < head_dim/2 (sin negated when BACKWARD_PASS),
 * then for every head k in [g*G, min(g*G + G, n_heads)) loads
 *   Q1 = Q[row*Q_row_stride + k*head_dim + i], Q2 = Q[... + i + head_dim/2]
 * and stores Q1*cos - Q2*sin at Q1's cell and Q2*cos + Q1*sin at Q2's (half-split
 * layout), for i < min(BLOCK_SIZE, head_dim/2) (the generator keeps BLOCK_SIZE >=
 * head_dim/2, as calculate_settings does).  G = ROPE_GROUP_SIZE (4 in
 * fast_rope_embedding).  Both halves of a head are loaded before either is stored, so
 * the composed in-place result is the rotation of the initial contents: that is what
 * the write set and the spec state (the catalogue's theorems state each half, for the
 * group's first head, as separate slices; see the contract files).
 *
 * Parameters 0..5 are common: Q_row_stride, cos_row_stride, sin_row_stride, seqlen,
 * head_dim, n_heads; the contract gives the indices of BLOCK_SIZE, ROPE_GROUP_SIZE and
 * BACKWARD_PASS.  Regions: the rotated tensors first (in place), then cos, sin. */
#ifndef TD_ROPE_UNSLOTH_COMMON_H
#define TD_ROPE_UNSLOTH_COMMON_H

#include "gen_far.h"
#include "rope_common.h"

enum { RU_QS, RU_CS, RU_SS, RU_SEQ, RU_HD, RU_NH };

typedef struct ru_cfg {
    int ntgt;            /* rotated regions 0 .. ntgt-1; cos = ntgt, sin = ntgt + 1 */
    signed char bwd[4];  /* per rotated region: 0 forward, 1 backward, -1 BACKWARD_PASS */
    int p_block, p_group, p_bwd; /* parameter indices (-1: G fixed at 4 / no parameter) */
} ru_cfg;

static inline int64_t ru_group(const td_case *c, const ru_cfg *k) {
    if (k->p_group < 0) return 4;
    return c->p[k->p_group].i;
}
static inline int ru_bwd(const td_case *c, const ru_cfg *k, int t) {
    if (k->bwd[t] >= 0 || k->p_bwd < 0) return k->bwd[t] > 0;
    return (int)c->p[k->p_bwd].i;
}

static inline void ru_gen(td_producer *p, td_case *c, const ru_cfg *k) {
    static const unsigned wh[] = {1, 4, 3, 1}, wb[] = {6, 1};
    int64_t batch = 1 + td_prod_u32(p, 0, 2), seqlen = 1 + td_prod_u32(p, 0, 7), rows = batch * seqlen;
    int hk = td_prod_pick(p, wh, 4);
    int64_t half = hk == 0 ? 1 : hk == 1 ? td_prod_u32(p, 2, 8) : hk == 2 ? td_prod_u32(p, 9, 32) : 64;
    int64_t hd = 2 * half + (td_prod_u32(p, 0, 7) == 0); /* an odd head_dim: its last column is not rotated */
    int64_t B = 1;
    while (B < half) B *= 2;
    if (td_prod_pick(p, wb, 2)) B *= 4;
    int64_t G = 4;
    if (k->p_group >= 0) G = (int64_t)1 << td_prod_u32(p, 0, 3);
    int64_t nh = 1 + td_prod_u32(p, 0, 8), groups = (nh + G - 1) / G;
    int surplus = td_prod_u32(p, 0, 7) == 0; /* one more group than heads: its program writes nothing */
    int64_t qs = nh * hd + (td_prod_bool(p) ? td_prod_u32(p, 1, (uint32_t)(2 * hd)) : 0);
    int64_t trows = seqlen + td_prod_u32(p, 0, 2); /* the cache may hold more positions than seqlen */
    int64_t cs = half + td_prod_u32(p, 0, 3), ss = half + td_prod_u32(p, 0, 3);
    c->p[RU_QS].i = qs, c->p[RU_CS].i = cs, c->p[RU_SS].i = ss, c->p[RU_SEQ].i = seqlen;
    c->p[RU_HD].i = hd, c->p[RU_NH].i = nh, c->p[k->p_block].i = B;
    if (k->p_group >= 0) c->p[k->p_group].i = G;
    if (k->p_bwd >= 0) c->p[k->p_bwd].i = td_prod_bool(p);
    c->grid[0] = (uint32_t)rows, c->grid[1] = (uint32_t)(groups + surplus), c->grid[2] = 1;
    for (int t = 0; t < k->ntgt; t++) td_case_alloc(c, t, (size_t)(rows * qs));
    td_case_alloc(c, k->ntgt, (size_t)(trows * cs));
    td_case_alloc(c, k->ntgt + 1, (size_t)(trows * ss));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100); /* |x*c| + |y*s| stays far below the binary32 range */
    for (int t = 0; t < k->ntgt; t++) td_vgen_fill(&g, c, t);
    rope_fill_tables(p, c, &g, k->ntgt, cs, 1, k->ntgt + 1, ss, 1, trows, half, NULL);
    c->classes |= TD_BC(TD_BC_INPLACE);
    td_gen_mark_shape((uint64_t)half, (uint64_t)B, 1, &c->classes);
    c->classes &= ~TD_BC(TD_BC_ONE_PROGRAM);
    if (rows * (groups + surplus) == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (qs > nh * hd) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (surplus) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    if (nh % G != 0 && nh > G) c->classes |= TD_BC(TD_BC_META_EXTREME); /* a group cut short by n_heads */
    if (G > 1 && nh > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);          /* the head loop runs more than once */
}

/* Offsets beyond 2^31 (gen_far.h): the cos and sin tables are the read-only regions
 * (the rotated tensors are in place: outputs stay dense).  Program (row, g) reads
 * table row row mod seqlen at (row % seqlen) * cos_row_stride, in the original an
 * int32 product (program_id and the unannotated stride are int32).  seqlen is cut to at
 * most TD_FAR_MAX_ROWS (the grid to batch*seqlen rows) and both tables' row strides
 * move near 2^31. */
static inline void ru_far(td_producer *p, td_case *c, const ru_cfg *k) {
    const int regs[2] = {k->ntgt, k->ntgt + 1}, strides[2] = {RU_CS, RU_SS};
    int64_t seq = c->p[RU_SEQ].i, R = seq < TD_FAR_MAX_ROWS ? seq : TD_FAR_MAX_ROWS, half = c->p[RU_HD].i / 2;
    int64_t w[2] = {half, half}, batch = (int64_t)c->grid[0] / seq;
    if (R < 2 || half < 1) return; /* one table row: no offset to move */
    if (R < seq) c->classes &= ~(TD_BC(TD_BC_POS_EXTREME) | TD_BC(TD_BC_POS_NONMONOTONE)); /* rows cut: unknown */
    c->p[RU_SEQ].i = R;
    c->grid[0] = (uint32_t)(batch * R);
    if (td_far_rows_n(p, c, 2, regs, strides, R, w)) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* (no TAIL_ABOVE: BLOCK_SIZE >= head_dim/2 in one tile, so head_dim/2 = k*B + 1 needs k = 0) */
#define RU_CLASSES                                                                                              \
    (TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_EXACT_MULTIPLE) | \
     TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) |            \
     TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_INPLACE) | TD_BC(TD_BC_STRIDE_GT_ROW) | \
     TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_POS_EXTREME) |                          \
     TD_BC(TD_BC_POS_NONMONOTONE) | TD_BC(TD_BC_OFFSET_2_31))

static inline const char *ru_check(const td_case *c, const ru_cfg *k) {
    int64_t qs = c->p[RU_QS].i, cs = c->p[RU_CS].i, ss = c->p[RU_SS].i, seq = c->p[RU_SEQ].i;
    int64_t hd = c->p[RU_HD].i, nh = c->p[RU_NH].i, B = c->p[k->p_block].i, G = ru_group(c, k);
    int64_t half = hd / 2, rows = c->grid[0];
    if (B <= 0 || (B & (B - 1))) return "BLOCK_SIZE: a power of two";
    if (B < half) return "BLOCK_SIZE >= head_dim/2 (calculate_settings)";
    if (G <= 0 || seq <= 0 || nh <= 0 || half <= 0) return "0 < ROPE_GROUP_SIZE, seqlen, n_heads, head_dim/2";
    if (qs < nh * hd) return "hQFirstInj/hQSecondInj: Q_row_stride >= n_heads*head_dim (rows do not overlap)";
    if (cs < half || ss < half) return "cos/sin row strides hold head_dim/2 columns";
    if (c->grid[1] < (uint32_t)((nh + G - 1) / G) || c->grid[2] != 1) return "grid: (rows, >= cdiv(n_heads, G), 1)";
    if (k->p_bwd >= 0 && (c->p[k->p_bwd].i & ~1)) return "BACKWARD_PASS: a bool";
    for (int t = 0; t < k->ntgt; t++)
        if (c->r[t].len < (size_t)((rows - 1) * qs + nh * hd)) return "Q holds every row's heads";
    if (c->r[k->ntgt].len < (size_t)((seq - 1) * cs + half) || c->r[k->ntgt + 1].len < (size_t)((seq - 1) * ss + half))
        return "cos/sin hold seqlen rows";
    return NULL;
}

static inline void ru_writes(const td_case *c, td_wset *ws, const ru_cfg *k) {
    int64_t qs = c->p[RU_QS].i, cs = c->p[RU_CS].i, ss = c->p[RU_SS].i, seq = c->p[RU_SEQ].i;
    int64_t hd = c->p[RU_HD].i, nh = c->p[RU_NH].i, G = ru_group(c, k), half = hd / 2;
    for (int t = 0; t < k->ntgt; t++)
        for (uint32_t row = 0; row < c->grid[0]; row++)
            for (uint32_t g = 0; g < c->grid[1]; g++)
                for (int64_t h = g * G; h < g * G + G && h < nh; h++)
                    for (int64_t i = 0; i < half; i++) {
                        int64_t x0 = row * qs + h * hd + i, x1 = x0 + half;
                        int64_t pr = row % seq;
                        for (int second = 0; second < 2; second++)
                            rope_lane(ws, t, x0, x1, pr * cs + i, pr * ss + i, second, ru_bwd(c, k, t), row, g,
                                      (uint64_t)i);
                    }
}

#endif
