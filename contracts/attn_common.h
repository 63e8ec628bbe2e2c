/* Helpers shared by the seed attention contracts (seed_fa1, seed_vyre, seed_sm86,
 * seed_sdpa): memo keys of per-row quantities, binary64 score arithmetic for the
 * generators and checkers, and the score landscapes the generators draw.
 *
 * Included at the top of a contract file (before spec_instantiate.h), like
 * reduce_common.h; it holds no NUM-generic code.
 *
 * Landscapes (at_fill_qk).  An attention kernel's hard inputs are score patterns,
 * not value distributions, so Q and K of one (batch, head) slice are drawn as a
 * landscape in score units s_ij = scale * q_i . k_j:
 *   MENU    q, k from the case's value menu (|q|, |k| <= a bound that keeps the
 *           scores moderate);
 *   SHIFT   every score near an offset sigma (channel 0 carries q_i0 = 1 and
 *           k_j0 = sigma/scale): sigma far below 0 makes a key that wrongly scores 0
 *           dominate (tail-mask bugs), sigma beyond 88.72 overflows a naive exp;
 *   RAMP    scores sigma + r*j rising (or falling) with the key: every tile raises the
 *           running maximum (rescaling on every tile) or none does; under a causal
 *           mask a rising ramp makes the diagonal key dominate, so a one-off leak
 *           shows;
 *   ONEHOT  k_j = lambda q_pi(j): each key is aligned with one query row, 15..40 score
 *           units above the rest (an indexing bug shows as a recognisable wrong row);
 *   EQUAL   every q row equal and every k row equal: all scores equal.
 * Values are exactly representable in the element format (binary32 or binary16). */
#ifndef TD_ATTN_COMMON_H
#define TD_ATTN_COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "spec.h"

/* memo key of a per-row quantity: tag (< 64), then three indices (a < 2^18, b, c < 2^20),
 * packed into disjoint bit fields (the memo's hash mixes every bit of the key into the
 * slot: oracle/memo_hash.h) */
static inline uint64_t at_key(unsigned tag, uint64_t a, uint64_t b, uint64_t c) {
    return ((uint64_t)tag << 58) | ((a & 0x3ffffu) << 40) | ((b & 0xfffffu) << 20) | (c & 0xfffffu);
}

/* x rounded to binary32.  Not (double)(float)x: GCC 12.2's SLP vectorizer drops that
 * rounding when it pairs two such stores into one vector store (seen at -O2 on this
 * project's compiler; -fno-tree-slp-vectorize or -O1 keep it); a volatile float cannot
 * be folded away. */
static inline double at_f32(double x) {
    volatile float f = (float)x;
    return f;
}

/* x rounded to the element format f (saturating: values stay finite) */
static inline double at_rep(td_fmt f, double x) {
    td_profile p = {f, TD_RNE, TD_OVF_SAT, false};
    return td_decode(f, td_encode_f64(p, x));
}

static inline double at_unif(td_rng *r, double lo, double hi) { return lo + (hi - lo) * td_rng_unit(r); }

static inline int64_t at_cdiv(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }
static inline int at_is_pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

static inline void *at_calloc(size_t n, size_t sz) {
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fputs("tilediff: out of memory in an attention generator\n", stderr);
        abort();
    }
    return p;
}

/* One query row of the seeds' intent (attn_common.spec.h, at_intent_lane): the layout of
 * its q, k, v as affine accessors, so one helper serves every seed's tensor layout.
 *   q lane e        q_reg[q0 + e * qe]
 *   key j, lane e   k_reg[k0 + j * kj + e * ke]
 *   v of key j      v_reg[v0 + j * vj]   (the lane's output column folded into v0)
 * Keys 0 .. nkeys-1 are attended to (a causal caller passes its last kept key + 1).  The
 * scale is exactly 1/sqrt(rsq) when rsq > 0 (torch's default scale, not a binary32
 * rounding of it), else the given scale (a caller's scale argument, taken exactly);
 * base2: the scale is in base-2 units (the kernel takes exp2 of scale * q.k), so the
 * operation's natural scale is scale * ln 2. */
typedef struct at_irow {
    int q_reg, k_reg, v_reg;
    int64_t q0, qe, k0, kj, ke, v0, vj;
    int64_t nd, nkeys, rsq;
    double scale;
    int base2;
    uint64_t row; /* the row's memo index (< 2^18) */
} at_irow;
/* the intent's memo tags: apart from every seed contract's (1 .. 11) */
#define AT_TAG_IM 40
#define AT_TAG_IL 41
#define AT_TAG_IP 42

enum { AT_L_MENU, AT_L_SHIFT, AT_L_RAMP, AT_L_ONEHOT, AT_L_EQUAL, AT_L_COUNT };
#define AT_LM(x) (1u << (x))
#define AT_LM_ALL ((1u << AT_L_COUNT) - 1)

typedef struct at_land_opts {
    unsigned kinds;      /* allowed landscapes (AT_LM bits) */
    double sig_lo, sig_hi; /* the offset sigma of SHIFT / the start of RAMP, in score units */
    double qk_bound;     /* |q|, |k| of the MENU landscape */
    td_fmt fmt;          /* element format of Q and K */
} at_land_opts;

/* Fills q (nq x D) and k (nk x D), row-major, with one landscape for a kernel whose
 * score is scale * q . k.  Returns the landscape drawn. */
static inline int at_fill_qk(td_vgen *g, double *q, int64_t nq, double *k, int64_t nk, int64_t D, double scale,
                             const at_land_opts *o, uint64_t *classes) {
    td_rng *r = &g->rng;
    unsigned kinds = o->kinds ? o->kinds : AT_LM(AT_L_MENU);
    if (scale == 0 || !isfinite(scale)) kinds = AT_LM(AT_L_MENU) | (kinds & AT_LM(AT_L_EQUAL)); /* scores need a scale */
    int kind;
    do kind = (int)td_rng_below(r, AT_L_COUNT + 1);
    while (kind < AT_L_COUNT && !(kinds & AT_LM(kind)));
    if (kind == AT_L_COUNT) kind = (kinds & AT_LM(AT_L_MENU)) ? AT_L_MENU : __builtin_ctz(kinds); /* the menu twice as often */
    td_fmt f = o->fmt;
    double saved = g->bound;
    g->bound = o->qk_bound;
    switch (kind) {
    case AT_L_SHIFT:
    case AT_L_RAMP: {
        double sigma = at_unif(r, o->sig_lo, o->sig_hi);
        double ramp = 0;
    if (kind == AT_L_RAMP) { /* sign, then magnitude: sequenced */
        double sgn = td_rng_below(r, 2) ? 1 : -1;
        ramp = sgn * at_unif(r, 1, 20);
    }
        double noise = at_unif(r, 0, 2);
        /* channel 0 carries the offset; the others a small spread (|q . k| <= D/16) */
        for (int64_t i = 0; i < nq; i++)
            for (int64_t d = 0; d < D; d++) q[i * D + d] = d == 0 ? 1.0 : at_rep(f, at_unif(r, -0.25, 0.25));
        for (int64_t j = 0; j < nk; j++) {
            double sj = sigma + ramp * (double)j + noise * at_unif(r, -1, 1);
            if (sj > o->sig_hi && kind == AT_L_RAMP) sj = o->sig_hi - at_unif(r, 0, 1);
            if (sj < o->sig_lo && kind == AT_L_RAMP) sj = o->sig_lo + at_unif(r, 0, 1);
            for (int64_t d = 0; d < D; d++) k[j * D + d] = d == 0 ? at_rep(f, sj / scale) : at_rep(f, at_unif(r, -0.25, 0.25));
        }
        if (fabs(sigma) > 88.7 || fabs(o->sig_hi) > 88.7) *classes |= TD_BC(TD_BC_VALUES_LARGE);
        break;
    }
    case AT_L_ONEHOT: {
        double qn = 0;
        for (int64_t i = 0; i < nq * D; i++) q[i] = at_rep(f, at_unif(r, -1, 1));
        for (int64_t j = 0; j < nk; j++) {
            int64_t i = (int64_t)td_rng_below(r, (uint64_t)(nq > 0 ? nq : 1));
            qn = 0;
            for (int64_t d = 0; d < D; d++) qn += q[i * D + d] * q[i * D + d];
            double rho = at_unif(r, 15, 40);
            double lam = qn > 1e-3 ? rho / (scale * qn) : 0;
            for (int64_t d = 0; d < D; d++)
                k[j * D + d] = at_rep(f, lam * q[i * D + d] + at_unif(r, -0.05, 0.05));
        }
        break;
    }
    case AT_L_EQUAL: {
        for (int64_t d = 0; d < D; d++) {
            double a = td_vgen_value(g, f), b = td_vgen_value(g, f);
            for (int64_t i = 0; i < nq; i++) q[i * D + d] = a;
            for (int64_t j = 0; j < nk; j++) k[j * D + d] = b;
        }
        break;
    }
    default:
        td_vgen_values(g, f, q, (size_t)(nq * D));
        td_vgen_values(g, f, k, (size_t)(nk * D));
        break;
    }
    g->bound = saved;
    return kind;
}

enum { AT_V_MENU, AT_V_DISTINCT, AT_V_CONST, AT_V_TINY, AT_V_COUNT };
/* Fills v (nk x Dv) row-major: the value menu (|v| <= bound), per-key distinct values
 * (v_jd = j + 1 + d/64: an index bug gives a recognisably wrong output), a constant
 * (the output must equal it), or tiny values around 2^-126 (flush and underflow
 * paths).  Returns the pattern. */
static inline int at_fill_v(td_vgen *g, double *v, int64_t nk, int64_t Dv, td_fmt f, double bound, unsigned kinds) {
    td_rng *r = &g->rng;
    int kind;
    do kind = (int)td_rng_below(r, AT_V_COUNT + 2);
    while (kind < AT_V_COUNT && !(kinds & (1u << kind)));
    if (kind >= AT_V_COUNT) kind = AT_V_MENU;
    double saved = g->bound, cval = td_vgen_value(g, f);
    g->bound = bound;
    for (int64_t j = 0; j < nk; j++)
        for (int64_t d = 0; d < Dv; d++) {
            double x;
            switch (kind) {
            case AT_V_DISTINCT: x = at_rep(f, (double)(j + 1) + (double)d / 64.0); break;
            case AT_V_CONST: x = cval; break;
            case AT_V_TINY: x = at_unif(r, -2, 2), x = at_rep(f, ldexp(x, -126 + (int)td_rng_below(r, 3))); break;
            default: x = td_vgen_value(g, f); break;
            }
            v[j * Dv + d] = x;
        }
    g->bound = saved;
    return kind;
}

#endif
