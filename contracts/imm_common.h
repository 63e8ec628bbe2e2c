/* Shared pieces of the integer and dequantizing matmul contracts (int8_matmul_kernel,
 * int_scaled_matmul): integer operand values, exact integer dot products and the
 * int32-accumulator precondition.
 *
 * Exact integer accumulation.  These kernels accumulate integer products in an int32
 * tile (tl.dot(..., out_dtype=tl.int32) or an int32 accumulator).  Two's-complement
 * addition is associative modulo 2^32, so every summation order, split-K, and a wider
 * accumulator give the same int32 result, and that result is the exact integer sum
 * whenever the exact sum lies in [-2^31, 2^31).  The contracts therefore take "no
 * output's exact sum leaves int32" as a precondition (stated per contract as a bound
 * on K from the largest product magnitude, so it holds for every value the operand
 * formats allow) and check the integer part EXACTLY: the spec computes the sum in
 * int64 (exact: |sum| <= 2^31) and hands it to the oracle as an exact constant, so
 * the shadow's tolerance on it is 0.  The generator reaches the precondition's edge in
 * the class acc-near-int32-limit (one output lane, K at its largest legal value, every
 * product near the largest magnitude of one sign), where a binary32 or int16
 * accumulator, or an overflowing one, is wrong.
 */
#ifndef TD_IMM_COMMON_H
#define TD_IMM_COMMON_H

#include "matmul_common.h"

/* Value modes of an int8 operand (drawn once per case). */
enum { IMM_V_UNIFORM = 0, /* uniform over [-128, 127] */
       IMM_V_EDGES,       /* -128, 127, -1, 0, 1 only (the int8 range's ends and the signs) */
       IMM_V_SMALL,       /* [-3, 3] */
       IMM_V_COUNT };

static inline int imm_pick_mode(td_producer *p) {
    static const unsigned w[IMM_V_COUNT] = {4, 2, 1};
    return td_prod_pick(p, w, IMM_V_COUNT);
}

static inline int64_t imm_i8_value(td_rng *r, int mode) {
    static const int64_t edges[5] = {-128, 127, -1, 0, 1};
    switch (mode) {
    case IMM_V_EDGES: return edges[td_rng_below(r, 5)];
    case IMM_V_SMALL: return (int64_t)td_rng_below(r, 7) - 3;
    default: return (int64_t)td_rng_below(r, 256) - 128;
    }
}

/* Fills the cells of a strided 2-D view [rows, cols] of an integer region with int8
 * values of the given mode (other cells stay 0). */
static inline void imm_fill_i8_view(td_rng *r, td_case *c, int reg, int64_t rows, int64_t cols, int64_t srow,
                                    int64_t scol, int mode) {
    for (int64_t i = 0; i < rows; i++)
        for (int64_t k = 0; k < cols; k++) {
            int64_t v = imm_i8_value(r, mode);
            td_set(c, reg, (size_t)(i * srow + k * scol), (double)v);
        }
}

/* Every value of an integer region within [lo, hi] (a precondition check). */
typedef struct imm_within {
    const td_case *c;
    int reg, bad;
    size_t eb;
    int64_t lo, hi;
} imm_within;
static inline void imm_within_span(void *u, size_t lo, size_t hi) {
    imm_within *q = u;
    for (size_t i = lo / q->eb; i < hi / q->eb && i < q->c->r[q->reg].len && !q->bad; i++) {
        double v = td_get(q->c, q->reg, i);
        q->bad = !(v >= (double)q->lo && v <= (double)q->hi);
    }
}
TD_NO_COVERAGE static inline int imm_region_within(const td_case *c, int reg, int64_t lo, int64_t hi) {
    if (c->r[reg].mapped) { /* a sparse region (a far case): its written pages; the rest read as zero */
        imm_within q = {c, reg, lo > 0 || hi < 0, td_fmt_get(c->r[reg].fmt)->bytes, lo, hi};
        if (!q.bad) td_touched_pages(c->r[reg].data, c->r[reg].len * q.eb, imm_within_span, &q);
        return !q.bad;
    }
    if (c->r[reg].fmt == TD_I32) { /* int32 operands of a K = 2^23 lane: read in place */
        const int32_t *v = c->r[reg].data;
        for (size_t i = 0; i < c->r[reg].len; i++)
            if (v[i] < lo || v[i] > hi) return 0;
        return 1;
    }
    for (size_t i = 0; i < c->r[reg].len; i++) {
        double v = td_get(c, reg, i);
        if (!(v >= (double)lo && v <= (double)hi)) return 0;
    }
    return 1;
}

/* Scale modes (drawn once per scale vector): torch.rand-like in [0, 1), powers of two
 * 2^-8 .. 2^3, 0 or 1, wide (m * 2^e, m in [1, 2), e in [-20, 2]), each with a random
 * sign where `signed_ok`.  |scale| < 16 always (the contracts' domain). */
enum { IMM_S_RAND = 0, IMM_S_POW2, IMM_S_ZERO_ONE, IMM_S_WIDE, IMM_S_COUNT };

static inline double imm_scale(td_rng *r, int mode, int signed_ok) {
    double v;
    switch (mode) {
    case IMM_S_RAND: v = (double)(float)td_rng_unit(r); break;
    case IMM_S_POW2: v = ldexp(1.0, (int)td_rng_below(r, 12) - 8); break;
    case IMM_S_ZERO_ONE: v = td_rng_below(r, 4) == 0 ? 0.0 : 1.0; break;
    default: {
        double m = 1 + td_rng_unit(r);
        int e = (int)td_rng_below(r, 23) - 20; /* m * 2^e < 8, still < 16 after the binary32 rounding */
        v = (double)(float)ldexp(m, e);
    }
    }
    if (signed_ok && (td_rng_next(r) & 1)) v = -v;
    return v;
}

/* n scales of one mode (from the bytes) into region reg (allocated here); marks
 * values-special for the power-of-two mode. */
static inline void imm_fill_scales(td_producer *p, td_case *c, td_rng *r, int reg, int64_t n, int signed_ok) {
    int mode = (int)td_prod_u32(p, 0, IMM_S_COUNT - 1);
    td_case_alloc(c, reg, (size_t)n);
    for (int64_t i = 0; i < n; i++) td_set(c, reg, (size_t)i, imm_scale(r, mode, signed_ok));
    if (mode == IMM_S_POW2) c->classes |= TD_BC(TD_BC_VALUES_SPECIAL);
}

/* Every value of a region finite with |v| < 16 (the scales' domain). */
static inline int imm_scales_ok(const td_case *c, int reg) {
    for (size_t i = 0; i < c->r[reg].len; i++)
        if (!(fabs(td_get(c, reg, i)) < 16.0)) return 0;
    return 1;
}

#endif /* TD_IMM_COMMON_H */
