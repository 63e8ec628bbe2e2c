/* attention_fwd_triton3: _attn_fwd with sliding windows and an INIT/END resume protocol
 * (catalogue part 1, src lines 380-759).
 *
 *   python_case{1,2,3,4}_output_summary_general (lowering exists AND Realizes_without_Rounding of Out and M)
 *   case{1,2,3}_io_correctness (StreamMasked3DKernelIO_3x2), case4_io_correctness (StreamMasked3DKernelIO_6x2)
 *   launch flags (sliding_window_offset, sliding_window_size, IS_EVEN_M, IS_EVEN_N, BM, ND, BN, END, INIT,
 *   SLIDING_WINDOW, COMPLEMENT_SLIDING_WINDOW), fixed per theorem and launched exactly so:
 *     case 1 (off, size, 1, 1, BM, ND, BN, 1, 1, 1, 0)  sliding window
 *     case 2 (off, size, 1, 1, BM, ND, BN, 1, 1, 1, 1)  complementary window
 *     case 3 (off, 0,    1, 1, BM, ND, BN, 1, 1, 0, 0)  no window
 *     case 4 (off, size, 1, 1, BM, ND, BN, 1, 0, 1, 0)  resume: m_i, l_i, acc loaded from M, L, Out
 *   Out[row, d] = sum_{kept n} 2^(c s_n) V[n,d] / sum_{kept n} 2^(c s_n)  (case 4: the online fold seeded with
 *   (M[row], L[row], Out[row,d]), read off as acc / l),  c = sm_scale * 1.4426950408889634,
 *   s_n = sum_e Q[row,e] K[n,e];  M[row] = m + log2(l) of the same fold;
 *   Out at base + (pid0*BM + r)*som + d*son, M at pid1*ROUND_CTX + pid0*BM + r, base = pid1/H*sqz + pid1%H*sqh
 *   (K, V, Out share the z/h strides: hskz .. hsoh), H_KV = H.
 *
 * Checked against bench/tritonbench_g/attention_fwd_triton3/attention_fwd_triton3.py and the
 * Lean file.  Two readings of the catalogue do NOT describe the Triton kernel, and this
 * contract follows the kernel:
 *  - The window.  natSlidingWindowKeepG / natComplementSlidingWindowKeepG use natDist3G =
 *    (i - j%BN) + pid0*BM - (j/BN)*BN + off with NATURAL subtraction, so a key after the
 *    query (negative distance) gets distance >= 0: case 1's "dist >= 0" is vacuous and such
 *    keys are kept whenever the truncated distance is below size.  Triton computes dist in
 *    int32 (tl.arange is int32): mask = (dist >= 0) & (dist < size), i.e. key n is kept iff
 *    0 <= row - n + off < size (case 2: row - n + off >= size).  Already the Python test's
 *    case 1 (window (0, 64), BM = BN = 64) differs: row 0 keeps only key 0 in Triton, keys
 *    0..63 under natDist3G.  No useful window avoids the difference, so the spec uses the
 *    signed distance.
 *  - A row with no kept key (cases 1, 2).  Lean's M is (bot + log2 0).unbotD 0 = 0; the
 *    kernel keeps m_i = -inf, l_i = 1.0 (the alpha NaN guard), so it stores M = -inf and
 *    Out = 0 / 1 = 0.  The spec gives the kernel's -inf (Out agrees with Lean's 0/0 = 0).
 * The Lean surface also drops the Python's window trimming of the K loop (case 1, 4:
 * lo/hi rounded to BLOCK_N and clamped) and the alpha NaN guard; blocks outside [lo, hi)
 * hold no kept key for any row of the program, so trimming is exact, and the spec runs
 * every block as Lean does.  IS_EVEN_M = IS_EVEN_N = 1 (the fixed flags) means unmasked
 * Q loads and Out stores: launches use N_CTX = grid0 * BLOCK_M (and BN | NKV_CTX, hBNdvd).
 *
 * Rounding: the theorems are over the reals (casts erased); the kernel rounds P to the V
 * dtype (fp16: the test's tensors) for the P.V dot and stores Out as fp16 (o =
 * zeros_like(q)); it is checked under those profiles ("p", "store" fp16:rne:inf).  M and
 * L are binary32.  Error model (attn_online_common.h): binary32 dot over ND lanes times
 * qk_scale = RN(sm_scale * RN(1.4426950408889634)), exp2 budgets, tree row sums, fp16 P,
 * binary32 P.V, acc*alpha, one division, the fp16 store; M = m + log2(l).  Case 4's
 * seed is exact input (M, L binary32, Out fp16).
 *
 * Regions: Q, K, V (in), M (out; in place in case 4), Out (out; in place in case 4), L (in:
 * never written with END = 1; read as the seed in case 4).  Generator: per-tensor
 * row/column-major layouts with padding inside a shared head slot, S_q != S_k,
 * windows with offsets and sizes at the block edges (empty, partial and full windows,
 * rows without a kept key), ROUND_CTX > N_CTX, resume seeds whose running max is above,
 * among or below the new scores, and the family's values.
 */
#include "attn_online_common.h"

enum { P_SM, P_SQZ, P_SQH, P_SQM, P_SQK, P_SKZ, P_SKH, P_SKN, P_SKK, P_SVZ, P_SVH, P_SVK, P_SVN,
       P_SOZ, P_SOH, P_SOM, P_SON, P_Z, P_H, P_HKV, P_NCTX, P_ROUND, P_NKV, P_OFF, P_SIZE };
enum { R_Q, R_K, R_V, R_M, R_OUT, R_L, NR };
enum { C_P, C_STORE, NC };

/* a theorem: its case and its parameter count (case 3 has no size) */
typedef struct t3_kind {
    int cas;
    int np;
} t3_kind;
static const t3_kind K1 = {1, 28}, K2 = {2, 28}, K3 = {3, 27}, K4 = {4, 28};

#define PI(c, k) ((c)->p[(k)].i)
static int t3_bm_idx(const t3_kind *K) { return K->cas == 3 ? P_SIZE : P_SIZE + 1; }
static int64_t t3_bm(const td_case *c, const t3_kind *K) { return PI(c, t3_bm_idx(K)); }
static int64_t t3_nd(const td_case *c, const t3_kind *K) { return PI(c, t3_bm_idx(K) + 1); }
static int64_t t3_bn(const td_case *c, const t3_kind *K) { return PI(c, t3_bm_idx(K) + 2); }
static int64_t t3_size(const td_case *c, const t3_kind *K) { return K->cas == 3 ? 0 : PI(c, P_SIZE); }
static int64_t t3_base(const td_case *c, int64_t p1) { return p1 / PI(c, P_H) * PI(c, P_SQZ) + p1 % PI(c, P_H) * PI(c, P_SQH); }

/* the kernel's mask: key n of row `row` (signed distance, see the header) */
static int t3_keep(const td_case *c, const t3_kind *K, int64_t row, int64_t n) {
    int64_t dist = row - n + PI(c, P_OFF);
    if (K->cas == 3) return 1;
    if (K->cas == 2) return dist >= t3_size(c, K);
    return dist >= 0 && dist < t3_size(c, K);
}

static void t3_row(const td_case *c, const t3_kind *K, const td_olane *l, at_row *R);

#define TD_SPEC_FILE "attention_fwd_triton3.spec.h"
#include "spec_instantiate.h"

#define STRIDES(X)                                                                                                 \
    {"sqz", TD_P_INT}, {"sqh", TD_P_INT}, {"sqm", TD_P_INT}, {"sqk", TD_P_INT}, {"skz", TD_P_INT},                 \
        {"skh", TD_P_INT}, {"skn", TD_P_INT}, {"skk", TD_P_INT}, {"svz", TD_P_INT}, {"svh", TD_P_INT},             \
        {"svk", TD_P_INT}, {"svn", TD_P_INT}, {"soz", TD_P_INT}, {"soh", TD_P_INT}, {"som", TD_P_INT},             \
        {"son", TD_P_INT}
static const td_param_decl params_w[28] = {
    {"sm_scale", TD_P_REAL}, STRIDES(), {"Z", TD_P_INT}, {"H", TD_P_INT}, {"H_KV", TD_P_INT}, {"N_CTX", TD_P_INT},
    {"ROUND_CTX", TD_P_INT}, {"NKV_CTX", TD_P_INT}, {"off", TD_P_INT}, {"size", TD_P_INT}, {"BM", TD_P_INT},
    {"ND", TD_P_INT}, {"BN", TD_P_INT}};
static const td_param_decl params_3[27] = {
    {"sm_scale", TD_P_REAL}, STRIDES(), {"Z", TD_P_INT}, {"H", TD_P_INT}, {"H_KV", TD_P_INT}, {"N_CTX", TD_P_INT},
    {"ROUND_CTX", TD_P_INT}, {"NKV_CTX", TD_P_INT}, {"off", TD_P_INT}, {"BM", TD_P_INT}, {"ND", TD_P_INT},
    {"BN", TD_P_INT}};
static const td_region_decl regions_init[NR] = {{"Q", TD_F16, TD_R_IN},   {"K", TD_F16, TD_R_IN},
                                                {"V", TD_F16, TD_R_IN},   {"M", TD_F32, TD_R_OUT},
                                                {"Out", TD_F16, TD_R_OUT}, {"L", TD_F32, TD_R_IN}};
static const td_region_decl regions_resume[NR] = {{"Q", TD_F16, TD_R_IN},     {"K", TD_F16, TD_R_IN},
                                                  {"V", TD_F16, TD_R_IN},     {"M", TD_F32, TD_R_INOUT},
                                                  {"Out", TD_F16, TD_R_INOUT}, {"L", TD_F32, TD_R_IN}};
static const td_cast_decl casts[NC] = {
    {"p", "fp16:rne:inf", "p.to(v.dtype): the P operand of the P.V dot (V fp16), not the row sum"},
    {"store", "fp16:rne:inf", "Out store: acc.to(Out.type.element_ty), Out fp16 (zeros_like(q))"}};

/* ---- generator ---- */
static double t3_sm_scale(td_producer *p, int64_t nd) {
    static const unsigned w[] = {6, 2, 4, 1};
    switch (td_prod_pick(p, w, 4)) {
    case 0: return (double)(float)(1.0 / sqrt((double)nd));
    case 1: return 1.0;
    case 2: return td_gen_real(p, -2, 2);
    default: return 0.0;
    }
}

/* a window edge: 0 (rarely: an empty window), at a block boundary, one off, or anywhere */
static int64_t t3_edge(td_producer *p, int64_t bn, int64_t hi) {
    static const unsigned w[] = {1, 2, 2, 2, 2, 3};
    switch (td_prod_pick(p, w, 6)) {
    case 0: return 0;
    case 1: return bn;
    case 2: return bn > 1 ? bn - 1 : 1;
    case 3: return bn + 1;
    case 4: return hi;
    default: return td_prod_u32(p, 0, (uint32_t)hi);
    }
}

static void t3_gen(td_producer *p, td_case *c, const t3_kind *K) {
    int64_t nd = at_pow2(p, 0, 5), bm = at_pow2(p, 0, 5), bn = at_pow2(p, 0, 5);
    int64_t z = 1 + td_prod_u32(p, 0, 1), h = 1 + td_prod_u32(p, 0, 1);
    if (z * h > 3) h = 1;
    int64_t grid0 = td_prod_u32(p, 1, (uint32_t)(64 / bm < 4 ? 64 / bm : 4)), nctx = grid0 * bm; /* IS_EVEN_M */
    int64_t nkv = bn * td_prod_u32(p, 1, (uint32_t)(64 / bn < 8 ? 64 / bn : 8));               /* hBNdvd */
    if (nkv < nctx && td_prod_u32(p, 0, 2)) /* mostly S_k >= S_q (a window then covers every query) */
        nkv = (nctx + bn - 1) / bn * bn > 64 ? nkv : (nctx + bn - 1) / bn * bn;
    while (z * h * nctx * nd * nkv > (1 << 15) && nd > 1) nd /= 2;
    while (z * h * nctx * nd * nkv > (1 << 15) && h > 1) h--;
    int64_t round = nctx + (td_prod_bool(p) ? 0 : td_prod_u32(p, 1, 16));
    /* per-tensor (row, col) strides inside a head slot shared by Q, K, V, Out */
    int64_t st[4][2], rows[4] = {nctx, nkv, nkv, nctx}, slot = 0;
    for (int t = 0; t < 4; t++) {
        int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 3) : 0;
        if (td_prod_u32(p, 0, 3) == 0) st[t][0] = 1, st[t][1] = rows[t] + pad; /* column-major */
        else st[t][0] = nd + pad, st[t][1] = 1;
        int64_t ext = (rows[t] - 1) * st[t][0] + (nd - 1) * st[t][1] + 1;
        if (ext > slot) slot = ext;
    }
    slot += td_prod_bool(p) ? td_prod_u32(p, 1, 8) : 0;
    int64_t sqz, sqh;
    if (td_prod_bool(p)) sqh = slot, sqz = h * slot;
    else sqz = slot, sqh = z * slot;
    c->p[P_SM].r = t3_sm_scale(p, nd);
    for (int t = 0; t < 4; t++) {
        c->p[P_SQZ + 4 * t].i = sqz, c->p[P_SQH + 4 * t].i = sqh;
        c->p[P_SQM + 4 * t].i = st[t][0], c->p[P_SQK + 4 * t].i = st[t][1];
    }
    c->p[P_Z].i = z, c->p[P_H].i = h, c->p[P_HKV].i = h, c->p[P_NCTX].i = nctx, c->p[P_ROUND].i = round;
    c->p[P_NKV].i = nkv;
    /* off up to nkv - nctx: the last query aligned with the last key (a KV cache) */
    int64_t off = t3_edge(p, bn, nkv > nctx ? nkv - nctx : 1), size = t3_edge(p, bn, nkv + 8);
    if (K->cas != 3) c->p[P_SIZE].i = size;
    else off = td_prod_u32(p, 0, 8); /* unused without a window */
    c->p[P_OFF].i = off;
    c->p[t3_bm_idx(K)].i = bm, c->p[t3_bm_idx(K) + 1].i = nd, c->p[t3_bm_idx(K) + 2].i = bn;
    c->grid[0] = (uint32_t)grid0;
    c->grid[1] = (uint32_t)(z * h);

    int64_t ext = (z * h - 1 > 0 ? (z - 1) * sqz + (h - 1) * sqh : 0) + slot;
    for (int r = R_Q; r <= R_V; r++) td_case_alloc(c, r, (size_t)ext), at_poison(c, r);
    td_case_alloc(c, R_OUT, (size_t)ext);
    td_case_alloc(c, R_M, (size_t)(z * h * round));
    td_case_alloc(c, R_L, (size_t)(z * h * round));
    at_vals g;
    double gain = fabs(c->p[P_SM].r) * 1.4426950408889634;
    at_vals_init(&g, p, c, gain, (int)nd, (int)nkv, 256, 0, 256);
    for (int64_t p1 = 0; p1 < z * h; p1++) {
        int64_t b = t3_base(c, p1);
        for (int64_t r = 0; r < nctx; r++)
            for (int64_t e = 0; e < nd; e++)
                td_set(c, R_Q, (size_t)(b + r * st[0][0] + e * st[0][1]), at_q(&g, TD_F16, (int)p1, (int)r, (int)e));
        for (int64_t j = 0; j < nkv; j++)
            for (int64_t e = 0; e < nd; e++) {
                td_set(c, R_K, (size_t)(b + j * st[1][0] + e * st[1][1]), at_k(&g, TD_F16, (int)p1, (int)j, (int)e));
                td_set(c, R_V, (size_t)(b + j * st[2][0] + e * st[2][1]), at_v(&g, TD_F16));
            }
    }
    /* case 4's resume state: a running max near, above or below the new scores, a positive
     * denominator, an fp16 accumulator; the other cases' M / L are never read */
    td_rng *rng = &g.g.rng;
    int mmode = (int)td_prod_u32(p, 0, 2);
    double sc = gain * g.a * g.a * sqrt((double)nd);
    for (size_t i = 0; i < c->r[R_M].len; i++) {
        double m0 = mmode == 0 ? sc * (2 * td_rng_unit(rng) - 1) : mmode == 1 ? 3 * sc + 8 : -3 * sc - 8;
        td_set(c, R_M, i, (double)(float)m0);
        td_set(c, R_L, i, td_rng_below(rng, 4) == 0 ? 1.0 : (double)(float)(1 + 63 * td_rng_unit(rng)));
    }
    for (int64_t p1 = 0; p1 < z * h; p1++)
        for (int64_t r = 0; r < nctx; r++)
            for (int64_t d = 0; d < nd; d++)
                td_set(c, R_OUT, (size_t)(t3_base(c, p1) + r * st[3][0] + d * st[3][1]), at_round(TD_F16, 8 * (2 * td_rng_unit(rng) - 1)));
    td_gen_mark_shape((uint64_t)nctx, (uint64_t)bm, (uint64_t)grid0, &c->classes);
    if (nkv > bn) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (st[0][0] > nd || st[0][0] == 1 || slot > nctx * nd) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    if (round > nctx) c->classes |= TD_BC(TD_BC_META_EXTREME);
    if (K->cas == 4) c->classes |= TD_BC(TD_BC_INPLACE);
    if (K->cas != 3) {
        /* rows (of some program) whose window is empty or partial */
        for (int64_t row = 0; row < nctx; row++) {
            int any = 0;
            for (int64_t n = 0; n < nkv; n++) any |= t3_keep(c, K, row, n);
            if (!any) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
        }
    }
}

static const char *t3_check(const td_case *c, const t3_kind *K) {
    int64_t nd = t3_nd(c, K), bm = t3_bm(c, K), bn = t3_bn(c, K), nkv = PI(c, P_NKV), nctx = PI(c, P_NCTX);
    int64_t h = PI(c, P_H), round = PI(c, P_ROUND);
    if ((double)(float)c->p[P_SM].r != c->p[P_SM].r) return "sm_scale is the kernel's binary32 scalar";
    if (nd <= 0) return "hND: 0 < ND";
    if (bm <= 0) return "hBM: 0 < BM";
    if (bn <= 0) return "hBN: 0 < BN";
    if (nkv <= 0) return "hNC: 0 < NKV_CTX";
    if (nkv % bn) return "hBNdvd: BN | NKV_CTX";
    if (h <= 0) return "hH: 0 < H";
    if (PI(c, P_HKV) != h) return "hHKV: H_KV = H";
    if (PI(c, P_SKZ) != PI(c, P_SQZ) || PI(c, P_SVZ) != PI(c, P_SQZ) || PI(c, P_SOZ) != PI(c, P_SQZ))
        return "hskz, hsvz, hsoz: skz = svz = soz = sqz";
    if (PI(c, P_SKH) != PI(c, P_SQH) || PI(c, P_SVH) != PI(c, P_SQH) || PI(c, P_SOH) != PI(c, P_SQH))
        return "hskh, hsvh, hsoh: skh = svh = soh = sqh";
    /* hMO: M and Out are distinct regions by construction; hinjO / hinjM: checked by the harness */
    if ((int64_t)c->grid[1] != PI(c, P_Z) * h || c->grid[1] > AT_MAXH) return "grid axis 1 = Z * H (off_hz)";
    if ((int64_t)c->grid[0] * bm != nctx)
        return "IS_EVEN_M = 1 (the theorem's flag): N_CTX = grid0 * BM, unmasked Q loads and Out stores";
    if (round < nctx) return "ROUND_CTX >= N_CTX (the M / L row stride of a head)";
    if (nd > AT_MAXD || nkv > AT_MAXS || nkv / bn > AT_MAXB) return "the case fits the oracle's row model (NKV_CTX <= 64)";
    /* (row, column) strides: (sqm, sqk), (skn, skk), (svk, svn), (som, son) */
    const struct { int reg, s; int64_t rows; } t[4] = {{R_Q, P_SQM, nctx}, {R_K, P_SKN, nkv}, {R_V, P_SVK, nkv}, {R_OUT, P_SOM, nctx}};
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
        for (int k = 0; k < 4; k++)
            if (t3_base(c, p1) + (t[k].rows - 1) * PI(c, t[k].s) + (nd - 1) * PI(c, t[k].s + 1) >= (int64_t)c->r[t[k].reg].len)
                return "the regions hold every element the launch reads and writes";
    if ((int64_t)c->r[R_M].len < (int64_t)c->grid[1] * round || (int64_t)c->r[R_L].len < (int64_t)c->grid[1] * round)
        return "M and L hold ROUND_CTX rows per head";
    if (K->cas == 4)
        for (size_t i = 0; i < c->r[R_L].len; i++)
            if (!(td_get(c, R_L, i) > 0) || !isfinite(td_get(c, R_M, i)))
                return "the resume state is a finite running max and a positive denominator (no 0/0 where Lean's x/0 = 0)";
    return NULL;
}

static void t3_writes(const td_case *c, td_wset *ws, const t3_kind *K) {
    int64_t nd = t3_nd(c, K), bm = t3_bm(c, K), round = PI(c, P_ROUND);
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            for (int64_t i = 0; i < bm; i++) {
                int64_t row = p0 * bm + i; /* < N_CTX: IS_EVEN_M, all BM rows active */
                td_olane lm = {.o = 1, .region = R_M, .off = (uint64_t)(p1 * round + row), .pid = {p0, p1, 0},
                               .j = (uint64_t)i, .idx = {p1, row, 0, 1}};
                td_wset_add(ws, &lm);
                for (int64_t d = 0; d < nd; d++) {
                    int64_t off = t3_base(c, p1) + row * PI(c, P_SOM) + d * PI(c, P_SON);
                    td_olane lo = {.o = 0, .region = R_OUT, .off = (uint64_t)off, .pid = {p0, p1, 0},
                                   .j = (uint64_t)(i * nd + d), .idx = {p1, row, d, 0}};
                    td_wset_add(ws, &lo);
                }
            }
}

static void t3_row(const td_case *c, const t3_kind *K, const td_olane *l, at_row *R) {
    int64_t nd = t3_nd(c, K), bn = t3_bn(c, K), nkv = PI(c, P_NKV);
    int64_t p1 = l->idx[0], row = l->idx[1], d = l->idx[2], b = t3_base(c, p1);
    at_row_init(R);
    R->key = ((uint64_t)p1 << 16) | (uint64_t)row;
    R->out = l->idx[3] ? AT_OUT_LSE : AT_OUT_O;
    R->score = AT_SC_SCALE;
    R->base2 = 1;
    R->norm = AT_NORM_END;
    R->q_reg = R_Q, R->k_reg = R_K, R->v_reg = R_V;
    R->nd = (int)nd;
    for (int64_t e = 0; e < nd; e++) R->q_off[e] = b + row * PI(c, P_SQM) + e * PI(c, P_SQK);
    R->nkeys = (int)nkv;
    R->k_es = PI(c, P_SKK);
    for (int64_t n = 0; n < nkv; n++) {
        R->k_off[n] = b + n * PI(c, P_SKN);
        R->v_off[n] = b + n * PI(c, P_SVK) + d * PI(c, P_SVN);
        R->keep[n] = (uint8_t)t3_keep(c, K, row, n);
    }
    R->bn = (int)bn;
    R->nblk = (int)(nkv / bn); /* every block, as the Lean surface loops (trimmed blocks are fully masked) */
    for (int t = 0; t < R->nblk; t++) R->blk_lo[t] = (int)(t * bn);
    R->sm_scale = c->p[P_SM].r;
    R->lit = "1.4426950408889634";
    R->c_p = C_P;
    R->c_store = R->out == AT_OUT_O ? C_STORE : -1;
    if (K->cas == 4) {
        R->seeded = 1;
        R->m0 = td_get(c, R_M, (size_t)(p1 * PI(c, P_ROUND) + row));
        R->l0 = td_get(c, R_L, (size_t)(p1 * PI(c, P_ROUND) + row));
        R->o_reg = R_OUT;
        R->acc0_off = b + row * PI(c, P_SOM) + d * PI(c, P_SON);
    }
}

/* Offsets beyond 2^31 (gen_far.h): Q, K, V and Out of program off_hz all sit at one base
 * off_z * stride_{q,k,v,o}z + off_h * stride_{q,k,v,o}h (t3_base: the z strides equal,
 * the h strides equal), so a far case moves the Z * H = 2 head slots (grid axis 1; one
 * slot has nothing to move) to one stride near 2^31 in all four regions at once (all of
 * them or none), Q, K, V as sparse read-only regions, Out as a sparse output
 * (engine/harness.c judges it over its write pages).  The case becomes Z = 2, H = H_KV =
 * 1 at that stride_z (a batch of two one-head tensors: the same slots, the same M and L
 * rows off_hz * ROUND_CTX, which stay dense).  The original widens off_z and off_h to
 * int64 before the products; a kernel without that widening forms the offset in int32
 * and gets this case wrong.  Every precondition of t3_check holds as before (it bounds no
 * stride; its scan of case 4's seeds reads M and L, which stay dense).  Case 4 reads
 * Out as the resume seed and writes it in place: its Out moves as a sparse in-out
 * region (td_far_restride copies each head slot's seed; engine/harness.c, "sparse
 * in-out regions", checks every cell off the write set on the pages the case or the
 * image touched). */
static void t3_far(td_producer *p, td_case *c) {
    static const int regs[] = {R_Q, R_K, R_V, R_OUT};
    if (c->grid[1] != 2) return;
    int64_t from = PI(c, PI(c, P_H) == 2 ? P_SQH : P_SQZ); /* the stride off_hz = 1 steps by */
    int64_t w = (int64_t)c->r[R_Q].len - from;               /* one head slot */
    if (w <= 0 || from < w) return;
    int64_t s = td_far_stride(p, 2, w);
    if (td_far_restride_all(c, regs, 4, 2, w, from, s)) return;
    for (int t = 0; t < 4; t++) c->p[P_SQZ + 4 * t].i = s;
    c->p[P_Z].i = 2, c->p[P_H].i = 1, c->p[P_HKV].i = 1;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

#define T3_FNS(n)                                                                                                  \
    static void gen_##n(td_producer *p, td_case *c) { t3_gen(p, c, &K##n); }                                      \
    static const char *check_##n(const td_case *c) { return t3_check(c, &K##n); }                                 \
    static void writes_##n(const td_case *c, td_wset *ws) { t3_writes(c, ws, &K##n); }
T3_FNS(1)
T3_FNS(2)
T3_FNS(3)
T3_FNS(4)

#define T3_CLASSES                                                                                                  \
    (TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_MULTI_TILE) | TD_BC(TD_BC_STRIDE_GT_ROW) | \
     TD_BC(TD_BC_META_EXTREME) | TD_BC(TD_BC_VALUES_LARGE) | TD_BC(TD_BC_VALUES_SPECIAL))
#define T3_PARAMS_1 .nparams = 28, .params = params_w
#define T3_PARAMS_2 .nparams = 28, .params = params_w
#define T3_PARAMS_3 .nparams = 27, .params = params_3
#define T3_PARAMS_4 .nparams = 28, .params = params_w
#define T3_COMMON(n)                                                                                                \
    .file = "attention_fwd_triton3", .family = "attention", T3_PARAMS_##n, .nregions = NR, .ncasts = NC,            \
    .casts = casts,                                                                                                 \
    .gen = gen_##n, .check = check_##n, .writes = writes_##n, .sv = TD_SV_REAL,                                     \
    .error_model = "online softmax in kernel order: binary32 dot * qk_scale, exp2 budget, tree row sums, fp16 P "  \
                   "(any scale; any KV blocking), binary32 P.V, acc*alpha, one division, fp16 store; M = m + log2 l"
#define T3_SV_WINDOW "finite inputs, bounded scores; a row with no kept key stores Out = 0 and M = -inf (the kernel's m_i)"
#define T3_SV_FULL "finite inputs, bounded scores; every key is kept, so l >= 1"
#define T3_SV_RESUME "finite seeds with L > 0; a row with no kept key in its window stores Out = acc0/l0, M = m0 + log2 l0"

/* ---- intents (docs/intent.md) ----
 * torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask, scale=sm_scale)
 * with the boolean attn_mask of the kernel's window (case 1: Mistral's sliding window,
 * key n kept iff 0 <= row - n + off < size; case 2: its complement, row - n + off >=
 * size; case 3: every key), M the row's base-2 log-sum-exp.  A row whose mask keeps no
 * key has no softmax (torch gives NaN there): the operation is not defined on such a
 * case (the kernel stores Out = 0, M = -inf).  Case 4 resumes every row from a stored
 * (M, L, Out): one chunk of a split attention its host combines, not the operation. */
#define T3_DEF                                                                                                     \
    "torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask, scale=sm_scale) (PyTorch "               \
    "documentation) with the window as a boolean attn_mask, exact (no fp16 P); M = log2 sum_n e^(q.k_n sm_scale)"
static const char *t3_gap(const td_case *c, const t3_kind *K) {
    for (int64_t row = 0; row < PI(c, P_NCTX); row++) {
        int any = 0;
        for (int64_t n = 0; n < PI(c, P_NKV) && !any; n++) any = t3_keep(c, K, row, n);
        if (!any) return "a query row keeps no key in its window: softmax over no key is undefined (torch's SDPA gives NaN; the kernel stores Out = 0, M = -inf)";
    }
    return NULL;
}
static const char *t3_resumed(const td_case *c) {
    (void)c;
    return "INIT = 0: every row resumes from a stored running max, sum and accumulator (M, L, Out), one chunk of a "
           "split attention the host combines";
}
static const char *gap_1(const td_case *c) { return t3_gap(c, &K1); }
static const char *gap_2(const td_case *c) { return t3_gap(c, &K2); }
#define T3_INTENT(n, op, ...)                                                                                      \
    static const td_intent i_##n = {.operation = op, .definition = T3_DEF, TD_SPECS(t3_##n##_intent), __VA_ARGS__};
T3_INTENT(1, "sliding-window attention softmax(q k^T * sm_scale + window mask) v of each query row (key n kept iff "
             "0 <= row - n + off < size), with the row's base-2 log-sum-exp M", .gap = gap_1)
T3_INTENT(2, "attention outside a sliding window: softmax(q k^T * sm_scale + mask) v of each query row (key n kept "
             "iff row - n + off >= size), with the row's base-2 log-sum-exp M", .gap = gap_2)
T3_INTENT(3, "scaled dot-product attention softmax(q k^T * sm_scale) v of each query row, with its base-2 "
             "log-sum-exp M", .gap = NULL)
T3_INTENT(4, "sliding-window attention softmax(q k^T * sm_scale + window mask) v of each query row, with its base-2 "
             "log-sum-exp M", .partial = t3_resumed)

const td_contract td_c_t3_case1_os = {
    .id = "attention_fwd_triton3.attention_fwd_triton3_python_case1_output_summary_general",
    .io_class = "Realizes_without_Rounding (Out and M; flags (off,size,1,1,BM,ND,BN,1,1,1,0))",
    .kind = "exact",
    .formula = "Out[r,d] = sum_{0<=r-n+off<size} 2^(c s) V / sum 2^(c s), M[r] = m + log2 l; c = sm_scale*log2e",
    .regions = regions_init, .classes = T3_CLASSES | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .far = t3_far, .sv_note = T3_SV_WINDOW,
    T3_COMMON(1), TD_SPECS(t3_1), .intent = &i_1,
};
const td_contract td_c_t3_case2_os = {
    .id = "attention_fwd_triton3.attention_fwd_triton3_python_case2_output_summary_general",
    .io_class = "Realizes_without_Rounding (Out and M; flags (off,size,1,1,BM,ND,BN,1,1,1,1))",
    .kind = "exact",
    .formula = "Out[r,d] = sum_{r-n+off>=size} 2^(c s) V / sum 2^(c s), M[r] = m + log2 l (complementary window)",
    .regions = regions_init, .classes = T3_CLASSES | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .far = t3_far, .sv_note = T3_SV_WINDOW,
    T3_COMMON(2), TD_SPECS(t3_2), .intent = &i_2,
};
const td_contract td_c_t3_case3_os = {
    .id = "attention_fwd_triton3.attention_fwd_triton3_python_case3_output_summary_general",
    .io_class = "Realizes_without_Rounding (Out and M; flags (off,0,1,1,BM,ND,BN,1,1,0,0))",
    .kind = "exact",
    .formula = "Out[r,d] = sum_n 2^(c s) V / sum_n 2^(c s), M[r] = log2 sum_n 2^(c s) (no window)",
    .regions = regions_init, .classes = T3_CLASSES | TD_BC(TD_BC_OFFSET_2_31), .far = t3_far, .sv_note = T3_SV_FULL,
    T3_COMMON(3), TD_SPECS(t3_3), .intent = &i_3,
};
const td_contract td_c_t3_case4_os = {
    .id = "attention_fwd_triton3.attention_fwd_triton3_python_case4_output_summary_general",
    .io_class = "Realizes_without_Rounding (Out and M; flags (off,size,1,1,BM,ND,BN,1,0,1,0), resume)",
    .kind = "exact",
    .formula = "the window's online fold seeded with (M[r], L[r], Out[r,d]): Out = acc / l, M = m + log2 l",
    .regions = regions_resume,
    .classes = T3_CLASSES | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_INPLACE) | TD_BC(TD_BC_OFFSET_2_31),
    .far = t3_far, .sv_note = T3_SV_RESUME, T3_COMMON(4), TD_SPECS(t3_4), .intent = &i_4,
};
const td_contract td_c_t3_case1_io = {
    .id = "attention_fwd_triton3.attention_fwd_triton3_case1_io_correctness",
    .io_class = "StreamMasked3DKernelIO_3x2 (attentionFwdTriton3Case1IO), sliding window",
    .kind = "rounding",
    .formula = "out1 = Case1IOOutSpec (Out), out2 = Case1IOMSpec (M); R = the kernel's casts",
    .regions = regions_init, .classes = T3_CLASSES | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .far = t3_far, .sv_note = T3_SV_WINDOW,
    T3_COMMON(1), TD_SPECS(t3_1), .intent = &i_1,
};
const td_contract td_c_t3_case2_io = {
    .id = "attention_fwd_triton3.attention_fwd_triton3_case2_io_correctness",
    .io_class = "StreamMasked3DKernelIO_3x2 (attentionFwdTriton3Case2IO), complementary window",
    .kind = "rounding",
    .formula = "out1 = Case2IOOutSpec (Out), out2 = Case2IOMSpec (M); R = the kernel's casts",
    .regions = regions_init, .classes = T3_CLASSES | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_OFFSET_2_31),
    .far = t3_far, .sv_note = T3_SV_WINDOW,
    T3_COMMON(2), TD_SPECS(t3_2), .intent = &i_2,
};
const td_contract td_c_t3_case3_io = {
    .id = "attention_fwd_triton3.attention_fwd_triton3_case3_io_correctness",
    .io_class = "StreamMasked3DKernelIO_3x2 (attentionFwdTriton3Case3IO), no window",
    .kind = "rounding",
    .formula = "out1 = Case3IOOutSpec (Out), out2 = Case3IOMSpec (M); R = the kernel's casts",
    .regions = regions_init, .classes = T3_CLASSES | TD_BC(TD_BC_OFFSET_2_31), .far = t3_far, .sv_note = T3_SV_FULL,
    T3_COMMON(3), TD_SPECS(t3_3), .intent = &i_3,
};
const td_contract td_c_t3_case4_io = {
    .id = "attention_fwd_triton3.attention_fwd_triton3_case4_io_correctness",
    .io_class = "StreamMasked3DKernelIO_6x2 (attentionFwdTriton3Case4IO), resume: inp4 = M, inp5 = L, inp6 = Out",
    .kind = "rounding",
    .formula = "out1 = Case4IOOutSpec (Out), out2 = Case4IOMSpec (M), seeded with M, L, Out; R = the kernel's casts",
    .regions = regions_resume,
    .classes = T3_CLASSES | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_INPLACE) | TD_BC(TD_BC_OFFSET_2_31),
    .far = t3_far, .sv_note = T3_SV_RESUME, T3_COMMON(4), TD_SPECS(t3_4), .intent = &i_4,
};
