/* Liger's `_triton_rope` (rope_transform: BACKWARD_PASS false; rope_backward_transform:
 * true): generator, checker and write set shared by both files.
 *
 * Launch: grid (bs*sl,); program `row` loads the cos/sin row (row mod sl), columns
 * < hd/2 of a pad_hd/2 tile, then the [pad_n_qh, pad_hd/2] tiles of q's first and second
 * halves (heads h < n_qh at row*q_row_stride + h*hd, columns i and i + hd/2), the same
 * for k with n_kh, and stores, for every head and i < hd/2,
 *   forward  x1*cos - x2*sin, x2*cos + x1*sin        backward  x1*cos + x2*sin, x2*cos - x1*sin.
 * Every tile is loaded before the first store: the results are functions of the initial
 * contents.  Parameters: q_row_stride, k_row_stride, cos_row_stride, sin_row_stride, sl,
 * bs, n_qh, n_kh, hd, pad_n_qh, pad_n_kh, pad_hd, BLOCK_SIZE; regions q, k, cos, sin. */
#ifndef TD_ROPE_LIGER_COMMON_H
#define TD_ROPE_LIGER_COMMON_H

#include "gen_far.h"
#include "rope_common.h"

enum { RL_QS, RL_KS, RL_CS, RL_SS, RL_SL, RL_BS, RL_NQH, RL_NKH, RL_HD, RL_PQH, RL_PKH, RL_PHD, RL_BLOCK, RL_NP };
enum { RL_Q, RL_K, RL_COS, RL_SIN, RL_NR };

static inline int64_t rl_np2(int64_t n) {
    int64_t b = 1;
    while (b < n) b *= 2;
    return b;
}

static inline void rl_gen(td_producer *p, td_case *c) {
    static const unsigned wh[] = {1, 4, 3, 1};
    int64_t bs = 1 + td_prod_u32(p, 0, 2), sl = 1 + td_prod_u32(p, 0, 7), rows = bs * sl;
    int hk = td_prod_pick(p, wh, 4);
    int64_t half = hk == 0 ? 1 : hk == 1 ? td_prod_u32(p, 2, 8) : hk == 2 ? td_prod_u32(p, 9, 32) : 64;
    int64_t hd = 2 * half + (td_prod_u32(p, 0, 7) == 0); /* an odd hd: its last column is not rotated */
    int64_t nqh = 1 + td_prod_u32(p, 0, 8), nkh = 1 + td_prod_u32(p, 0, (uint32_t)(nqh - 1));
    int64_t qs = nqh * hd + (td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, (uint32_t)hd) : 0);
    int64_t ks = nkh * hd + (td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, (uint32_t)hd) : 0);
    int64_t trows = sl + td_prod_u32(p, 0, 2);
    int64_t cs = half + td_prod_u32(p, 0, 3), ss = half + td_prod_u32(p, 0, 3);
    int64_t pq = rl_np2(nqh), pk = rl_np2(nkh), phd = rl_np2(hd);
    int64_t v[RL_NP] = {qs, ks, cs, ss, sl, bs, nqh, nkh, hd, pq, pk, phd, pq > pk ? pq : pk};
    for (int k = 0; k < RL_NP; k++) c->p[k].i = v[k];
    c->grid[0] = (uint32_t)rows, c->grid[1] = 1, c->grid[2] = 1;
    td_case_alloc(c, RL_Q, (size_t)(rows * qs));
    td_case_alloc(c, RL_K, (size_t)(rows * ks));
    td_case_alloc(c, RL_COS, (size_t)(trows * cs));
    td_case_alloc(c, RL_SIN, (size_t)(trows * ss));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    td_vgen_fill(&g, c, RL_Q);
    td_vgen_fill(&g, c, RL_K);
    rope_fill_tables(p, c, &g, RL_COS, cs, 1, RL_SIN, ss, 1, trows, half, NULL);
    c->classes |= TD_BC(TD_BC_INPLACE);
    td_gen_mark_shape((uint64_t)half, (uint64_t)(phd / 2 ? phd / 2 : 1), 1, &c->classes);
    c->classes &= ~(TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_MULTI_TILE));
    if (rows == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (qs > nqh * hd || ks > nkh * hd) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (pq > nqh || pk > nkh) c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* padded head rows of the tile */
    if (nkh < nqh) c->classes |= TD_BC(TD_BC_META_EXTREME);             /* grouped-query: fewer k heads */
}

/* Offsets beyond 2^31 (gen_far.h): the cos and sin tables are the read-only regions
 * (q and k are rotated in place: outputs stay dense).  Program pid reads table row
 * pid mod sl at (pid mod sl) * cos_row_stride, in the original an int32 product (pid
 * and the unannotated stride are int32).  sl is cut to at most TD_FAR_MAX_ROWS (the
 * grid to bs*sl programs) and both tables' row strides move near 2^31. */
static inline void rl_far(td_producer *p, td_case *c) {
    static const int regs[2] = {RL_COS, RL_SIN}, strides[2] = {RL_CS, RL_SS};
    int64_t sl = c->p[RL_SL].i, R = sl < TD_FAR_MAX_ROWS ? sl : TD_FAR_MAX_ROWS, half = c->p[RL_HD].i / 2;
    int64_t w[2] = {half, half};
    if (R < 2 || half < 1) return; /* one table row: no offset to move */
    if (R < sl) c->classes &= ~(TD_BC(TD_BC_POS_EXTREME) | TD_BC(TD_BC_POS_NONMONOTONE)); /* rows cut: unknown */
    c->p[RL_SL].i = R;
    c->grid[0] = (uint32_t)(c->p[RL_BS].i * R);
    if (td_far_rows_n(p, c, 2, regs, strides, R, w)) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* (no TAIL_ABOVE: the pad_hd/2 tile holds hd/2 in one tile, hd/2 = k*B + 1 needs k = 0) */
#define RL_CLASSES                                                                                               \
    (TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_EXACT_MULTIPLE) | \
     TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |     \
     TD_BC(TD_BC_INPLACE) | TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_META_EXTREME) | \
     TD_BC(TD_BC_POS_EXTREME) | TD_BC(TD_BC_POS_NONMONOTONE) | TD_BC(TD_BC_OFFSET_2_31))

static inline const char *rl_check(const td_case *c) {
    const td_pval *v = c->p;
    int64_t hd = v[RL_HD].i, half = hd / 2, nqh = v[RL_NQH].i, nkh = v[RL_NKH].i, sl = v[RL_SL].i;
    int64_t rows = (int64_t)c->grid[0];
    if (half < 1 || nqh < 1 || nkh < 1 || sl < 1 || v[RL_BS].i < 1) return "1 <= hd/2, n_qh, n_kh, sl, bs";
    if (v[RL_PQH].i < nqh || v[RL_PKH].i < nkh || v[RL_PHD].i < hd) return "pad_n_qh >= n_qh, pad_n_kh >= n_kh, pad_hd >= hd";
    if (v[RL_QS].i < nqh * hd || v[RL_KS].i < nkh * hd) return "row strides hold every head (rows do not overlap)";
    if (v[RL_CS].i < half || v[RL_SS].i < half) return "cos/sin row strides hold hd/2 columns";
    if (rows != v[RL_BS].i * sl || c->grid[1] != 1 || c->grid[2] != 1) return "grid: (bs*sl,)";
    if (c->r[RL_Q].len < (size_t)((rows - 1) * v[RL_QS].i + nqh * hd) ||
        c->r[RL_K].len < (size_t)((rows - 1) * v[RL_KS].i + nkh * hd))
        return "q, k hold bs*sl rows";
    if (c->r[RL_COS].len < (size_t)((sl - 1) * v[RL_CS].i + half) || c->r[RL_SIN].len < (size_t)((sl - 1) * v[RL_SS].i + half))
        return "cos/sin hold sl rows";
    return NULL;
}

static inline void rl_writes(const td_case *c, td_wset *ws, int bwd) {
    const td_pval *v = c->p;
    int64_t hd = v[RL_HD].i, half = hd / 2, sl = v[RL_SL].i;
    for (int w = 0; w < 2; w++) {
        int64_t rs = v[w ? RL_KS : RL_QS].i, H = v[w ? RL_NKH : RL_NQH].i;
        for (uint32_t row = 0; row < c->grid[0]; row++)
            for (int64_t h = 0; h < H; h++)
                for (int64_t i = 0; i < half; i++) {
                    int64_t x0 = row * rs + h * hd + i, pr = row % sl;
                    for (int second = 0; second < 2; second++)
                        rope_lane(ws, w ? RL_K : RL_Q, x0, x0 + half, pr * v[RL_CS].i + i, pr * v[RL_SS].i + i, second,
                                  bwd, row, 0, (uint64_t)(h * half + i));
                }
    }
}

static const td_param_decl rl_params[RL_NP] = {
    {"q_row_stride", TD_P_INT}, {"k_row_stride", TD_P_INT}, {"cos_row_stride", TD_P_INT}, {"sin_row_stride", TD_P_INT},
    {"sl", TD_P_INT},           {"bs", TD_P_INT},           {"n_qh", TD_P_INT},           {"n_kh", TD_P_INT},
    {"hd", TD_P_INT},           {"pad_n_qh", TD_P_INT},     {"pad_n_kh", TD_P_INT},       {"pad_hd", TD_P_INT},
    {"BLOCK_SIZE", TD_P_INT}};
static const td_region_decl rl_regions[RL_NR] = {
    {"q_ptr", TD_F32, TD_R_INOUT}, {"k_ptr", TD_F32, TD_R_INOUT}, {"cos", TD_F32, TD_R_IN}, {"sin", TD_F32, TD_R_IN}};

#endif
