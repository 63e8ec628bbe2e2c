/* The spec vocabulary: a contract's spec is written ONCE against these names and
 * compiled twice, for the shadow type (tolerance, fast) and the MPFR type
 * (reference value).  The spec lives in its own file, included once per number type
 * by spec_instantiate.h:
 *
 *   contracts/add_example.c:
 *     #include "gen.h"
 *     enum { ... parameter and region indices ... };
 *     #define TD_SPEC_FILE "add_example.spec.h"
 *     #include "spec_instantiate.h"          // add_sh and add_mp
 *     ... generator, checker, write set, the td_contract table with TD_SPECS(add) ...
 *   contracts/add_example.spec.h (no include guard):
 *     static NUM SPEC(add)(NCX *cx, const td_case *c, const td_olane *l) {
 *         return N(add)(cx, N(in)(cx, c, X, l->off), N(in)(cx, c, Y, l->off));
 *     }
 *
 * Names available inside a spec file:
 *   NUM, NCX, NB (comparison result), NACC (accumulator), SPEC(name)
 *   N(in)(cx, c, reg, off)        element of a region (its initial contents), exact
 *   N(exact)(cx, x)               an exact constant (x representable, e.g. a parameter)
 *   N(lit_c)(cx, TD_C_PI)         a named constant as a kernel literal (rounded once by the kernel)
 *   N(lit_dec)(cx, "0.044715")    a decimal literal as the kernel holds it
 *   N(add) N(sub) N(mul) N(div) N(fma)      kernel arithmetic (rounded in the evaluation format)
 *   N(neg) N(abs) N(max) N(min) N(sign)     exact operations
 *   N(sqrt) N(rsqrt) N(exp) N(exp2) N(log) N(log2) N(sin) N(cos) N(tanh) N(erf) N(sigmoid)
 *   N(cmp)(cx, a, b, '>' or 'g' (>=)) -> NB;  N(sel)(cx, cond, a, b);  N(truth)(cond)
 *   N(cast)(cx, x, slot)          a declared cast (profile from the kernel)
 *   N(acc_init)(cx, &acc, order, block); N(acc_add)(cx, &acc, t); N(acc_end)(cx, &acc)
 *                                 a sum in ANY order (the kernel's declaration may narrow it;
 *                                 the order given here documents the source only)
 *   N(rescaled)(cx, s, n, spread, base2, wmax)  a sum of exponentials that a kernel may
 *                                 accumulate online (running maximum, rescaled partials)
 *   N(reblock)(cx, s, n, smag, wmax, base2, muls, divs)  an online softmax-weighted sum
 *                                 the spec evaluates in one blocking, widened to any other
 *                                 (KV block size, order); N(reblock_loc) its widening alone
 *   N(kround)(cx, x, slot) / N(kround_to)(cx, x, profile)  a rounding the kernel makes
 *                                 and the contract does not, at a scale of its choosing;
 *                                 N(kround_abs[_to]) its subnormal parts at the final scale
 *   N(widen)(cx, x, e, why)       x's bound widened by a term the spec derives
 *   N(hi) N(up) N(down)           binary64 bounds of |x|, x (magnitudes for those terms)
 *   N(either)(cx, a, b)           two algebraically equal forms a kernel may write
 *   N(mean)(cx, sum, n)           sum / n by any algorithm (one division, sum(x/n), Welford)
 *   N(memo_get)(cx, key, &v) / N(memo_put)(cx, key, v)   per-case memo of per-row
 *                                 quantities (both passes; the shadow's is off while
 *                                 explaining a lane, so its trace shows every step)
 */
#ifndef TD_SPEC_H
#define TD_SPEC_H

#include <string.h>

#include "consts.h"
#include "contract.h"
#include "mp.h"
#include "shadow.h"
#include "nocov.h"

TD_NOCOV_BEGIN

/* loads: exact values of region elements.  A spec loads its inputs once per lane (a
 * matmul lane K times), so binary32, most of them, and the integer formats of the
 * integer matmuls are read inline; other formats, NaNs (canonicalised there) and out-of-range offsets (an abort there) go
 * through td_get, whose value this is in every case. */
/* A binary16 value from its bits, exactly (td_decode's value): a normal one as the
 * binary64 with the same sign, exponent and significand, a subnormal one as its
 * significand times 2^-24; infinities and NaNs go through td_get (NAN: the caller's
 * fallback, as no finite binary16 decodes to it).  Without branches (every attention
 * and GEMM lane loads its binary16 operands here): the sign at bit 63 and the
 * exponent and significand fields e, m at bits 52..56 and 42..51 make the binary64
 * 2^(e - 1023) (1 + m / 2^10) where e > 0 and m 2^-1032 where e = 0 (a subnormal
 * binary64), so that times 2^1008 it is 2^(e - 15) (1 + m / 2^10), resp. m 2^-24: the
 * value, the product exact (a normal binary64 result, no bits dropped).  tests/test_sh_dot.c
 * compares it with ldexp of the fields on all 65536 encodings. */
static inline double td_spec_f16(uint16_t h) {
    uint64_t b = (uint64_t)(h & 0x8000u) << 48 | (uint64_t)(h & 0x7fffu) << 42;
    double v;
    memcpy(&v, &b, sizeof v);
    v *= 0x1p1008;
    return (h & 0x7c00u) == 0x7c00u ? NAN : v;
}

static inline double td_spec_load(const td_case *c, int reg, size_t off) {
    const td_region *R = &c->r[reg];
    if (off < R->len) {
        const uint8_t *p = R->data;
        if (R->fmt == TD_F32) {
            uint32_t b;
            memcpy(&b, p + 4 * off, sizeof b);
            if ((b & 0x7fffffffu) <= 0x7f800000u) {
                float y;
                memcpy(&y, &b, sizeof y);
                return y;
            }
        } else if (R->fmt == TD_F16) { /* attention and GEMM operands: a third of flash_attn's oracle was td_get */
            uint16_t h;
            memcpy(&h, p + 2 * off, sizeof h);
            double v = td_spec_f16(h);
            if (v == v) return v;
        } else if (R->fmt == TD_BF16) { /* the high half of a binary32 */
            uint16_t h;
            memcpy(&h, p + 2 * off, sizeof h);
            uint32_t b = (uint32_t)h << 16;
            if ((b & 0x7fffffffu) <= 0x7f800000u) {
                float y;
                memcpy(&y, &b, sizeof y);
                return y;
            }
        } else if (R->fmt == TD_I32) { /* integer matmuls: K = 2^23 terms a lane */
            int32_t v;
            memcpy(&v, p + 4 * off, sizeof v);
            return v;
        } else if (R->fmt == TD_U8) return p[off];
        else if (R->fmt == TD_I8) return (int8_t)p[off];
    }
    return td_get(c, reg, off);
}
static inline td_sh td_sh_in(td_shcx *cx, const td_case *c, int reg, size_t off) {
    return td_sh_exact(cx, td_spec_load(c, reg, off));
}
static inline td_mp td_mp_in(td_mpcx *cx, const td_case *c, int reg, size_t off) {
    td_mp r = td_mp_new(cx);
    const td_region *R = &c->r[reg];
    if (R->fmt == TD_I64) mpfr_set_si(r->x, (long)td_geti(c, reg, off), MPFR_RNDN);
    else mpfr_set_d(r->x, td_spec_load(c, reg, off), MPFR_RNDN);
    return r;
}

/* memo: td_sh_memo_get / put (shadow.h) and td_mp_memo_get / put (mp.h), both in oracle/ */

TD_NOCOV_END
#endif
