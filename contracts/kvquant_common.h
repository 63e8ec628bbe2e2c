/* Shared pieces of the KV-cache int8 quantizers of lightllm (quantize_copy_kv,
 * quantize_kv_copy, quantize_kv_transform): program t loads token t's rows (a head, or a
 * group of a head), takes each row's absmax m = max_d |x[d]| (exact: a maximum of
 * |binary32| values, masked lanes load other=0.0, which never raises it), the scale
 * s = m / 127 (stored: fp16 or the scale tensor's dtype) and stores q = (x / s).to(int8)
 * at the cache row Dest_loc[t].  `.to(tl.int8)` of a float is fptosi: truncation toward
 * zero (VeriTile's WithBot.realToInt8 = tritonTruncTowardZero, Scalar.lean), so the store
 * slot is int8:rtz:sat; the row domain below keeps |x / s| < 128, where sat and wrap agree.
 *
 * The row domain (a precondition the generators meet by construction, the checkers test):
 * every row's absmax is 0 or in [lo, hi], lo and hi per contract, so that s is a normal
 * number of the scale's format (fp16: m >= 2^-6 gives s >= 1.2e-4 > 2^-14, and m <= 2^22
 * gives s <= 33026 < 65504) and |x / s| <= 127 (1 + 2^-11) (1 + a few u) < 128.  A zero
 * row (padding tokens, a pruned head) is in the domain: the kernel computes 0 / 0 = NaN,
 * which PTX's cvt (and fptosi's lowering) converts to 0, and stores the scale 0: that is
 * Lean's defined value (x / 0 = 0, realToInt8 0 = 0), so the contracts DEFINE q = 0 and
 * s = 0 there. */
#ifndef TD_KVQUANT_COMMON_H
#define TD_KVQUANT_COMMON_H

#include <math.h>

#include "kvcopy_common.h"

/* the scale divisor the kernels hold exactly (`/ 127.` : 127 is a binary32) */
#define KVQ_DIV 127.0

/* max |x| over n elements of region reg at base + d * stride (exact) */
static inline double kvq_rowmax(const td_case *c, int reg, int64_t base, int64_t stride, int64_t n) {
    double m = 0;
    for (int64_t d = 0; d < n; d++) m = fmax(m, fabs(td_get(c, reg, (size_t)(base + d * stride))));
    return m;
}

/* NULL when the row's absmax is 0 or within [lo, hi] and its values are finite */
static inline const char *kvq_check_row(const td_case *c, int reg, int64_t base, int64_t stride, int64_t n,
                                        double lo, double hi) {
    for (int64_t d = 0; d < n; d++)
        if (!isfinite(td_get(c, reg, (size_t)(base + d * stride)))) return "K holds real (finite) values";
    double m = kvq_rowmax(c, reg, base, stride, n);
    if (m != 0 && !(m >= lo && m <= hi)) return "every row's absmax is 0 or within the scale's normal range";
    return NULL;
}

/* NULL when the three quantizers' tensors are where the kernel addresses them: Dest_loc
 * (region dest) holds ntok = kn[0] distinct cache rows, which makes cap = max(ntok,
 * max Dest_loc + 1) rows; K (region k) holds nd dimensions kn at strides ks, the values
 * (region out) cap rows of kn's others at strides os, the scales (region scale) cap rows
 * of kn[1 .. nd - 2] at strides ss.  The checks run in that order (each message names
 * the first broken one). */
static inline const char *kvq_check_tensors(const td_case *c, int k, int dest, int out, int scale, int nd,
                                            const int64_t *kn, const int64_t *ks, const int64_t *os,
                                            const int64_t *ss) {
    int64_t cap, on[4], sn[4];
    const char *e = kv_check_dest(c, dest, kn[0], &cap);
    if (e) return e;
    for (int d = 0; d < nd; d++) on[d] = sn[d] = d ? kn[d] : cap;
    if ((e = kv_check_fits(c, k, nd, kn, ks)) || (e = kv_check_fits(c, out, nd, on, os)) ||
        (e = kv_check_fits(c, scale, nd - 1, sn, ss)))
        return e;
    return NULL;
}

/* Shapes one row's values after td_vgen_fill: 1 in 16 rows all zero (a padding token),
 * 1 in 16 on a grid (x = k 2^e, k in [-127, 127], one |k| = 127: s = 2^e exactly, the
 * quotients exact integers, where a kernel's x / s must not fall to k - 1 by more than its
 * rounding allows), and a nonzero absmax below lo raised to lo (the largest element's sign
 * kept).  Marks TD_BC_VALUES_SPECIAL for the zero and grid rows. */
static inline void kvq_shape_row(td_rng *r, td_case *c, int reg, int64_t base, int64_t stride, int64_t n,
                                 double lo, uint64_t *classes) {
    uint32_t kind = td_rng_below(r, 16);
    if (kind == 0) {
        for (int64_t d = 0; d < n; d++) td_set(c, reg, (size_t)(base + d * stride), 0.0);
        *classes |= TD_BC(TD_BC_VALUES_SPECIAL);
        return;
    }
    if (kind == 1) {
        int e = (int)td_rng_below(r, 24) - 12; /* 127 * 2^e within [lo, hi] for every contract's range */
        int64_t top = (int64_t)td_rng_below(r, (uint32_t)n);
        for (int64_t d = 0; d < n; d++) {
            int64_t k = (int64_t)td_rng_below(r, 255) - 127;
            td_set(c, reg, (size_t)(base + d * stride), ldexp((double)k, e));
        }
        td_set(c, reg, (size_t)(base + top * stride), ldexp(top % 2 ? -127.0 : 127.0, e));
        *classes |= TD_BC(TD_BC_VALUES_SPECIAL);
        return;
    }
    double m = 0;
    int64_t at = 0;
    for (int64_t d = 0; d < n; d++) {
        double v = fabs(td_get(c, reg, (size_t)(base + d * stride)));
        if (v > m) m = v, at = d;
    }
    if (m > 0 && m < lo) td_set(c, reg, (size_t)(base + at * stride), td_get(c, reg, (size_t)(base + at * stride)) < 0 ? -lo : lo);
}

#endif
