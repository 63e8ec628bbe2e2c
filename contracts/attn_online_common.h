/* The online-softmax attention family (flash_attn, attention_llama, attn_fwd_causal,
 * attn_fwd_triton, attention_forward_triton, attention_fwd_triton2,
 * attention_fwd_triton3): what their contracts share.
 *
 * Each contract file includes this header at its top (types, the generator's value
 * and layout helpers); its spec file includes attn_online_common.spec.h (the spec
 * engine, compiled once per number type).
 *
 * The spec engine evaluates ONE output lane of ONE query row as the kernel's online
 * algorithm, block by block in the kernel's processing order:
 *     s_j   = the score, formed as the kernel forms it (AT_SC_*), a dot product
 *             in any order over the head lanes (gamma_{n-1} sum |q_e k_e|)
 *     m     = max(m_prev, max_j s_j)                   (exact)
 *     alpha = 2^(m_prev - m)  or  e^(m_prev - m)       (the kernel's exp2 / exp)
 *     p_j   = 2^(s_j - m)     or  e^(s_j - m)
 *     l     = l_prev * alpha + tl.sum(p)               (tree over BLOCK_N lanes)
 *     acc   = acc * alpha + dot(fp16(p), v)            (the P rounding: kernel-side)
 *     out   = cast_store(acc / l)
 * (AT_NORM_STEP is attention_llama's FlashAttention-1 variant that normalises every
 * step: l_rcp = 1/l, p *= l_rcp, acc *= l_prev * l_rcp.)  In exact arithmetic with
 * the casts taken as the identity this is softmax(scores) . V, the contract's value;
 * MPFR evaluates it with the casts the kernel declares, and the shadow type bounds the
 * kernel's binary32 evaluation operation by operation.
 *
 * Admissible blockings.  The contract (hfp16: R.round .fp16 = id; the closed form over
 * the reals) fixes the value, not the KV block size or the order of the blocks: a kernel
 * may rescale at other keys, so its fp16 P (and its fp16 P.V partials where tl.dot has
 * out_dtype=fp16) are rounded at other scales, and its sums associate differently.  So
 *   - the P and P.V roundings are kernel-side (N(kround): the reference does not round
 *     them, the shadow charges u16 (|x| + ek) at any scale; the subnormal parts, eta16
 *     per p_j times |v_j| and per partial, once at the final scale, where they are
 *     largest, since a rounding at the running max m' <= m is scaled by e^(m' - m) <= 1);
 *   - the row's l and every lane's acc are widened by N(reblock) (oracle/shadow.c: up to
 *     n-1 rescales, any-order sums, the exp's absolute terms at the final scale), with
 *     the terms' magnitudes bounded by pm_j >= e^(s_j - m) (at_pmag);
 *   - the argument roundings need nothing more: those a term goes through telescope to
 *     m - s_j in every blocking.
 * The store stays a declared cast (judged against the admissible interval).
 *
 * Masked keys contribute exact zeros in every kernel of the family (exp2(-inf) = 0,
 * tl.where(mask, p, 0), or exp2(qk - 1e6 - m) = 0 for the bounded scores the
 * generators produce), so the engine skips them; a block with no kept key for the
 * row leaves the state bit for bit unchanged (alpha = exp2(0) = 1 exactly, zero
 * contributions), except under AT_NORM_STEP where acc is still multiplied by
 * l * (1 / l) (modelled).  The tl.sum of a block is a tree over all BLOCK_N lanes,
 * masked lanes included as exact zeros, so its error term uses the full tree depth.
 *
 * The first block with a kept key starts the state exactly as the kernels do (alpha =
 * exp2(-inf) = 0: l = rowsum, acc = the block's P.V), unless the row resumes from a
 * stored state (attention_fwd_triton3 case 4).  Where the shadow proves that a block's
 * maximum cannot exceed the running max, for the exact values and for the kernel's
 * (AT_SURE_NOT), the kernel keeps m bit for bit and alpha = exp2(0) = 1 exactly: that
 * rescale costs nothing.  Other casts the kernels make are declared casts too: the
 * block's P.V product where tl.dot has out_dtype=fp16 (c_pv), V converted to fp16
 * (c_v), the store (c_store).
 *
 * Known looseness: a sum of terms that happen to be exact in binary32 (small integers,
 * fp16 products on a common grid) is still charged gamma_{n-1} sum|t|, and the port's
 * own blocking is charged twice (its chain, then N(reblock)'s); both only widen a
 * bound.
 *
 * Per-row quantities (every block's alpha, the cast weights, the final l and m) are
 * memoised in the shadow pass, keyed by the row (at_row.key) and a tag; the MPFR pass
 * recomputes them for every lane it evaluates (sizes are kept so that costs < 2^15
 * lanes x keys per case).
 */
#ifndef TD_ATTN_ONLINE_COMMON_H
#define TD_ATTN_ONLINE_COMMON_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gen.h"
#include "gen_far.h"

#define AT_MAXS 64 /* keys of one head: the row-model limit the existing contracts check and generate to */
/* Key slots of the row model's arrays (capacity only, >= AT_MAXS): mixed_sparse_attention's
 * closed form streams 8 block iterations of BLOCK_N = 16 plus one column block, 144 slots.
 * Every other contract keeps its rows at <= AT_MAXS keys, so for them nothing but the
 * arrays' size differs. */
#define AT_MAXK 144
#define AT_MAXD 64 /* head lanes in a dot product */
#define AT_MAXB 64 /* KV blocks a row goes through */

enum at_score {
    AT_SC_FLASH, /* q16 = cast_q(q * RN(sm_scale * lit)); s = dot(q16, k) */
    AT_SC_SAGE,  /* s = (dot(q, k) * q_scale) * k_scale[block of the key] */
    AT_SC_SCALE  /* s = dot(q, k) * scale, scale = sm_scale or RN(sm_scale * lit) */
};
enum at_norm { AT_NORM_END, AT_NORM_STEP };
/* AT_OUT_L / AT_OUT_M: the row's final sum l and max m as the kernel stores them (triton_attention) */
enum at_out { AT_OUT_O, AT_OUT_LSE, AT_OUT_L, AT_OUT_M };
/* block kinds for one row */
enum { AT_B_SKIP, AT_B_FIRST, AT_B_NEXT, AT_B_RATIO };

/* One query row of one program, and one output lane of it. */
typedef struct at_row {
    uint64_t key; /* unique per (program, row) in the case (< 2^40): the memo key base */
    int out;      /* AT_OUT_O (output column d) or AT_OUT_LSE (the row statistic) */
    int score, base2, norm;
    int q_reg, k_reg, v_reg;
    int nd;                 /* dot length: head lanes that are loaded (the others are masked to 0) */
    int64_t q_off[AT_MAXD]; /* the row's q lanes */
    int64_t k_off[AT_MAXK]; /* key j, lane 0 */
    int64_t k_es;           /* key lane stride */
    int64_t v_off[AT_MAXK]; /* V[j][d] of the lane's column d */
    int nkeys;              /* keys 0 .. nkeys-1 exist; lanes at or beyond are masked */
    uint8_t keep[AT_MAXK];  /* key j kept for this row */
    uint8_t zero[AT_MAXK];  /* key j's K and V loads are masked to 0 (other=0.0): its score is exactly
                             * q . 0 = 0 and its value 0 (mixed_sparse_attention's unused block
                             * iterations); 0 for every key of the other contracts */
    int bn;                 /* BLOCK_N: the tl.sum width and the key block of k_scale */
    int nblk;               /* blocks in processing order */
    int blk_lo[AT_MAXB];    /* first key of each block */
    double sm_scale;        /* AT_SC_FLASH / AT_SC_SCALE */
    const char *lit;        /* the log2(e) literal the kernel multiplies sm_scale by, or NULL */
    double qscale;          /* AT_SC_SAGE */
    double kscale[AT_MAXB]; /* AT_SC_SAGE, by key block j / bn */
    int c_q, c_p, c_pv, c_v, c_store; /* cast slots, -1 when the kernel has no such cast */
    int seeded;             /* resume from a stored state (attention_fwd_triton3 INIT = 0) */
    double m0, l0;          /* the seed's running max and denominator */
    int o_reg;              /* seeded: the accumulator's region and offset */
    int64_t acc0_off;
} at_row;

static inline void at_row_init(at_row *R) {
    memset(R, 0, sizeof *R);
    R->c_q = R->c_p = R->c_pv = R->c_v = R->c_store = -1;
}

/* The kind of every block for this row (see the header comment). */
static inline void at_plan(const at_row *R, uint8_t kind[AT_MAXB]) {
    int started = R->seeded;
    for (int b = 0; b < R->nblk; b++) {
        int any = 0;
        for (int k = 0; k < R->bn; k++) {
            int j = R->blk_lo[b] + k;
            if (j >= 0 && j < R->nkeys && R->keep[j]) any = 1;
        }
        if (any) {
            kind[b] = started ? AT_B_NEXT : AT_B_FIRST;
            started = 1;
        } else
            kind[b] = (started && R->norm == AT_NORM_STEP) ? AT_B_RATIO : AT_B_SKIP;
    }
}

static inline int at_kept(const at_row *R, int j) { return j >= 0 && j < R->nkeys && R->keep[j]; }

/* memo keys: row, tag, index */
enum { AT_T_DONE, AT_T_ALPHA, AT_T_ONE, AT_T_P, AT_T_L, AT_T_M, AT_T_PMAG, AT_T_KEEP };

/* ---- the row's statistics kept for its lanes (shadow pass) ----
 * Every lane of a row reads the same statistics from the memo (at_stats: a memo look-up
 * per kept key for its weight and one for its weight's magnitude, per block for alpha).
 * The first lane that assembles them from the memo also leaves them in this thread's
 * buffer (one row: the lanes of a row are judged together, attn_online_common.spec.h
 * holds the buffer) and stamps the memo with a value never stamped before under the
 * row's key and AT_T_KEEP; a later lane copies them from the buffer only when the memo
 * holds the buffer's stamp.  The memo is per shadow context and cleared at the start of
 * every case, so such a hit proves the buffer holds this case's row as the memo's hit
 * path assembles it (the same values), and the lane flags that path restores (every
 * entry of the row carries the same, stored when its statistics were computed) are
 * restored with them.  While a lane is traced the memo hands out nothing.  The MPFR
 * pass keeps none (its values live as long as their lane). */
typedef struct at_keep_state {
    double stamp; /* 0: the buffer holds no sealed row */
    double next;  /* the last stamp issued */
    uint32_t flags;
} at_keep_state;
static _Thread_local at_keep_state at_ks;

static inline int at_keep_hit_sh(td_shcx *cx, uint64_t key) {
    td_sh st;
    if (at_ks.stamp == 0 || !td_sh_memo_get(cx, key, &st) || st.v != at_ks.stamp || st.ek != (double)(uintptr_t)&at_ks)
        return 0;
    cx->lane_flags |= at_ks.flags;
    return 1;
}
static inline int at_keep_hit_mp(td_mpcx *cx, uint64_t key) { return 0; }
/* Before the buffer is filled: 1 when this pass keeps rows. */
static inline int at_keep_begin_sh(td_shcx *cx) {
    at_ks.stamp = 0;
    return !cx->trace;
}
static inline int at_keep_begin_mp(td_mpcx *cx) { return 0; }
/* After: the flags the row's memo entries restore (read again from the entry under
 * done_key, with the lane's own flags set aside), and the stamp (v: a counter, ek: this
 * buffer's address, so that two translation units' buffers never share one), stored
 * with no flags. */
static inline void at_keep_seal_sh(td_shcx *cx, uint64_t key, uint64_t done_key) {
    uint32_t lf = cx->lane_flags;
    td_sh t;
    cx->lane_flags = 0;
    if (!td_sh_memo_get(cx, done_key, &t)) {
        cx->lane_flags = lf;
        return;
    }
    at_ks.flags = cx->lane_flags;
    cx->lane_flags = 0;
    td_sh st = {.v = ++at_ks.next, .ek = (double)(uintptr_t)&at_ks, .fl = TD_SH_EXACTK};
    td_sh_memo_put(cx, key, st);
    cx->lane_flags = lf;
    at_ks.stamp = st.v;
}
static inline void at_keep_seal_mp(td_mpcx *cx, uint64_t key, uint64_t done_key) {}
#define AT_KEEP(op, cx) _Generic((cx), td_shcx *: at_keep_##op##_sh, td_mpcx *: at_keep_##op##_mp)
/* the intent's (at_intent_row), apart from the contract's */
enum { AT_T_IM = 8, AT_T_IL, AT_T_IP };
static inline uint64_t at_mkey(const at_row *R, int tag, int idx) {
    return (R->key << 20) | ((uint64_t)tag << 16) | (uint64_t)idx;
}

/* "a > b" is certainly false for the exact values and for the kernel's: the kernel's
 * max keeps the previous value bit for bit (the mp comparison is always certain). */
#define AT_SURE_NOT(c) (((c) & 7) == 6)

/* ---- generator helpers ---- */

#define AT_MAXH 8 /* head programs (grid axis 1) of a case */

/* Value distributions of the family's hard inputs (chosen per case by the bytes). */
enum at_qk_mode {
    AT_QK_SMALL,    /* uniform [-1, 1] */
    AT_QK_MODERATE, /* uniform [-a, a], a in [1, 4] */
    AT_QK_LARGE,    /* scores of hundreds to thousands: a naive exp overflows */
    AT_QK_ONEHOT,   /* one dominant key per head (near one-hot rows) */
    AT_QK_CONSTK,   /* every key the same vector: all scores of a row equal */
    AT_QK_INTS,     /* small integers: exact dot products */
    AT_QK_SPECIAL,  /* signed zeros, subnormals, powers of two, narrow-format ties */
    AT_QK_COUNT
};
enum at_v_mode { AT_V_SMALL, AT_V_WIDE, AT_V_NEARCONST, AT_V_INTS, AT_V_COUNT };

typedef struct at_vals {
    int qk, vm;
    double a;      /* q/k amplitude */
    double vcap;   /* |v| bound */
    double vconst; /* AT_V_NEARCONST centre */
    int hot[AT_MAXH];             /* AT_QK_ONEHOT: the dominant key of each head */
    double u[AT_MAXH][AT_MAXD];   /* AT_QK_ONEHOT / AT_QK_CONSTK: a direction per head */
    td_vgen g;
} at_vals;

static inline double at_round(td_fmt f, double x) {
    td_profile p = {f, TD_RNE, TD_OVF_SAT, false};
    return td_decode(f, td_encode_f64(p, x));
}

/* score_gain: |scale| the dot product is multiplied by (an estimate); D: head lanes;
 * qkcap: largest |q|, |k| allowed (format range, fp16 casts of q * scale ...);
 * termcap: largest |q_e k_e| * gain of one product term, or 0 for no limit (where q
 * passes through an fp16 cast, one flipped fp16 rounding moves a score by 2^-11 of a
 * term: terms up to 256 keep that below 1/8 in the exponent);
 * vcap: largest |v| allowed (fp16 accumulations of p . v). */
static inline void at_vals_init(at_vals *g, td_producer *p, td_case *c, double score_gain, int D, int nkeys,
                                double qkcap, double termcap, double vcap) {
    static const unsigned wq[AT_QK_COUNT] = {5, 4, 4, 3, 2, 2, 2};
    static const unsigned wv[AT_V_COUNT] = {5, 3, 2, 2};
    memset(g, 0, sizeof *g);
    g->qk = td_prod_pick(p, wq, AT_QK_COUNT);
    g->vm = td_prod_pick(p, wv, AT_V_COUNT);
    double gain = score_gain > 1e-6 ? score_gain : 1.0;
    double sd = sqrt((double)(D > 0 ? D : 1));
    switch (g->qk) {
    case AT_QK_MODERATE: g->a = td_gen_real(p, 1, 4); break;
    case AT_QK_LARGE: {
        /* typical |score| ~ a^2 sqrt(D) gain: aim at 200 .. 4000 */
        double target = td_gen_real(p, 200, 4000);
        g->a = sqrt(target / (sd * gain));
        c->classes |= TD_BC(TD_BC_VALUES_LARGE);
        break;
    }
    case AT_QK_ONEHOT: g->a = sqrt(td_gen_real(p, 24, 60) / (sd * gain)); break;
    default: g->a = 1; break;
    }
    if (termcap > 0 && g->a * g->a * gain > termcap) g->a = sqrt(termcap / gain);
    if (g->a > qkcap) g->a = qkcap;
    g->vcap = vcap;
    g->vconst = td_gen_real(p, -2, 2);
    uint64_t cls = c->classes;
    td_vgen_init(&g->g, p, c, TD_VM(TD_V_SPECIAL) | TD_VM(TD_V_TIES), 1);
    c->classes = cls;
    if (g->qk == AT_QK_SPECIAL) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
    /* the report names the q/k distribution with the nearest entry of the value menu */
    static const int menu_of[AT_QK_COUNT] = {TD_V_SMALL, TD_V_WIDE, TD_V_LARGE, TD_V_LARGE,
                                             TD_V_CONST, TD_V_INTS, TD_V_SPECIAL};
    c->menu = menu_of[g->qk];
    g->g.bound = qkcap < 8 ? qkcap : 8;
    for (int h = 0; h < AT_MAXH; h++) {
        g->hot[h] = (int)td_rng_below(&g->g.rng, (uint64_t)(nkeys > 0 ? nkeys : 1));
        for (int e = 0; e < AT_MAXD; e++)
            g->u[h][e] = g->qk == AT_QK_CONSTK ? 2 * td_rng_unit(&g->g.rng) - 1 : ((td_rng_next(&g->g.rng) & 1) ? 1 : -1);
    }
}

static inline double at_uni(at_vals *g, double a) { return a * (2 * td_rng_unit(&g->g.rng) - 1); }

static inline double at_q(at_vals *g, td_fmt f, int h, int r, int e) {
    (void)r;
    double x;
    switch (g->qk) {
    case AT_QK_ONEHOT: x = g->u[h % AT_MAXH][e % AT_MAXD] * g->a * (0.75 + 0.25 * td_rng_unit(&g->g.rng)); break;
    case AT_QK_INTS: x = (double)((int64_t)td_rng_below(&g->g.rng, 9) - 4); break;
    case AT_QK_SPECIAL: x = td_vgen_value(&g->g, f); break;
    default: x = at_uni(g, g->a); break;
    }
    return at_round(f, x);
}

static inline double at_k(at_vals *g, td_fmt f, int h, int j, int e) {
    double x;
    switch (g->qk) {
    case AT_QK_ONEHOT:
        x = j == g->hot[h % AT_MAXH] ? g->u[h % AT_MAXH][e % AT_MAXD] * g->a : at_uni(g, 0.05 * g->a);
        break;
    case AT_QK_CONSTK: x = g->u[h % AT_MAXH][e % AT_MAXD]; break;
    case AT_QK_INTS: x = (double)((int64_t)td_rng_below(&g->g.rng, 9) - 4); break;
    case AT_QK_SPECIAL: x = td_vgen_value(&g->g, f); break;
    default: x = at_uni(g, g->a); break;
    }
    return at_round(f, x);
}

static inline double at_v(at_vals *g, td_fmt f) {
    double x;
    switch (g->vm) {
    case AT_V_WIDE: {
        double s = (td_rng_next(&g->g.rng) & 1) ? -1 : 1;
        x = 1.0 + td_rng_unit(&g->g.rng); /* mantissa, then exponent: sequenced */
        x = s * ldexp(x, (int)td_rng_below(&g->g.rng, 19) - 10);
        break;
    }
    case AT_V_NEARCONST: x = g->vconst + at_uni(g, 1.0 / 1024); break;
    case AT_V_INTS: x = (double)((int64_t)td_rng_below(&g->g.rng, 17) - 8); break;
    default: x = at_uni(g, 1); break;
    }
    if (fabs(x) > g->vcap) x = copysign(g->vcap, x);
    return at_round(f, x);
}

/* A power of two 2^k, k in [lo, hi], favouring the middle of the range (small tiles
 * keep the per-lane MPFR reference cheap; the ends are still reached). */
static inline int64_t at_pow2(td_producer *p, int lo, int hi) {
    unsigned w[8];
    int n = hi - lo + 1;
    if (n <= 1) return (int64_t)1 << lo;
    for (int i = 0; i < n && i < 8; i++) w[i] = (i == 0 || i == n - 1) ? 1 : (i == 1 || i == n - 2) ? 2 : 3;
    return (int64_t)1 << (lo + td_prod_pick(p, w, n < 8 ? n : 8));
}

/* Strides of a [batch, head, rows, cols] tensor in one of three layouts, with padding:
 * 0 [b][h][r][c] (contiguous), 1 [b][r][h][c] (heads interleaved, the transposed
 * tensors of attention_llama's test), 2 [b][h][c][r] (column-major tiles).  Every layout
 * keeps each element at its own address; the cells in between are padding. */
static inline void at_strides(td_producer *p, int64_t nb, int64_t nh, int64_t rows, int64_t cols, int64_t st[4]) {
    int64_t pad = td_prod_bool(p) ? td_prod_u32(p, 1, 5) : 0, padh = td_prod_bool(p) ? td_prod_u32(p, 1, 7) : 0;
    switch (td_prod_u32(p, 0, 2)) {
    case 1: st[3] = 1, st[1] = cols + pad, st[2] = nh * st[1] + padh, st[0] = rows * st[2]; break;
    case 2: st[2] = 1, st[3] = rows + pad, st[1] = cols * st[3] + padh, st[0] = nh * st[1]; break;
    default: st[3] = 1, st[2] = cols + pad, st[1] = rows * st[2] + padh, st[0] = nh * st[1]; break;
    }
    (void)nb;
}
static inline int64_t at_strides_extent(const int64_t st[4], int64_t nb, int64_t nh, int64_t rows, int64_t cols) {
    return (nb - 1) * st[0] + (nh - 1) * st[1] + (rows - 1) * st[2] + (cols - 1) * st[3] + 1;
}

/* Fills a region with NaN: cells no tensor element occupies (padding between rows or
 * heads, head lanes the kernel must mask) stay poisoned. */
static inline void at_poison(td_case *c, int reg) {
    for (size_t i = 0; i < c->r[reg].len; i++) td_set(c, reg, i, NAN);
}

/* ---- the SageAttention-style kernels: attention_forward_triton, attention_fwd_triton2,
 * attn_fwd_causal, attn_fwd_triton (regions Q K V Q_scale K_scale Out; strides
 * (stride_qz, stride_qh, HEAD_DIM, 1) shared by all four tensors; N_CTX = BLOCK_N *
 * numKVBlocks; grid (cdiv(N_CTX, BLOCK_M), Z*H)). ---- */
enum { AS_Q, AS_K, AS_V, AS_QS, AS_KS, AS_OUT, AS_NR };

/* where each quantity sits in a theorem's parameter list (-1: not a parameter) */
typedef struct at_sage_idx {
    int sqz, sqh, z, h, n_ctx, head_dim, bm, bn, bd, ha, stage, nkv;
    int causal;      /* the two-stage causal kernel (STAGE = 3) */
    int bd_le_hd;    /* hBDHD: BLOCK_DMODEL <= HEAD_DIM (some IO theorems) */
    int c_p, c_pv, c_v, c_store; /* cast slots */
} at_sage_idx;

#define AS_I(c, k) ((c)->p[(k)].i)
static inline int64_t at_sage_n(const td_case *c, const at_sage_idx *X) {
    return X->n_ctx >= 0 ? AS_I(c, X->n_ctx) : AS_I(c, X->bn) * AS_I(c, X->nkv);
}
static inline int64_t at_sage_base(const td_case *c, const at_sage_idx *X, int64_t p1) {
    return p1 / AS_I(c, X->h) * AS_I(c, X->sqz) + p1 % AS_I(c, X->h) * AS_I(c, X->sqh);
}

/* per-block scales: the launcher's ones, halves, zeros, random positive or signed, powers of 2 */
static inline double at_sage_scale(td_rng *r, int mode) {
    switch (mode) {
    case 0: return 1.0;
    case 1: return 0.5;
    case 2: return 0.0;
    case 3: return (double)(float)(0.25 + 1.75 * td_rng_unit(r));
    case 4: return (double)(float)(4 * td_rng_unit(r) - 2);
    default: return ldexp(1.0, (int)td_rng_below(r, 7) - 3);
    }
}

static inline int at_sage_scores_ok(const td_case *c, const at_sage_idx *X);

static inline void at_sage_gen(td_producer *p, td_case *c, const at_sage_idx *X) {
    td_fmt fin = c->r[AS_Q].fmt;
    int64_t bn = at_pow2(p, 0, 5);
    int64_t nkv = td_prod_u32(p, 1, (uint32_t)(64 / bn < 8 ? 64 / bn : 8));
    int64_t n = bn * nkv, bm;
    if (X->causal) {
        /* the two-stage loop composes to the causal softmax only when BLOCK_N | BLOCK_M
         * (the launcher's 128 / 64): BLOCK_M = BLOCK_N * 2^k */
        bm = bn * at_pow2(p, 0, 2);
        if (bm > 64) bm = bn;
    } else
        bm = at_pow2(p, 0, 6);
    int64_t bd = at_pow2(p, 0, 5);
    /* HEAD_ACTIVE <= BLOCK_DMODEL, mostly below it (the hard-coded 96 < 128) */
    int64_t ha = td_prod_bool(p) ? bd : td_prod_u32(p, 1, (uint32_t)bd);
    int64_t hd;
    if (X->bd_le_hd) hd = bd + (td_prod_bool(p) ? 0 : td_prod_u32(p, 1, 4));
    else hd = td_prod_bool(p) ? ha : ha + td_prod_u32(p, 1, 4);
    int64_t z = 1 + td_prod_u32(p, 0, 1), h = 1 + td_prod_u32(p, 0, 1);
    if (z * h > 3) h = 1;
    int64_t grid0 = (n + bm - 1) / bm;
    /* keep a case's lanes x keys (the per-lane MPFR reference) below 2^15 */
    while (z * h * n * ha * n > (1 << 15) && ha > 1) ha = (ha + 1) / 2;
    while (z * h * n * ha * n > (1 << 15) && h > 1) h--;
    /* layouts: [Z, H, N, HEAD_DIM] or head-major [H, Z, N, HEAD_DIM], with padding */
    int64_t plane = n * hd + (td_prod_bool(p) ? td_prod_u32(p, 1, (uint32_t)hd) : 0), sqz, sqh;
    if (td_prod_bool(p)) sqh = plane, sqz = h * plane + (td_prod_bool(p) ? td_prod_u32(p, 1, 8) : 0);
    else sqz = plane, sqh = z * plane + (td_prod_bool(p) ? td_prod_u32(p, 1, 8) : 0);
    c->p[X->sqz].i = sqz, c->p[X->sqh].i = sqh, c->p[X->z].i = z, c->p[X->h].i = h;
    if (X->n_ctx >= 0) c->p[X->n_ctx].i = n;
    c->p[X->head_dim].i = hd, c->p[X->bm].i = bm, c->p[X->bn].i = bn, c->p[X->bd].i = bd, c->p[X->ha].i = ha;
    c->p[X->nkv].i = nkv;
    c->p[X->stage].i = X->causal ? 3 : (td_prod_bool(p) ? 1 : td_prod_u32(p, 0, 3)); /* unused when non-causal */
    c->grid[0] = (uint32_t)grid0;
    c->grid[1] = (uint32_t)(z * h);

    int64_t ext = 0;
    for (int64_t p1 = 0; p1 < z * h; p1++) {
        int64_t e = at_sage_base(c, X, p1) + n * hd;
        if (e > ext) ext = e;
    }
    for (int r = AS_Q; r <= AS_V; r++) td_case_alloc(c, r, (size_t)ext), at_poison(c, r);
    td_case_alloc(c, AS_OUT, (size_t)ext);
    /* K_scale: stage 2 of the causal kernel visits blocks up to (start_m+1)*BLOCK_M, past N_CTX
     * in the last query block (their keys are masked; their scale is still loaded) */
    td_case_alloc(c, AS_QS, (size_t)(z * h * grid0));
    td_case_alloc(c, AS_KS, (size_t)(z * h * nkv + bm / bn + 1));

    at_vals g;
    td_rng *r = &g.g.rng;
    int qs_mode = (int)td_prod_u32(p, 0, 5), ks_mode = (int)td_prod_u32(p, 0, 5);
    /* |scores| <= HEAD_ACTIVE * a^2 * |q_scale k_scale| (scales within 2) stays below 5e4, so the
     * causal kernels' masked exp2(qk - 1e6 - m) are exactly 0; the fp16 P.V dot
     * (out_dtype=fp16): BLOCK_N * |v| stays far below 65504 */
    at_vals_init(&g, p, c, 1.0, (int)ha, (int)n, fmin(256, sqrt(5.0e4 / (4.0 * (double)ha))), 0, 1024);
    for (size_t i = 0; i < c->r[AS_QS].len; i++) td_set(c, AS_QS, i, at_sage_scale(r, qs_mode));
    for (size_t i = 0; i < c->r[AS_KS].len; i++) td_set(c, AS_KS, i, at_sage_scale(r, ks_mode));
    for (int64_t p1 = 0; p1 < z * h; p1++) {
        int64_t b = at_sage_base(c, X, p1);
        for (int64_t row = 0; row < n; row++)
            for (int64_t e = 0; e < ha; e++) {
                td_set(c, AS_Q, (size_t)(b + row * hd + e), at_q(&g, fin, (int)p1, (int)row, (int)e));
                td_set(c, AS_K, (size_t)(b + row * hd + e), at_k(&g, fin, (int)p1, (int)row, (int)e));
                td_set(c, AS_V, (size_t)(b + row * hd + e), at_v(&g, fin));
            }
        /* the V lanes past HEAD_ACTIVE are never read either: poisoned too */
    }
    /* The causal kernels' hsb (|score| <= 1e5) by construction: the special-value menu
     * (binary16 maxima) and scales up to 8 can break it, and then Q and K are drawn
     * again uniformly within a and both scales set to 1, so |score| <= HEAD_ACTIVE a^2
     * <= 1.25e4.  (Found by a 10^4-case run: case 2898 broke hsb, a harness error.) */
    if (X->causal && !at_sage_scores_ok(c, X)) {
        for (size_t i = 0; i < c->r[AS_QS].len; i++) td_set(c, AS_QS, i, 1.0);
        for (size_t i = 0; i < c->r[AS_KS].len; i++) td_set(c, AS_KS, i, 1.0);
        for (int64_t p1 = 0; p1 < z * h; p1++) {
            int64_t b = at_sage_base(c, X, p1);
            for (int64_t row = 0; row < n; row++)
                for (int64_t e = 0; e < ha; e++) {
                    td_set(c, AS_Q, (size_t)(b + row * hd + e), at_round(fin, at_uni(&g, g.a)));
                    td_set(c, AS_K, (size_t)(b + row * hd + e), at_round(fin, at_uni(&g, g.a)));
                }
        }
    }
    td_gen_mark_shape((uint64_t)n, (uint64_t)bm, (uint64_t)grid0, &c->classes);
    if (nkv > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (hd > ha || bd > ha) c->classes |= TD_BC(TD_BC_FULLY_MASKED); /* masked head lanes (poisoned) */
    if (sqh > n * hd && sqz > n * hd) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* Every score the launch computes for a row (keys up to the end of its diagonal block),
 * in binary64 (these dot products of binary16 / bfloat16 values are held to well within
 * the margins): hsb's kept scores >= -1e6, and |score| <= 1e5 everywhere, which makes a
 * masked key's exp2(qk - 1e6 - m) exactly 0 as the spec takes it. */
static inline int at_sage_scores_ok(const td_case *c, const at_sage_idx *X) {
    int64_t n = at_sage_n(c, X), bm = AS_I(c, X->bm), bn = AS_I(c, X->bn), ha = AS_I(c, X->ha), hd = AS_I(c, X->head_dim);
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++) {
            int64_t b = at_sage_base(c, X, p1);
            double qs = td_get(c, AS_QS, (size_t)(p1 * ((n + bm - 1) / bm) + p0));
            for (int64_t i = 0; i < bm && p0 * bm + i < n; i++)
                for (int64_t j = 0; j < ((int64_t)p0 + 1) * bm && j < n; j++) {
                    double d = 0;
                    for (int64_t e = 0; e < ha; e++) d += td_get(c, AS_Q, (size_t)(b + (p0 * bm + i) * hd + e)) * td_get(c, AS_K, (size_t)(b + j * hd + e));
                    double ks = td_get(c, AS_KS, (size_t)(p1 * ((n + bn - 1) / bn) + j / bn)), sc = qs * ks * d;
                    if (!(fabs(sc) <= 1.0e5)) return 0;
                }
        }
    return 1;
}

static inline const char *at_sage_check(const td_case *c, const at_sage_idx *X) {
    int64_t n = at_sage_n(c, X), bm = AS_I(c, X->bm), bn = AS_I(c, X->bn), bd = AS_I(c, X->bd), ha = AS_I(c, X->ha);
    int64_t hd = AS_I(c, X->head_dim), nkv = AS_I(c, X->nkv);
    if (bd <= 0) return "hBD: 0 < BLOCK_DMODEL";
    if (bn <= 0) return "hBN: 0 < BLOCK_N";
    if (bm <= 0) return "hBM: 0 < BLOCK_M";
    if (nkv <= 0) return "hnum: 0 < numKVBlocks";
    if (n != bn * nkv) return "hN: N_CTX = BLOCK_N * numKVBlocks";
    if (ha > bd) return "hActiveLe: HEAD_ACTIVE <= BLOCK_DMODEL";
    if (ha > hd) return "hHD: HEAD_ACTIVE <= HEAD_DIM";
    if (X->bd_le_hd && bd > hd) return "hBDHD: BLOCK_DMODEL <= HEAD_DIM";
    if (X->causal && AS_I(c, X->stage) != 3)
        return "STAGE = 3: the launcher's value (stage 4 - STAGE = 1, then 2); other values are not the causal kernel";
    if (X->causal && bm % bn) return "BLOCK_N | BLOCK_M: the two-stage loop (the launcher's 128 / 64) tiles the diagonal";
    if (X->causal && !at_sage_scores_ok(c, X))
        return "hsb: every causally kept score >= -1e6 (the mask sentinel); all |scores| <= 1e5 (masked weights exactly 0)";
    int64_t zh = AS_I(c, X->z) * AS_I(c, X->h);
    if ((int64_t)c->grid[1] != zh || zh > AT_MAXH) return "grid axis 1 = Z * H (off_hz)";
    if ((int64_t)c->grid[0] != (n + bm - 1) / bm) return "grid axis 0 = cdiv(N_CTX, BLOCK_M)";
    if (n > AT_MAXS || ha > AT_MAXD || nkv > AT_MAXB) return "the case fits the oracle's row model (N_CTX <= 64)";
    for (int64_t p1 = 0; p1 < zh; p1++) {
        int64_t e = at_sage_base(c, X, p1) + n * hd;
        for (int r = AS_Q; r <= AS_V; r++)
            if ((int64_t)c->r[r].len < e) return "Q, K, V hold every row the launch reads";
        if ((int64_t)c->r[AS_OUT].len < e) return "Out holds every row the launch writes";
    }
    if ((int64_t)c->r[AS_QS].len < zh * (int64_t)c->grid[0]) return "Q_scale holds cdiv(N_CTX, BLOCK_M) scales per head";
    if ((int64_t)c->r[AS_KS].len < zh * nkv + bm / bn) return "K_scale holds every block scale the launch loads";
    return NULL;
}

/* Offsets beyond 2^31 (gen_far.h): Q, K, V and Out all sit at qvk_offset = off_z *
 * stride_qz + off_h * stride_qh, so the far case moves the one batch/head axis of more
 * than one program (Z * H <= 3 keeps one of Z, H at 1: Z * H = 2 slabs of N_CTX * HEAD_DIM
 * at stride_qz or stride_qh) to a stride near 2^31 in all four regions at once, Out as a
 * sparse output (engine/harness.c judges it over its write pages).  The case becomes
 * Z = 2, H = 1 at stride_qz (a batch of two one-head tensors: the same slabs, the same
 * per-off_hz scales), which a kernel forming off_z * stride_qz in int32 (without the
 * original's .to(tl.int64)) gets wrong.  Nothing else changes: every precondition of
 * at_sage_check holds as before (it bounds no stride). */
static inline void at_sage_far(td_producer *p, td_case *c, const at_sage_idx *X) {
    static const int regs[] = {AS_Q, AS_K, AS_V, AS_OUT};
    int64_t z = AS_I(c, X->z), h = AS_I(c, X->h), w = at_sage_n(c, X) * AS_I(c, X->head_dim);
    if (z * h != 2 || c->grid[1] != 2) return;
    int64_t from = z == 2 ? AS_I(c, X->sqz) : AS_I(c, X->sqh), s = td_far_stride(p, 2, w);
    if (from < w || td_far_restride_all(c, regs, 4, 2, w, from, s)) return;
    c->p[X->sqz].i = s, c->p[X->z].i = 2, c->p[X->h].i = 1;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* active(s, N_CTX, HEAD_ACTIVE, BLOCK_M, idx) at outOffset: rows < N_CTX, lanes < HEAD_ACTIVE */
static inline void at_sage_writes(const td_case *c, td_wset *ws, const at_sage_idx *X) {
    int64_t n = at_sage_n(c, X), bm = AS_I(c, X->bm), ha = AS_I(c, X->ha), hd = AS_I(c, X->head_dim), bd = AS_I(c, X->bd);
    for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
            for (int64_t i = 0; i < bm; i++) {
                int64_t row = p0 * bm + i;
                if (row >= n) break;
                for (int64_t d = 0; d < ha; d++) {
                    td_olane l = {.o = 0, .region = AS_OUT, .off = (uint64_t)(at_sage_base(c, X, p1) + row * hd + d),
                                  .pid = {p0, p1, 0}, .j = (uint64_t)(i * bd + d), .idx = {p1, row, d, 0}};
                    td_wset_add(ws, &l);
                }
            }
}

static inline void at_sage_row(const td_case *c, const at_sage_idx *X, const td_olane *l, at_row *R) {
    int64_t n = at_sage_n(c, X), bm = AS_I(c, X->bm), bn = AS_I(c, X->bn), ha = AS_I(c, X->ha), hd = AS_I(c, X->head_dim);
    int64_t p1 = l->idx[0], row = l->idx[1], d = l->idx[2], p0 = l->pid[0];
    int64_t b = at_sage_base(c, X, p1);
    at_row_init(R);
    R->key = ((uint64_t)p1 << 16) | (uint64_t)row;
    R->out = AT_OUT_O;
    R->score = AT_SC_SAGE;
    R->base2 = 1;
    R->norm = AT_NORM_END;
    R->q_reg = AS_Q, R->k_reg = AS_K, R->v_reg = AS_V;
    R->nd = (int)ha;
    for (int64_t e = 0; e < ha; e++) R->q_off[e] = b + row * hd + e;
    R->nkeys = (int)n;
    R->k_es = 1;
    for (int64_t j = 0; j < n; j++) {
        R->k_off[j] = b + j * hd;
        R->v_off[j] = b + j * hd + d;
        R->keep[j] = (uint8_t)(!X->causal || j <= row);
    }
    R->bn = (int)bn;
    int64_t hi = X->causal ? (p0 + 1) * bm : n; /* stage 1 then the diagonal block, or every block */
    R->nblk = (int)((hi + bn - 1) / bn);
    int64_t nkv = (n + bn - 1) / bn;
    for (int t = 0; t < R->nblk; t++) {
        R->blk_lo[t] = (int)(t * bn);
        R->kscale[t] = td_get(c, AS_KS, (size_t)(p1 * nkv + t));
    }
    R->qscale = td_get(c, AS_QS, (size_t)(p1 * ((n + bm - 1) / bm) + p0));
    R->c_p = X->c_p, R->c_pv = X->c_pv, R->c_v = X->c_v, R->c_store = X->c_store;
}

/* ---- intents (docs/intent.md; the values: at_intent in attn_online_common.spec.h) ----
 * The SageAttention-style kernels are read as attention over the dequantised scores
 * (SageAttention, Zhang et al. 2024, Algorithm 1), with or without the causal mask of
 * torch.nn.functional.scaled_dot_product_attention(is_causal=True) (key j <= query i). */
#define AT_SAGE_DEF                                                                                                \
    "SageAttention (Zhang et al. 2024, Algorithm 1): softmax of the dequantised scores (q k^T) * q_scale * "       \
    "k_scale, the scales carrying sm_scale * log2 e (base 2), times v; torch.nn.functional."                        \
    "scaled_dot_product_attention's causal mask (PyTorch documentation) where causal; exact (no fp16 P or P.V)"
#define AT_SAGE_OP "attention softmax(q k^T * q_scale * k_scale, base 2) v of each query row over its HEAD_DIM lanes"
#define AT_SAGE_OP_CAUSAL                                                                                          \
    "causal attention softmax(q k^T * q_scale * k_scale + causal mask, base 2) v of each query row over its "       \
    "HEAD_DIM lanes"

/* The operation's head has HEAD_DIM lanes (the kernels' HEAD_DIM is the tensors' last
 * dimension: K's pointers advance by BLOCK_N * HEAD_DIM per block); the kernels read
 * and write the first HEAD_ACTIVE (tl.arange(0, 128) < 96 in the Python source). */
static inline const char *at_sage_gap(const td_case *c, const at_sage_idx *X) {
    if (AS_I(c, X->ha) < AS_I(c, X->head_dim))
        return "HEAD_ACTIVE < HEAD_DIM: the launch reads HEAD_ACTIVE of each head's HEAD_DIM lanes of q and k (the "
               "kernel's hard-coded 96 of 128) and writes HEAD_ACTIVE of its HEAD_DIM output lanes";
    return NULL;
}

#endif /* TD_ATTN_ONLINE_COMMON_H */
