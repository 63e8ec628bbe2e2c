/* block_sparse_attn: block_sparse_attention_kernel and its output stores (catalogue part 1,
 * src lines 1463-1642).
 *
 *   block_sparse_attn_output_closed_form_summary_general (hundef, hBN, hStartL, hEndL, hsle,
 *     hN, hinj, hdisj, hVis0, hstep): Realizes_without_Rounding of the kernel with
 *     NUM_D_BLOCKS = 2, EVEN_M = EVEN_N = true, writeIf active (row < total_seq_len) at
 *     outOffset (first D block) and out2Offset (+ BLOCK_D), each
 *       blockSparseAttnClosedForm(...)(i, d) = sum_r w(i,r) V[n_r, dBase + d] / sum_r w(i,r),
 *       w(i,r) = exp(scale * sum_{e < 2 BLOCK_D} Q[row,e] K[n_r,e]) if n_r <= row else 0,
 *       n_r = selKeyGlobal r = C[layout_h * stride_col + start_l + r / BLOCK_N] * BLOCK_N + r % BLOCK_N,
 *     layout_h = pid1 % num_heads % num_layout, start_l / end_l = R[layout_h*rowStrideH + pid0 (+1)],
 *     Q at off_b*sqb + off_h*sqh + row*sqm + e, K / V at off_b*skb + off_h_kv*skh + n*skn + e
 *     (off_h_kv = off_h // (num_heads // num_kv_heads)), Out at off_b*sob + off_h*soh + row*som.
 *
 * Checked against block_sparse_attn.py, BlockSparseAttn.lean and the spec sheet.  The
 * [named] reading (softmax(scale q.k) over the selected causal key blocks, times V) matches
 * blockSparseAttnClosedForm, with three findings:
 *   - the theorem instantiates the closed form's column stride (stride_col) with num_heads,
 *     while the kernel reads C at layout_h * layout_csr_col_stride_h (colStrideH).  The two
 *     agree on the theorem's own instance (num_layout = 1, so layout_h = 0) and hstep (the
 *     loop body reads at colStrideH) can only hold where they agree; this contract follows
 *     the kernel: C at layout_h * colStrideH + i.
 *   - start_l and end_l are per program (hStartL / hEndL): they are not launch parameters
 *     here but read from R by each program, as the kernel does; hN (a nonempty CSR row) and
 *     hVis0 are checked for every program of the launch.  Empty CSR rows occur in the
 *     layout where no program reads them (rows past the grid of a layout sized for a longer
 *     max_seq_len: class seq-empty), and a row read for the wrong head may be one of them.
 *   - hVis0 makes the FIRST selected block visible to every active row.  In the Lean model
 *     (WithBot scores, unbotD 0) a later block with no kept key for a row is a no-op; in the
 *     IEEE kernel it is not: m_ij = -inf, p = exp(-inf - -inf) = NaN, and the row's output
 *     is NaN.  So the testable reading of hstep (the trusted per-block step) here is hVisAll:
 *     every selected block's first key col*BLOCK_N <= the tile's first row pid0*BLOCK_M
 *     (the layouts the kernel is used with: block-causal, BLOCK_M = BLOCK_N, blocks at or
 *     below the diagonal); the generator builds layouts so, and the checker requires it.
 * EVEN_M / EVEN_N = true: q rows of the last tile past total_seq_len and the keys of a
 * partial last key block are loaded unmasked, so the tensors hold them (Q: grid0*BLOCK_M
 * rows, K / V: cdiv(total_seq_len, BLOCK_N)*BLOCK_N rows, finite: a NaN key would poison
 * qk + (-inf)); those keys are causally masked for every active row.
 *
 * Error model of the closed form (attn_online_common.h, AT_NORM_STEP, natural base):
 * scores a binary32 dot over the 2*BLOCK_D head lanes (the kernel's two tl.dot of BLOCK_D
 * lanes added: one sum in some order, gamma_{2BD-1} sum|q_e k_e|), times scale (u); expf
 * with the backend's budget; tl.sum a tree over BLOCK_N lanes; then the normalise-every-
 * step recurrence.  The kernel forms p_j = exp(s_j - m_ij) * (beta / l_new) and acc *=
 * (l_i / l_new) * alpha; the engine's step (p_j = exp(s_j - m) * (1/l), acc *= l_prev *
 * (1/l)) has the same operation count per step on acc (one exp, one division, the
 * products), and the kernel's extra exp (beta) on a term's path is one more rescale of the
 * kind N(reblock) charges (up to n-1 rescales of 4 products and a division each, n the
 * row's kept keys; the kernel's rescales of a term number at most its blocks <= n, and a
 * term alone in its block has exp(s - m_ij) = exp(0) = 1 exact).  The binary32 tensors
 * make p.to(Q.dtype) exact (no P cast).  Out is binary32.
 *
 * The store slices:
 *
 *   block_sparse_attn_output_stores_io_correctness (hInj1, hInj2): two Masked3DTileKernelIO_1
 *     triples, out_storeIO |= xs idx and out2_storeIO |= xs idx, shape [BLOCK_M, BLOCK_D]:
 *       read  = p1/nh*stride_acc_b + p1%nh*stride_acc_h + (p0*BM + r)*stride_acc_m + c*stride_acc_d
 *       write = p1/nh*stride_ob + p1%nh*stride_oh + (p0*BM + r)*stride_om + c   (out2: + BLOCK_D)
 *       mask  = p0*BM + r < total_seq_len
 *     (Acc feeds the first store, Acc2 the second.)
 *   block_sparse_attn_output_stores_io_correctnessR: the same |=[R, .real]:
 *     Out = R.round(.real)(Acc), R.round(.real)(Acc2).
 *
 * Checked against bench/tritonbench_g/block_sparse_attn/ (block_sparse_attn.py and
 * BlockSparseAttn.lean): the slices are the kernel's two final tl.store calls with the
 * accumulators precomputed (block_sparse_attn_output_store_slice / _second_slice): off_h =
 * off_bh % num_heads, off_b = off_bh // num_heads, rows masked by offs_m < total_seq_len
 * (the kernel's q_seq_len = total_seq_len), Out's last axis contiguous (offs_d added
 * without a stride), the second store shifted by BLOCK_D columns (NUM_D_BLOCKS = 2).  The
 * [quoted] readings (out = Acc, out2 = Acc2, a copy) match.
 *
 * One launch.  The theorem is two triples over two slice kernels from the same state; they
 * are checked on ONE launch that runs the first slice then the second over the grid
 * (cdiv(total_seq_len, BLOCK_M), B * num_heads), with both write sets in the contract's.
 * Neither slice reads Out, so each sees the initial state as its triple says; the
 * generator keeps the two write sets disjoint (stride_om >= 2 * BLOCK_D: Out rows hold the
 * head's two D blocks, as the full kernel's hdisj requires), and every program's tile
 * injective and apart from the others' (a [B, H, M, D] or [B, M, H, D] layout, padded).
 * Out holds the masked tail rows too (grid0 * BLOCK_M rows per head, padding included),
 * so an unmasked tail store lands in a cell outside the write set and is seen.
 *
 * Error model: copies, bit-exact (tolerance 0).  R.round .real is the kernel's binary32
 * store of a binary32 accumulator (cast slot "store", fp32:rne:inf): a binary32 value
 * stored as binary32 is itself.  Every tolerance is 0, so worst err/tol is 0 and any
 * changed bit (a value from the wrong row, head, column or accumulator) is a disagreement.
 * Values: finite binary32 over the whole range, signed zeros and subnormals included (a
 * copy must keep them: -0 = +0 over the reals, but the comparison is bit-exact only up to
 * the reals' equality, which the harness applies).
 */
#include "attn_online_common.h"
#include "gen_far.h"

/* the store slices */
enum { S_NH, S_SEQ, S_SAB, S_SAH, S_SAM, S_SAD, S_SOB, S_SOH, S_SOM, S_BM, S_BD, S_NP };
enum { S_ACC, S_ACC2, S_OUT, S_NR };
enum { C_STORE };
/* the closed form (theorem order; start_l / end_l are per program: read from R) */
enum { F_BM, F_BD, F_BN, F_NH, F_NKV, F_NL, F_SEQ, F_RSH, F_CSH, F_SQB, F_SQH, F_SQM, F_SKB, F_SKH, F_SKN,
       F_SVB, F_SVH, F_SVN, F_SOB, F_SOH, F_SOM, F_SCALE, F_NP };
enum { F_OUT, F_Q, F_K, F_V, F_R, F_C, F_NR };

static void bsa_row(const td_case *c, const td_olane *l, at_row *R);

#define TD_SPEC_FILE "block_sparse_attn.spec.h"
#include "spec_instantiate.h"

static const td_param_decl s_params[S_NP] = {
    {"num_heads", TD_P_INT},    {"total_seq_len", TD_P_INT}, {"stride_acc_b", TD_P_INT}, {"stride_acc_h", TD_P_INT},
    {"stride_acc_m", TD_P_INT}, {"stride_acc_d", TD_P_INT},  {"stride_ob", TD_P_INT},    {"stride_oh", TD_P_INT},
    {"stride_om", TD_P_INT},    {"BLOCK_M", TD_P_INT},       {"BLOCK_D", TD_P_INT}};
static const td_region_decl s_regions[S_NR] = {
    {"Acc", TD_F32, TD_R_IN}, {"Acc2", TD_F32, TD_R_IN}, {"Out", TD_F32, TD_R_OUT}};
static const td_cast_decl s_casts[1] = {
    {"store", "fp32:rne:inf", "R.round .real of the stored accumulator (the kernel's binary32 Out)"}};

#define SI(c, k) ((c)->p[(k)].i)

/* Strides of a [nb, nh, rows, cols] tensor: [b][h][r][c], [b][r][h][c] or (when colmajor)
 * [b][h][c][r], with padding; the cells in between are padding. */
static void bsa_strides(td_producer *p, int64_t nh, int64_t rows, int64_t cols, int colmajor, int64_t st[4]) {
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 5) : 0;
    int64_t padh = td_prod_bool(p) ? td_prod_u32(p, 1, 7) : 0;
    uint32_t k = td_prod_u32(p, 0, colmajor ? 2 : 1);
    if (k == 1) st[3] = 1, st[1] = cols + pad, st[2] = nh * st[1] + padh, st[0] = rows * st[2];
    else if (k == 2) st[2] = 1, st[3] = rows + pad, st[1] = cols * st[3] + padh, st[0] = nh * st[1];
    else st[3] = 1, st[2] = cols + pad, st[1] = rows * st[2] + padh, st[0] = nh * st[1];
}
static int64_t bsa_extent(const int64_t st[4], int64_t nb, int64_t nh, int64_t rows, int64_t cols) {
    return (nb - 1) * st[0] + (nh - 1) * st[1] + (rows - 1) * st[2] + (cols - 1) * st[3] + 1;
}

/* finite binary32 values over the whole range, with signed zeros and subnormals */
static void bsa_fill_copy(td_vgen *g, td_case *c, int reg) {
    for (size_t i = 0; i < c->r[reg].len; i++) {
        double v;
        switch (td_rng_below(&g->rng, 8)) {
        case 0: v = ldexp((double)(1 + td_rng_below(&g->rng, 1u << 23)), -149); break;
        case 1: v = (td_rng_next(&g->rng) & 1) ? -0.0 : 0.0; break;
        default: v = td_vgen_value(g, TD_F32); break;
        }
        td_set(c, reg, i, v);
    }
}

static void st_gen(td_producer *p, td_case *c) {
    int64_t nb = 1 + td_prod_u32(p, 0, 1), nh = 1 + td_prod_u32(p, 0, 2);
    int64_t bm = td_gen_pow2(p, 0, 5), bd = td_gen_pow2(p, 0, 4);
    int64_t seq = (int64_t)td_gen_count(p, (uint64_t)bm, 96, &c->classes);
    int64_t grid0 = (seq + bm - 1) / bm, rows = grid0 * bm;
    int64_t sa[4], so[4];
    bsa_strides(p, nh, seq, bd, 1, sa);
    bsa_strides(p, nh, rows, 2 * bd, 0, so); /* Out: last axis contiguous (offs_d unstrided) */
    int64_t v[S_NP] = {nh, seq, sa[0], sa[1], sa[2], sa[3], so[0], so[1], so[2], bm, bd};
    for (int i = 0; i < S_NP; i++) c->p[i].i = v[i];
    c->grid[0] = (uint32_t)grid0;
    c->grid[1] = (uint32_t)(nb * nh);
    td_case_alloc(c, S_ACC, (size_t)bsa_extent(sa, nb, nh, seq, bd));
    td_case_alloc(c, S_ACC2, (size_t)bsa_extent(sa, nb, nh, seq, bd));
    td_case_alloc(c, S_OUT, (size_t)bsa_extent(so, nb, nh, rows, 2 * bd));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 0x1p100);
    bsa_fill_copy(&g, c, S_ACC);
    bsa_fill_copy(&g, c, S_ACC2);
    td_gen_mark_shape((uint64_t)seq, (uint64_t)bm, (uint64_t)grid0, &c->classes);
    if (nb * nh > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (so[2] > 2 * bd || sa[2] > bd) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* The write offset of lane (p0, p1, r, col) of slice k (0: out, 1: out2). */
static int64_t st_woff(const td_case *c, int64_t p0, int64_t p1, int64_t r, int64_t col, int k) {
    int64_t nh = SI(c, S_NH);
    return p1 / nh * SI(c, S_SOB) + p1 % nh * SI(c, S_SOH) + (p0 * SI(c, S_BM) + r) * SI(c, S_SOM) +
           (k ? SI(c, S_BD) : 0) + col;
}
static int64_t st_roff(const td_case *c, int64_t p0, int64_t p1, int64_t r, int64_t col) {
    int64_t nh = SI(c, S_NH);
    return p1 / nh * SI(c, S_SAB) + p1 % nh * SI(c, S_SAH) + (p0 * SI(c, S_BM) + r) * SI(c, S_SAM) +
           col * SI(c, S_SAD);
}

static const char *st_check(const td_case *c) {
    for (int i = 0; i < S_NP; i++)
        if (SI(c, i) < 0) return "parameters are Nat";
    int64_t nh = SI(c, S_NH), seq = SI(c, S_SEQ), bm = SI(c, S_BM), bd = SI(c, S_BD);
    if (nh <= 0 || bm <= 0 || bd <= 0) return "num_heads, BLOCK_M, BLOCK_D > 0 (the launch's shapes)";
    if (seq <= 0 || (int64_t)c->grid[0] != (seq + bm - 1) / bm) return "grid axis 0 = cdiv(total_seq_len, BLOCK_M)";
    if (c->grid[1] % (uint32_t)nh) return "grid axis 1 = batch * num_heads (off_bh)";
    if (SI(c, S_SOM) < 2 * bd)
        return "stride_om >= 2 * BLOCK_D: the two stores' write sets are disjoint (one launch runs both)";
    /* hInj1 / hInj2 and the in-range reads and writes of every active lane; the write
     * set's injectivity across programs is checked by the harness (td_wset) */
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++) {
            int64_t last = (int64_t)p0 * bm + bm - 1 < seq ? bm - 1 : seq - 1 - (int64_t)p0 * bm;
            if (st_roff(c, p0, p1, last, bd - 1) >= (int64_t)c->r[S_ACC].len ||
                st_roff(c, p0, p1, last, bd - 1) >= (int64_t)c->r[S_ACC2].len)
                return "Acc, Acc2 hold every active lane the slices read";
            if (st_woff(c, p0, p1, bm - 1, bd - 1, 1) >= (int64_t)c->r[S_OUT].len)
                return "Out holds every row of every tile (the masked tail rows too)";
            if (SI(c, S_SOM) < bd && bm > 1) return "hInj1 / hInj2: the tile's write offsets are injective";
        }
    return NULL;
}

static void st_writes(const td_case *c, td_wset *ws) {
    int64_t seq = SI(c, S_SEQ), bm = SI(c, S_BM), bd = SI(c, S_BD);
    for (int k = 0; k < 2; k++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
                for (int64_t r = 0; r < bm && (int64_t)p0 * bm + r < seq; r++)
                    for (int64_t col = 0; col < bd; col++) {
                        td_olane l = {.o = (uint32_t)k, .region = S_OUT, .off = (uint64_t)st_woff(c, p0, p1, r, col, k),
                                      .pid = {p0, p1, 0}, .j = (uint64_t)(r * bd + col),
                                      .idx = {st_roff(c, p0, p1, r, col), k, r, col}};
                        td_wset_add(ws, &l);
                    }
}

/* Offsets beyond 2^31 (gen_far.h): the batch axis of Acc and Acc2 (one stride_acc_b),
 * or with one batch the head axis (stride_acc_h, num_heads <= 3), moves to a stride near
 * 2^31 over sparse regions where it sits outside the rows (td_far_axis); Out stays
 * dense at its own strides. */
static void st_far(td_producer *p, td_case *c) {
    int64_t nh = SI(c, S_NH), nb = c->grid[1] / nh;
    const int reg[2] = {S_ACC, S_ACC2}, st[2] = {nb >= 2 ? S_SAB : S_SAH, nb >= 2 ? S_SAB : S_SAH};
    td_far_axis(p, c, 2, reg, st, nb >= 2 ? nb : nh);
}

#define ST_CLASSES                                                                                                  \
    (TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) |          \
     TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) |         \
     TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_VALUES_LARGE) |                          \
     TD_BC(TD_BC_OFFSET_2_31))
#define ST_COMMON                                                                                                   \
    .file = "block_sparse_attn", .family = "attention", .nparams = S_NP, .params = s_params, .nregions = S_NR,    \
    .regions = s_regions, .classes = ST_CLASSES, .gen = st_gen, .check = st_check, .writes = st_writes,           \
    .far = st_far, .sv = TD_SV_REAL,                                                                              \
    .sv_note = "finite binary32 accumulators (signed zeros, subnormals): copied, no arithmetic",                   \
    .error_model = "a copy: bit-exact, tolerance 0"

const td_contract td_c_block_sparse_attn_stores_io = {
    .id = "block_sparse_attn.block_sparse_attn_output_stores_io_correctness",
    .io_class = "Masked3DTileKernelIO_1 x 2 (out_storeIO, out2_storeIO), one launch",
    .kind = "exact",
    .formula = "Out[write(p,r,c)] = Acc[read(p,r,c)], Out[write(p,r,c) + BLOCK_D] = Acc2[read(p,r,c)], rows < "
               "total_seq_len",
    ST_COMMON,
    TD_SPECS(bsa_store),
};
const td_contract td_c_block_sparse_attn_stores_io_r = {
    .id = "block_sparse_attn.block_sparse_attn_output_stores_io_correctnessR",
    .io_class = "Masked3DTileKernelIO_1 x 2 (out_storeIO, out2_storeIO) |=[R, .real], one launch",
    .kind = "rounding",
    .formula = "Out[write] = R.round(.real)(Acc[read]), Out[write + BLOCK_D] = R.round(.real)(Acc2[read]); R = the "
               "binary32 store",
    .ncasts = 1,
    .casts = s_casts,
    ST_COMMON,
    TD_SPECS(bsa_store_r),
};

/* ==== the closed form: block_sparse_attn_output_closed_form_summary_general ==== */

#define FI(c, k) ((c)->p[(k)].i)
#define BSA_MAXNL 4

static const td_param_decl f_params[F_NP] = {
    {"BLOCK_M", TD_P_INT},    {"BLOCK_D", TD_P_INT},      {"BLOCK_N", TD_P_INT},       {"num_heads", TD_P_INT},
    {"num_kv_heads", TD_P_INT}, {"num_layout", TD_P_INT}, {"total_seq_len", TD_P_INT}, {"rowStrideH", TD_P_INT},
    {"colStrideH", TD_P_INT}, {"sqb", TD_P_INT},          {"sqh", TD_P_INT},           {"sqm", TD_P_INT},
    {"skb", TD_P_INT},        {"skh", TD_P_INT},          {"skn", TD_P_INT},           {"svb", TD_P_INT},
    {"svh", TD_P_INT},        {"svn", TD_P_INT},          {"sob", TD_P_INT},           {"soh", TD_P_INT},
    {"som", TD_P_INT},        {"scale", TD_P_REAL}};
static const td_region_decl f_regions[F_NR] = {{"Out", TD_F32, TD_R_OUT},   {"Q", TD_F32, TD_R_IN},
                                               {"K", TD_F32, TD_R_IN},      {"V", TD_F32, TD_R_IN},
                                               {"R", TD_I32, TD_R_META},    {"C", TD_I32, TD_R_META}};

/* the scale: 1/sqrt(head dim) (the usual softmax_scale), the test's 1.0, free, 0, tiny */
static double bsa_scale(td_producer *p, int64_t dim) {
    static const unsigned w[] = {6, 2, 4, 1, 1};
    switch (td_prod_pick(p, w, 5)) {
    case 0: return (double)(float)(1.0 / sqrt((double)dim));
    case 1: return 1.0;
    case 2: return td_gen_real(p, -2, 2);
    case 3: return 0.0;
    default: return 0x1p-10;
    }
}

/* The blocks row-block rb may select: c * BLOCK_N <= rb * BLOCK_M (hVisAll, see the header):
 * c = 0 .. amax - 1.  Never empty (c = 0). */
static int64_t bsa_allowed(int64_t rb, int64_t bm, int64_t bn, int64_t ncols) {
    int64_t a = rb * bm / bn + 1;
    return a < ncols ? a : ncols;
}

/* One CSR row: a pattern over the allowed blocks 0 .. amax-1, at most cap blocks, written
 * to out (in the kernel's processing order); returns the count (>= 1). */
enum { BSA_L_FULL, BSA_L_SINGLE, BSA_L_LOCALVERT, BSA_L_RANDOM, BSA_L_COUNT };
static int64_t bsa_layout_row(td_rng *r, int mode, int64_t amax, int64_t cap, int32_t *out) {
    int64_t n = 0;
    if (mode == BSA_L_SINGLE) {
        uint64_t k = td_rng_below(r, 3);
        out[n++] = (int32_t)(k == 0 ? 0 : k == 1 ? amax - 1 : (int64_t)td_rng_below(r, (uint64_t)amax));
        return n;
    }
    uint8_t sel[AT_MAXS * 2] = {0};
    int64_t lo = amax > cap ? amax - cap : 0; /* the last cap blocks (keys near the diagonal) */
    if (mode == BSA_L_FULL)
        for (int64_t b = lo; b < amax; b++) sel[b] = 1;
    else if (mode == BSA_L_LOCALVERT) {
        int64_t local = 1 + (int64_t)td_rng_below(r, 3), stride = 2 + (int64_t)td_rng_below(r, 3);
        for (int64_t b = 0; b < amax; b++) sel[b] = (uint8_t)(b >= amax - local || b % stride == 0);
    } else
        for (int64_t b = 0; b < amax; b++) sel[b] = (uint8_t)(td_rng_below(r, 2));
    for (int64_t b = 0; b < amax; b++)
        if (sel[b] && n < cap) out[n++] = (int32_t)b;
    if (n == 0) out[n++] = (int32_t)(amax - 1);
    if (mode == BSA_L_RANDOM) /* any processing order: the online softmax's result does not depend on it */
        for (int64_t i = n - 1; i > 0; i--) {
            int64_t j = (int64_t)td_rng_below(r, (uint64_t)(i + 1));
            int32_t t = out[i];
            out[i] = out[j], out[j] = t;
        }
    return n;
}

/* Fills R and C: per layout head a pattern; rows past the grid (a layout sized for a longer
 * max_seq_len) may be empty; unused C cells hold an out-of-range column. */
static void bsa_gen_layout(td_producer *p, td_case *c, int64_t nl, int64_t nrows, int64_t grid0, int64_t ncols,
                           int64_t cap) {
    td_rng r;
    td_rng_seed(&r, td_prod_u64(p));
    int64_t rsh = FI(c, F_RSH), csh = FI(c, F_CSH);
    for (size_t i = 0; i < c->r[F_C].len; i++) td_set(c, F_C, i, (double)(ncols + 7));
    for (size_t i = 0; i < c->r[F_R].len; i++) td_set(c, F_R, i, 0.0);
    int32_t row[AT_MAXS * 2];
    int full_seen = 0;
    for (int64_t L = 0; L < nl; L++) {
        int mode = (int)td_prod_u32(p, 0, BSA_L_COUNT - 1);
        int64_t nnz = 0;
        for (int64_t rb = 0; rb < nrows; rb++) {
            td_set(c, F_R, (size_t)(L * rsh + rb), (double)nnz);
            if (rb >= grid0) continue; /* an empty row no program reads */
            int64_t amax = bsa_allowed(rb, FI(c, F_BM), FI(c, F_BN), ncols);
            int64_t n = bsa_layout_row(&r, mode, amax, cap, row);
            if (n == amax) full_seen = 1;
            for (int64_t k = 0; k < n && nnz + k < csh; k++) td_set(c, F_C, (size_t)(L * csh + nnz + k), row[k]);
            nnz += n;
        }
        td_set(c, F_R, (size_t)(L * rsh + nrows), (double)nnz);
        if (mode == BSA_L_SINGLE) c->classes |= TD_BC(TD_BC_META_EXTREME);
    }
    if (nrows > grid0) c->classes |= TD_BC(TD_BC_SEQ_EMPTY);
    if (full_seen && grid0 > 1) c->classes |= TD_BC(TD_BC_MASK_PATTERN);
}

static void f_gen(td_producer *p, td_case *c) {
    int64_t nb = 1 + td_prod_u32(p, 0, 1), nkv = 1 + td_prod_u32(p, 0, 1), grp = 1 + td_prod_u32(p, 0, 2);
    int64_t bm = at_pow2(p, 0, 5), bn = at_pow2(p, 0, 4), bd = at_pow2(p, 0, 4);
    int64_t seq = (int64_t)td_gen_count(p, (uint64_t)bm, 64, &c->classes);
    int64_t grid0 = (seq + bm - 1) / bm, ncols = (seq + bn - 1) / bn;
    int64_t cap = AT_MAXS / bn; /* blocks per CSR row: at most AT_MAXS selected keys */
    /* the MPFR reference re-runs a lane's row: keep lanes x keys below 2^15 */
    int64_t keys = ncols * bn < AT_MAXS ? ncols * bn : AT_MAXS;
    while (nb * nkv * grp * seq * 2 * bd * keys > (1 << 15) && bd > 1) bd /= 2;
    while (nb * nkv * grp * seq * 2 * bd * keys > (1 << 15) && grp > 1) grp--;
    while (nb * nkv * grp * seq * 2 * bd * keys > (1 << 15) && nb > 1) nb--;
    int64_t nh = nkv * grp;
    int64_t nl = td_prod_bool(p) ? 1 : 1 + td_prod_u32(p, 0, (uint32_t)(nh < BSA_MAXNL ? nh - 1 : BSA_MAXNL - 1));
    int64_t nrows = grid0 + (td_prod_u32(p, 0, 3) == 0 ? td_prod_u32(p, 1, 2) : 0);
    int64_t rsh = nrows + 1 + (td_prod_bool(p) ? td_prod_u32(p, 1, 3) : 0);
    int64_t csh = nrows * (ncols < cap ? ncols : cap) + (td_prod_bool(p) ? td_prod_u32(p, 1, 5) : 0);
    int64_t qrows = grid0 * bm, kvrows = ncols * bn, dim = 2 * bd;
    int64_t sq[4], sk[4], sv[4], so[4];
    bsa_strides(p, nh, qrows, dim, 0, sq);
    bsa_strides(p, nkv, kvrows, dim, 0, sk);
    bsa_strides(p, nkv, kvrows, dim, 0, sv);
    bsa_strides(p, nh, qrows, dim, 0, so);
    int64_t v[F_NP] = {bm, bd, bn, nh, nkv, nl, seq, rsh, csh, sq[0], sq[1], sq[2], sk[0], sk[1], sk[2],
                       sv[0], sv[1], sv[2], so[0], so[1], so[2], 0};
    for (int i = 0; i < F_NP; i++) c->p[i].i = v[i];
    c->p[F_SCALE].r = bsa_scale(p, dim);
    c->grid[0] = (uint32_t)grid0;
    c->grid[1] = (uint32_t)(nb * nh);
    td_case_alloc(c, F_Q, (size_t)bsa_extent(sq, nb, nh, qrows, dim));
    td_case_alloc(c, F_K, (size_t)bsa_extent(sk, nb, nkv, kvrows, dim));
    td_case_alloc(c, F_V, (size_t)bsa_extent(sv, nb, nkv, kvrows, dim));
    td_case_alloc(c, F_OUT, (size_t)bsa_extent(so, nb, nh, qrows, dim));
    td_case_alloc(c, F_R, (size_t)(nl * rsh));
    td_case_alloc(c, F_C, (size_t)(nl * csh));
    for (int reg = F_Q; reg <= F_V; reg++) at_poison(c, reg); /* padding: never read */
    bsa_gen_layout(p, c, nl, nrows, grid0, ncols, cap);

    at_vals g;
    at_vals_init(&g, p, c, fabs(c->p[F_SCALE].r), (int)dim, (int)kvrows, 1.0e4, 0, 1.0e4);
    for (int64_t b = 0; b < nb; b++) {
        for (int64_t h = 0; h < nh; h++)
            for (int64_t m = 0; m < qrows; m++)
                for (int64_t e = 0; e < dim; e++)
                    td_set(c, F_Q, (size_t)(b * sq[0] + h * sq[1] + m * sq[2] + e),
                           at_q(&g, TD_F32, (int)(b * nh + h), (int)m, (int)e));
        for (int64_t h = 0; h < nkv; h++)
            for (int64_t j = 0; j < kvrows; j++)
                for (int64_t e = 0; e < dim; e++) {
                    td_set(c, F_K, (size_t)(b * sk[0] + h * sk[1] + j * sk[2] + e),
                           at_k(&g, TD_F32, (int)(b * nkv + h), (int)j, (int)e));
                    td_set(c, F_V, (size_t)(b * sv[0] + h * sv[1] + j * sv[2] + e), at_v(&g, TD_F32));
                }
    }
    td_gen_mark_shape((uint64_t)seq, (uint64_t)bm, (uint64_t)grid0, &c->classes);
    if (ncols > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (seq % bn) c->classes |= TD_BC(TD_BC_SEQ_BLOCK_EDGE); /* the last key block partial */
    if (bn > 1 || bm > 1) c->classes |= TD_BC(TD_BC_FULLY_MASKED) * (grid0 > 1 || ncols > 1);
    if (sq[2] > dim || so[2] > dim) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* the CSR window of program (p0, p1): start_l, end_l (hStartL / hEndL) */
static void bsa_window(const td_case *c, int64_t p0, int64_t p1, int64_t *lh, int64_t *s, int64_t *e) {
    *lh = p1 % FI(c, F_NH) % FI(c, F_NL);
    *s = (int64_t)td_get(c, F_R, (size_t)(*lh * FI(c, F_RSH) + p0));
    *e = (int64_t)td_get(c, F_R, (size_t)(*lh * FI(c, F_RSH) + p0 + 1));
}

static const char *f_check_shapes(const td_case *c) {
    for (int i = 0; i < F_SCALE; i++)
        if (FI(c, i) < 0) return "parameters are Nat";
    if ((double)(float)c->p[F_SCALE].r != c->p[F_SCALE].r) return "scale is the kernel's binary32 softmax_scale";
    int64_t bm = FI(c, F_BM), bd = FI(c, F_BD), bn = FI(c, F_BN), nh = FI(c, F_NH), nkv = FI(c, F_NKV);
    if (bn <= 0) return "hBN: 0 < BLOCK_N";
    if (bm <= 0 || bd <= 0 || nh <= 0 || nkv <= 0 || FI(c, F_NL) <= 0) return "block sizes and head counts > 0";
    if (nh % nkv) return "num_kv_heads | num_heads (head_groups = num_heads // num_kv_heads maps onto the KV heads)";
    if (FI(c, F_SEQ) <= 0 || (int64_t)c->grid[0] != (FI(c, F_SEQ) + bm - 1) / bm)
        return "grid axis 0 = cdiv(total_seq_len, BLOCK_M)";
    if (c->grid[1] % (uint32_t)nh || c->grid[1] > AT_MAXH * 2) return "grid axis 1 = batch * num_heads";
    if (2 * bd > AT_MAXD) return "the case fits the oracle's row model (2 * BLOCK_D <= 64)";
    if (FI(c, F_SOM) < 2 * bd) return "hinj / hdisj: stride_om >= 2 * BLOCK_D (the two D blocks of a row apart)";
    int64_t qrows = (int64_t)c->grid[0] * bm;
    for (int64_t p1 = 0; p1 < (int64_t)c->grid[1]; p1++) {
        if (p1 / nh * FI(c, F_SQB) + p1 % nh * FI(c, F_SQH) + (qrows - 1) * FI(c, F_SQM) + 2 * bd > (int64_t)c->r[F_Q].len)
            return "Q holds every row of every tile (EVEN_M: q loaded unmasked)";
        if (p1 / nh * FI(c, F_SOB) + p1 % nh * FI(c, F_SOH) + (qrows - 1) * FI(c, F_SOM) + 2 * bd >
            (int64_t)c->r[F_OUT].len)
            return "Out holds every row of every tile";
    }
    return NULL;
}

static const char *f_check(const td_case *c) {
    const char *e = f_check_shapes(c);
    if (e) return e;
    int64_t bm = FI(c, F_BM), bn = FI(c, F_BN), nh = FI(c, F_NH), dim = 2 * FI(c, F_BD);
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++) {
        int64_t kvh = p1 % nh / (nh / FI(c, F_NKV)), b = p1 / nh;
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++) {
            int64_t lh = p1 % nh % FI(c, F_NL);
            if ((lh + 1) * FI(c, F_RSH) > (int64_t)c->r[F_R].len || p0 + 1 >= FI(c, F_RSH))
                return "R holds the program's row pointers (hStartL / hEndL)";
            int64_t s, en;
            bsa_window(c, p0, p1, &lh, &s, &en);
            if (!(s <= en)) return "hsle: start_l <= end_l";
            if (!(en - s > 0)) return "hN: 0 < end_l - start_l (a nonempty CSR row for every program)";
            if (s < 0 || en > FI(c, F_CSH) || (lh + 1) * FI(c, F_CSH) > (int64_t)c->r[F_C].len)
                return "C holds the program's column indices";
            if ((en - s) * bn > AT_MAXS || en - s > AT_MAXB) return "the case fits the oracle's row model (<= 64 keys)";
            for (int64_t i = s; i < en; i++) {
                int64_t col = (int64_t)td_get(c, F_C, (size_t)(lh * FI(c, F_CSH) + i));
                if (col < 0) return "column indices are Nat";
                if (col * bn > (int64_t)p0 * bm)
                    return "hVis0 / hstep: every selected block's first key <= the tile's first query row (a fully "
                           "masked block is exp(-inf - -inf) = NaN in the IEEE kernel)";
                int64_t kend = b * FI(c, F_SKB) + kvh * FI(c, F_SKH) + (col * bn + bn - 1) * FI(c, F_SKN) + dim;
                int64_t vend = b * FI(c, F_SVB) + kvh * FI(c, F_SVH) + (col * bn + bn - 1) * FI(c, F_SVN) + dim;
                if (kend > (int64_t)c->r[F_K].len || vend > (int64_t)c->r[F_V].len)
                    return "K, V hold every key of every selected block (EVEN_N: loaded unmasked)";
            }
        }
    }
    return NULL;
}

static void f_writes(const td_case *c, td_wset *ws) {
    int64_t bm = FI(c, F_BM), bd = FI(c, F_BD), nh = FI(c, F_NH), seq = FI(c, F_SEQ);
    for (int k = 0; k < 2; k++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
                for (int64_t i = 0; i < bm && (int64_t)p0 * bm + i < seq; i++)
                    for (int64_t d = 0; d < bd; d++) {
                        int64_t row = (int64_t)p0 * bm + i;
                        int64_t off = p1 / nh * FI(c, F_SOB) + p1 % nh * FI(c, F_SOH) + row * FI(c, F_SOM) + k * bd + d;
                        td_olane l = {.o = (uint32_t)k, .region = F_OUT, .off = (uint64_t)off, .pid = {p0, p1, 0},
                                      .j = (uint64_t)(i * bd + d), .idx = {p1, row, k * bd + d, 0}};
                        td_wset_add(ws, &l);
                    }
}

/* The row of lane l as the kernel streams it: the selected keys in CSR order, flattened
 * (selKeyGlobal r = C[layout_h*colStrideH + start_l + r/BLOCK_N]*BLOCK_N + r%BLOCK_N), kept
 * when causal (key <= row), the score dot over the 2*BLOCK_D head lanes times scale. */
static void bsa_row(const td_case *c, const td_olane *l, at_row *R) {
    int64_t bn = FI(c, F_BN), nh = FI(c, F_NH), dim = 2 * FI(c, F_BD);
    int64_t p0 = (int64_t)l->pid[0], p1 = l->idx[0], row = l->idx[1], d = l->idx[2];
    int64_t b = p1 / nh, h = p1 % nh, kvh = h / (nh / FI(c, F_NKV)), lh, s, e;
    bsa_window(c, p0, p1, &lh, &s, &e);
    at_row_init(R);
    R->key = ((uint64_t)p1 << 16) | (uint64_t)row;
    R->out = AT_OUT_O;
    R->score = AT_SC_SCALE;
    R->base2 = 0;
    R->norm = AT_NORM_STEP;
    R->q_reg = F_Q, R->k_reg = F_K, R->v_reg = F_V;
    R->nd = (int)dim;
    int64_t qb = b * FI(c, F_SQB) + h * FI(c, F_SQH) + row * FI(c, F_SQM);
    for (int64_t x = 0; x < dim; x++) R->q_off[x] = qb + x;
    int64_t kb = b * FI(c, F_SKB) + kvh * FI(c, F_SKH), vb = b * FI(c, F_SVB) + kvh * FI(c, F_SVH);
    R->nkeys = (int)((e - s) * bn);
    R->k_es = 1;
    R->bn = (int)bn;
    R->nblk = (int)(e - s);
    for (int64_t t = 0; t < e - s; t++) {
        int64_t col = (int64_t)td_get(c, F_C, (size_t)(lh * FI(c, F_CSH) + s + t));
        R->blk_lo[t] = (int)(t * bn);
        for (int64_t k = 0; k < bn; k++) {
            int64_t j = t * bn + k, key = col * bn + k;
            R->k_off[j] = kb + key * FI(c, F_SKN);
            R->v_off[j] = vb + key * FI(c, F_SVN) + d;
            R->keep[j] = (uint8_t)(key <= row);
        }
    }
    R->sm_scale = c->p[F_SCALE].r;
}

/* Offsets beyond 2^31 (gen_far.h): with two batches the batch axis of Q, K and V (sqb,
 * skb, svb: outermost in every layout drawn) moves to a stride near 2^31 over sparse
 * regions (td_far_axis); Out stays dense at its own strides.  The kernel forms
 * Q += off_b * stride_qb + off_h * stride_qh in Triton's int32. */
static void f_far(td_producer *p, td_case *c) {
    const int reg[3] = {F_Q, F_K, F_V}, st[3] = {F_SQB, F_SKB, F_SVB};
    td_far_axis(p, c, 3, reg, st, c->grid[1] / FI(c, F_NH));
}

#define F_CLASSES                                                                                                   \
    (TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) |          \
     TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) |         \
     TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_VALUES_SPECIAL) |                          \
     TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_SEQ_EMPTY) | TD_BC(TD_BC_MASK_PATTERN) |    \
     TD_BC(TD_BC_SEQ_BLOCK_EDGE) | TD_BC(TD_BC_OFFSET_2_31))

static const td_intent f_intent = {
    .operation = "block-sparse causal attention softmax(q k^T * scale + layout mask + causal mask) v of each query "
                 "row over the key blocks its CSR layout row selects",
    .definition = "torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask = the block layout expanded "
                  "to keys AND key <= query, scale) (PyTorch documentation), exact",
    TD_SPECS(bsa_cf_intent),
};

const td_contract td_c_block_sparse_attn_cf = {
    .id = "block_sparse_attn.block_sparse_attn_output_closed_form_summary_general",
    .file = "block_sparse_attn",
    .family = "attention",
    .io_class = "Realizes_without_Rounding x 2 (writeIf active at outOffset and out2Offset), NUM_D_BLOCKS = 2, "
                "EVEN_M = EVEN_N = true",
    .kind = "exact",
    .formula = "Out[m, dBase + d] = sum_r w(m,r) V[n_r, dBase + d] / sum_r w(m,r), w = exp(scale q_m.k_{n_r}) if n_r <= "
               "m else 0, n_r = C[lh*colStrideH + start_l + r/BN]*BN + r%BN, dBase = 0 | BLOCK_D",
    .nparams = F_NP,
    .params = f_params,
    .nregions = F_NR,
    .regions = f_regions,
    .classes = F_CLASSES,
    .gen = f_gen,
    .far = f_far,
    .check = f_check,
    .writes = f_writes,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs; every selected block holds a kept key for every active row (hVis0 extended, see the "
               "header), so every row's sum is >= 1 and nothing is 0/0",
    .error_model = "online softmax normalised every step (attn_online_common.h AT_NORM_STEP): binary32 dot over "
                   "2*BLOCK_D lanes (any order), one scale product, expf budgets, tree row sums, the beta/l and "
                   "l_i/l*alpha rescales, a binary32 P.V dot, any KV blocking and order (reblock)",
    TD_SPECS(bsa_cf),
    .intent = &f_intent,
};
