/* Shared by the softmax family's contracts (softmax_triton1/2/3, softmax_optimize,
 * softmax_flaggems, log_softmax, logsumexp_fwd, ksoftmax_triton).
 *
 * A contract file includes this header at its top (the row descriptor, the hard-input
 * value generator, the stride helpers); its spec file includes softmax_common.spec.h
 * (the row quantities written once against the spec vocabulary, compiled for the
 * shadow and for MPFR).
 *
 * The error model every forward kernel of the family shares (Triton's tile softmax):
 *   m   = max_j x_j                  tl.max: exact (a max of binary32 values)
 *   d_j = x_j - m  [+ mask_j]        one binary32 subtraction [one addition]
 *   e_j = exp(d_j)                   the backend's exp (libm 0.502 ulp, CUDA 2.5 ulp),
 *                                    its argument error amplified by e_j (exp' = exp)
 *   s   = sum_j e_j                  tl.sum of the tile: a pairwise tree whose masked
 *                                    lanes are exact zeros; the active lanes are a prefix
 *                                    of the power-of-two tile, so a term goes through at
 *                                    most ceil(log2 n) additions (TD_ORDER_TREE)
 *   out = e_i / s                    one correctly rounded division
 * The shadow evaluates exactly these operations in this order, so the tolerance is
 * the kernel's own worst case: |d_i| u from the subtraction (large for lanes far below
 * the max, where e_i is tiny), the exp budget, ceil(log2 n) u for the sum, u for the
 * division.  The tree order is what the host port (tl_sum) and the CUDA port (the same
 * pairwise tree in shared memory) do; a compiled Triton reduction whose threads first
 * add their sizePerThread elements sequentially has a longer chain (sizePerThread - 1 +
 * log2 threads), which this model does not cover.
 *
 * Per-row quantities (max, sum, dot products, the online normaliser) are memoised,
 * keyed by the row and a tag, in both passes (the shadow's memo is off while a lane is
 * explained, so its trace shows every step).
 */
#ifndef TD_SOFTMAX_COMMON_H
#define TD_SOFTMAX_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "gen.h"
#include "spec.h" /* td_spec_load, the spec vocabulary's loads (sm_max_exact_sh) */

/* One reduced row (or column) as the kernel sees it: n active elements of region reg
 * at base + j * stride; an optional additive mask at mbase + j * stride; an optional
 * scale multiplied in after the load; the order of the kernel's sum. */
typedef struct sm_row {
    int reg;
    uint64_t base;
    int64_t stride;
    int64_t n;
    int mreg; /* additive mask region, -1 for none */
    uint64_t mbase;
    int has_scale;
    double scale;
    td_order order;
    long block;
    uint64_t key; /* memo key of the row: unique per row within a case, low 8 bits 0 */
} sm_row;

static inline sm_row sm_row_plain(int reg, uint64_t base, int64_t stride, int64_t n, uint64_t row_id) {
    sm_row r = {reg, base, stride, n, -1, 0, 0, 1.0, TD_ORDER_TREE, 0, row_id << 8};
    return r;
}

enum { SM_TAG_MAX = 1, SM_TAG_SUM, SM_TAG_DOT, SM_TAG_ZF, SM_TAG_TERMS };

/* ---- the rows' terms e_j = exp(d_j), kept from their sums for the lanes (shadow pass) ----
 * Lane i of a row is e_i / s, and computing s evaluated every e_j already (the exp is
 * most of a lane's cost).  Each sum appends its terms (the shadow values it added) to
 * this thread's arena and records where, in the memo under the row's key and
 * SM_TAG_TERMS: v the arena's generation, es the row's offset, ep its length, ek the
 * arena's address (two translation units' arenas never share an entry).  A generation
 * starts at offset 0 with every case (the memo holds no marker of the current
 * one: the memo is cleared at the start of every case; SM_GEN_KEY) and is only appended to, so an
 * entry of the current generation points at terms nothing overwrote; lanes of
 * interleaved rows (log_softmax's rows of stride K) find theirs as well.  The memo is
 * per shadow context, so a hit is this case's row, computed from the same m (the
 * memo's).  The value handed out is the td_sh the lane computed before (the same
 * operations on the same operands), and the lane flags met computing it are among those
 * the sum's memo entry restores (the terms entry is stored with the same): the lane's
 * value and flags are unchanged.  The marker is stored with no flags.  While a lane is
 * traced the memo hands out nothing, so the traced lane computes every step.  The MPFR
 * pass keeps none (it runs for the few lanes the shadow leaves undecided).  A case keeps
 * at most SM_TERMS_MAX terms (40 bytes each); rows beyond take the generic path. */
#define SM_TERMS_MAX ((int64_t)1 << 20)
/* the generation marker's key: bit 63 is never set in a row key (row ids < 2^50, shifted
 * by 8, the intents' bit 58) nor in the attention family's (at_mkey: < 2^60) */
#define SM_GEN_KEY ((1ull << 63) | 6u)
typedef struct sm_terms {
    td_sh *e;
    int64_t cap, len;     /* the arena and its used length */
    int64_t row_at, row_n; /* the row being filled (row_n 0: none) */
    double gen;           /* the current generation (0: none yet) */
} sm_terms;
static _Thread_local sm_terms sm_tm;

/* The place for a row of n terms, about to be filled (NULL: keep none). */
static inline void *sm_terms_begin_sh(td_shcx *cx, int64_t n) {
    sm_tm.row_n = 0;
    if (cx->trace || n <= 0 || n > SM_TERMS_MAX) return NULL;
    td_sh g;
    double addr = (double)(uintptr_t)&sm_tm;
    if (sm_tm.gen == 0 || !td_sh_memo_get(cx, SM_GEN_KEY, &g) || g.v != sm_tm.gen || g.ek != addr) {
        uint32_t lf = cx->lane_flags; /* a new case: a new generation, its marker stored with no flags */
        td_sh mk = {.v = ++sm_tm.gen, .ek = addr, .fl = TD_SH_EXACTK};
        cx->lane_flags = 0;
        td_sh_memo_put(cx, SM_GEN_KEY, mk);
        cx->lane_flags = lf;
        sm_tm.len = 0;
    }
    if (sm_tm.len + n > SM_TERMS_MAX) return NULL;
    if (sm_tm.len + n > sm_tm.cap) {
        int64_t cap = sm_tm.cap ? 2 * sm_tm.cap : 1024;
        while (cap < sm_tm.len + n) cap *= 2;
        if (cap > SM_TERMS_MAX) cap = SM_TERMS_MAX;
        td_sh *e = realloc(sm_tm.e, (size_t)cap * sizeof *e);
        if (!e) return NULL; /* an optimisation only */
        sm_tm.e = e, sm_tm.cap = cap;
    }
    sm_tm.row_at = sm_tm.len, sm_tm.row_n = n;
    return sm_tm.e + sm_tm.len;
}
static inline void *sm_terms_begin_mp(td_mpcx *cx, int64_t n) { return NULL; }
static inline void sm_terms_set_sh(void *buf, int64_t j, td_sh e) { ((td_sh *)buf)[j] = e; }
static inline void sm_terms_set_mp(void *buf, int64_t j, td_mp e) {}

/* Seals the filled row: its place goes to the memo beside the sum. */
static inline void sm_terms_seal_sh(td_shcx *cx, uint64_t key) {
    if (!sm_tm.row_n) return;
    td_sh st = {.v = sm_tm.gen, .es = (double)sm_tm.row_at, .ek = (double)(uintptr_t)&sm_tm, .ep = (double)sm_tm.row_n,
                .fl = TD_SH_EXACTK};
    sm_tm.len += sm_tm.row_n;
    sm_tm.row_n = 0;
    td_sh_memo_put(cx, key | SM_TAG_TERMS, st);
}
static inline void sm_terms_seal_mp(td_mpcx *cx, uint64_t key) {}

/* e_i of the row keyed key, when this case's sum left it; 0 otherwise. */
static inline int sm_terms_get_sh(td_shcx *cx, uint64_t key, int64_t i, td_sh *out) {
    td_sh st;
    if (sm_tm.gen == 0 || i < 0 || !td_sh_memo_get(cx, key | SM_TAG_TERMS, &st) || st.v != sm_tm.gen ||
        st.ek != (double)(uintptr_t)&sm_tm || !((double)i < st.ep))
        return 0;
    *out = sm_tm.e[(int64_t)st.es + i];
    return 1;
}
static inline int sm_terms_get_mp(td_mpcx *cx, uint64_t key, int64_t i, td_mp *out) { return 0; }
#define SM_TERMS(op, cx) _Generic((cx), td_shcx *: sm_terms_##op##_sh, td_mpcx *: sm_terms_##op##_mp)

/* The max of a row without a scale whose loads are all numbers (shadow pass, not traced):
 * the value the spec's chain of N(max) over the loaded (exact) elements gives, without a
 * call per element.  td_sh_max of two exact operands is exact, with TD_SH_CR besides
 * (oracle/shadow.c, maxmin), sets no lane flag, and takes fmax of the values in the
 * same order as here; one element is the load itself.  A NaN load (whose max the rule
 * marks unknown), a scale, an empty row or a traced lane take the generic chain. */
static inline int sm_max_exact_sh(td_shcx *cx, const td_case *c, const sm_row *r, td_sh *out) {
    if (cx->trace || r->has_scale || r->n < 1) return 0;
    double m = td_spec_load(c, r->reg, r->base);
    if (m != m) return 0;
    for (int64_t j = 1; j < r->n; j++) {
        double x = td_spec_load(c, r->reg, r->base + (uint64_t)(j * r->stride));
        if (x != x) return 0;
        m = fmax(m, x);
    }
    *out = td_sh_exact(cx, m);
    if (r->n > 1) out->fl = TD_SH_EXACTK | TD_SH_CR;
    return 1;
}
static inline int sm_max_exact_mp(td_mpcx *cx, const td_case *c, const sm_row *r, td_mp *out) { return 0; }
#define SM_MAX_EXACT(cx) _Generic((cx), td_shcx *: sm_max_exact_sh, td_mpcx *: sm_max_exact_mp)

/* The kernel's IEEE evaluation meets an operation on special operands here (-inf -
 * -inf of a lane that never held a column, log of an empty sum): the lane is flagged
 * TD_LF_DOMAIN, so that under TD_SV_IEEE the kernel's NaN is accepted.  Shadow pass
 * only: MPFR computes the real-valued reference. */
static inline void sm_domain_sh(td_shcx *cx) { cx->lane_flags |= TD_LF_DOMAIN; }
static inline void sm_domain_mp(td_mpcx *cx) { (void)cx; }
#define SM_DOMAIN(cx) _Generic((cx), td_shcx *: sm_domain_sh, td_mpcx *: sm_domain_mp)(cx)

/* ---- values: the family's hard inputs ----
 * A case picks one pattern for all its rows:
 *   MENU      the project's value menu (small, wide, specials, ties, ints, const,
 *             large up to the bound)
 *   SHIFTED   every row = a common offset of either sign, 2^6 .. 2^20, + small noise:
 *             exp(x) overflows (or underflows to 0 / 0), exp(x - max) does neither
 *   DOMINANT  one element per row far above the rest (2^4 .. 2^14 higher): the
 *             others' exp underflow, the output is ~1 at one lane and ~0 elsewhere
 *   EQUAL     all elements of a row equal (a random value up to 2^20): out = 1/n
 *   SPREAD    uniform in [-S, S], S in {20, 90, 110, 500}: exp(x - max) down to and
 *             through the subnormal range and 0
 *   NEAR88    uniform in [80, 100]: scores around exp's overflow threshold 88.72
 * Values are binary32 and |x| <= 2^20, so x - max is far from overflow. */
enum { SM_P_MENU, SM_P_SHIFTED, SM_P_DOMINANT, SM_P_EQUAL, SM_P_SPREAD, SM_P_NEAR88, SM_P_COUNT };

typedef struct sm_vals {
    td_vgen g;
    int pattern;
    double a, b; /* pattern parameters */
} sm_vals;

static inline double sm_f32(double x) { return (double)(float)x; }

/* weights: one per pattern (SM_P_*), NULL for the family's default mix. */
static inline void sm_vals_init_w(sm_vals *v, td_producer *p, td_case *c, double menu_bound, const unsigned *weights) {
    static const unsigned dflt[SM_P_COUNT] = {6, 3, 3, 2, 3, 2};
    v->pattern = td_prod_pick(p, weights ? weights : dflt, SM_P_COUNT);
    td_vgen_init(&v->g, p, c, TD_VM_ALL, menu_bound);
    td_rng *r = &v->g.rng;
    switch (v->pattern) {
    case SM_P_SHIFTED: { /* sign, mantissa, exponent: sequenced (C leaves operand and argument order open) */
        double sgn = td_rng_next(r) & 1 ? -1 : 1;
        double m = 1.0 + td_rng_unit(r);
        v->a = sm_f32(sgn * ldexp(m, 6 + (int)td_rng_below(r, 14)));
        v->b = ldexp(1.0, (int)td_rng_below(r, 6) - 2); /* noise amplitude 0.25 .. 8 */
        break;
    }
    case SM_P_DOMINANT: v->a = 1.0 + td_rng_unit(r), v->a = ldexp(v->a, 4 + (int)td_rng_below(r, 10)); break;
    case SM_P_SPREAD: {
        static const double S[4] = {20, 90, 110, 500};
        v->a = S[td_rng_below(r, 4)];
        break;
    }
    default: v->a = v->b = 0; break;
    }
    if (v->pattern != SM_P_MENU) c->classes |= TD_BC(TD_BC_VALUES_LARGE);
}
static inline void sm_vals_init(sm_vals *v, td_producer *p, td_case *c, double menu_bound) {
    sm_vals_init_w(v, p, c, menu_bound, NULL);
}

/* One element of a row (the row's own state is passed by the caller for EQUAL). */
static inline double sm_value(sm_vals *v) {
    td_rng *r = &v->g.rng;
    switch (v->pattern) {
    case SM_P_SHIFTED: return sm_f32(v->a + v->b * (2 * td_rng_unit(r) - 1));
    case SM_P_DOMINANT: return sm_f32(2 * td_rng_unit(r) - 1);
    case SM_P_SPREAD: return sm_f32(v->a * (2 * td_rng_unit(r) - 1));
    case SM_P_NEAR88: return sm_f32(80 + 20 * td_rng_unit(r));
    case SM_P_EQUAL: { /* sign, mantissa, exponent: sequenced */
        double sgn = td_rng_next(r) & 1 ? -1 : 1;
        double m = td_rng_unit(r);
        return sm_f32(sgn * ldexp(m, (int)td_rng_below(r, 21)));
    }
    default: return td_vgen_value(&v->g, TD_F32);
    }
}

/* n values of the pattern stored at base + j * stride: the menu in bulk, the other
 * patterns one by one (the draws are the same either way). */
static inline void sm_store_values(sm_vals *v, td_case *c, int reg, uint64_t base, int64_t stride, int64_t n) {
    if (v->pattern != SM_P_MENU) {
        for (int64_t j = 0; j < n; j++) td_set(c, reg, base + (uint64_t)(j * stride), sm_value(v));
        return;
    }
    double m[256];
    for (int64_t j0 = 0; j0 < n; j0 += 256) {
        size_t cnt = (size_t)(n - j0 < 256 ? n - j0 : 256);
        td_vgen_values(&v->g, TD_F32, m, cnt);
        if (stride == 1) {
            td_set_array(c, reg, base + (uint64_t)j0, m, cnt);
            continue;
        }
        for (size_t i = 0; i < cnt; i++) td_set(c, reg, base + (uint64_t)((j0 + (int64_t)i) * stride), m[i]);
    }
}

/* Fills the n elements base + j * stride of region reg (binary32) with one row. */
static inline void sm_fill_row(sm_vals *v, td_case *c, int reg, uint64_t base, int64_t stride, int64_t n) {
    if (n <= 0) return;
    if (v->pattern == SM_P_EQUAL) {
        double x = sm_value(v);
        for (int64_t j = 0; j < n; j++) td_set(c, reg, base + (uint64_t)(j * stride), x);
        return;
    }
    sm_store_values(v, c, reg, base, stride, n);
    if (v->pattern == SM_P_DOMINANT) {
        uint64_t k = td_rng_below(&v->g.rng, (uint64_t)n);
        td_set(c, reg, base + k * (uint64_t)stride, sm_f32(v->a));
    }
}

/* Fills every element of a region that no row covers with menu values (cells a
 * correct kernel never reads; a kernel reading the wrong cells sees other numbers). */
static inline void sm_fill_all(sm_vals *v, td_case *c, int reg) {
    sm_store_values(v, c, reg, 0, 1, (int64_t)c->r[reg].len);
}

/* A power-of-two tile width for a row of n (n >= 0) columns, favouring the
 * boundaries: next_pow2(n) (what the hosts choose), B >> n, and B < n (the contract
 * allows it: the kernel then reduces only the first B columns). */
static inline int64_t sm_pow2_at_least(int64_t n) {
    int64_t b = 1;
    while (b < n) b *= 2;
    return b;
}

/* n for a row reduced by a tile of B lanes: a single column, B - 1, B, B + 1 (tile
 * smaller than the row), B / 4 or less (tile >> row), anything up to max_n; 0 when
 * allow_zero (an empty row: nothing is written). Marks the shape classes. */
static inline int64_t sm_gen_cols(td_producer *p, int64_t B, int64_t max_n, int allow_zero, uint64_t *classes) {
    static const unsigned w[] = {2, 3, 4, 2, 3, 4, 1};
    int64_t n;
    switch (td_prod_pick(p, w, 7)) {
    case 0: n = 1; break;
    case 1: n = B - 1; break;
    case 2: n = B; break;
    case 3: n = B + 1 + (int64_t)td_prod_u32(p, 0, (uint32_t)B); break; /* wider than the tile */
    case 4: n = 1 + (int64_t)td_prod_u32(p, 0, (uint32_t)(B / 4 > 0 ? B / 4 - 1 : 0)); break;
    case 5: n = 1 + (int64_t)td_prod_u32(p, 0, (uint32_t)(max_n - 1)); break;
    default: n = allow_zero ? 0 : 1; break;
    }
    if (n < 1 && !allow_zero) n = 1;
    if (n > max_n) n = max_n;
    if (n == 0) *classes |= TD_BC(TD_BC_FULLY_MASKED);
    else {
        if (n == 1) *classes |= TD_BC(TD_BC_SINGLE_LANE);
        if (n % B == 0) *classes |= TD_BC(TD_BC_EXACT_MULTIPLE);
        else {
            *classes |= TD_BC(TD_BC_TAIL);
            if (n % B == B - 1) *classes |= TD_BC(TD_BC_TAIL_BELOW);
            if (n % B == 1 && n > 1) *classes |= TD_BC(TD_BC_TAIL_ABOVE);
        }
        if (B >= 4 * n) *classes |= TD_BC(TD_BC_BLOCK_GT_N);
    }
    return n;
}

/* A row stride for rows of w active columns: the row itself (w), wider (gaps), or
 * when the rows are only read, also 0 (every program reads the same row) and
 * narrower than the row (overlapping rows). */
static inline int64_t sm_gen_stride(td_producer *p, int64_t w, int read_only, uint64_t *classes) {
    static const unsigned wr[] = {5, 3, 1, 1}, ww[] = {5, 3};
    int k = td_prod_pick(p, read_only ? wr : ww, read_only ? 4 : 2);
    int64_t s;
    switch (k) {
    case 0: s = w; break;
    case 1: s = w + 1 + (int64_t)td_prod_u32(p, 0, 40); break;
    case 2: s = 0; break;
    default: s = w > 1 ? (int64_t)td_prod_u32(p, 1, (uint32_t)(w - 1)) : 0; break;
    }
    if (s > w) *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    return s;
}

/* How many rows of w reduced columns a case may hold: about 2^14 lanes a case (the
 * shadow and MPFR passes memoise a row's quantities, so a case costs O(lanes)). */
static inline int64_t sm_max_rows(int64_t w, int64_t cap) {
    int64_t r = (1 << 14) / (w > 0 ? w : 1);
    if (r > cap) r = cap;
    return r < 1 ? 1 : r;
}

/* The row launch of the fused row-softmax kernels (softmax_triton1/2/3): one program
 * per row, program pid reads its row at pid * sin and writes it at pid * sout, a tile
 * of B lanes masked by j < n, so w = min(n, B) columns are reduced and written.
 * Tiles up to 2^12 lanes. */
typedef struct sm_rows {
    int64_t B, n, w, R, sin, sout;
} sm_rows;

static inline void sm_gen_rows(td_producer *p, td_case *c, sm_rows *s, int same_stride) {
    s->B = td_gen_pow2(p, 0, 12);
    s->n = sm_gen_cols(p, s->B, 2 * s->B + 3, 1, &c->classes);
    s->w = s->n < s->B ? s->n : s->B;
    s->R = td_prod_u32(p, 1, (uint32_t)sm_max_rows(s->w, 12));
    s->sout = sm_gen_stride(p, s->w, 0, &c->classes);
    s->sin = same_stride ? s->sout : sm_gen_stride(p, s->w, 1, &c->classes);
    if (s->R == 1) c->classes |= TD_BC(TD_BC_ONE_PROGRAM);
    if (s->n > s->B) c->classes |= TD_BC(TD_BC_MULTI_TILE); /* columns beyond the tile stay unread */
    c->grid[0] = (uint32_t)s->R;
}

/* Allocates an input region of R rows (stride sin, each row holding all n columns)
 * and fills it: every cell from the pattern, then each row's w reduced columns as one
 * row of the pattern (dominant element, equal row ...). */
static inline void sm_alloc_fill_rows(sm_vals *v, td_case *c, int reg, const sm_rows *s, int64_t slack) {
    int64_t len = (s->R - 1) * s->sin + s->n + slack;
    td_case_alloc(c, reg, (size_t)(len > 0 ? len : 0));
    sm_fill_all(v, c, reg);
    for (int64_t r = 0; r < s->R; r++) sm_fill_row(v, c, reg, (uint64_t)(r * s->sin), 1, s->w);
}

/* Preconditions every row launch shares: B > 0 (hB), Nat parameters, the regions hold
 * every active read and write, the programs' output rows are disjoint. */
static inline const char *sm_rows_check(const td_case *c, int64_t B, int64_t n, int64_t sin, int64_t sout,
                                        int rin, int rout) {
    if (B <= 0) return "hB: 0 < BLOCK_SIZE";
    if (n < 0 || sin < 0 || sout < 0) return "n_cols and the row strides are Nat";
    int64_t w = n < B ? n : B, R = c->grid[0];
    if (w > 0) {
        if ((R - 1) * sin + w > (int64_t)c->r[rin].len) return "the input region holds every active lane's read";
        if ((R - 1) * sout + w > (int64_t)c->r[rout].len) return "the output region holds every active lane's write";
        if (R > 1 && sout < w) return "distinct programs write distinct cells (output_row_stride >= active row)";
    }
    return NULL;
}

#endif /* TD_SOFTMAX_COMMON_H */
