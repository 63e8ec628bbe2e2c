/* attention_score: _score_kernel, the attention mass each key receives (catalogue part 1,
 * src lines 976-1042).
 *
 *   attention_score_python_case1_output_summary_general  lowering exists AND Realizes_without_Rounding
 *   attention_score_case1_io_correctness                 attentionScoreCase1IO (StreamMasked3DKernelIO_3) |=[R]
 *   flags (SLIDING_WINDOW, COMPLEMENT, IS_EVEN_M, IS_EVEN_N) = (1, 0, 1, 1), BLOCK_M = BLOCK_N = BN,
 *   hBN: 0 < BN, hdvd: BN | ROUND_CTX (the IO theorem also hRC: 0 < ROUND_CTX);
 *   Out[n] (n = pid0*BN + j < NKV_CTX) = sum_{r < ROUND_CTX, kept(r, n)} 2^(sm_scale*1.4426950408889634*s[r,n] - M[r])
 *   s[r,n] = sum_{d<BD} Q[qoff + r*sqm + d*sqk] K[koff + d*skk + n*skn],
 *   qoff = pid1/H*sqz + pid1%H*sqh, koff = pid1/H*skz + (pid1%H)/(H/H_KV)*skh (GQA head map),
 *   M at pid1*ROUND_CTX + r, Out at pid1/H*soz + pid1%H*soh + n (stride_on unused).
 *
 * Checked against bench/tritonbench_g/attention_score/attention_score.py and
 * AttentionScore.lean (attention_score_kernel, case1OutClosedFormG, attentionScoreCase1IOSpec):
 * the program of key block pid0 and head pid1 loads its K tile once (unmasked: IS_EVEN_N),
 * walks the ROUND_CTX/BN query blocks (unmasked Q loads: IS_EVEN_M; rows up to ROUND_CTX are
 * read, N_CTX only shapes the block pointer), takes p = exp2(qk * qk_scale - m) under the
 * window mask and adds the column sums; the store is masked by o_range < NKV_CTX.  The
 * reading agrees except for one point, where this contract follows the kernel:
 *  - The window.  case1DistG / attentionScoreCase1IODist use NATURAL subtraction,
 *    ((i - j) + c*BN - pid0*BN) + off truncated at each step, so "dist >= 0" is vacuous and
 *    a key after the query (negative distance) is kept whenever the truncated distance is
 *    below size.  Triton computes dist in int32 (tl.arange is int32): key n is kept for row
 *    r iff 0 <= r - n + off < size.  The Python test's window (0, 64) already differs (row 0
 *    keeps keys 0..63 under the Lean reading, key 0 only in Triton), as in
 *    attention_fwd_triton3 whose M this kernel consumes.  The spec uses the signed distance.
 * K columns past NKV_CTX in the last key block are read (IS_EVEN_N = 1: no boundary check)
 * but only feed columns the store mask drops, so the region holds them (as NaN padding).
 *
 * Rounding.  Both theorems are over the reals (the store cast erased: outDType .real).  The
 * launcher's Out is k.dtype, fp16 (the test's tensors): the kernel is checked under its
 * store profile ("store" fp16:rne:inf), the contract's value with that one conversion.
 * Error model, per output, any admissible implementation:
 *   qk_scale = RN(sm_scale * RN(1.4426950408889634))   u|qk_scale| (lit rounded once, one product)
 *   s        = the dot over BD lanes in any order, FMA or not   gamma_{BD-1} sum |q_d k_d| (fp16
 *              products exact in binary32: the shadow still charges u per product, a widening)
 *   x        = RN(s * qk_scale), y = RN(x - M)                  u|x|, u|y| (an FMA skips one)
 *   p        = exp2(y)                                          the backend's exp2 budget (ex2.approx)
 *   Out      = the sum of the kept p in any order (tree per block, blocks in any order; masked
 *              lanes are exact zeros and add no rounding)          gamma_{k-1} sum p, k kept rows
 *   store    = the declared fp16 cast (judged against its admissible interval).
 * The shadow propagates each term through the later operations (an error in y scales p by
 * 2^err: ln2 |p| err).  No other tolerance.
 *
 * Special values (TD_SV_REAL): scores and statistics are drawn so that every output is finite
 * in fp16 (the checker bounds each column sum by 2^15 in binary64); M is -inf only on rows
 * that keep no key (what attention_fwd_triton3 stores there), whose terms are all masked:
 * tl.where(mask, exp2(qk - (-inf)) = inf, 0) = 0, so no such term reaches a sum.
 *
 * Generator: BD, BN powers of two (1..32), 1..4 query blocks, NKV_CTX with tails at both
 * block edges and below one block, GQA (H_KV | H, H_KV < H), three layouts with padding for
 * Q and K, windows with offsets and sizes at the block edges (empty windows, columns that no
 * row keeps, every key kept), statistics M exact, stale (+-4), the running max alone, or 0
 * (the Python test's zeros, where the scores allow it), and the family's score landscapes
 * (attn_online_common.h).
 */
#include "attn_online_common.h"
#include "gen_far.h"

enum { P_SQZ, P_SQH, P_SQM, P_SQK, P_SKZ, P_SKH, P_SKN, P_SKK, P_SOZ, P_SOH, P_SON,
       P_Z, P_H, P_HKV, P_NCTX, P_ROUND, P_NKV, P_SWO, P_SWS, P_BN, P_BD, P_SM, NP };
enum { R_Q, R_K, R_M, R_OUT, NR };
enum { C_STORE, NC };

#define AS_P(c, k) ((c)->p[(k)].i)
#define AS_LOG2E "1.4426950408889634"

/* the kernel's window (signed distance, see the header) */
static inline int as_keep(const td_case *c, int64_t row, int64_t n) {
    int64_t dist = row - n + AS_P(c, P_SWO);
    return dist >= 0 && dist < AS_P(c, P_SWS);
}
static inline int64_t as_qoff(const td_case *c, int64_t p1) {
    return p1 / AS_P(c, P_H) * AS_P(c, P_SQZ) + p1 % AS_P(c, P_H) * AS_P(c, P_SQH);
}
static inline int64_t as_koff(const td_case *c, int64_t p1) {
    int64_t H = AS_P(c, P_H);
    return p1 / H * AS_P(c, P_SKZ) + (p1 % H) / (H / AS_P(c, P_HKV)) * AS_P(c, P_SKH);
}

#define TD_SPEC_FILE "attention_score.spec.h"
#include "spec_instantiate.h"

static const td_param_decl params[NP] = {
    {"stride_qz", TD_P_INT}, {"stride_qh", TD_P_INT}, {"stride_qm", TD_P_INT}, {"stride_qk", TD_P_INT},
    {"stride_kz", TD_P_INT}, {"stride_kh", TD_P_INT}, {"stride_kn", TD_P_INT}, {"stride_kk", TD_P_INT},
    {"stride_oz", TD_P_INT}, {"stride_oh", TD_P_INT}, {"stride_on", TD_P_INT}, {"Z", TD_P_INT},
    {"H", TD_P_INT},         {"H_KV", TD_P_INT},      {"N_CTX", TD_P_INT},     {"ROUND_CTX", TD_P_INT},
    {"NKV_CTX", TD_P_INT},   {"swo", TD_P_INT},       {"sws", TD_P_INT},       {"BN", TD_P_INT},
    {"BD", TD_P_INT},        {"sm_scale", TD_P_REAL}};
static const td_region_decl regions[NR] = {
    {"Q", TD_F16, TD_R_IN}, {"K", TD_F16, TD_R_IN}, {"M", TD_F32, TD_R_IN}, {"Out", TD_F16, TD_R_OUT}};
static const td_cast_decl casts[NC] = {
    {"store", "fp16:rne:inf", "Out store: o.to(Out.type.element_ty), Out = k.dtype (fp16) (outDType .real)"}};

/* ---- generator ---- */

/* binary64 score of (row r, key n) of head p1 in base-2 units, as the checker and the
 * statistics see it (within far less than the margins the checker keeps) */
static double as_score(const td_case *c, int64_t p1, int64_t r, int64_t n, double qks) {
    double s = 0;
    int64_t qo = as_qoff(c, p1), ko = as_koff(c, p1);
    for (int64_t d = 0; d < AS_P(c, P_BD); d++)
        s += td_get(c, R_Q, (size_t)(qo + r * AS_P(c, P_SQM) + d * AS_P(c, P_SQK))) *
             td_get(c, R_K, (size_t)(ko + d * AS_P(c, P_SKK) + n * AS_P(c, P_SKN)));
    return s * qks;
}
static double as_qks(const td_case *c) { return c->p[P_SM].r * 1.4426950408889634; }

/* a window edge: 0, at a block edge, one off, the far end, or anywhere below hi */
static int64_t as_edge(td_producer *p, int64_t bn, int64_t hi) {
    static const unsigned w[] = {2, 2, 2, 2, 2, 3};
    switch (td_prod_pick(p, w, 6)) {
    case 0: return 0;
    case 1: return bn;
    case 2: return bn > 1 ? bn - 1 : 1;
    case 3: return bn + 1;
    case 4: return hi;
    default: return td_prod_u32(p, 0, (uint32_t)hi);
    }
}

static void as_shape(td_producer *p, td_case *c, int64_t *qst, int64_t *kst, int64_t *kcols) {
    int64_t bd = at_pow2(p, 0, 5), bn = at_pow2(p, 0, 5);
    int64_t T = td_prod_u32(p, 1, (uint32_t)(64 / bn < 4 ? 64 / bn : 4));
    int64_t nkv = (int64_t)td_gen_count(p, (uint64_t)bn, (uint64_t)(bn * 4 < 96 ? bn * 4 : 96), &c->classes);
    static const unsigned wh[] = {3, 2, 2, 2};
    int64_t z = 1, h = 1, hkv = 1;
    switch (td_prod_pick(p, wh, 4)) {
    case 1: z = 2; h = hkv = 2; break;
    case 2: h = 4, hkv = td_prod_bool(p) ? 1 : 2; break; /* GQA: groups of 4 or 2 query heads */
    case 3: h = 2, hkv = 1; break;                          /* GQA (multi-query) */
    default: break;
    }
    int64_t round = T * bn;
    while (z * h * nkv * round * bd > (1 << 15) && bd > 1) bd /= 2;
    int64_t g0 = (nkv + bn - 1) / bn;
    *kcols = g0 * bn;
    at_strides(p, z, h, round, bd, qst);
    at_strides(p, z, hkv, *kcols, bd, kst);
    int64_t soh = nkv + (td_prod_bool(p) ? td_prod_u32(p, 1, 5) : 0), soz = h * soh;
    AS_P(c, P_SQZ) = qst[0], AS_P(c, P_SQH) = qst[1], AS_P(c, P_SQM) = qst[2], AS_P(c, P_SQK) = qst[3];
    AS_P(c, P_SKZ) = kst[0], AS_P(c, P_SKH) = kst[1], AS_P(c, P_SKN) = kst[2], AS_P(c, P_SKK) = kst[3];
    AS_P(c, P_SOZ) = soz, AS_P(c, P_SOH) = soh, AS_P(c, P_SON) = 1;
    AS_P(c, P_Z) = z, AS_P(c, P_H) = h, AS_P(c, P_HKV) = hkv;
    AS_P(c, P_ROUND) = round, AS_P(c, P_NCTX) = round - (td_prod_bool(p) ? td_prod_u32(p, 0, (uint32_t)(bn - 1)) : 0);
    AS_P(c, P_NKV) = nkv, AS_P(c, P_BN) = bn, AS_P(c, P_BD) = bd;
    AS_P(c, P_SWO) = as_edge(p, bn, round > nkv ? round : nkv);
    AS_P(c, P_SWS) = as_edge(p, bn, round + nkv);
    c->grid[0] = (uint32_t)g0;
    c->grid[1] = (uint32_t)(z * h);
    if (z * h > 1) c->classes &= ~TD_BC(TD_BC_ONE_PROGRAM);
    if (T > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (qst[2] > bd * qst[3] || kst[2] > bd * kst[3] || soh > nkv) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

static double as_sm_scale(td_producer *p, int64_t bd) {
    static const unsigned w[] = {6, 2, 4, 1};
    switch (td_prod_pick(p, w, 4)) {
    case 0: return (double)(float)(1.0 / sqrt((double)bd));
    case 1: return 1.0;
    case 2: return td_gen_real(p, -2, 2);
    default: return 0.0;
    }
}

/* M of each row: the base-2 log-sum-exp of its kept scores (what attention_fwd_triton3
 * stores), stale by up to 4, the running max alone, or 0 where every kept score <= 4;
 * -inf where the row keeps no key */
static void as_stats(td_producer *p, td_case *c, td_rng *rng) {
    int mode = (int)td_prod_u32(p, 0, 3);
    double qks = as_qks(c);
    int64_t nkv = AS_P(c, P_NKV), round = AS_P(c, P_ROUND);
    for (int64_t p1 = 0; p1 < (int64_t)c->grid[1]; p1++)
        for (int64_t r = 0; r < round; r++) {
            double mx = -INFINITY, l = 0;
            for (int64_t n = 0; n < nkv; n++)
                if (as_keep(c, r, n)) {
                    double s = as_score(c, p1, r, n, qks);
                    if (s > mx) l = l * exp2(mx - s) + 1, mx = s;
                    else l += exp2(s - mx);
                }
            double m = mx;
            if (mx > -INFINITY) {
                double stale = 8 * td_rng_unit(rng) - 4;
                switch (mode) {
                case 0: m = mx + log2(l); break;
                case 1: m = mx + log2(l) + stale; break;
                case 2: break;
                default: m = mx <= 4 ? 0.0 : mx + log2(l); break;
                }
            }
            volatile float mf = (float)m; /* rounded to binary32 (attn_common.h's at_f32: kept by the vectorizer) */
            td_set(c, R_M, (size_t)(p1 * round + r), mf);
        }
}

static void gen(td_producer *p, td_case *c) {
    int64_t qst[4], kst[4], kcols;
    as_shape(p, c, qst, kst, &kcols);
    int64_t z = AS_P(c, P_Z), h = AS_P(c, P_H), hkv = AS_P(c, P_HKV), bd = AS_P(c, P_BD);
    int64_t round = AS_P(c, P_ROUND), nkv = AS_P(c, P_NKV);
    c->p[P_SM].r = as_sm_scale(p, bd);
    td_case_alloc(c, R_Q, (size_t)at_strides_extent(qst, z, h, round, bd));
    td_case_alloc(c, R_K, (size_t)at_strides_extent(kst, z, hkv, kcols, bd));
    td_case_alloc(c, R_M, (size_t)(z * h * round));
    td_case_alloc(c, R_OUT, (size_t)((z - 1) * AS_P(c, P_SOZ) + (h - 1) * AS_P(c, P_SOH) + nkv + td_prod_u32(p, 0, 4)));
    at_poison(c, R_Q), at_poison(c, R_K);
    at_vals g;
    at_vals_init(&g, p, c, fabs(as_qks(c)), (int)bd, (int)nkv, 256, 0, 1);
    for (int64_t p1 = 0; p1 < z * h; p1++) {
        int64_t qo = as_qoff(c, p1);
        for (int64_t r = 0; r < round; r++)
            for (int64_t e = 0; e < bd; e++)
                td_set(c, R_Q, (size_t)(qo + r * qst[2] + e * qst[3]), at_q(&g, TD_F16, (int)(p1 % h), (int)r, (int)e));
    }
    for (int64_t b = 0; b < z; b++)
        for (int64_t hk = 0; hk < hkv; hk++)
            for (int64_t n = 0; n < nkv; n++) /* keys past NKV_CTX stay NaN padding */
                for (int64_t e = 0; e < bd; e++)
                    td_set(c, R_K, (size_t)(b * kst[0] + hk * kst[1] + n * kst[2] + e * kst[3]),
                           at_k(&g, TD_F16, (int)(hk * (h / hkv)), (int)n, (int)e));
    as_stats(p, c, &g.g.rng);
    /* a column no row keeps */
    for (int64_t n = 0; n < nkv; n++) {
        int any = 0;
        for (int64_t r = 0; r < round && !any; r++) any = as_keep(c, r, n);
        if (!any) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    }
}

/* Offsets beyond 2^31 (gen_far.h): with Z = 2 the batch axis of Q and K moves to a
 * stride near 2^31 over sparse regions; with one batch, the head axis of Q (H heads)
 * and then of K (H_KV heads, when Q's moved and H_KV >= 2), each where it sits outside
 * the rows (td_far_axis).  M and Out stay dense at their own strides; the checks read
 * only the cells the launch names. */
static void far(td_producer *p, td_case *c) {
    const int qk[2] = {R_Q, R_K};
    if (AS_P(c, P_Z) >= 2) {
        const int st[2] = {P_SQZ, P_SKZ};
        td_far_axis(p, c, 2, qk, st, AS_P(c, P_Z));
        return;
    }
    const int sq = P_SQH, sk = P_SKH;
    if (td_far_axis(p, c, 1, qk, &sq, AS_P(c, P_H)) && AS_P(c, P_HKV) >= 2)
        td_far_axis(p, c, 1, qk + 1, &sk, AS_P(c, P_HKV));
}

/* ---- checker ---- */

static const char *as_check_layout(const td_case *c) {
    int64_t z = AS_P(c, P_Z), h = AS_P(c, P_H), hkv = AS_P(c, P_HKV), bn = AS_P(c, P_BN), bd = AS_P(c, P_BD);
    int64_t round = AS_P(c, P_ROUND), nkv = AS_P(c, P_NKV);
    for (int k = 0; k < P_SM; k++)
        if (AS_P(c, k) < 0) return "parameters are naturals";
    if (bn <= 0) return "hBN: 0 < BN";
    /* the io theorem's hRC; the output summary also admits ROUND_CTX = 0 (an empty query walk,
     * Out = 0), which this generator does not draw, so both contracts check it */
    if (round <= 0) return "hRC: 0 < ROUND_CTX";
    if (round % bn) return "hdvd: BN | ROUND_CTX";
    if (bd <= 0 || z <= 0 || nkv <= 0) return "a launch: BD, Z, NKV_CTX > 0";
    if (hkv <= 0 || h % hkv) return "GQA: H_KV | H (the launcher's head grouping)";
    if ((double)(float)c->p[P_SM].r != c->p[P_SM].r) return "sm_scale is a binary32 value";
    if (c->grid[0] != (uint32_t)((nkv + bn - 1) / bn) || c->grid[1] != (uint32_t)(z * h))
        return "grid = (cdiv(NKV_CTX, BN), Z*H)";
    int64_t kcols = (int64_t)c->grid[0] * bn;
    int64_t qext = (z - 1) * AS_P(c, P_SQZ) + (h - 1) * AS_P(c, P_SQH) + (round - 1) * AS_P(c, P_SQM) +
                   (bd - 1) * AS_P(c, P_SQK) + 1;
    int64_t kext = (z - 1) * AS_P(c, P_SKZ) + (hkv - 1) * AS_P(c, P_SKH) + (kcols - 1) * AS_P(c, P_SKN) +
                   (bd - 1) * AS_P(c, P_SKK) + 1;
    if ((int64_t)c->r[R_Q].len < qext) return "Q holds every row the query walk reads (read1, unmasked)";
    if ((int64_t)c->r[R_K].len < kext) return "K holds every column of every key block (read2, unmasked)";
    if ((int64_t)c->r[R_M].len < z * h * round) return "M holds Z*H*ROUND_CTX statistics (read3)";
    int64_t soh = AS_P(c, P_SOH), soz = AS_P(c, P_SOZ);
    if (soh < nkv || (z > 1 && soz < h * soh)) return "Out writes injective: stride_oh >= NKV_CTX, stride_oz >= H*stride_oh";
    if ((int64_t)c->r[R_OUT].len < (z - 1) * soz + (h - 1) * soh + nkv) return "Out holds every stored column";
    return NULL;
}

/* the domain: finite statistics except -inf on rows keeping no key; every fp16 output
 * finite (column sums below 2^15 in binary64, far inside fp16's 65504) */
static const char *check(const td_case *c) {
    const char *e = as_check_layout(c);
    if (e) return e;
    int64_t round = AS_P(c, P_ROUND), nkv = AS_P(c, P_NKV);
    double qks = as_qks(c);
    for (int64_t p1 = 0; p1 < (int64_t)c->grid[1]; p1++) {
        for (int64_t r = 0; r < round; r++) {
            double m = td_get(c, R_M, (size_t)(p1 * round + r));
            int any = 0;
            for (int64_t n = 0; n < nkv && !any; n++) any = as_keep(c, r, n);
            if (isnan(m) || (isinf(m) && (any || m > 0))) return "domain: M finite on rows that keep a key";
        }
        for (int64_t n = 0; n < nkv; n++) {
            double sum = 0;
            for (int64_t r = 0; r < round; r++)
                if (as_keep(c, r, n)) {
                    double s = as_score(c, p1, r, n, qks);
                    if (!isfinite(s)) return "domain: finite Q, K in every kept score";
                    sum += exp2(s - td_get(c, R_M, (size_t)(p1 * round + r)));
                }
            if (!(sum < 0x1p15)) return "domain: every column sum < 2^15 (the fp16 output finite)";
        }
    }
    return NULL;
}

/* Out at pid1/H*soz + pid1%H*soh + pid0*BN + j, stored where pid0*BN + j < NKV_CTX */
static void writes(const td_case *c, td_wset *ws) {
    int64_t H = AS_P(c, P_H), bn = AS_P(c, P_BN), nkv = AS_P(c, P_NKV);
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            for (int64_t j = 0; j < bn; j++) {
                int64_t n = (int64_t)p0 * bn + j;
                if (n >= nkv) continue;
                td_olane l = {.o = 0, .region = R_OUT, .pid = {p0, p1, 0}, .j = (uint64_t)j, .idx = {p1, n}};
                l.off = (uint64_t)(p1 / H * AS_P(c, P_SOZ) + p1 % H * AS_P(c, P_SOH) + n);
                td_wset_add(ws, &l);
            }
}

#define AS_CLASSES                                                                                                 \
    (TD_BC(TD_BC_SINGLE_LANE) | TD_BC(TD_BC_ONE_PROGRAM) | TD_BC(TD_BC_EXACT_MULTIPLE) | TD_BC(TD_BC_TAIL) |        \
     TD_BC(TD_BC_TAIL_BELOW) | TD_BC(TD_BC_TAIL_ABOVE) | TD_BC(TD_BC_BLOCK_GT_N) | TD_BC(TD_BC_MULTI_TILE) |       \
     TD_BC(TD_BC_STRIDE_GT_ROW) | TD_BC(TD_BC_FULLY_MASKED) | TD_BC(TD_BC_VALUES_LARGE) |                          \
     TD_BC(TD_BC_VALUES_SPECIAL) | TD_BC(TD_BC_OFFSET_2_31))
#define AS_COMMON                                                                                                  \
    .file = "attention_score", .family = "attention", .nparams = NP, .params = params, .nregions = NR,            \
    .regions = regions, .ncasts = NC, .casts = casts, .sv = TD_SV_REAL, .classes = AS_CLASSES, .gen = gen,         \
    .far = far, .check = check, .writes = writes, TD_SPECS(as_out),                                                \
    .sv_note = "finite scores; M = -inf only on rows keeping no key (their terms are masked); every column sum "    \
               "< 2^15 (finite fp16); a column no row keeps is the empty sum 0",                                    \
    .error_model = "qk_scale one product (literal rounded once); binary32 dot in any order (gamma_{BD-1}); "       \
                   "x = s*qk_scale, y = x - M (u each, FMA allowed); exp2 budget; kept terms summed in any order " \
                   "(gamma_{k-1}); fp16 store cast"

const td_contract td_c_attention_score_os = {
    .id = "attention_score.attention_score_python_case1_output_summary_general",
    .io_class = "Realizes_without_Rounding (lowering exists; writeIf o_range < NKV_CTX)",
    .kind = "exact",
    .formula = "Out[n] = sum_{r < ROUND_CTX, 0 <= r - n + swo < sws} 2^(sm_scale*log2e*(Q.K)[r,n] - M[r])",
    AS_COMMON,
};

const td_contract td_c_attention_score_io = {
    .id = "attention_score.attention_score_case1_io_correctness",
    .io_class = "StreamMasked3DKernelIO_3 (attentionScoreCase1IO), outDType .real",
    .kind = "rounding",
    .formula = "out[j] = attentionScoreCase1IOSpec(BN, BD, ROUND_CTX/BN, swo, sws, sm_scale, p0, xs, ys, zs, j); "
               "R = the kernel's store cast",
    AS_COMMON,
};
