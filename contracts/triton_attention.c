/* triton_attention: the old Triton tutorial's fused attention (v1) (catalogue part 2).
 *
 * Covered: the forward and its io face (below) and
 * triton_attention_bwd_preprocess_genuine_output_summary_general
 *   lowering exists AND Realizes_without_Rounding of both stores of _bwd_preprocess:
 *   NewDO[r, d] = DO[r, d] / L[r]                           at r*D_HEAD + d   (bwdPreprocessNewDOSpecG)
 *   Delta[r]    = sum_{d < D_HEAD} Out[r, d] * (DO[r, d] / L[r])   at r      (bwdPreprocessDeltaSpecG)
 *   r = pid*BLOCK_M + i (i < BLOCK_M), every load and store unmasked; hND: NewDO != Delta,
 *   hOutInj: the NewDO tile offsets injective (they are: r*D_HEAD + d with d < D_HEAD).
 * and triton_attention_bwd_grads_genuine_output_summary_general (_bwd_kernel: DQ, DV, DK, at the
 * end of this file).
 *
 * Checked against bench/tritonbench_g/triton_attention/triton_attention.py (_bwd_preprocess)
 * and TritonAttention.lean (triton_attention_bwd_preprocess, the two SpecG definitions): the
 * program loads its BLOCK_M x D_HEAD tiles of Out and DO and BLOCK_M entries of L, converts
 * them to binary32, divides do by its row's L, stores that as NewDO and the row sums of
 * o * do as Delta.  The reading matches the kernel.  In the launcher (the tutorial's
 * backward) Out and DO are fp16 (the forward's output and its gradient), L binary32 (the
 * forward's l), NewDO = empty_like(do) (fp16), Delta = empty_like(l) (binary32).
 *
 * Rounding.  The theorem is over the reals; the kernel's one conversion, the NewDO store to
 * fp16, is a declared cast ("store" fp16:rne:inf).  Error model, any admissible
 * implementation:
 *   n_d   = RN(DO_d / L)              u|n_d| (IEEE division; the backend's division budget where the
 *                                      shadow charges an approximate one)
 *   NewDO = the fp16 store of n_d     judged against the cast's admissible interval
 *   Delta = sum_d RN(O_d * n_d) in any order (tl.sum's tree, FMA allowed)   u per product +
 *           gamma_{D_HEAD-1} sum |O_d n_d|;  or, the algebraically equal form an implementation may
 *           write, RN(sum_d RN(O_d DO_d) / L) (one division after the sum): N(either) of the two.
 * No other tolerance.
 *
 * Special values (TD_SV_REAL): L > 0 (a softmax row sum: the forward's l >= 1; drawn in
 * [2^-4, 2^12], Lean's x/0 = 0 never arises), finite fp16 Out and DO: every output finite.
 *
 * Generator: BLOCK_M and D_HEAD powers of two (1..64 and 1..128), 1..8 programs, Out / DO from
 * the value menu in fp16 (large, tiny, ties, special values included), L near 1, up to a
 * context's length, or small, and the total kept below ~2^14 lanes.
 */
#include <math.h>

#include "attn_online_common.h"
#include "gen_large.h"

enum { P_BM, P_DH, NP };
enum { R_OUT, R_DO, R_L, R_NEWDO, R_DELTA, NR };
enum { C_STORE, NC };

#define TA_P(c, k) ((c)->p[(k)].i)
#define TA_BOUND 1000.0 /* |Out|, |DO| (fp16) */

/* the forward (_fwd_kernel): parameters and regions in the theorems' order */
enum { F_SC, F_SQZ, F_SQH, F_Z, F_H, F_NCTX, F_D0, F_BM, F_BD, F_BN, F_NP };
enum { FR_Q, FR_K, FR_V, FR_L, FR_M, FR_OUT, FR_NR };
enum { FC_P, FC_STORE, FC_NC };
#define TF_P(c, k) ((c)->p[(k)].i)
/* the first 2-D row of head program pid1: pid1 * (stride_qh / BLOCK_DMODEL) (stride_qh_2d) */
static inline int64_t tf_hz(const td_case *c, int64_t p1) { return p1 * (TF_P(c, F_SQH) / TF_P(c, F_BD)); }
static void tf_row(const td_case *c, const td_olane *l, at_row *R);

/* the backward (_bwd_kernel): parameters and regions in the theorem's order */
enum { B_H, B_SQZ, B_SQH, B_BASE, B_SC, B_BM, B_BD, B_D0, B_NB, B_Z, B_SKZ, B_SKH, B_SVZ, B_SVH, B_BN, B_NP };
enum { BR_Q, BR_K, BR_V, BR_DO, BR_M, BR_DELTA, BR_DQ, BR_DV, BR_DK, BR_NR };
enum { BC_P, BC_DS, BC_STORE, BC_NC };
#define TB_P(c, k) ((c)->p[(k)].i)
/* program pid0's first 2-D row: (pid0 / H) * (stride_qz / BD) + (pid0 % H) * (stride_qh / BD) (hbase) */
static inline int64_t tb_b2d(const td_case *c, int64_t p0) {
    int64_t h = TB_P(c, B_H), bd = TB_P(c, B_BD);
    return (p0 / h) * (TB_P(c, B_SQZ) / bd) + (p0 % h) * (TB_P(c, B_SQH) / bd);
}
static inline int64_t tb_nctx(const td_case *c) { return TB_P(c, B_NB) * TB_P(c, B_BM); }

#define TD_SPEC_FILE "triton_attention.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params_pre[NP] = {{"BLOCK_M", TD_P_INT}, {"D_HEAD", TD_P_INT}};
static const td_region_decl regions_pre[NR] = {{"Out", TD_F16, TD_R_IN},
                                               {"DO", TD_F16, TD_R_IN},
                                               {"L", TD_F32, TD_R_IN},
                                               {"NewDO", TD_F16, TD_R_OUT},
                                               {"Delta", TD_F32, TD_R_OUT}};
static const td_cast_decl casts_pre[NC] = {
    {"store", "fp16:rne:inf", "NewDO store: do / denom into empty_like(do), fp16 (the theorem: real)"}};

static void gen_pre(td_producer *p, td_case *c) {
    int64_t bm = (int64_t)td_gen_pow2(p, 0, 6), dh = (int64_t)td_gen_pow2(p, 0, 7);
    int64_t gmax = (1 << 14) / (bm * dh);
    int64_t G = td_prod_u32(p, 0, 2) == 0 ? 1 : td_prod_u32(p, 1, (uint32_t)(gmax < 8 ? (gmax < 1 ? 1 : gmax) : 8));
    TA_P(c, P_BM) = bm, TA_P(c, P_DH) = dh;
    c->grid[0] = (uint32_t)G;
    td_gen_mark_shape((uint64_t)(G * bm), (uint64_t)bm, (uint64_t)G, &c->classes);
    if (dh > 1) c->classes &= ~TD_BC(TD_BC_SINGLE_LANE);
    size_t rows = (size_t)(G * bm);
    td_case_alloc(c, R_OUT, rows * (size_t)dh);
    td_case_alloc(c, R_DO, rows * (size_t)dh);
    td_case_alloc(c, R_L, rows);
    td_case_alloc(c, R_NEWDO, rows * (size_t)dh + td_prod_u32(p, 0, 3));
    td_case_alloc(c, R_DELTA, rows + td_prod_u32(p, 0, 3));
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, TA_BOUND);
    td_vgen_fill(&g, c, R_OUT);
    td_vgen_fill(&g, c, R_DO);
    int lmode = (int)td_prod_u32(p, 0, 2);
    for (size_t r = 0; r < rows; r++) {
        double u = td_rng_unit(&g.rng), x;
        switch (lmode) {
        case 0: x = 1.0 + u; break;                  /* one dominant key */
        case 1: x = ldexp(1.0 + u, (int)(12 * u)); break; /* up to a context's length */
        default: x = ldexp(1.0 + u, -4 + (int)(16 * u)); break;
        }
        volatile float xf = (float)x; /* rounded to binary32 */
        td_set(c, R_L, r, xf);
    }
}

static const char *check_pre(const td_case *c) {
    int64_t bm = TA_P(c, P_BM), dh = TA_P(c, P_DH), G = (int64_t)c->grid[0];
    if (bm <= 0 || dh <= 0 || G <= 0) return "a launch: BLOCK_M, D_HEAD and the grid positive";
    size_t rows = (size_t)(G * bm);
    if (c->r[R_OUT].len < rows * (size_t)dh || c->r[R_DO].len < rows * (size_t)dh)
        return "Out and DO hold every program's tile (loads unmasked)";
    if (c->r[R_L].len < rows) return "L holds every program's rows";
    if (c->r[R_NEWDO].len < rows * (size_t)dh || c->r[R_DELTA].len < rows) return "NewDO, Delta hold every store";
    /* A large case: the rows of its windows.  Its other rows read L = 0 (untouched pages):
     * their lanes are not judged (counted as sampled out), and the kernel's 0 / 0 there is a
     * quiet NaN in IEEE arithmetic on every backend (no trap), stored where nothing reads it. */
    for (uint64_t r = td_large_next(c, R_L, 0); r < rows; r = td_large_next(c, R_L, r + 1)) {
        double l = td_get(c, R_L, (size_t)r);
        if (!(l > 0x1p-5 && l < 0x1p13)) return "domain: 2^-5 < L < 2^13 (a softmax row sum; no x/0)";
    }
    for (uint64_t i = td_large_next(c, R_OUT, 0); i < rows * (uint64_t)dh; i = td_large_next(c, R_OUT, i + 1))
        if (!(fabs(td_get(c, R_OUT, (size_t)i)) <= TA_BOUND) || !(fabs(td_get(c, R_DO, (size_t)i)) <= TA_BOUND))
            return "domain: |Out|, |DO| <= 1000 (finite outputs)";
    return NULL;
}

/* NewDO (o = 0) at r*D_HEAD + d, Delta (o = 1) at r; r = pid*BLOCK_M + i.  A large case:
 * the programs of its windows; the others' lanes only counted. */
static void writes_pre(const td_case *c, td_wset *ws) {
    int64_t bm = TA_P(c, P_BM), dh = TA_P(c, P_DH);
    uint64_t seen = 0;
    for (uint32_t pid = (uint32_t)td_large_row_next(c, 0); pid < c->grid[0];
         pid = (uint32_t)td_large_row_next(c, (uint64_t)pid + 1), seen++)
        for (int64_t i = 0; i < bm; i++) {
            int64_t r = (int64_t)pid * bm + i;
            for (int64_t d = 0; d < dh; d++) {
                td_olane l = {.o = 0, .region = R_NEWDO, .off = (uint64_t)(r * dh + d), .pid = {pid, 0, 0},
                              .j = (uint64_t)(i * dh + d), .idx = {r, d}};
                td_wset_add(ws, &l);
            }
            td_olane l = {.o = 1, .region = R_DELTA, .off = (uint64_t)r, .pid = {pid, 0, 0}, .j = (uint64_t)i,
                          .idx = {r, 0}};
            td_wset_add(ws, &l);
        }
    if (c->nwin) ws->dropped += (c->grid[0] - seen) * (uint64_t)(bm * (dh + 1));
}

/* Region reg re-laid as `rows` rows of w elements, row n holding old row n mod rows0. */
static void pre_relay(td_case *c, int reg, uint64_t rows0, uint64_t rows, uint64_t w) {
    td_region old = c->r[reg];
    size_t eb = td_fmt_get(old.fmt)->bytes;
    c->r[reg].data = NULL, c->r[reg].mapped = 0, c->r[reg].len = 0;
    uint8_t *d = td_case_alloc(c, reg, (size_t)(rows * w));
    for (uint64_t n = 0; n < rows; n++) memcpy(d + n * w * eb, (const uint8_t *)old.data + n % rows0 * w * eb, w * eb);
    td_region_release(&old);
}

/* The large tier (gen_large.h, td_rows_large): the original forms off_m[:, None] * D_HEAD +
 * off_n = (pid * BLOCK_M + i) * D_HEAD + d in int32 (a program id and constexprs: Triton
 * types them int32), so past 2^31 elements of Out it wraps.  A row-block is a program's
 * tile: BLOCK_M * D_HEAD elements of Out, DO and NewDO, BLOCK_M of L and Delta.  A tile
 * narrower than TD_ROWS_LARGE_MIN_LEN takes BLOCK_M times a power of two f rows, the drawn
 * rows repeated (row n holds row n mod rows: L stays in its domain on every row, which
 * zero columns would not keep). */
static void large_pre(td_producer *p, td_case *c) {
    uint64_t bm = (uint64_t)TA_P(c, P_BM), dh = (uint64_t)TA_P(c, P_DH), G = c->grid[0], f = 1, R;
    while (bm * f * dh < TD_ROWS_LARGE_MIN_LEN) f *= 2;
    if (f > 1) {
        pre_relay(c, R_OUT, G * bm, G * bm * f, dh);
        pre_relay(c, R_DO, G * bm, G * bm * f, dh);
        pre_relay(c, R_L, G * bm, G * bm * f, 1);
        bm *= f;
        td_case_alloc(c, R_NEWDO, (size_t)(G * bm * dh)); /* (outputs: every store of the wider tiles) */
        td_case_alloc(c, R_DELTA, (size_t)(G * bm));
    }
    uint64_t t = bm * dh;
    td_rows_region rr[5] = {{R_OUT, t, t}, {R_DO, t, t}, {R_L, bm, bm}, {R_NEWDO, t, 0}, {R_DELTA, bm, 0}};
    TA_P(c, P_BM) = (int64_t)bm;
    if (td_rows_large(p, c, G, rr, 5, &R) != 0) return; /* (the case stays an ordinary one of BLOCK_M rows) */
    c->grid[0] = (uint32_t)R;
    c->classes &= ~TD_BC(TD_BC_SINGLE_LANE);
}

const td_contract td_c_triton_attention_bwd_pre = {
    .id = "triton_attention.triton_attention_bwd_preprocess_genuine_output_summary_general",
    .file = "triton_attention",
    .family = "attention",
    .io_class = "ComputeCorrect over TileIndex [BLOCK_M, D_HEAD] (NewDO) and Fin BLOCK_M (Delta) + lowering",
    .kind = "exact",
    .formula = "NewDO[r,d] = DO[r,d] / L[r];  Delta[r] = sum_d Out[r,d] * (DO[r,d] / L[r])",
    .nparams = NP,
    .params = params_pre,
    .nregions = NR,
    .regions = regions_pre,
    .ncasts = NC,
    .casts = casts_pre,
    .sv = TD_SV_REAL,
    .sv_note = "L > 0 (a softmax row sum, drawn in (2^-5, 2^13)): no division by zero; finite inputs, finite outputs",
    .error_model = "one division per lane (u or the backend's budget); Delta: u per product, gamma_{D_HEAD-1} over "
                   "the row in any order, or the sum of Out*DO divided once (N(either)); NewDO fp16 store cast",
    .classes = TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) |
               TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_VALUES_SPECIAL),
    /* no far hook: every region is addressed densely (r * D_HEAD + d, r = pid * BLOCK_M + i over
     * every program, no stride parameter), so an offset past 2^31 needs 2^31 elements of work:
     * the large tier's row-blocks (`large_pre`), not a stride over sparse memory */
    .gen = gen_pre,
    .large = large_pre,
    .check = check_pre,
    .writes = writes_pre,
    TD_SPECS(ta_pre),
};

/* ---- the forward: triton_attention_forward_output_summary_general, triton_attention_forward_io_correctness ----
 *
 *   output summary: hBM, hBN, hBD > 0; hdvd: BLOCK_N | (pid0+1)*BLOCK_M; hbound: pid1*(stride_qh/BD) +
 *     (pid0+1)*BLOCK_M <= D0; L, M, Out distinct; houtinj; Q, K, V, Out at (stride_qz, stride_qh, BD, 1);
 *     Out[r,d] = fp16(sum_{j<=row} e^(sc q_row.k_j - m_row) V[j,d] / l_row)  (keys j < (pid0+1)*BLOCK_M),
 *     L[r] = l_row = sum_{j<=row} e^(sc q_row.k_j - m_row),  M[r] = m_row = max_{j<=row} sc q_row.k_j,
 *     row = pid0*BLOCK_M + r (the query of head pid1 at 2-D row pid1*(stride_qh/BD) + row), keys at 2-D rows
 *     pid1*(stride_qh/BD) + j; Out at that row * BD + d, L and M at pid1*N_CTX + row.
 *   io: StreamMasked3DKernelIO_3x3, hfp16: R.round .fp16 = id, hBNM: BLOCK_N | BLOCK_M, the same values
 *     (out1 attentionRealCausalBlock, out2 taIOLSpecT, out3 taIOMSpecT).
 *
 * Checked against triton_attention.py (_fwd_kernel, the tutorial's v1 forward) and
 * TritonAttention.lean (fwdOutSpecG, fwdLSpecG, fwdMSpecG): the program walks the key blocks
 * start_n < (start_m+1)*BLOCK_M, qk = dot(q, k^T) * sm_scale, causal where(offs_m >= start_n +
 * offs_n), m_curr = max(rowmax, m_prev), l_prev *= exp(m_prev - m_curr), p = exp(qk - m_curr),
 * l_curr = sum(p) + l_prev, p *= 1/l_curr, acc *= l_prev/l_curr (as l_prev * l_rcp), acc +=
 * dot(p.to(fp16), v); it stores l_prev, m_prev (the final l and max, natural base) and acc as
 * fp16.  The block pointers use the 2-D view (D0, BLOCK_DMODEL) with offset off_hz *
 * stride_qh_2d: the head's rows start at pid1 * (stride_qh / BD) whatever stride_qz is (the
 * catalogue keeps stride_qz as a parameter the kernel ignores).  The readings match.  Every
 * row keeps key 0, so l >= 1 and no row is empty.
 *
 * Rounding.  The theorems are over the reals (the output summary's fp16 cast of Out is a
 * mathematical cast; the io's hfp16 makes it the identity).  The kernel rounds P to fp16 for
 * the P.V dot and stores Out as fp16 (q is fp16 in the tutorial): checked under "p" and
 * "store" fp16:rne:inf; L and M are binary32.  Error model (attn_online_common.h,
 * AT_NORM_STEP, the model attention_llama uses): a binary32 dot over BLOCK_DMODEL lanes, one
 * scale product, expf budgets, the tree row sum plus l_prev, one reciprocal, p*l_rcp and
 * l_prev*l_rcp, the fp16 P at any scale, acc*(l_prev*l_rcp) + P.V, any KV blocking
 * (N(reblock)); L is the row's l so widened, M the exact max of the computed scores (the same
 * in every blocking).
 *
 * Generator: BLOCK_M, BLOCK_N (BLOCK_N | BLOCK_M), BLOCK_DMODEL powers of two, 1..4 query
 * blocks, 1..3 heads with padding rows between heads (D0 above the last head's rows), and
 * the family's score and value landscapes (attn_online_common.h). */

static const td_param_decl params_fwd[F_NP] = {
    {"sc", TD_P_REAL}, {"stride_qz", TD_P_INT}, {"stride_qh", TD_P_INT}, {"Z", TD_P_INT},
    {"H", TD_P_INT},   {"N_CTX", TD_P_INT},     {"D0", TD_P_INT},        {"BLOCK_M", TD_P_INT},
    {"BLOCK_DMODEL", TD_P_INT}, {"BLOCK_N", TD_P_INT}};
static const td_region_decl regions_fwd[FR_NR] = {
    {"Q", TD_F16, TD_R_IN},  {"K", TD_F16, TD_R_IN},  {"V", TD_F16, TD_R_IN},
    {"L", TD_F32, TD_R_OUT}, {"M", TD_F32, TD_R_OUT}, {"Out", TD_F16, TD_R_OUT}};
static const td_cast_decl casts_fwd[FC_NC] = {
    {"p", "fp16:rne:inf", "p = p.to(tl.float16): the normalised P operand of the P.V dot"},
    {"store", "fp16:rne:inf", "acc.to(tl.float16) stored into Out (the output summary's fp16 cast; io: hfp16)"}};

static void gen_fwd(td_producer *p, td_case *c) {
    int64_t bd = at_pow2(p, 0, 5), bm = at_pow2(p, 0, 5), bn = at_pow2(p, 0, 5);
    if (bn > bm) bn = bm; /* hdvd / hBNM: BLOCK_N | BLOCK_M (powers of two) */
    int64_t grid0 = td_prod_u32(p, 1, (uint32_t)(64 / bm < 4 ? 64 / bm : 4)), nctx = grid0 * bm;
    int64_t z = 1 + td_prod_u32(p, 0, 1), h = 1 + td_prod_u32(p, 0, 1);
    if (z * h > 3) h = 1;
    while (z * h * nctx * nctx * bd > (1 << 16) && bd > 1) bd /= 2;
    int64_t rows = nctx + (td_prod_bool(p) ? td_prod_u32(p, 1, 3) : 0); /* 2-D rows per head */
    int64_t sqh = rows * bd, sqz = h * sqh, nbh = z * h;
    int64_t d0 = (nbh - 1) * rows + nctx + (td_prod_bool(p) ? td_prod_u32(p, 0, 4) : 0);
    c->p[F_SC].r = (double)(float)(td_prod_u32(p, 0, 3) ? 1.0 / sqrt((double)bd) : td_gen_real(p, -2, 2));
    TF_P(c, F_SQZ) = sqz, TF_P(c, F_SQH) = sqh, TF_P(c, F_Z) = z, TF_P(c, F_H) = h, TF_P(c, F_NCTX) = nctx;
    TF_P(c, F_D0) = d0, TF_P(c, F_BM) = bm, TF_P(c, F_BD) = bd, TF_P(c, F_BN) = bn;
    c->grid[0] = (uint32_t)grid0;
    c->grid[1] = (uint32_t)nbh;
    td_gen_mark_shape((uint64_t)nctx, (uint64_t)bm, (uint64_t)(grid0 * nbh), &c->classes);
    if (grid0 > 1 || bm > bn) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (rows > nctx) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (bm > 1) c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* a key block masked for the program's first rows */
    size_t len = (size_t)(d0 * bd);
    for (int r = FR_Q; r <= FR_V; r++) td_case_alloc(c, r, len), at_poison(c, r);
    td_case_alloc(c, FR_OUT, len);
    td_case_alloc(c, FR_L, (size_t)(nbh * nctx));
    td_case_alloc(c, FR_M, (size_t)(nbh * nctx));
    at_vals g;
    at_vals_init(&g, p, c, fabs(c->p[F_SC].r), (int)bd, (int)nctx, 256, 0, 256);
    for (int64_t p1 = 0; p1 < nbh; p1++)
        for (int64_t r = 0; r < nctx; r++)
            for (int64_t e = 0; e < bd; e++) {
                size_t off = (size_t)((tf_hz(c, p1) + r) * bd + e);
                td_set(c, FR_Q, off, at_q(&g, TD_F16, (int)p1, (int)r, (int)e));
                td_set(c, FR_K, off, at_k(&g, TD_F16, (int)p1, (int)r, (int)e));
                td_set(c, FR_V, off, at_v(&g, TD_F16));
            }
}

static const char *check_fwd(const td_case *c) {
    int64_t bm = TF_P(c, F_BM), bn = TF_P(c, F_BN), bd = TF_P(c, F_BD), nctx = TF_P(c, F_NCTX), d0 = TF_P(c, F_D0);
    if ((double)(float)c->p[F_SC].r != c->p[F_SC].r) return "sc is the kernel's binary32 scalar";
    if (bm <= 0) return "hBM: 0 < BLOCK_M";
    if (bn <= 0) return "hBN: 0 < BLOCK_N";
    if (bd <= 0) return "hBD: 0 < BLOCK_DMODEL";
    if (bm % bn) return "hdvd / hBNM: BLOCK_N | BLOCK_M ((pid0+1)*BLOCK_M for every program)";
    if (TF_P(c, F_SQH) % bd || TF_P(c, F_SQH) < nctx * bd) return "stride_qh a multiple of BD holding a head's N_CTX rows";
    if ((int64_t)c->grid[0] * bm > nctx) return "the query blocks lie in the head's N_CTX rows (L, M at pid1*N_CTX + row)";
    if (c->grid[1] < 1 || c->grid[1] > AT_MAXH) return "grid axis 1: 1 .. 8 head programs";
    if (bd > AT_MAXD || (int64_t)c->grid[0] * bm > AT_MAXS) return "the case fits the oracle's row model (<= 64 keys, lanes)";
    if (tf_hz(c, c->grid[1] - 1) + (int64_t)c->grid[0] * bm > d0) return "hbound: pid1*(stride_qh/BD) + (pid0+1)*BLOCK_M <= D0";
    for (int r = FR_Q; r <= FR_V; r++)
        if ((int64_t)c->r[r].len < d0 * bd) return "Q, K, V hold the (D0, BLOCK_DMODEL) view";
    if ((int64_t)c->r[FR_OUT].len < d0 * bd) return "Out holds the (D0, BLOCK_DMODEL) view";
    if ((int64_t)c->r[FR_L].len < (int64_t)c->grid[1] * nctx || (int64_t)c->r[FR_M].len < (int64_t)c->grid[1] * nctx)
        return "L and M hold Z*H*N_CTX rows";
    return NULL;
}

/* Out (o = 0) at (hz + row)*BD + d; L (o = 1) and M (o = 2) at pid1*N_CTX + row */
static void writes_fwd(const td_case *c, td_wset *ws) {
    int64_t bm = TF_P(c, F_BM), bd = TF_P(c, F_BD), nctx = TF_P(c, F_NCTX);
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            for (int64_t i = 0; i < bm; i++) {
                int64_t row = (int64_t)p0 * bm + i;
                for (int64_t d = 0; d < bd; d++) {
                    td_olane l = {.o = 0, .region = FR_OUT, .off = (uint64_t)((tf_hz(c, p1) + row) * bd + d),
                                  .pid = {p0, p1, 0}, .j = (uint64_t)(i * bd + d), .idx = {p1, row, d}};
                    td_wset_add(ws, &l);
                }
                for (uint32_t o = 1; o <= 2; o++) {
                    td_olane l = {.o = o, .region = o == 1 ? FR_L : FR_M, .off = (uint64_t)(p1 * nctx + row),
                                  .pid = {p0, p1, 0}, .j = (uint64_t)i, .idx = {p1, row, 0}};
                    td_wset_add(ws, &l);
                }
            }
}

static void tf_row(const td_case *c, const td_olane *l, at_row *R) {
    int64_t bn = TF_P(c, F_BN), bd = TF_P(c, F_BD), bm = TF_P(c, F_BM);
    int64_t p1 = l->idx[0], row = l->idx[1], d = l->idx[2], p0 = l->pid[0], hz = tf_hz(c, p1);
    at_row_init(R);
    R->key = ((uint64_t)p1 << 16) | (uint64_t)row;
    R->out = l->o == 0 ? AT_OUT_O : l->o == 1 ? AT_OUT_L : AT_OUT_M;
    R->score = AT_SC_SCALE;
    R->base2 = 0;
    R->norm = AT_NORM_STEP;
    R->q_reg = FR_Q, R->k_reg = FR_K, R->v_reg = FR_V;
    R->nd = (int)bd;
    for (int64_t e = 0; e < bd; e++) R->q_off[e] = (hz + row) * bd + e;
    int64_t end = (p0 + 1) * bm; /* the program's key span */
    R->nkeys = (int)end;
    R->k_es = 1;
    for (int64_t j = 0; j < end; j++) {
        R->k_off[j] = (hz + j) * bd;
        R->v_off[j] = (hz + j) * bd + d;
        R->keep[j] = (uint8_t)(row >= j); /* offs_m >= start_n + offs_n */
    }
    R->bn = (int)bn;
    R->nblk = (int)(end / bn);
    for (int b = 0; b < R->nblk; b++) R->blk_lo[b] = (int)(b * bn);
    R->sm_scale = c->p[F_SC].r;
    R->lit = NULL;
    R->c_p = FC_P;
    R->c_store = FC_STORE;
}

static const td_intent i_fwd = {
    .operation = "causal scaled dot-product attention softmax(q k^T * sc + causal mask) v of each query row "
                 "(key j <= row), with the row's softmax denominator l and maximum m",
    .definition = "torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, scale=sc) (PyTorch "
                  "documentation: the top-left causal mask), exact (no fp16 cast of the weights P)",
    TD_SPECS(ta_fwd_intent),
};

/* Offsets beyond 2^31 (gen_far.h): the head axis (grid axis 1, Z*H <= 3 programs) of Q, K,
 * V and Out, which share the (D0, BLOCK_DMODEL) view and the head offset off_hz *
 * stride_qh_2d, moved to one stride near 2^31 (a multiple of BLOCK_DMODEL, as the 2-D view
 * needs) over sparse maps (td_far_restride_all; Out a sparse output written at the
 * inputs' offsets).  D0 grows with it (the slack rows after the last head kept), stride_qz
 * stays H * stride_qh; L and M (pid1 * N_CTX + row) stay dense. */
static void far_fwd(td_producer *p, td_case *c) {
    int64_t nbh = c->grid[1], bd = TF_P(c, F_BD), from = TF_P(c, F_SQH), w = TF_P(c, F_NCTX) * bd;
    static const int regs[4] = {FR_Q, FR_K, FR_V, FR_OUT};
    if (nbh < 2 || nbh > TD_FAR_MAX_ROWS) return;
    int64_t s = td_far_stride(p, nbh, w);
    s = (s + bd - 1) / bd * bd;
    if (td_far_restride_all(c, regs, 4, nbh, w, from, s)) return;
    TF_P(c, F_SQH) = s, TF_P(c, F_SQZ) = TF_P(c, F_H) * s;
    TF_P(c, F_D0) += (nbh - 1) * ((s - from) / bd);
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

#define TF_COMMON                                                                                                   \
    .file = "triton_attention", .family = "attention", .nparams = F_NP, .params = params_fwd, .nregions = FR_NR,   \
    .regions = regions_fwd, .ncasts = FC_NC, .casts = casts_fwd, .sv = TD_SV_REAL, .gen = gen_fwd,                 \
    .check = check_fwd, .writes = writes_fwd, TD_SPECS(ta_fwd), .intent = &i_fwd, .far = far_fwd,                  \
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) |                  \
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_VALUES_LARGE) |                \
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31),                                              \
    .sv_note = "finite inputs, bounded scores; key 0 is kept in every row, so l >= 1 (no 0/0)",                    \
    .error_model = "FlashAttention-1 online softmax in kernel order: binary32 dot * sc, expf budget, tree row sum " \
                   "+ l_prev, 1/l, p*l_rcp, acc*(l_prev*l_rcp) + P.V, fp16 P (any scale; any KV blocking), fp16 "  \
                   "store; L the row's l (so widened), M the exact max of the computed scores"

const td_contract td_c_triton_attention_fwd = {
    .id = "triton_attention.triton_attention_forward_output_summary_general",
    .io_class = "ComputeCorrect over TileIndex [BLOCK_M, BLOCK_DMODEL] and Fin BLOCK_M (Out, L, M) + lowering",
    .kind = "exact",
    .formula = "Out[r,d] = fp16(sum_{j<=row} e^(sc q.k_j - m) V[j,d] / l); L[r] = l = sum_{j<=row} e^(sc q.k_j - m); "
               "M[r] = m = max_{j<=row} sc q.k_j",
    TF_COMMON,
};

const td_contract td_c_triton_attention_fwd_io = {
    .id = "triton_attention.triton_attention_forward_io_correctness",
    .io_class = "StreamMasked3DKernelIO_3x3, hfp16: R.round .fp16 = id",
    .kind = "rounding",
    .formula = "out1[j] = attentionRealCausalBlock(p0*BM, q, k, v, sc)(decode j); out2[i] = taIOLSpecT; out3[i] = taIOMSpecT",
    TF_COMMON,
};

/* ---- the backward: triton_attention_bwd_grads_genuine_output_summary_general ----
 *
 *   hBM, hBD, hnb > 0; hbdvd: BD | base; hbound: base/BD + nb*BM <= D0; hbase: (pid0/H)*(stride_qz/BD) +
 *   (pid0%H)*(stride_qh/BD) = base/BD; DQ, DV, DK distinct from each other and from the inputs;
 *   for every row r < nb*BM and lane d < BD (N_CTX = nb*BM), Q, K, V, DO, DQ at base + row*BD + d,
 *   M and Delta at pid0*N_CTX + row:
 *     DQ[r,d] = DQ0[r,d] + sum_{J<N_CTX} fp16(ds[r,J]) K[J,d]         (stored real: binary32)
 *     DV[r,d] = fp16(sum_{I<N_CTX} fp16(p[I,r]) DO[I,d])
 *     DK[r,d] = fp16(sum_{I<N_CTX} fp16(ds[I,r]) Q[I,d])
 *     p[I,J] = e^(sc q_I.k_J - M[I]) (J <= I, else 0), dp = do_I.v_J - Delta[I], ds = p dp sc.
 *   The six ignored slots (Z, stride_kz, stride_kh, stride_vz, stride_vh, BLOCK_N) are kept.
 *
 * Checked against triton_attention.py (_bwd_kernel and the tutorial's backward launcher) and
 * TritonAttention.lean (bwdKernelPG / DPG / DSG, bwdKernelDQSpecG, bwdSubDv / bwdSubDk, bwdFp16):
 * program off_hz walks the key blocks start_n < num_block; for each it loads the k, v tiles,
 * zeroes dv, dk, and walks the query blocks start_m >= start_n*BLOCK_M: qk = dot(q, k^T),
 * where(offs_m_curr >= offs_n, qk, -inf), p = exp(qk*sm_scale - m), dv += dot(p.to(fp16)^T, do),
 * dp = -Di + dot(do, v^T), ds = p*dp*sm_scale, dk += dot(ds.to(fp16)^T, q), dq = load(DQ) +
 * dot(ds.to(fp16), k) stored back; then dv, dk stored as fp16.  BLOCK_N = BLOCK_M in the
 * launcher (the theorem's square score blocks).  The readings match; the DQ theorem keeps the
 * buffer's prior contents (the launcher's zeros_like), so DQ is read and written.
 * `base` is the theorem's name for one program's offset; a case launches all Z*H programs
 * (the launcher's grid), the contract recomputes each program's offset from hbase, and the
 * parameter holds the last program's.
 *
 * Rounding.  The theorem is over the reals except for bwdFp16 of p and ds inside the sums and
 * the fp16 stores of DV, DK (mathematical casts): these are the declared casts "p", "ds",
 * "store" (fp16:rne:inf), the kernel's p.to(tl.float16), ds.to(tl.float16) and the tl.store
 * into empty_like(k) / empty_like(v).  Error model (triton_attention.spec.h, SPEC(tb_pds) and
 * SPEC(ta_bwd)), any admissible implementation: the binary32 dots (qk, do.v with -Di as one
 * more term) as sums in any order (u per product, gamma over the terms, FMA allowed), one
 * product and one subtraction before the exp (the backend's expf budget), two products for
 * ds; each cast judged as the cast of its operand's admissible interval (monotone: the
 * interval's end casts); the three gradient sums in any order over their N_CTX terms (DQ's
 * prior contents one more), which takes in the kernel's blocking by BLOCK_M, the order of its
 * loops and any other.  No other tolerance.
 *
 * Special values (TD_SV_REAL): sc > 0 (the kernel scales after the causal where: a masked
 * -inf times sc <= 0 is +inf or NaN, not the theorem's p = 0; the launcher's sm_scale is
 * positive); finite fp16 Q, K, V, DO, finite binary32 M, Delta, DQ0; M at or
 * above the row's computed maximum score (the forward's m), so p <= ~1 and nothing overflows.
 *
 * Generator: BM (1..16) and BD (1..16) powers of two, nb 1..4 (N_CTX <= 32), 1..3 programs
 * (Z, H), padding rows between heads and after the last, the family's q/k/v landscapes
 * (attn_online_common.h), M the row maxima of sc q.k (or above), Delta the consistent row sums
 * of p * (do.v) or drawn, DQ0 zero (the launcher) or drawn.  Cost: N_CTX^2 (p, ds) pairs per
 * program, memoised, and N_CTX terms per lane. */

static const td_param_decl params_bwd[B_NP] = {
    {"H", TD_P_INT},         {"stride_qz", TD_P_INT}, {"stride_qh", TD_P_INT}, {"base", TD_P_INT},
    {"sc", TD_P_REAL},       {"BM", TD_P_INT},        {"BD", TD_P_INT},        {"D0", TD_P_INT},
    {"nb", TD_P_INT},        {"Z", TD_P_INT},         {"stride_kz", TD_P_INT}, {"stride_kh", TD_P_INT},
    {"stride_vz", TD_P_INT}, {"stride_vh", TD_P_INT}, {"BLOCK_N", TD_P_INT}};
static const td_region_decl regions_bwd[BR_NR] = {
    {"Q", TD_F16, TD_R_IN},     {"K", TD_F16, TD_R_IN},       {"V", TD_F16, TD_R_IN},
    {"DO", TD_F16, TD_R_IN},    {"M", TD_F32, TD_R_IN},       {"Delta", TD_F32, TD_R_IN},
    {"DQ", TD_F32, TD_R_INOUT}, {"DV", TD_F16, TD_R_OUT},     {"DK", TD_F16, TD_R_OUT}};
static const td_cast_decl casts_bwd[BC_NC] = {
    {"p", "fp16:rne:inf", "p.to(tl.float16): the P operand of dv += dot(p^T, do) (bwdFp16)"},
    {"ds", "fp16:rne:inf", "ds.to(tl.float16): the dS operand of the dk and dq dots (bwdFp16)"},
    {"store", "fp16:rne:inf", "dv.to(fp16), dk.to(fp16) stored into empty_like(v), empty_like(k)"}};

/* M[I] = max_{J<=I} sc q_I.k_J (binary64 of the fp16 inputs) + a nonnegative lift; Delta[I] the
 * row's sum of p (do.v) (the launcher's value: Out . do with do pre-divided) or drawn */
static void tb_rows(td_producer *p, td_case *c, int64_t p0, at_vals *g) {
    int64_t bd = TB_P(c, B_BD), nctx = tb_nctx(c), b2 = tb_b2d(c, p0);
    double sc = c->p[B_SC].r, lift = td_prod_u32(p, 0, 3) == 0 ? td_gen_real(p, 0, 2) : 0;
    int dmode = (int)td_prod_u32(p, 0, 2);
    for (int64_t I = 0; I < nctx; I++) {
        double s[64], mx = -INFINITY, delta = 0;
        for (int64_t J = 0; J <= I; J++) {
            double t = 0;
            for (int64_t e = 0; e < bd; e++) t += td_get(c, BR_Q, (size_t)((b2 + I) * bd + e)) * td_get(c, BR_K, (size_t)((b2 + J) * bd + e));
            s[J] = sc * t;
            mx = s[J] > mx ? s[J] : mx;
        }
        double m = (double)(float)(mx + lift);
        if (m < mx) m = nextafterf((float)m, INFINITY);
        for (int64_t J = 0; J <= I; J++) {
            double dv = 0;
            for (int64_t e = 0; e < bd; e++) dv += td_get(c, BR_DO, (size_t)((b2 + I) * bd + e)) * td_get(c, BR_V, (size_t)((b2 + J) * bd + e));
            delta += exp(s[J] - m) * dv;
        }
        td_set(c, BR_M, (size_t)(p0 * nctx + I), m);
        td_set(c, BR_DELTA, (size_t)(p0 * nctx + I), dmode ? (double)(float)delta : (double)(float)at_uni(g, 2));
    }
}

static void gen_bwd(td_producer *p, td_case *c) {
    int64_t bm = at_pow2(p, 0, 4), bd = at_pow2(p, 0, 4), nb = td_prod_u32(p, 1, (uint32_t)(bm >= 16 ? 2 : 4));
    int64_t z = 1 + td_prod_u32(p, 0, 1), h = 1 + td_prod_u32(p, 0, 1);
    if (z * h > 3) h = 1;
    int64_t nctx = nb * bm, rows = nctx + (td_prod_bool(p) ? td_prod_u32(p, 1, 3) : 0);
    int64_t sqh = rows * bd, sqz = h * sqh, nbh = z * h;
    int64_t d0 = (nbh - 1) * rows + nctx + (td_prod_bool(p) ? td_prod_u32(p, 0, 4) : 0);
    c->p[B_SC].r = (double)(float)(td_prod_u32(p, 0, 3) ? 1.0 / sqrt((double)bd) : td_gen_real(p, 0.0625, 2));
    TB_P(c, B_H) = h, TB_P(c, B_SQZ) = sqz, TB_P(c, B_SQH) = sqh, TB_P(c, B_BM) = bm, TB_P(c, B_BD) = bd;
    TB_P(c, B_D0) = d0, TB_P(c, B_NB) = nb, TB_P(c, B_Z) = z, TB_P(c, B_BN) = bm;
    TB_P(c, B_SKZ) = sqz, TB_P(c, B_SKH) = sqh, TB_P(c, B_SVZ) = sqz, TB_P(c, B_SVH) = sqh;
    c->grid[0] = (uint32_t)nbh;
    TB_P(c, B_BASE) = tb_b2d(c, nbh - 1) * bd;
    td_gen_mark_shape((uint64_t)nctx, (uint64_t)bm, (uint64_t)nbh, &c->classes);
    if (nb > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (rows > nctx) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (bm > 1) c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* the diagonal block's upper triangle */
    size_t len = (size_t)(d0 * bd);
    for (int r = BR_Q; r <= BR_DO; r++) td_case_alloc(c, r, len), at_poison(c, r);
    td_case_alloc(c, BR_DQ, len);
    td_case_alloc(c, BR_DV, len);
    td_case_alloc(c, BR_DK, len);
    td_case_alloc(c, BR_M, (size_t)(nbh * nctx));
    td_case_alloc(c, BR_DELTA, (size_t)(nbh * nctx));
    at_vals g;
    at_vals_init(&g, p, c, fabs(c->p[B_SC].r), (int)bd, (int)nctx, 256, 0, 8);
    int dq0 = td_prod_bool(p);
    for (size_t i = 0; i < len; i++) td_set(c, BR_DQ, i, dq0 ? (double)(float)at_uni(&g, 1) : 0.0);
    for (int64_t p1 = 0; p1 < nbh; p1++)
        for (int64_t r = 0; r < nctx; r++)
            for (int64_t e = 0; e < bd; e++) {
                size_t off = (size_t)((tb_b2d(c, p1) + r) * bd + e);
                td_set(c, BR_Q, off, at_q(&g, TD_F16, (int)p1, (int)r, (int)e));
                td_set(c, BR_K, off, at_k(&g, TD_F16, (int)p1, (int)r, (int)e));
                td_set(c, BR_V, off, at_v(&g, TD_F16));
                td_set(c, BR_DO, off, at_v(&g, TD_F16));
            }
    for (int64_t p1 = 0; p1 < nbh; p1++) tb_rows(p, c, p1, &g);
}

static const char *check_bwd_rows(const td_case *c) {
    int64_t nctx = tb_nctx(c), n = (int64_t)c->grid[0] * nctx;
    if ((int64_t)c->r[BR_M].len < n || (int64_t)c->r[BR_DELTA].len < n) return "M and Delta hold Z*H*N_CTX rows";
    for (int64_t i = 0; i < n; i++)
        if (!(fabs(td_get(c, BR_M, (size_t)i)) < 1e30) || !(fabs(td_get(c, BR_DELTA, (size_t)i)) < 1e30))
            return "domain: finite M and Delta";
    return NULL;
}

static const char *check_bwd(const td_case *c) {
    int64_t bm = TB_P(c, B_BM), bd = TB_P(c, B_BD), nb = TB_P(c, B_NB), h = TB_P(c, B_H), d0 = TB_P(c, B_D0);
    if ((double)(float)c->p[B_SC].r != c->p[B_SC].r) return "sc is the kernel's binary32 scalar";
    /* the kernel masks before scaling (where(.., qk, -inf) * sm_scale): sc <= 0 makes a masked
     * p e^(+inf) or e^(NaN), not the theorem's 0; the launcher's sm_scale is positive */
    if (!(c->p[B_SC].r > 0)) return "domain: sc > 0 (masked scores -inf * sc must stay -inf)";
    if (bm <= 0) return "hBM: 0 < BM";
    if (bd <= 0) return "hBD: 0 < BD";
    if (nb <= 0) return "hnb: 0 < nb";
    if (h <= 0 || TB_P(c, B_SQZ) < 0 || TB_P(c, B_SQH) < 0) return "H > 0, nonnegative strides";
    if (bd > AT_MAXD || nb * bm > AT_MAXS) return "the case fits the oracle's row model (<= 64 keys, lanes)";
    if (nb > 4095 || bm > 4095) return "rows below 2^12 (the memo's key)";
    if (c->grid[0] < 1 || c->grid[0] > AT_MAXH) return "grid axis 0: 1 .. 8 programs (Z*H)";
    if (TB_P(c, B_BASE) % bd) return "hbdvd: BD | base";
    if (TB_P(c, B_BASE) != tb_b2d(c, c->grid[0] - 1) * bd) return "hbase: base is the last program's offset";
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        if (tb_b2d(c, p0) + nb * bm > d0) return "hbound: base/BD + nb*BM <= D0 (every program)";
    for (int r = BR_Q; r <= BR_DK; r++)
        if (r != BR_M && r != BR_DELTA && (int64_t)c->r[r].len < d0 * bd) return "Q, K, V, DO, DQ, DV, DK hold (D0, BD)";
    /* of a far (sparse) DQ only the written pages (the rest reads as zero); no binary32 equals
     * 1e30, so |x| <= 1e30 is |x| < 1e30 */
    if (!td_region_abs_le(c, BR_DQ, 1e30)) return "domain: finite prior DQ";
    return check_bwd_rows(c);
}

/* DQ (o = 0), DV (o = 1), DK (o = 2) at (base2d + row)*BD + d of every program */
static void writes_bwd(const td_case *c, td_wset *ws) {
    int64_t bd = TB_P(c, B_BD), nctx = tb_nctx(c);
    static const int reg[3] = {BR_DQ, BR_DV, BR_DK};
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (int64_t r = 0; r < nctx; r++)
            for (int64_t d = 0; d < bd; d++)
                for (uint32_t o = 0; o < 3; o++) {
                    td_olane l = {.o = o, .region = reg[o], .off = (uint64_t)((tb_b2d(c, p0) + r) * bd + d),
                                  .pid = {p0, 0, 0}, .j = (uint64_t)(r * bd + d), .idx = {p0, r, d}};
                    td_wset_add(ws, &l);
                }
}

/* Offsets beyond 2^31 (gen_far.h): program off_hz reads Q, K, V, DO and writes DQ (in
 * place), DK, DV from one element offset, 2-D row (off_z * stride_qz + off_h * stride_qh) /
 * BD, which the generator's contiguous heads (stride_qz = H * stride_qh) make off_hz *
 * stride_qh.  The Z*H = 2..3 head slots move to one stride near 2^31 (a multiple of BD, as
 * the 2-D view needs) in all seven regions at once (td_far_restride_all): Q, K, V, DO as
 * sparse read-only regions, DK, DV as sparse outputs, DQ, read as the prior gradient and
 * written back, as a sparse in-out region (engine/harness.c, "sparse in-out regions").  D0
 * grows by the rows added, base follows hbase, the ignored k/v strides follow q's (as the
 * launcher passes them); M and Delta (off_hz * N_CTX + row) stay dense.  The original's
 * block pointers form the element offset as the 2-D row (an int32: make_block_ptr's
 * offsets) times an int64 stride, and that row, (Z*H - 1) * stride_qh / BD, stays below
 * 2^31 for the BD >= 16 its tl.dot needs; the pointer the kernel also forms, DQ += off_z *
 * stride_qz + off_h * stride_qh, is int32 and wraps (mut_offset_int32 loads and stores dq
 * through it).  check_bwd scans DQ's written pages only. */
static void far_bwd(td_producer *p, td_case *c) {
    int64_t nbh = c->grid[0], bd = TB_P(c, B_BD), h = TB_P(c, B_H), from = TB_P(c, B_SQH), w = tb_nctx(c) * bd;
    static const int regs[7] = {BR_Q, BR_K, BR_V, BR_DO, BR_DQ, BR_DV, BR_DK};
    if (nbh < 2 || nbh > TD_FAR_MAX_ROWS || TB_P(c, B_SQZ) != h * from || from % bd) return;
    int64_t s = td_far_stride(p, nbh, w);
    s = (s + bd - 1) / bd * bd;
    if (td_far_restride_all(c, regs, 7, nbh, w, from, s)) return;
    TB_P(c, B_SQH) = TB_P(c, B_SKH) = TB_P(c, B_SVH) = s;
    TB_P(c, B_SQZ) = TB_P(c, B_SKZ) = TB_P(c, B_SVZ) = h * s;
    TB_P(c, B_D0) += (nbh - 1) * ((s - from) / bd);
    TB_P(c, B_BASE) = tb_b2d(c, nbh - 1) * bd;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

const td_contract td_c_triton_attention_bwd = {
    .id = "triton_attention.triton_attention_bwd_grads_genuine_output_summary_general",
    .file = "triton_attention",
    .family = "attention",
    .io_class = "ComputeCorrect over TileIndex [BM*nb, BD] (DQ, DV, DK) + lowering",
    .kind = "exact",
    .formula = "DQ[i,d] = DQ0[i,d] + sum_J fp16(ds[i,J]) K[J,d]; DV[j,d] = fp16(sum_I fp16(p[I,j]) DO[I,d]); "
               "DK[j,d] = fp16(sum_I fp16(ds[I,j]) Q[I,d]); p = e^(sc q.k - M) (J <= I), ds = p (do.v - Delta) sc",
    .nparams = B_NP,
    .params = params_bwd,
    .nregions = BR_NR,
    .regions = regions_bwd,
    .ncasts = BC_NC,
    .casts = casts_bwd,
    .sv = TD_SV_REAL,
    .sv_note = "finite inputs; M at or above the row's maximum score (the forward's m): p <= ~1, nothing overflows",
    .error_model = "binary32 dots qk and -Di + do.v in any order, sc product, subtraction, expf budget, two products "
                   "for ds; fp16 casts p, ds as casts of their intervals; the three gradient sums in any order "
                   "(any blocking), DQ0 one more term; DV, DK fp16 store casts",
    .classes = TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) |
               TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_VALUES_LARGE) |
               TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31),
    .far = far_bwd,
    .gen = gen_bwd,
    .check = check_bwd,
    .writes = writes_bwd,
    TD_SPECS(ta_bwd),
};
