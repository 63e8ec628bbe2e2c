/* Shared by the attention contracts of part 2 (attention_kernel[_aligned],
 * context_attn_{nopad,llama,mistral}, flash_decode2_{llama,phi}, token_attn_reduceV,
 * softmax_reducev).
 *
 * A contract file includes this header FIRST, before its own #ifndef TD_SPEC_PASS:
 * spec_instantiate.h re-reads the contract file once per number type, so this header
 * is read three times.  The first read (TD_SPEC_PASS undefined) declares the
 * type-specific helpers and the generator helpers, under an include guard; each spec
 * pass then defines the spec-level helpers for its number type (no guard there on
 * purpose: they are instantiated once per pass, like the spec itself).
 *
 * The one modelling device of the family: a KERNEL-SIDE rounding.  The contracts are
 * stated over the reals (Realizes_without_Rounding, or ⊨[R] with in-loop fp16 casts
 * assumed away), while the Triton programs round inside the computation: P cast to
 * fp16 before P·V, the pre-scaled q cast to fp16, fp16 bias arithmetic, an fp16
 * accumulator, the final store into an fp16 output the contract calls real.  Such a
 * rounding is not part of the reference (the MPFR value keeps x*), but the kernel's
 * value becomes R(x_k), so the shadow's kernel error grows:
 *     x_k in [x* - ek, x* + ek],  x* in [v - es, v + es]
 *     => R(x_k) in [R(v - es - ek), R(v + es + ek)]          (R is monotone)
 *     => |R(x_k) - x*| <= max(R(hi) - (v - es), (v + es) - R(lo)).
 * This is the interval-aware cast of shadow.h applied to a reference that is NOT
 * cast: exact where the kernel's operand is exact (the error is |R(x*) - x*|), and
 * never below the rounding error the cast really commits.  ep follows the same rule.
 */
#ifndef TD_SPEC_PASS
#ifndef TD_ATTN2_COMMON_H
#define TD_ATTN2_COMMON_H

#include <math.h>
#include <string.h>

#include "gen.h"
#include "spec.h"

static const td_profile attn2_fp16 = {TD_F16, TD_RNE, TD_OVF_INF, false};
static const td_profile attn2_fp32 = {TD_F32, TD_RNE, TD_OVF_INF, false};

static inline double attn2_castv(td_profile p, double x) { return td_decode(p.fmt, td_encode_f64(p, x)); }

/* |a - b| rounded up (a, b finite binary64) */
static inline double attn2_dist_up(double a, double b) {
    double d = a - b;
    return td_twosum_exact(a, -b, d) ? fabs(d) : td_up(fabs(d));
}

/* the kernel-side rounding of the header comment, for one error bound e (ek or ep) */
static inline double attn2_kround_err(td_shcx *cx, td_profile p, double v, double es, double e) {
    if (es == 0 && e == 0) {
        double r = attn2_castv(p, v);
        if (!isfinite(r)) {
            cx->lane_flags |= TD_LF_MAYOVF;
            return INFINITY;
        }
        return attn2_dist_up(r, v);
    }
    double w = td_up(es + e);
    double lo = nextafter(v - w, -INFINITY), hi = nextafter(v + w, INFINITY);
    double klo = attn2_castv(p, lo), khi = attn2_castv(p, hi);
    if (!isfinite(klo) || !isfinite(khi)) {
        cx->lane_flags |= TD_LF_MAYOVF;
        return INFINITY;
    }
    double xlo = es ? nextafter(v - es, -INFINITY) : v, xhi = es ? nextafter(v + es, INFINITY) : v;
    return fmax(khi >= xlo ? attn2_dist_up(khi, xlo) : 0, xhi >= klo ? attn2_dist_up(xhi, klo) : 0);
}

static inline td_sh attn2_kround_sh(td_shcx *cx, td_sh a, td_profile p) {
    td_sh r = a;
    double ek = attn2_kround_err(cx, p, a.v, a.es, a.ek);
    double ep = attn2_kround_err(cx, p, a.v, a.es, a.ep);
    r.ek = ek;
    r.ep = ep < ek ? ep : ek;
    r.fl = 0;
    if (a.es == 0 && a.ek == 0 && ek == 0) r.fl = TD_SH_EXACTK | TD_SH_CR; /* x* is a value of the format */
    TD_SH_TRACE(cx, "kernel rounding", r, a.ek, ek - a.ek, 0, "a cast the kernel makes and the real spec does not");
    return r;
}
/* the reference is not rounded */
static inline td_mp attn2_kround_mp(td_mpcx *cx, td_mp a, td_profile p) {
    (void)cx, (void)p;
    return a;
}

/* Memo keys: a tag and up to three indices (row-level quantities keyed by row + tag). */
static inline uint64_t attn2_key(unsigned tag, uint64_t a, uint64_t b, uint64_t c) {
    return ((uint64_t)(tag & 0xff) << 56) ^ ((a & 0xfffff) << 36) ^ ((b & 0x3ffff) << 18) ^ (c & 0x3ffff);
}

/* ---- generator helpers ---- */

/* A binary32 real parameter from a small menu: typical values, powers of two, and a
 * range; always a binary32 value in [lo, hi]. */
static inline double attn2_gen_scale(td_producer *p, double typical, double lo, double hi) {
    switch (td_prod_u32(p, 0, 3)) {
    case 0: return (double)(float)typical;
    case 1: return ldexp(1.0, (int)td_prod_u32(p, (uint32_t)(int)(log2(lo) + 64), (uint32_t)(int)(log2(hi) + 64)) - 64);
    default: return td_gen_real(p, lo, hi);
    }
}

/* A strided layout for k logical dims of extents n[0..k) (n[d] >= 1): the dims are
 * nested in an order the bytes choose (the two outer ones may swap: head-major or
 * batch-major), each with optional padding (strides larger than the row), and the
 * innermost stride 1, or 2 unless unit_inner.  Mixed radix, so the map from indices to
 * offsets is injective by construction.  Returns the elements the layout spans. */
static inline uint64_t attn2_layout(td_producer *p, int k, const int64_t *n, int64_t *stride, int unit_inner,
                                    uint64_t *classes) {
    int ord[4] = {0, 1, 2, 3}; /* ord[0] outermost */
    if (k >= 3 && td_prod_u32(p, 0, 3) == 0) {
        int t = ord[0];
        ord[0] = ord[1];
        ord[1] = t;
    }
    int64_t st = (unit_inner || td_prod_u32(p, 0, 5)) ? 1 : 2;
    if (st > 1) *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    for (int t = k - 1; t >= 0; t--) {
        int d = ord[t];
        stride[d] = st;
        int64_t pad = td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 3) : 0;
        if (pad && t > 0) *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
        st = st * n[d] + pad;
    }
    uint64_t span = 1;
    for (int d = 0; d < k; d++) span += (uint64_t)(n[d] - 1) * (uint64_t)stride[d];
    return span;
}

/* ---- variable-length batches ----
 * Per-batch sequence lengths (favouring the tile boundaries of block `blk`: one token,
 * k*blk - 1, k*blk, k*blk + 1, blk >> n, and empty sequences where allowed) and their
 * start locations in a packed token axis, optionally with gaps between sequences (the
 * contracts only need disjoint sequences).  Returns the tokens the axis spans. */
static inline int64_t attn2_varlen(td_producer *p, int B, int64_t blk, int64_t maxn, int allow_zero, int64_t *len,
                                   int64_t *start, uint64_t *classes) {
    int gaps = td_prod_u32(p, 0, 3) == 0;
    int rot = (B > 1 && td_prod_u32(p, 0, 3) == 0) ? 1 : 0; /* stored in another order than the batch */
    for (int b = 0; b < B; b++) {
        len[b] = (int64_t)td_gen_count0(p, (uint64_t)blk, (uint64_t)maxn, classes, allow_zero && b > 0);
        if (len[b] == 0) *classes |= TD_BC(TD_BC_META_EXTREME);
    }
    int64_t pos = 0;
    for (int k = 0; k < B; k++) {
        int b = (k + rot) % B;
        if (gaps) pos += td_prod_u32(p, 0, 5);
        start[b] = pos;
        pos += len[b];
    }
    return pos;
}

/* ---- flash decoding, stage 2: the per-(batch, head) partial outputs and log-sum-exps
 * of stage 1, and the loop state stage 2 builds from them ---- */
typedef struct attn2_stage2 {
    int B, H, nblk;  /* batch, heads, seq_block_num (blocks of BLOCK_SEQ) */
    int bd, hd, bseq; /* BLOCK_DMODEL, head_dim (<= bd), BLOCK_SEQ */
    int seqlen[4];
    int64_t mid[4], e[3], o[3], acc[3], sum[2], logic[2]; /* strides (b, h, s, d) ... */
    uint64_t mid_len, e_len, o_len, acc_len, sum_len, logic_len;
} attn2_stage2;

/* The shape of a stage-2 launch: B in 1..3, H in 1..4, BLOCK_DMODEL a power of two up
 * to 64 and head_dim <= it (== it unless masked_hd), seq_block_num 1..6 blocks of
 * BLOCK_SEQ; every tensor with its own layout.  The kernels add block_seq_n to the
 * log-sum-exp offset (stride 1 in the sequence axis), so e[2] = 1 in the data. */
static inline void attn2_stage2_shape(td_producer *p, td_case *c, attn2_stage2 *s, int masked_hd) {
    memset(s, 0, sizeof *s);
    s->B = (int)td_prod_u32(p, 1, 3);
    s->H = (int)td_prod_u32(p, 1, 4);
    s->bd = (int)td_gen_pow2(p, 0, 6);
    s->hd = s->bd;
    if (masked_hd && td_prod_u32(p, 0, 2)) {
        s->hd = (int)td_prod_u32(p, 1, (uint32_t)s->bd);
        if (s->hd < s->bd) c->classes |= TD_BC(TD_BC_TAIL);
        if (4 * s->hd <= s->bd) c->classes |= TD_BC(TD_BC_BLOCK_GT_N);
    }
    if (s->hd == s->bd) c->classes |= TD_BC(TD_BC_EXACT_MULTIPLE);
    if (s->hd == 1) c->classes |= TD_BC(TD_BC_SINGLE_LANE);
    s->bseq = (int)td_gen_pow2(p, 0, 5);
    s->nblk = (int)td_prod_u32(p, 1, 6);
    if (s->nblk > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    if (s->B * s->H == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    for (int b = 0; b < s->B; b++) { /* 1 .. nblk*bseq tokens; tails favoured */
        int n = s->nblk * s->bseq;
        switch (td_prod_u32(p, 0, 3)) {
        case 0: s->seqlen[b] = n; break;
        case 1: s->seqlen[b] = n - s->bseq + 1; break; /* one token in the last block */
        default: s->seqlen[b] = 1 + (int)td_prod_u32(p, 0, (uint32_t)(n - 1)); break;
        }
    }
    int64_t n4[4] = {s->B, s->H, s->nblk, s->bd};
    s->mid_len = attn2_layout(p, 4, n4, s->mid, 0, &c->classes);
    int64_t n3[3] = {s->B, s->H, s->nblk};
    s->e_len = attn2_layout(p, 3, n3, s->e, 1, &c->classes);
    int64_t nbhd[3] = {s->B, s->H, s->bd};
    s->o_len = attn2_layout(p, 3, nbhd, s->o, 0, &c->classes);
    s->acc_len = attn2_layout(p, 3, nbhd, s->acc, 0, &c->classes);
    int64_t nbh[2] = {s->B, s->H};
    s->sum_len = attn2_layout(p, 2, nbh, s->sum, 0, &c->classes);
    s->logic_len = attn2_layout(p, 2, nbh, s->logic, 0, &c->classes);
}

/* Stage-1 data: Mid_O from the value menu (|v| <= vbound), log-sum-exps from a menu
 * of their own (small, wide around a common offset, large enough to overflow a naive
 * exp, one dominant block, all equal). */
static inline void attn2_stage2_fill(td_producer *p, td_case *c, const attn2_stage2 *s, int r_mid, int r_e,
                                     double vbound) {
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, vbound);
    td_vgen_fill(&g, c, r_mid);
    unsigned mode = td_prod_u32(p, 0, 4);
    double base = mode == 2 ? (td_prod_bool(p) ? 1 : -1) * (double)td_prod_u32(p, 100, 3000) : 0;
    if (mode == 2) c->classes |= TD_BC(TD_BC_VALUES_LARGE);
    for (size_t i = 0; i < c->r[r_e].len; i++) {
        double x;
        switch (mode) {
        case 0: x = 4 * (2 * td_rng_unit(&g.rng) - 1); break;
        case 1: x = 40 * (2 * td_rng_unit(&g.rng) - 1); break;
        case 2: x = base + 60 * (2 * td_rng_unit(&g.rng) - 1); break;        /* exp(x) overflows binary32 */
        case 3: x = (td_rng_below(&g.rng, 8) == 0) ? 30 : -(double)td_rng_below(&g.rng, 4); break; /* one dominant */
        default: x = 1.5; break;                                             /* all equal */
        }
        td_set(c, r_e, i, (double)(float)x);
    }
}

/* The stage-2 loop of both kernels, in binary32 (expf), up to `steps` blocks of
 * (b, h): the state (max_logic, sum_exp, acc[0..bd)) it reaches.  The generator uses
 * it to hand the slice kernels the loop-produced inputs they consume. */
static inline void attn2_stage2_state(const td_case *c, const attn2_stage2 *s, int r_mid, int r_e, int b, int h,
                                      int steps, float *max_logic, float *sum_exp, float *acc) {
    float mx = -INFINITY, sum = 0;
    for (int d = 0; d < s->bd; d++) acc[d] = 0;
    for (int k = 0; k < steps; k++) {
        float t = (float)td_get(c, r_e, (size_t)(b * s->e[0] + h * s->e[1] + k));
        float nm = t > mx ? t : mx;
        float os = expf(mx - nm), el = expf(t - nm);
        for (int d = 0; d < s->bd; d++) {
            float tv = d < s->hd ? (float)td_get(c, r_mid, (size_t)(b * s->mid[0] + h * s->mid[1] + k * s->mid[2] +
                                                                   d * s->mid[3]))
                                 : 0.0f;
            acc[d] = acc[d] * os;
            acc[d] = acc[d] + el * tv;
        }
        sum = sum * os + el;
        mx = nm;
    }
    *max_logic = mx;
    *sum_exp = sum;
}

#endif /* TD_ATTN2_COMMON_H */
#else  /* a spec pass: helpers over NUM */

/* kernel-side rounding to fp16 (see the header comment) */
static inline NUM SPEC(k16)(NCX *cx, NUM a) { return SPEC(attn2_kround)(cx, a, attn2_fp16); }

#endif
