/* The forward state kernel chunk_retention_fwd_kernel_h, shared by chunk_retention and
 * chunk_retention_ops (the two files hold the same kernel: crh_fwd_h_exec_genuine and
 * cro_fwd_h_exec_genuine have one statement): its generator, checker and write set.
 * Included by those two contract files after their enums (P_*, R_*, O_H, O_HT of the
 * forward theorem); no include guard needed (one inclusion per file).
 *
 * Launch (the Python host): grid (NK, NV, B*H) = (cdiv(K, BK), cdiv(V, BV), B*H), program
 * (i_k, i_v, i_bh) stores h[t] for t < NT at i_bh*s_h_h + t*K*V + (i_k*BK + e)*s_h_t +
 * i_v*BV + p (crhHOffset, active e, p: crhActive) and ht at i_bh*K*V + k*V + v. */

static int64_t crt_cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* q / k / v / do layouts: row-major [T, D] rows (s_t = D (+pad), s_d = 1) or
 * transposed [D, T] (s_d = T (+pad), s_t = 1); s_h the head stride, padded sometimes */
static void crt_layout(td_producer *p, td_case *c, int ph, int pt, int pd, int64_t T, int64_t D, int *padded) {
    int trans = td_prod_u32(p, 0, 3) == 0, pad = td_prod_u32(p, 0, 3) == 0;
    int64_t pv = pad ? td_prod_u32(p, 1, 3) : 0;
    c->p[pt].i = trans ? 1 : D + pv;
    c->p[pd].i = trans ? T + pv : 1;
    c->p[ph].i = trans ? D * (T + pv) : T * (D + pv);
    if (td_prod_u32(p, 0, 3) == 0) c->p[ph].i += td_prod_u32(p, 1, 5), pad = 1;
    *padded |= pad;
}
/* the largest element offset + 1 of a [T, D] layout of BH heads */
static size_t crt_span(const td_case *c, int ph, int pt, int pd, int64_t BH, int64_t T, int64_t D) {
    return (size_t)((BH - 1) * c->p[ph].i + (T - 1) * c->p[pt].i + (D - 1) * c->p[pd].i + 1);
}

/* Shape: K, V in 1..6, BK a power of two <= 8, BV a power of two <= V (hBVV), BT a
 * power of two <= 16 (tl.arange); T from the chunk-boundary list (1, BT - 1, BT, BT + 1,
 * 2 BT + 1, 33) and, in one case in 16, a long sequence: 2048..4095 steps on one or two
 * heads of width <= 2 with BT up to 64, or 1024..1100 steps on 21 heads of width 1 (head
 * 20's decay 1 - 2^-25 rounds to 1 in binary32).  NT = cdiv(T, BT), or one more chunk
 * (a surplus chunk of zeros, decayed) in one case in 8.  H = 21 or 24 on short sequences
 * puts heads whose binary32 decay is 1 into the launch. */
static void crt_shape(td_producer *p, td_case *c, int64_t *BH, int *padded, int o) {
    int long_seq = td_prod_u32(p, 0, 15) == 0;
    int64_t K = td_prod_u32(p, 1, long_seq ? 2 : 6), V = td_prod_u32(p, 1, long_seq ? 2 : 6);
    int64_t BK = td_gen_pow2(p, 0, 3), BV = 1, BT = td_gen_pow2(p, 0, long_seq ? 6 : 4);
    int64_t bvmax = td_prod_u32(p, 0, 2);
    while (BV * 2 <= V && bvmax-- > 0) BV *= 2;
    static const uint32_t Hs[] = {1, 2, 3, 21, 24};
    int64_t H = Hs[td_prod_u32(p, 0, 4)], B = td_prod_u32(p, 1, 2);
    if (H > 3) B = 1;
    if (long_seq && H > 3) H = 21, K = 1, V = 1, BV = 1;
    if (long_seq && H == 3) H = 2;
    uint32_t ti = td_prod_u32(p, 0, 5);
    uint32_t tl = td_prod_u32(p, H == 21 ? 1024 : 2048, H == 21 ? 1100 : 4095);
    const int64_t Ts[] = {1, BT > 1 ? BT - 1 : 2, BT, BT + 1, 2 * BT + 1, 33};
    int64_t T = long_seq ? tl : Ts[ti];
    int64_t NT = crt_cdiv(T, BT) + (td_prod_u32(p, 0, 7) == 0);
    *BH = B * H;
    c->p[P_H + o].i = H, c->p[P_T + o].i = T, c->p[P_K + o].i = K, c->p[P_V + o].i = V;
    c->p[P_BT + o].i = BT, c->p[P_BK + o].i = BK, c->p[P_BV + o].i = BV, c->p[P_NT + o].i = NT;
    crt_layout(p, c, P_SQK_H, P_SQK_T, P_SQK_D, T, K, padded);
    crt_layout(p, c, P_SVO_H, P_SVO_T, P_SVO_D, T, V, padded);
    /* hFit: (K-1)*s_h_t + V <= K*V: s_h_t = V, or wider rows when K = 1 */
    c->p[P_SH_T].i = V + (K == 1 && td_prod_bool(p) ? td_prod_u32(p, 1, 3) : 0);
    c->p[P_SH_H].i = NT * K * V + (td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, 4) : 0);
    if (c->p[P_SH_T].i > V || c->p[P_SH_H].i > NT * K * V) *padded = 1;
    c->grid[0] = (uint32_t)crt_cdiv(K, BK), c->grid[1] = (uint32_t)crt_cdiv(V, BV), c->grid[2] = (uint32_t)*BH;
    c->classes |= (T > BT ? TD_BC(TD_BC_MULTI_TILE) : 0) | (T == 1 ? TD_BC(TD_BC_SEQ_SINGLE) : 0) |
                  (T % BT == 0 ? TD_BC(TD_BC_EXACT_MULTIPLE) : 0) |
                  (T % BT == BT - 1 && T > 1 ? TD_BC(TD_BC_TAIL_BELOW) : 0) |
                  (T % BT == 1 && T > BT ? TD_BC(TD_BC_TAIL_ABOVE) : 0) |
                  (T < BT && T > 1 ? TD_BC(TD_BC_SEQ_BLOCK_EDGE) : 0) |
                  (K % BK || V % BV ? TD_BC(TD_BC_TAIL) : 0) | (BK >= 4 * K ? TD_BC(TD_BC_BLOCK_GT_N) : 0) |
                  (NT > crt_cdiv(T, BT) ? TD_BC(TD_BC_FULLY_MASKED) : 0) |
                  (c->grid[0] * c->grid[1] * c->grid[2] == 1 ? TD_BC(TD_BC_ONE_PROGRAM) : 0);
}

static void crt_fwd_gen(td_producer *p, td_case *c) {
    int64_t BH;
    int padded = 0;
    crt_shape(p, c, &BH, &padded, 0);
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, NT = c->p[P_NT].i;
    c->p[P_USE_INIT].i = td_prod_bool(p);
    c->p[P_STORE_FINAL].i = td_prod_bool(p);
    td_case_alloc(c, R_K, crt_span(c, P_SQK_H, P_SQK_T, P_SQK_D, BH, T, K));
    td_case_alloc(c, R_V, crt_span(c, P_SVO_H, P_SVO_T, P_SVO_D, BH, T, V));
    td_case_alloc(c, R_H, (size_t)((BH - 1) * c->p[P_SH_H].i + NT * K * V) + 3);
    td_case_alloc(c, R_H0, (size_t)(BH * K * V));
    td_case_alloc(c, R_HT, (size_t)(BH * K * V) + 3);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    td_vgen_fill(&g, c, R_K);
    td_vgen_fill(&g, c, R_V);
    td_vgen_fill(&g, c, R_H0);
    c->classes |= (padded ? TD_BC(TD_BC_STRIDE_GT_ROW) : 0) |
                  (c->menu == TD_V_SPECIAL ? TD_BC(TD_BC_VALUES_SPECIAL) : 0);
}

/* Offsets beyond 2^31 (gen_far.h): up to TD_FAR_MAX_ROWS heads (td_far_bh_rows: H
 * divides them) of the two inputs at s_qk_h (region 0: k or q) and s_vo_h (region 1: v or
 * do) near 2^31, one stride for both, over sparse regions, as a kernel forming i_bh *
 * s_qk_h in int32 gets wrong; h, h0, ht keep their layout (i_bh * K * V, i_bh * s_h_h).
 * Indices >= P_H shifted by o, as in crt_shape. */
static void crt_far(td_producer *p, td_case *c, int o) {
    int64_t T = c->p[P_T + o].i, K = c->p[P_K + o].i, V = c->p[P_V + o].i, H = c->p[P_H + o].i;
    int64_t R = td_far_bh_rows(c->grid[2], &H);
    const td_far_reg r[2] = {
        {0, P_SQK_H, (T - 1) * c->p[P_SQK_T].i + (K - 1) * c->p[P_SQK_D].i + 1},
        {1, P_SVO_H, (T - 1) * c->p[P_SVO_T].i + (V - 1) * c->p[P_SVO_D].i + 1}};
    if (td_far_heads(p, c, 2, R, r, 2)) c->p[P_H + o].i = H;
}
static void crt_fwd_far(td_producer *p, td_case *c) { crt_far(p, c, 0); }

#define CRT_FWD_CLASSES                                                                                         \
    (TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | \
     TD_BC(TD_BC_TAIL) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) |          \
     TD_BC(TD_BC_SEQ_SINGLE) | TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_VALUES_SPECIAL) | \
     TD_BC(TD_BC_OFFSET_2_31))

static const char *crt_pow2(int64_t x) { return x > 0 && !(x & (x - 1)) ? NULL : "a block size is a power of two (tl.arange)"; }

/* the hypotheses the forward and the ops backward share (indices >= P_H shifted by o) */
static const char *crt_shape_check(const td_case *c, int o) {
    for (int i = P_SQK_H; i <= P_NT + o; i++)
        if (!(o && i == P_H) && c->p[i].i < 0) return "parameters are Nat"; /* o = 1: index P_H is scale */
    int64_t H = c->p[P_H + o].i, T = c->p[P_T + o].i, K = c->p[P_K + o].i, V = c->p[P_V + o].i, BT = c->p[P_BT + o].i;
    int64_t BK = c->p[P_BK + o].i, BV = c->p[P_BV + o].i, NT = c->p[P_NT + o].i, sht = c->p[P_SH_T].i, BH = c->grid[2];
    const char *e = crt_pow2(BT) ? crt_pow2(BT) : crt_pow2(BK) ? crt_pow2(BK) : crt_pow2(BV);
    if (e) return e;
    if (H <= 0 || T <= 0 || K <= 0 || V <= 0 || BH <= 0 || BH % H) return "H, T, K, V > 0; grid axis 2 = B*H";
    if (BV > sht) return "hsigma: BV <= s_h_t";
    if ((K - 1) * sht + V > K * V) return "hFit: (K-1)*s_h_t + V <= K*V";
    if (NT < crt_cdiv(T, BT))
        return "NT >= cdiv(T, BT) (the host's NT; with fewer chunks the Lean's Nat-truncated d_i tail reads live v rows)";
    if (c->grid[0] != (uint32_t)crt_cdiv(K, BK) || c->grid[1] != (uint32_t)crt_cdiv(V, BV))
        return "grid = (cdiv(K, BK), cdiv(V, BV), B*H)";
    if (c->p[P_SH_H].i < NT * K * V) return "s_h_h >= NT*K*V (the heads' chunk stores disjoint)";
    return NULL;
}

static const char *crt_fwd_check(const td_case *c) {
    const char *e = crt_shape_check(c, 0);
    if (e) return e;
    int64_t T = c->p[P_T].i, K = c->p[P_K].i, V = c->p[P_V].i, NT = c->p[P_NT].i, BH = c->grid[2];
    if (c->p[P_BV].i > V) return "hBVV: BV <= V";
    if (c->r[R_K].len < crt_span(c, P_SQK_H, P_SQK_T, P_SQK_D, BH, T, K) ||
        c->r[R_V].len < crt_span(c, P_SVO_H, P_SVO_T, P_SVO_D, BH, T, V))
        return "k, v hold every head's [T, K] / [T, V] block";
    if (c->r[R_H].len < (size_t)((BH - 1) * c->p[P_SH_H].i + NT * K * V) || c->r[R_H0].len < (size_t)(BH * K * V) ||
        c->r[R_HT].len < (size_t)(BH * K * V))
        return "h holds NT chunks per head, h0 and ht B*H*K*V";
    return NULL;
}

/* the chunk-state lanes h[t] (t < NT; reg, channel oh) and, when final, ht (t = NT) */
static void crt_h_writes(const td_case *c, td_wset *ws, int o, int reg, int final) {
    int64_t K = c->p[P_K + o].i, V = c->p[P_V + o].i, BK = c->p[P_BK + o].i, BV = c->p[P_BV + o].i, NT = c->p[P_NT + o].i;
    for (uint32_t p2 = 0; p2 < c->grid[2]; p2++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
                for (int64_t t = 0; t <= NT; t++) { /* increasing t: the spec's memo fills in order */
                    if (t == NT && !final) break;
                    for (int64_t e = 0; e < BK; e++)
                        for (int64_t q = 0; q < BV; q++) {
                            int64_t k = p0 * BK + e, v = p1 * BV + q;
                            if (k >= K || v >= V) continue;
                            int64_t off = t < NT ? p2 * c->p[P_SH_H].i + t * K * V + k * c->p[P_SH_T].i + v
                                                 : (int64_t)p2 * K * V + k * V + v;
                            td_olane l = {.o = t < NT ? 0u : 1u, .region = (uint32_t)(t < NT ? reg : R_HT),
                                          .off = (uint64_t)off, .pid = {p0, p1, p2}, .t = (uint32_t)t,
                                          .j = (uint64_t)(e * BV + q), .idx = {p2, k, v, t}};
                            td_wset_add(ws, &l);
                        }
                }
}
static void crt_fwd_writes(const td_case *c, td_wset *ws) { crt_h_writes(c, ws, 0, R_H, (int)c->p[P_STORE_FINAL].i); }
