/* Shared by the attention contracts of part 2 (attention_kernel[_aligned],
 * context_attn_{nopad,llama,mistral}, flash_decode2_{llama,phi}, token_attn_reduceV,
 * softmax_reducev).
 *
 * A contract file includes this header at its top: it declares the type-specific
 * helpers and the generator helpers, under an include guard.  The contract's spec file
 * includes attn2_common.spec.h first, which defines the spec-level helpers once per
 * number type (no guard there on purpose: they are instantiated with the spec).
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
#ifndef TD_ATTN2_COMMON_H
#define TD_ATTN2_COMMON_H

#include <math.h>
#include <string.h>

#include "gen.h"
#include "gen_far.h"
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

/* Memo keys: a tag and up to three indices (row-level quantities keyed by row + tag),
 * packed into disjoint bit fields, so distinct keys stay distinct (the memo's hash
 * mixes every bit of the key into the slot: oracle/memo_hash.h). */
static inline uint64_t attn2_key(unsigned tag, uint64_t a, uint64_t b, uint64_t c) {
    return ((uint64_t)(tag & 0xff) << 56) | ((a & 0xfffff) << 36) | ((b & 0x3ffff) << 18) | (c & 0x3ffff);
}

/* the intents' memo tags (attn2_common.spec.h): above every contract's tag */
enum { A2I_M = 0xA1, A2I_L, A2I_P };

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

/* ---- context attention (context_attn_nopad / _mistral / _llama / _fwd / _bloom): one
 * (batch, head) of a launch, as the spec engines below need it ---- */
typedef struct attn2_ctx {
    int rq, rk, rv;              /* regions Q, K, V (fp16) */
    int64_t sq[3], sk[3], sv[3]; /* (token, head, dim) strides of Q, K, V */
    int64_t kbase, vbase;        /* the batch's K / V cache (context_attn_fwd: b * stride_kb); else 0 */
    int64_t h, start;            /* head; the batch's start location (its first query row) */
    int64_t kstart;              /* key j lies in row kstart + j of K / V (packed: start; caches: 0) ... */
    int rtab;                    /* ... or, rtab >= 0, in row Req_to_tokens[tab0 + j * tabs] */
    int64_t tab0, tabs;
    int64_t BN, DM; /* BLOCK_N, the dot's length (BLOCK_DMODEL, or head_dim below it) */
    int64_t plen;        /* prompt-cache length: key j is causal for query row gi iff j <= gi + plen */
    double sm_scale;
    int64_t sw;     /* mistral: the sliding window (>= 1); 0: none */
    uint64_t rowid; /* a case-unique id of (batch, head); query rows are added to it */
} attn2_ctx;
enum { A2C_S = 1, A2C_MIJ, A2C_P, A2C_LIJ, A2C_MNEW, A2C_L, A2C_PSCALE, A2C_ASCALE, A2C_P16, A2C_ALPHA };

/* key j is unmasked for query row gi: causal (shifted by the prompt cache), and inside
 * the sliding window when there is one (the kernel's int32 test start_n + n > offs_m -
 * sliding_window) */
static inline int a2c_live(const attn2_ctx *x, int64_t gi, int64_t j) {
    return j <= gi + x->plen && (x->sw <= 0 || j > gi - x->sw);
}

/* offsets of q[gi, e], k[j, e], v[j, e] (key j through the token table where there is one) */
static inline size_t a2c_qoff(const attn2_ctx *x, int64_t gi, int64_t e) {
    return (size_t)((x->start + gi) * x->sq[0] + x->h * x->sq[1] + e * x->sq[2]);
}
static inline int64_t a2c_krow(const td_case *c, const attn2_ctx *x, int64_t j) {
    return x->rtab >= 0 ? td_geti(c, x->rtab, (size_t)(x->tab0 + j * x->tabs)) : x->kstart + j;
}
static inline size_t a2c_koff(const td_case *c, const attn2_ctx *x, int64_t j, int64_t e) {
    return (size_t)(x->kbase + a2c_krow(c, x, j) * x->sk[0] + x->h * x->sk[1] + e * x->sk[2]);
}
static inline size_t a2c_voff(const td_case *c, const attn2_ctx *x, int64_t j, int64_t d) {
    return (size_t)(x->vbase + a2c_krow(c, x, j) * x->sv[0] + x->h * x->sv[1] + d * x->sv[2]);
}

/* The launch shape of the context attentions with the shared layout (rs, hs, 1)
 * (context_attn_nopad / _mistral): B in 1..3 batches of packed variable-length sequences
 * (attn2_varlen: tails relative to BLK, empty ones, gaps, another storage order), H in
 * 1..3 heads, BLK = BLOCK_M = BLOCK_N and DM powers of two up to 32, grid (B, H,
 * cdiv(max_input_len, BLK)) with max_input_len >= every length (surplus programs whose
 * block_mask is 0), token-major (rs >= H*hs, hs >= DM) or head-major layouts with padded
 * strides, sm_scale 1/sqrt(DM), a power of two or up to 16 (near one-hot rows), |q|, |k|
 * <= 8 (scores up to a few hundred: a naive exp overflows), |v| <= 1024 (the output, an
 * average of V, stays inside fp16).  Sets the parameters at the indices given (nt < 0:
 * no NT) and allocates the regions. */
typedef struct attn2_ctx_idx {
    int sm, rs, hs, blk, dm, nt;     /* parameters */
    int q, k, v, start, seqlen, out; /* regions */
} attn2_ctx_idx;

static inline void attn2_ctx_gen(td_producer *p, td_case *c, const attn2_ctx_idx *ix) {
    int B = (int)td_prod_u32(p, 1, 3), H = (int)td_prod_u32(p, 1, 3);
    int64_t BLK = td_gen_pow2(p, 0, 5), DM = td_gen_pow2(p, 0, 5);
    int64_t len[3], start[3];
    int64_t total = attn2_varlen(p, B, BLK, 48, 1, len, start, &c->classes);
    int64_t maxlen = 1;
    for (int b = 0; b < B; b++) maxlen = len[b] > maxlen ? len[b] : maxlen;
    int64_t mil = maxlen + (td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, (uint32_t)BLK) : 0);
    int64_t NM = (mil + BLK - 1) / BLK;
    if (NM * BLK > maxlen + BLK - 1) c->classes |= TD_BC(TD_BC_FULLY_MASKED);
    if (NM > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    int64_t rs, hs, ntok = total > 0 ? total : 1;
    if (td_prod_u32(p, 0, 2)) { /* token-major */
        hs = DM + (td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 4) : 0);
        rs = H * hs + (td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 4) : 0);
    } else { /* head-major */
        rs = DM + (td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 4) : 0);
        hs = ntok * rs + (int64_t)td_prod_u32(p, 0, 3);
    }
    if (rs > DM * H || hs > DM) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    size_t n = (size_t)((ntok - 1) * rs + (H - 1) * hs + DM);
    td_case_alloc(c, ix->q, n);
    td_case_alloc(c, ix->k, n);
    td_case_alloc(c, ix->v, n);
    td_case_alloc(c, ix->out, n);
    td_case_alloc(c, ix->start, (size_t)B);
    td_case_alloc(c, ix->seqlen, (size_t)B);
    for (int b = 0; b < B; b++) td_seti(c, ix->start, (size_t)b, start[b]), td_seti(c, ix->seqlen, (size_t)b, len[b]);
    c->p[ix->sm].r = attn2_gen_scale(p, 1.0 / sqrt((double)DM), 1.0 / 64, 16);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    td_vgen_fill(&g, c, ix->q);
    td_vgen_fill(&g, c, ix->k);
    td_vgen gv;
    td_vgen_init(&gv, p, c, TD_VM_ALL, 1024);
    td_vgen_fill(&gv, c, ix->v);
    c->p[ix->rs].i = rs;
    c->p[ix->hs].i = hs;
    c->p[ix->blk].i = BLK;
    c->p[ix->dm].i = DM;
    if (ix->nt >= 0) c->p[ix->nt].i = NM + (int64_t)td_prod_u32(p, 0, 1); /* the stream bound may exceed the grid */
    c->grid[0] = (uint32_t)B;
    c->grid[1] = (uint32_t)H;
    c->grid[2] = (uint32_t)NM;
    if (B * H * NM == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
}

/* A production shape (certify --shape production; engine/sample.c's table): d[4]
 * sequences, the b-th of d[0] - b*(d[0]/3 + 1) tokens (tails against the block where d[0]
 * is a multiple of it), head dim d[1], d[2] heads, BLK = d[3], token-major unpadded
 * layout; values, sm_scale and the stream bound drawn as attn2_ctx_gen draws them. */
static inline void attn2_ctx_gen_shape(td_producer *p, td_case *c, const attn2_ctx_idx *ix, const td_shape *ps) {
    int64_t B = ps->d[4] > 0 ? ps->d[4] : 1, DM = ps->d[1], H = ps->d[2], BLK = ps->d[3], total = 0, maxlen = 1;
    int tail = 0;
    td_case_alloc(c, ix->start, (size_t)B);
    td_case_alloc(c, ix->seqlen, (size_t)B);
    for (int64_t b = 0; b < B; b++) {
        int64_t len = ps->d[0] - b * (ps->d[0] / 3 + 1);
        len = len > 1 ? len : 1;
        td_seti(c, ix->start, (size_t)b, total), td_seti(c, ix->seqlen, (size_t)b, len);
        total += len;
        maxlen = len > maxlen ? len : maxlen;
        tail |= len % BLK != 0;
    }
    int64_t NM = (maxlen + BLK - 1) / BLK, rs = H * DM, hs = DM;
    size_t n = (size_t)((total - 1) * rs + (H - 1) * hs + DM);
    td_case_alloc(c, ix->q, n);
    td_case_alloc(c, ix->k, n);
    td_case_alloc(c, ix->v, n);
    td_case_alloc(c, ix->out, n);
    c->p[ix->sm].r = attn2_gen_scale(p, 1.0 / sqrt((double)DM), 1.0 / 64, 16);
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    td_vgen_fill(&g, c, ix->q);
    td_vgen_fill(&g, c, ix->k);
    td_vgen gv;
    td_vgen_init(&gv, p, c, TD_VM_ALL, 1024);
    td_vgen_fill(&gv, c, ix->v);
    c->p[ix->rs].i = rs, c->p[ix->hs].i = hs, c->p[ix->blk].i = BLK, c->p[ix->dm].i = DM;
    if (ix->nt >= 0) c->p[ix->nt].i = NM;
    c->grid[0] = (uint32_t)B, c->grid[1] = (uint32_t)H, c->grid[2] = (uint32_t)NM;
    c->classes |= (NM > 1 ? TD_BC(TD_BC_MULTI_TILE) : 0) | (tail ? TD_BC(TD_BC_TAIL) : 0);
}

/* The preconditions these launches share (NULL or the failing hypothesis). */
static inline const char *attn2_ctx_check(const td_case *c, const attn2_ctx_idx *ix) {
    if ((double)(float)c->p[ix->sm].r != c->p[ix->sm].r) return "sm_scale is the kernel's binary32 scalar";
    int64_t rs = c->p[ix->rs].i, hs = c->p[ix->hs].i, BLK = c->p[ix->blk].i, DM = c->p[ix->dm].i;
    if (rs < 0 || hs < 0) return "strides are Nat";
    if (BLK <= 0) return "hBLK: 0 < BLK";
    if (DM <= 0) return "hDM: 0 < DM";
    if (DM > rs) return "hDMrs: DM <= rs";
    if (BLK > 256) return "BLK <= 256 (the spec engine's tile; the generator's domain)";
    if (ix->nt >= 0 && c->p[ix->nt].i <= 0) return "hNT: 0 < NT";
    if (ix->nt >= 0 && (int64_t)c->grid[2] > c->p[ix->nt].i) return "pre: pid2 < NT for every program";
    int64_t H = c->grid[1];
    if (H > 1 && rs < DM * H && hs < DM) return "heads laid out apart: hs >= DM or rs >= H * DM (injective writes)";
    for (uint32_t b = 0; b < c->grid[0]; b++) {
        int64_t len = td_geti(c, ix->seqlen, b), st = td_geti(c, ix->start, b);
        if (len < 0 || st < 0) return "B_Seqlen, B_Start_Loc are Nat";
        if (ix->nt >= 0 && len > c->p[ix->nt].i * BLK) return "pre: m0 <= NT * BLK";
        if (len > (int64_t)c->grid[2] * BLK) return "the grid covers every sequence (cdiv(max_input_len, BLK))";
        if (len && (st + len - 1) * rs + (H - 1) * hs + DM > (int64_t)c->r[ix->out].len)
            return "Q, K, V, Out hold every token of the sequence";
    }
    return NULL;
}

/* Offsets beyond 2^31 (gen_far.h): the head axis of Q, K, V and Out, one layout (rs, hs, 1)
 * (the kernels form cur_head * stride_qh in Triton's int32), moved to a stride near 2^31
 * over sparse maps (td_far_move_param_axis_all: one stride for the four, token-major
 * layouts come apart, the tokens packed at rs = DM, Out a sparse output written at the
 * inputs' offsets).  Every token up to the last sequence's end is copied; the grid and
 * the metadata stay.  A case of one head has no axis to move (H <= 3 < TD_FAR_MAX_ROWS). */
static inline void attn2_ctx_far(td_producer *p, td_case *c, const attn2_ctx_idx *ix) {
    int64_t ntok = 1;
    for (uint32_t b = 0; b < c->grid[0]; b++) {
        int64_t end = td_geti(c, ix->start, b) + td_geti(c, ix->seqlen, b);
        ntok = end > ntok ? end : ntok;
    }
    const int64_t n[3] = {ntok, (int64_t)c->grid[1], c->p[ix->dm].i};
    const int ps[3] = {ix->rs, ix->hs, -1}, regs[4] = {ix->q, ix->k, ix->v, ix->out};
    td_far_move_param_axis_all(p, c, regs, 4, 3, n, ps, 1);
}

/* writeIf pid2*BLK + i < seqlen, at (start + pid2*BLK + i)*rs + pid1*hs + d; idx = (b, h, gi, d) */
static inline void attn2_ctx_writes(const td_case *c, td_wset *ws, const attn2_ctx_idx *ix) {
    int64_t rs = c->p[ix->rs].i, hs = c->p[ix->hs].i, BLK = c->p[ix->blk].i, DM = c->p[ix->dm].i;
    for (uint32_t b = 0; b < c->grid[0]; b++) {
        int64_t len = td_geti(c, ix->seqlen, b), st = td_geti(c, ix->start, b);
        for (uint32_t h = 0; h < c->grid[1]; h++)
            for (uint32_t m = 0; m < c->grid[2]; m++)
                for (int64_t i = 0; i < BLK && m * BLK + i < len; i++)
                    for (int64_t d = 0; d < DM; d++) {
                        int64_t gi = m * BLK + i;
                        td_olane l = {.region = (uint32_t)ix->out, .off = (uint64_t)((st + gi) * rs + h * hs + d),
                                      .pid = {b, h, m}, .j = (uint64_t)(i * DM + d), .idx = {b, h, gi, d}};
                        td_wset_add(ws, &l);
                    }
    }
}

/* the spec engine's view of the (batch, head) of an output lane (the shared layout) */
static inline attn2_ctx attn2_ctx_of(const td_case *c, const td_olane *l, const attn2_ctx_idx *ix, int64_t sw) {
    int64_t b = l->idx[0], h = l->idx[1], rs = c->p[ix->rs].i, hs = c->p[ix->hs].i, st = td_geti(c, ix->start, (size_t)b);
    attn2_ctx x = {.rq = ix->q, .rk = ix->k, .rv = ix->v, .sq = {rs, hs, 1}, .sk = {rs, hs, 1}, .sv = {rs, hs, 1},
                   .h = h, .start = st, .kstart = st, .rtab = -1, .BN = c->p[ix->blk].i,
                   .DM = c->p[ix->dm].i, .sm_scale = c->p[ix->sm].r, .sw = sw,
                   .rowid = (uint64_t)((b * c->grid[1] + h) * (int64_t)c->grid[2] * c->p[ix->blk].i)};
    return x;
}

/* ---- attention_kernel / attention_kernel_aligned (_fwd_kernel_aligned, bias attention) ----
 * Fixed launch of the contracts: Z = 2, H = 4 (grid axis 1 = Z*H = 8 programs), P_SEQ = 0,
 * bias width B0_NUMEL = 128, q/k/v/o strides (stride_.h, HEAD, 1); regions Q, K, V, B0,
 * Out in that order (fp16). */
enum { A2K_Q, A2K_K, A2K_V, A2K_B0, A2K_OUT, A2K_NR };
enum { A2K_ZH = 8, A2K_BIAS_WIDTH = 128 };
typedef struct attn2_ak {
    int aligned;                 /* attention_kernel_aligned: fp16 q·k accumulation, bias unscaled */
    double sm_scale;
    int64_t sqh, skh, sb0h, sb0m; /* head strides of Q/Out, K/V, B0; B0 row stride */
    int64_t BM, BN, HD, BLS, nB;  /* BLOCK_M, BLOCK_N, HEAD, BIAS_LAST_SIZE, KV blocks */
    int64_t rows;                 /* query rows per head: cdiv(BN*nB, BM) * BM */
} attn2_ak;
enum { A2K_QKS = 1, A2K_C16, A2K_QP, A2K_S, A2K_M, A2K_A, A2K_L, A2K_P16 };

/* The generator of both contracts; the caller stores the parameters. */
static inline void attn2_ak_gen(td_producer *p, td_case *c, attn2_ak *k) {
    memset(k, 0, sizeof *k);
    k->BM = td_gen_pow2(p, 0, 4);
    k->BN = td_gen_pow2(p, 0, 4);
    k->HD = td_gen_pow2(p, 0, 4);
    k->nB = (int64_t)td_prod_u32(p, 1, 4);
    int64_t nctx = k->BN * k->nB;
    k->rows = (nctx + k->BM - 1) / k->BM * k->BM;
    td_gen_mark_shape((uint64_t)nctx, (uint64_t)k->BM, (uint64_t)(k->rows / k->BM), &c->classes);
    if (k->nB > 1) c->classes |= TD_BC(TD_BC_MULTI_TILE);
    /* BIAS_LAST_SIZE: the launcher's 128 / 2, or smaller (b1's columns wrap modulo it) */
    k->BLS = td_prod_u32(p, 0, 2) ? A2K_BIAS_WIDTH / 2 : (int64_t)td_prod_u32(p, 1, A2K_BIAS_WIDTH / 2);
    if (k->BLS < k->BN) c->classes |= TD_BC(TD_BC_META_EXTREME);
    int64_t pad = td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 8) : 0;
    if (pad) c->classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    k->sqh = k->rows * k->HD + pad;
    k->skh = nctx * k->HD + (td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 8) : 0);
    k->sb0m = A2K_BIAS_WIDTH + (td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 8) : 0);
    k->sb0h = k->rows * k->sb0m + (int64_t)td_prod_u32(p, 0, 3);
    k->sm_scale = attn2_gen_scale(p, 1.0 / sqrt((double)k->HD), 1.0 / 64, 8);
}

/* Allocates and fills the regions for a generated launch (kv_h: the K/V head stride). */
static inline void attn2_ak_fill(td_producer *p, td_case *c, const attn2_ak *k, int64_t kv_h) {
    int64_t nctx = k->BN * k->nB;
    td_case_alloc(c, A2K_Q, (size_t)((A2K_ZH - 1) * k->sqh + k->rows * k->HD));
    td_case_alloc(c, A2K_OUT, (size_t)((A2K_ZH - 1) * k->sqh + k->rows * k->HD));
    td_case_alloc(c, A2K_K, (size_t)((A2K_ZH - 1) * kv_h + nctx * k->HD));
    td_case_alloc(c, A2K_V, (size_t)((A2K_ZH - 1) * kv_h + nctx * k->HD));
    td_case_alloc(c, A2K_B0, (size_t)((A2K_ZH - 1) * k->sb0h + k->rows * k->sb0m));
    /* |q|, |k| <= 8: |q * qk_scale| <= 92 fits fp16, scores reach the thousands (a naive
     * exp2 overflows); bias terms up to 8; V up to 1024 (the output averages V) */
    td_vgen g;
    td_vgen_init(&g, p, c, TD_VM_ALL, 8);
    td_vgen_fill(&g, c, A2K_Q);
    td_vgen_fill(&g, c, A2K_K);
    td_vgen gb;
    td_vgen_init(&gb, p, c, TD_VM_ALL, 8);
    td_vgen_fill(&gb, c, A2K_B0);
    td_vgen gv;
    td_vgen_init(&gv, p, c, TD_VM_ALL, 1024);
    td_vgen_fill(&gv, c, A2K_V);
    c->grid[0] = (uint32_t)(k->rows / k->BM);
    c->grid[1] = A2K_ZH;
    c->grid[2] = 1;
}

/* Preconditions shared by the four contracts (NULL or the failing hypothesis). */
static inline const char *attn2_ak_check(const td_case *c, const attn2_ak *k, int64_t kv_h) {
    if ((double)(float)k->sm_scale != k->sm_scale) return "sm_scale is the kernel's binary32 scalar";
    if (k->BM <= 0) return "hBM: 0 < BLOCK_M";
    if (k->BN <= 0) return "hBN / hKN: 0 < BLOCK_N";
    if (k->HD <= 0) return "hHD: 0 < HEAD";
    if (k->nB < 1) return "hnB: 1 <= nB";
    if (k->BN > 256) return "BLOCK_N <= 256 (the spec engine's tile; the generator's domain)";
    if (k->sqh < 0 || kv_h < 0 || k->sb0h < 0 || k->sb0m < 0) return "strides are Nat";
    if (k->BLS <= 0) return "BIAS_LAST_SIZE > 0 (Triton's % 0 is undefined; the generator's domain)";
    if (2 * k->BLS > A2K_BIAS_WIDTH || k->nB > A2K_BIAS_WIDTH) return "the bias columns read lie inside B0_NUMEL = 128";
    if (c->grid[1] != A2K_ZH) return "the launch is Z = 2, H = 4 (grid axis 1 = 8)";
    int64_t rows = (int64_t)c->grid[0] * k->BM, nctx = k->BN * k->nB;
    if (k->sqh < rows * k->HD) return "heads' rows of Q / Out do not overlap (write addresses injective)";
    if ((A2K_ZH - 1) * k->sqh + rows * k->HD > (int64_t)c->r[A2K_OUT].len ||
        c->r[A2K_Q].len < c->r[A2K_OUT].len)
        return "Q and Out hold every program's rows";
    if ((A2K_ZH - 1) * kv_h + nctx * k->HD > (int64_t)c->r[A2K_K].len || c->r[A2K_V].len < c->r[A2K_K].len)
        return "K and V hold N_CTX = BLOCK_N * nB keys per head";
    int64_t col = k->BLS + (k->BN < k->BLS ? k->BN : k->BLS) - 1; /* the last b1 column */
    if (k->nB - 1 > col) col = k->nB - 1;                             /* the last b0 column */
    if ((A2K_ZH - 1) * k->sb0h + (rows - 1) * k->sb0m + col >= (int64_t)c->r[A2K_B0].len)
        return "B0 holds every row's bias";
    return NULL;
}

/* Offsets beyond 2^31 (gen_far.h) of the fixed launch Z*H = 8: the contracts fix Z = 2,
 * H = 4 (the catalogue's configuration; attn2_ak_check), so the far case keeps all 8
 * heads, more than TD_FAR_MAX_ROWS, and bounds the address space otherwise: the stride is
 * the least one whose 7 steps pass 2^31 + d (d < 64), so off_hz * stride_qh passes 2^31
 * for the last head only and each region spans about 2^31 elements (4 GiB of fp16
 * address space, a page or two per head committed), not 7 * 2^31.  Such a stride fits in
 * int32, as the kernel's q_offset = off_hz * stride_qh is formed (Triton's int32).  The
 * n regions regs[] (slabs of w[k] elements at stride param[p_stride]: Q and Out, or Q,
 * K, V and Out of the aligned kernel) move to it over sparse maps (an output as a sparse
 * output), all or none. */
static inline void attn2_ak_far(td_producer *p, td_case *c, const int *regs, const int64_t *w, int n, int p_stride) {
    int64_t from = c->p[p_stride].i, d = (int64_t)td_prod_u32(p, 0, 64), wmax = 0;
    for (int k = 0; k < n; k++) wmax = w[k] > wmax ? w[k] : wmax;
    int64_t s = (((int64_t)1 << 31) + d + A2K_ZH - 2) / (A2K_ZH - 1); /* ceil: 7 * s >= 2^31 + d */
    if (s < wmax) s = wmax;
    for (int k = 0; k < n; k++)
        if (td_far_restride(c, regs[k], A2K_ZH, w[k], from, s)) {
            while (k-- > 0) (void)td_far_restride(c, regs[k], A2K_ZH, w[k], s, from); /* back, a smaller map */
            return;
        }
    c->p[p_stride].i = s;
    c->classes |= TD_BC(TD_BC_OFFSET_2_31) | TD_BC(TD_BC_STRIDE_GT_ROW);
}

/* write = p1*stride_qh + (p0*BM + j/HEAD)*HEAD + j%HEAD, every lane (masks True) */
static inline void attn2_ak_writes(const td_case *c, td_wset *ws, const attn2_ak *k) {
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (int64_t j = 0; j < k->BM * k->HD; j++) {
                int64_t r = p0 * k->BM + j / k->HD, d = j % k->HD;
                td_olane l = {.region = A2K_OUT, .off = (uint64_t)(p1 * k->sqh + r * k->HD + d), .pid = {p0, p1, 0},
                              .j = (uint64_t)j, .idx = {p1, r, d}};
                td_wset_add(ws, &l);
            }
}

/* ---- the intent of attention_kernel[_aligned] (docs/intent.md; values: a2k_intent) ----
 * segment-anything's attention with decomposed relative positions (Kirillov et al. 2023,
 * add_decomposed_rel_pos; Li et al. 2022, MViTv2): the keys form a grid of rows of W
 * tokens, and the bias of query r and key j = (j / W, j % W) is rel_h[r, j / W] +
 * rel_w[r, j % W]; softmax(q k^T * sm_scale + bias) v (torch.nn.functional.
 * scaled_dot_product_attention with that attn_mask, as segment-anything-fast calls it).
 * The wrappers pack B0[r, :] = [rel_h | rel_w] and pass BIAS_LAST_SIZE = B0.size(-1) // 2:
 * rel_h and rel_w of W = BIAS_LAST_SIZE columns each (a W x W key grid).  Defined where
 * rel_h holds a column for every key row (N_CTX <= W * W; the last row may be partial). */
static inline const char *attn2_ak_intent_gap(const attn2_ak *k) {
    int64_t nctx = k->BN * k->nB;
    if ((nctx + k->BLS - 1) / k->BLS > k->BLS)
        return "N_CTX > BIAS_LAST_SIZE^2: rel_h (BIAS_LAST_SIZE columns) has no column for the last key rows";
    return NULL;
}
/* the operation's query rows: r < N_CTX (q has N_CTX rows; the launch's rows past it are padding) */
static inline void attn2_ak_intent_writes(const td_case *c, td_wset *ws, const attn2_ak *k) {
    int64_t nctx = k->BN * k->nB;
    for (uint32_t p0 = 0; p0 < c->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < c->grid[1]; p1++)
            for (int64_t j = 0; j < k->BM * k->HD; j++) {
                int64_t r = p0 * k->BM + j / k->HD, d = j % k->HD;
                if (r >= nctx) break;
                td_olane l = {.region = A2K_OUT, .off = (uint64_t)(p1 * k->sqh + r * k->HD + d), .pid = {p0, p1, 0},
                              .j = (uint64_t)j, .idx = {p1, r, d}};
                td_wset_add(ws, &l);
            }
}
#define A2K_INTENT_OP                                                                                           \
    "attention softmax(q k^T * sm_scale + rel_h[r, j / W] + rel_w[r, j % W]) v of each of the N_CTX query rows, " \
    "W = BIAS_LAST_SIZE"
#define A2K_INTENT_DEF                                                                                          \
    "segment-anything's decomposed relative-position attention (Kirillov et al. 2023, add_decomposed_rel_pos): "  \
    "torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask = rel_h + rel_w, scale=sm_scale) "      \
    "(PyTorch documentation), exact"

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
    double base = 0;
    if (mode == 2) { /* sign, then magnitude: sequenced */
        double sgn = td_prod_bool(p) ? 1 : -1;
        base = sgn * (double)td_prod_u32(p, 100, 3000);
    }
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
