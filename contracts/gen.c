#include "gen.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

uint32_t td_gen_pow2(td_producer *p, int lo_log2, int hi_log2) {
    return 1u << td_prod_u32(p, (uint32_t)lo_log2, (uint32_t)hi_log2);
}

void td_gen_mark_shape(uint64_t n, uint64_t B, uint64_t programs, uint64_t *classes) {
    if (n == 1) *classes |= 1ull << TD_BC_SINGLE_LANE;
    if (programs == 1) *classes |= 1ull << TD_BC_ONE_PROGRAM;
    if (B > 0 && n > 0) {
        uint64_t r = n % B;
        if (r == 0) *classes |= 1ull << TD_BC_EXACT_MULTIPLE;
        else {
            *classes |= 1ull << TD_BC_TAIL;
            if (r == B - 1) *classes |= 1ull << TD_BC_TAIL_BELOW;
            if (r == 1 && n > 1) *classes |= 1ull << TD_BC_TAIL_ABOVE;
        }
        if (B >= 4 * n) *classes |= 1ull << TD_BC_BLOCK_GT_N;
        if (programs > 1) *classes |= 1ull << TD_BC_MULTI_TILE;
    }
    if (n == 0) *classes |= 1ull << TD_BC_FULLY_MASKED;
}

uint64_t td_gen_count0(td_producer *p, uint64_t B, uint64_t max_n, uint64_t *classes, int allow_zero) {
    static const unsigned w[] = {2, 3, 3, 3, 2, 1, 4, 1};
    if (max_n < 1) max_n = 1;
    uint64_t kmax = max_n / (B ? B : 1);
    if (kmax < 1) kmax = 1;
    uint64_t k = td_prod_u32(p, 1, (uint32_t)(kmax > 64 ? 64 : kmax));
    uint64_t n;
    switch (td_prod_pick(p, w, 8)) {
    case 0: n = 1; break;
    case 1: n = k * B - 1; break;
    case 2: n = k * B; break;
    case 3: n = k * B + 1; break;
    case 4: n = td_prod_u32(p, 1, (uint32_t)(B / 4 ? B / 4 : 1)); break; /* B >= 4n */
    case 5: n = B; break;
    case 6: n = td_prod_u32(p, 1, (uint32_t)(max_n > 4096 ? 4096 : max_n)); break;
    default: n = allow_zero ? 0 : 1; break;
    }
    if (n == 0 && !allow_zero) n = 1;
    if (n > max_n) n = max_n;
    uint64_t programs = B ? (n + B - 1) / B : 1;
    td_gen_mark_shape(n, B, programs ? programs : 1, classes);
    return n;
}

uint64_t td_gen_count(td_producer *p, uint64_t B, uint64_t max_n, uint64_t *classes) {
    return td_gen_count0(p, B, max_n, classes, 0);
}

const char *td_menu_name(int m) {
    static const char *names[TD_V_COUNT] = {"small", "wide", "ties", "special", "large", "ints", "const", "ieee"};
    return (m >= 0 && m < TD_V_COUNT) ? names[m] : "?";
}

double td_gen_real(td_producer *p, double lo, double hi) {
    uint32_t k = td_prod_u32(p, 0, 1u << 20);
    double x = lo + (hi - lo) * ((double)k / (double)(1u << 20));
    float f = (float)x;
    if (f < lo) f = nextafterf(f, INFINITY);
    if (f > hi) f = nextafterf(f, -INFINITY);
    return f;
}

void td_vgen_init(td_vgen *g, td_producer *p, td_case *c, unsigned allowed, double bound) {
    unsigned w[TD_V_COUNT];
    /* the last entry weighs 0 unless the contract opts in, so the draws (and the decode
     * digests) of the other contracts stay what they were */
    static const unsigned base[TD_V_COUNT] = {6, 4, 3, 3, 2, 2, 1, 3};
    if (c->k->nonfinite_inputs) allowed |= TD_VM(TD_V_IEEE);
    int any = 0;
    for (int i = 0; i < TD_V_COUNT; i++) {
        w[i] = (allowed & TD_VM(i)) ? base[i] : 0;
        any |= w[i] != 0;
    }
    if (!any) w[TD_V_SMALL] = 1;
    g->menu = td_prod_pick(p, w, TD_V_COUNT);
    if (!(allowed & TD_VM(g->menu)) && any) { /* empty producer: lowest allowed entry */
        for (int i = 0; i < TD_V_COUNT; i++)
            if (allowed & TD_VM(i)) {
                g->menu = i;
                break;
            }
    }
    uint64_t seed = td_prod_u64(p);
    td_rng_seed(&g->rng, seed);
    g->bound = bound;
    c->seed = seed;
    c->menu = g->menu;
    if (g->menu == TD_V_TIES || g->menu == TD_V_SPECIAL || g->menu == TD_V_IEEE) c->classes |= 1ull << TD_BC_VALUES_SPECIAL;
    if (g->menu == TD_V_LARGE) c->classes |= 1ull << TD_BC_VALUES_LARGE;
    g->cval = 0;
    if (g->menu == TD_V_CONST) {
        g->menu = TD_V_SMALL;
        g->cval = td_vgen_value(g, TD_F32);
        g->menu = TD_V_CONST;
    }
}

/* ---- drawing values ----
 * Not instrumented for coverage (oracle/nocov.h), down to the bulk loops below: the
 * draws and their rounding run the same way whatever the bytes, and under libFuzzer
 * every loop test and comparison per value was a traced call (the menu is chosen, and
 * traced, in td_vgen_init). */
TD_NOCOV_BEGIN

/* 2^e for e in the binary64 normal range, exactly: ldexp without the call. */
static inline double pow2_normal(int e) {
    uint64_t b = (uint64_t)(e + 1023) << 52;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* The narrow formats whose ties TD_V_TIES draws, in draw order. */
static const td_fmt tie_fmts[4] = {TD_F16, TD_BF16, TD_E4M3FN, TD_E5M2};

/* Ties and boundaries of the narrow formats, as binary32 values.  fis: td_fmt_get of
 * tie_fmts, looked up once per chunk by the bulk loop (NULL: here, per value).  Every
 * power of two scales within the binary64 normal range (exponents of at least -149), so
 * pow2_normal's product is ldexp's value. */
static double tie_value(td_rng *r, const td_fmt_info *const *fis) {
    uint64_t k = td_rng_below(r, 4);
    const td_fmt_info *fi = fis ? fis[k] : td_fmt_get(tie_fmts[k]);
    double sign = (td_rng_next(r) & 1) ? -1 : 1;
    switch (td_rng_below(r, 6)) {
    case 0: { /* a midpoint between two consecutive values of f */
        int e = fi->emin + (int)td_rng_below(r, (uint64_t)(fi->emax - fi->emin + 1));
        uint64_t m = td_rng_below(r, 1ull << (fi->prec - 1));
        double a = (1.0 + (double)m * pow2_normal(1 - fi->prec)) * pow2_normal(e);
        double b = a + pow2_normal(e + 1 - fi->prec);
        return sign * (a + b) / 2;
    }
    case 1: return sign * fi->max_finite;
    case 2: return sign * fi->min_normal;
    case 3: return sign * fi->min_subnormal * (double)(1 + td_rng_below(r, 4));
    case 4: return sign * (fi->max_finite + pow2_normal(fi->emax + 1 - fi->prec) / 2); /* overflow threshold */
    default: { /* two draws: sequenced, so that every compiler decodes the same case */
        double m = (double)(1 + td_rng_below(r, 1ull << (fi->prec - 1)));
        int e = (int)td_rng_below(r, 8) - 4;
        return sign * m * pow2_normal(e);
    }
    }
}

/* One value of the menu before it is fitted to the bound and the format.  The sign is
 * drawn first for every menu (used or not), so that every menu's draws are what they
 * always were.  `menu` is a parameter so that the bulk loops below, which pass a
 * constant, get a copy of this function specialised to their menu (always inlined:
 * clang kept one out-of-line copy, a call and the menu's switch per value). */
__attribute__((always_inline)) static inline double raw_value(td_vgen *g, int menu, const td_fmt_info *const *fis) {
    td_rng *r = &g->rng;
    double sign = (td_rng_next(r) & 1) ? -1 : 1;
    switch (menu) {
    case TD_V_SMALL: return 2 * td_rng_unit(r) - 1;
    case TD_V_WIDE: {
        int e = (int)td_rng_below(r, 61) - 40; /* 2^-40 .. 2^20 */
        return sign * ((1.0 + td_rng_unit(r)) * pow2_normal(e)); /* exact: a normal result */
    }
    case TD_V_TIES: return tie_value(r, fis);
    case TD_V_SPECIAL: {
        switch (td_rng_below(r, 6)) {
        case 0: return sign * 0.0;
        case 1: return sign * ((double)(1 + td_rng_below(r, 1u << 23)) * pow2_normal(-149)); /* binary32 subnormal */
        case 2: return sign * 0x1p-126;
        case 3: return sign * pow2_normal((int)td_rng_below(r, 40) - 20);
        case 4: return sign * (double)td_rng_below(r, 100);
        default: return 2 * td_rng_unit(r) - 1;
        }
    }
    case TD_V_LARGE: return sign * g->bound * (0.5 + 0.5 * td_rng_unit(r));
    case TD_V_INTS: return (double)((int64_t)td_rng_below(r, 33) - 16);
    case TD_V_CONST: return g->cval;
    default: return 0;
    }
}

/* TD_V_IEEE: the IEEE special values of format f (fi: its td_fmt_get) among small
 * values, each element drawn on its own: NaN, +inf, -inf (NaN where f has no infinity:
 * e4m3fn), -0, a subnormal of f, or (half of the elements) a value of [-1, 1] rounded to
 * f.  Integer formats get the small values only. */
static double ieee_value(td_vgen *g, td_fmt f, const td_fmt_info *fi) {
    td_rng *r = &g->rng;
    uint64_t kind = td_rng_below(r, 10);
    double sign = (td_rng_next(r) & 1) ? -1 : 1, small = 2 * td_rng_unit(r) - 1;
    if (!fi->is_float || kind >= 5) {
        if (!fi->is_float) return (double)((int64_t)td_rng_below(r, 33) - 16);
        /* binary32: the conversion rounds to nearest, and |small| <= 1 never saturates */
        if (f == TD_F32) return (double)(float)small;
        return td_decode(f, td_encode_f64((td_profile){f, TD_RNE, TD_OVF_SAT, false}, small));
    }
    switch (kind) {
    case 0: return NAN;
    case 1: return fi->has_inf ? INFINITY : NAN;
    case 2: return fi->has_inf ? -INFINITY : NAN;
    case 3: return -0.0;
    default: return sign * fi->min_subnormal * (double)(1 + td_rng_below(r, 4)); /* exact in f */
    }
}

/* A raw value brought inside [-bound, bound] (finite). */
static double fold_into_bound(double x, double bound) {
    if (!(fabs(x) <= bound)) x = copysign(fmod(fabs(x), bound), x);
    if (!isfinite(x)) x = 0;
    return x;
}

/* The value of format f a folded value x becomes: rounded to f (saturating), towards
 * zero where that leaves the bound, and 0 where even that does.  v is x rounded to
 * nearest (decoded), as the bulk path computes it for all values at once. */
static double fit_rounded(td_fmt f, double x, double v, double bound) {
    if (fabs(v) > bound) v = td_decode(f, td_encode_f64((td_profile){f, TD_RTZ, TD_OVF_SAT, false}, x));
    if (!isfinite(v) || fabs(v) > bound) v = 0;
    return v;
}

/* Values are drawn into their format rounding to nearest and saturating. */
static inline td_profile nearest_sat(td_fmt f) { return (td_profile){f, TD_RNE, TD_OVF_SAT, false}; }

double td_vgen_value(td_vgen *g, td_fmt f) {
    if (g->menu == TD_V_IEEE) return ieee_value(g, f, td_fmt_get(f));
    double x = fold_into_bound(raw_value(g, g->menu, NULL), g->bound);
    if (!td_fmt_get(f)->is_float) return x;
    /* exactly representable in the region's format, saturating */
    return fit_rounded(f, x, td_decode(f, td_encode_f64(nearest_sat(f), x)), g->bound);
}

/* ---- the same values in bulk ----
 * td_vgen_values gives exactly the values (and leaves the generator in exactly the
 * state) of n calls of td_vgen_value, but dispatches the menu and the format once per
 * chunk instead of once per value, and rounds with the array encoder: decoding a case
 * was two thirds of an elementwise target's time (issue 20). */
#define VGEN_CHUNK 512

/* n raw values of the generator's menu, in draw order. */
static void raw_values(td_vgen *g, double *x, size_t n) {
    const td_fmt_info *fis[4];
    for (int k = 0; k < 4; k++) fis[k] = td_fmt_get(tie_fmts[k]);
#define RAW_LOOP(M)                                                                                               \
    case M:                                                                                                       \
        for (size_t i = 0; i < n; i++) x[i] = raw_value(g, M, fis);                                               \
        break
    switch (g->menu) {
        RAW_LOOP(TD_V_SMALL);
        RAW_LOOP(TD_V_WIDE);
        RAW_LOOP(TD_V_TIES);
        RAW_LOOP(TD_V_SPECIAL);
        RAW_LOOP(TD_V_LARGE);
        RAW_LOOP(TD_V_INTS);
        RAW_LOOP(TD_V_CONST);
    default:
        for (size_t i = 0; i < n; i++) x[i] = raw_value(g, g->menu, fis);
        break;
    }
#undef RAW_LOOP
}

/* 1 where some |x[i]| is not within the bound or not finite (a NaN included): a
 * branch-free scan for the (rare) values that need folding or refitting, run twice over
 * every chunk of drawn values.  One comparison a value: |x| <= b with b the bound, or
 * the largest finite double for an infinite bound, says both "within" and "finite"
 * (two comparisons were ~13 instructions a value, issue 20); a NaN bound keeps every
 * value outside, as before. */
static int any_outside(const double *x, size_t n, double bound) {
    double b = bound == INFINITY ? DBL_MAX : bound;
    uint64_t out = 0;
    for (size_t i = 0; i < n; i++) out |= (uint64_t)!(fabs(x[i]) <= b);
    return out != 0;
}

/* fold_into_bound over an array. */
static void fold_values(double *x, size_t n, double bound) {
    if (!any_outside(x, n, bound)) return;
    for (size_t i = 0; i < n; i++) x[i] = fold_into_bound(x[i], bound);
}

/* Decoded values of format f from their bits (td_decode), the common formats inline:
 * the values are finite (folded, then rounded saturating), so no NaN needs the
 * canonical form td_decode gives it. */
static void decode_values(td_fmt f, const uint64_t *bits, double *v, size_t n) {
    switch (f) {
    case TD_F32:
        for (size_t i = 0; i < n; i++) {
            uint32_t b = (uint32_t)bits[i];
            float y;
            memcpy(&y, &b, sizeof y);
            v[i] = y;
        }
        break;
    case TD_BF16: /* the high half of a binary32 */
        for (size_t i = 0; i < n; i++) {
            uint32_t b = (uint32_t)bits[i] << 16;
            float y;
            memcpy(&y, &b, sizeof y);
            v[i] = y;
        }
        break;
    default:
        for (size_t i = 0; i < n; i++) v[i] = td_decode(f, bits[i]);
        break;
    }
}

/* Finite x rounded to binary32 by C's conversion (to nearest, subnormals kept), their
 * values into v and bits into bits: 1, or 0 where one overflowed (to infinity, where
 * the draws saturate: the caller then takes the encoder).  The conversion vectorises;
 * the encoder's call and its decoding were a quarter of an elementwise decode. */
static int round_f32(const double *x, double *v, uint64_t *bits, size_t n) {
    int inf = 0;
    for (size_t i = 0; i < n; i++) {
        float y = (float)x[i];
        uint32_t b;
        memcpy(&b, &y, sizeof b);
        bits[i] = b;
        v[i] = y;
        inf |= (b & 0x7f800000u) == 0x7f800000u;
    }
    return !inf;
}

/* Folded values x rounded into format f as td_vgen_value does, into v, and their
 * encodings in f into bits (nearest, saturating: v is exact in f, so they are the bits
 * td_set stores for v). */
static void fit_values(td_fmt f, const double *x, double *v, uint64_t *bits, size_t n, double bound) {
    if (f != TD_F32 || !round_f32(x, v, bits, n)) {
        td_encode_f64_array(nearest_sat(f), x, bits, n);
        decode_values(f, bits, v, n);
    }
    if (!any_outside(v, n, bound)) return;
    for (size_t i = 0; i < n; i++) {
        double w = fit_rounded(f, x[i], v[i], bound);
        if (memcmp(&w, &v[i], sizeof w)) bits[i] = td_encode_f64(nearest_sat(f), w);
        v[i] = w;
    }
}

/* td_vgen_values for n <= VGEN_CHUNK, also giving the values' bits in f (float f).
 * Never inlined into its instrumented callers (TD_NO_COVERAGE), nor ieee_values. */
TD_NO_COVERAGE static void vgen_chunk(td_vgen *g, td_fmt f, int is_float, double *out, uint64_t *bits, size_t n) {
    double x[VGEN_CHUNK];
    double *dst = is_float ? x : out;
    raw_values(g, dst, n);
    fold_values(dst, n, g->bound);
    if (is_float) fit_values(f, x, out, bits, n, g->bound);
}

/* n values of the TD_V_IEEE menu (drawn per element, the format looked up once). */
TD_NO_COVERAGE static void ieee_values(td_vgen *g, td_fmt f, double *out, size_t n) {
    const td_fmt_info *fi = td_fmt_get(f);
    for (size_t i = 0; i < n; i++) out[i] = ieee_value(g, f, fi);
}

TD_NOCOV_END

void td_vgen_values(td_vgen *g, td_fmt f, double *out, size_t n) {
    if (g->menu == TD_V_IEEE) { /* opt-in and drawn per element: no bulk form needed */
        ieee_values(g, f, out, n);
        return;
    }
    int is_float = td_fmt_get(f)->is_float;
    uint64_t bits[VGEN_CHUNK];
    for (size_t at = 0; at < n; at += VGEN_CHUNK) {
        size_t m = n - at < VGEN_CHUNK ? n - at : VGEN_CHUNK;
        vgen_chunk(g, f, is_float, out + at, bits, m);
    }
}

/* Bits of a 2- or 4-byte format stored at element off of region R. */
TD_NO_COVERAGE static void store_bits(td_region *R, size_t off, const uint64_t *bits, size_t n, td_fmt f) {
    if (f == TD_F32) {
        uint32_t *p = (uint32_t *)R->data + off;
        for (size_t i = 0; i < n; i++) p[i] = (uint32_t)bits[i];
    } else {
        uint16_t *p = (uint16_t *)R->data + off;
        for (size_t i = 0; i < n; i++) p[i] = (uint16_t)bits[i];
    }
}

void td_vgen_fill_as(td_vgen *g, td_case *c, int reg, size_t off, size_t n, td_fmt f) {
    double v[VGEN_CHUNK];
    uint64_t bits[VGEN_CHUNK];
    td_region *R = &c->r[reg];
    /* values drawn in the region's own format are stored as the bits the rounding gave
     * them, not encoded a second time by td_set_array (a sixth of the decode, issue 20) */
    int direct = g->menu != TD_V_IEEE && f == R->fmt && (f == TD_F32 || f == TD_F16 || f == TD_BF16);
    if (direct && (off > R->len || n > R->len - off)) abort(); /* as td_set_array */
    for (size_t at = 0; at < n; at += VGEN_CHUNK) {
        size_t m = n - at < VGEN_CHUNK ? n - at : VGEN_CHUNK;
        if (!direct) {
            td_vgen_values(g, f, v, m);
            td_set_array(c, reg, off + at, v, m);
            continue;
        }
        vgen_chunk(g, f, 1, v, bits, m);
        store_bits(R, off + at, bits, m, f);
    }
}

void td_vgen_fill(td_vgen *g, td_case *c, int reg) { td_vgen_fill_as(g, c, reg, 0, c->r[reg].len, c->r[reg].fmt); }

void td_flat_shape(td_producer *p, td_case *c, int p_n, int p_block, int max_log2_block, uint64_t max_n,
                   const int *regs, int nregs) {
    uint64_t B = td_gen_pow2(p, 0, max_log2_block);
    uint64_t n = td_gen_count(p, B, max_n, &c->classes);
    uint64_t slack = td_prod_bool(p) ? td_prod_u32(p, 1, (uint32_t)B) : 0;
    c->p[p_n].i = (int64_t)n;
    c->p[p_block].i = (int64_t)B;
    c->grid[0] = (uint32_t)((n + B - 1) / B);
    for (int r = 0; r < nregs; r++) td_case_alloc(c, regs[r], n + slack);
}

const char *td_flat_check(const td_case *c, int p_n, int p_block, const int *regs, int nregs) {
    int64_t n = c->p[p_n].i, B = c->p[p_block].i;
    if (B <= 0) return "BLOCK_SIZE > 0 (a Triton constexpr block)";
    if (n < 0) return "n : Nat";
    for (int r = 0; r < nregs; r++)
        if ((int64_t)c->r[regs[r]].len < n) return "every region holds n elements (reads and writes of [0, n))";
    if ((int64_t)c->grid[0] * B < n) return "the grid covers n (cdiv(n, BLOCK) programs)";
    return NULL;
}

/* A large case (gen_large.h): the lanes of its windows, in order; the others (the
 * kernel writes them, the oracle does not judge them) only counted. */
static void flat_writes_windows(const td_case *c, td_wset *ws, int64_t n, int64_t B, const int *outs, int nouts) {
    uint64_t kept = 0;
    for (int w = 0; w < c->nwin; w++)
        for (uint64_t off = c->win[w].lo; off < c->win[w].hi && off < (uint64_t)n; off++, kept++)
            for (int o = 0; o < nouts; o++) {
                td_olane l = {.o = (uint32_t)o, .region = (uint32_t)outs[o], .off = off,
                              .pid = {(uint32_t)(off / (uint64_t)B), 0, 0}, .j = off % (uint64_t)B, .idx = {(int64_t)off}};
                td_wset_add(ws, &l);
            }
    ws->dropped += ((uint64_t)n - kept) * (uint64_t)nouts;
}

/* Room for `more` lanes past ws->n (td_wset_add's growth, at once): 0, or -1 with
 * ws->oom set when memory runs out. */
static int wset_reserve(td_wset *ws, size_t more) {
    if (ws->oom) return -1;
    if (more <= ws->cap - ws->n) return 0;
    size_t cap = ws->n + more < 256 ? 256 : ws->n + more;
    td_olane *v = more > SIZE_MAX / sizeof *v - ws->n ? NULL : realloc(ws->v, cap * sizeof *v);
    if (!v) {
        ws->oom = 1;
        return -1;
    }
    ws->v = v;
    ws->cap = cap;
    return 0;
}

/* The lanes of td_flat_writes's loop below, in its order, written in place: a
 * td_wset_add call per lane was half of an elementwise case's write set (issue 20).
 * Not instrumented for coverage (vgen_chunk): a traced loop test per lane. */
TD_NO_COVERAGE static void flat_writes_direct(const td_case *c, td_wset *ws, int64_t n, int64_t B, const int *outs,
                                              int nouts) {
    uint64_t cover = (uint64_t)c->grid[0] * (uint64_t)B, lanes = cover < (uint64_t)n ? cover : (uint64_t)n;
    if (lanes > SIZE_MAX / (size_t)nouts || wset_reserve(ws, (size_t)lanes * (size_t)nouts) != 0) return;
    td_olane *v = ws->v + ws->n;
    for (uint64_t off = 0, pid = 0; off < lanes; pid++)
        for (uint64_t j = 0; j < (uint64_t)B && off < lanes; j++, off++)
            for (int o = 0; o < nouts; o++)
                *v++ = (td_olane){.o = (uint32_t)o, .region = (uint32_t)outs[o], .off = off,
                                  .pid = {(uint32_t)pid, 0, 0}, .j = j, .idx = {(int64_t)off}};
    ws->n += (size_t)lanes * (size_t)nouts;
}

void td_flat_writes(const td_case *c, td_wset *ws, int p_n, int p_block, const int *outs, int nouts) {
    int64_t n = c->p[p_n].i, B = c->p[p_block].i;
    if (c->nwin) {
        flat_writes_windows(c, ws, n, B, outs, nouts);
        return;
    }
    if (!ws->nwin && n > 0 && B > 0 && nouts > 0) {
        flat_writes_direct(c, ws, n, B, outs, nouts);
        return;
    }
    for (uint32_t pid = 0; pid < c->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off >= n) break; /* mask: pid * BLOCK + j < n */
            for (int o = 0; o < nouts; o++) {
                td_olane l = {.o = (uint32_t)o, .region = (uint32_t)outs[o], .off = (uint64_t)off, .pid = {pid, 0, 0},
                              .j = (uint64_t)j, .idx = {off}};
                td_wset_add(ws, &l);
            }
        }
}
