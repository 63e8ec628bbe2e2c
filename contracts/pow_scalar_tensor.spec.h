/* The spec of contracts/pow_scalar_tensor.c (vocabulary: contracts/spec.h): val0 ** y
 * for the exponent y = in0[task * in0_stride0], written once for the shadow and MPFR. */

/* |val0|^y for |val0| > 0 as the two fp32 forms a pointwise kernel may write,
 * exp2(y * log2|val0|) (__powf, the fast-math lowering) and exp(y * ln|val0|), the
 * larger bound of the two (td_sh_either); then widened by POW_LIB_ULPS ulp(|r|) for a
 * library pow (libdevice __nv_powf, glibc powf), which is one call whose budget no math
 * model lists.  MPFR evaluates the first form exactly: |val0|^y. */
static NUM SPEC(pow_abs)(NCX *cx, NUM y, double ax) {
    NUM a = N(exact)(cx, ax);
    NUM r2 = N(exp2)(cx, N(mul)(cx, y, N(log2)(cx, a)));
    NUM re = N(exp)(cx, N(mul)(cx, y, N(log)(cx, a)));
    NUM r = N(either)(cx, r2, re);
    double m = N(hi)(cx, r);
    return N(widen)(cx, r, POW_LIB_ULPS * (0x1p-23 * m + 0x1p-149), "a library pow: POW_LIB_ULPS ulp of |r|");
}

/* powSpec = Real.rpow val0 y.  val0 = 0: rpow 0 0 = 1 and rpow 0 y = 0 for y > 0 (the
 * generator never pairs val0 = 0 with y < 0, where Lean's 0 and IEEE's +inf differ).
 * val0 < 0: the generator gives integer exponents only, where Mathlib's rpow is
 * |val0|^y cos(y pi) = (-1)^y |val0|^y, the IEEE pow. */
static NUM SPEC(pow_task)(NCX *cx, const td_case *c, int64_t task) {
    size_t off = (size_t)(task * c->p[P_IN_STRIDE].i);
    double b = c->p[P_VAL0].r, yv = td_get(c, R_IN, off);
    NUM y = N(in)(cx, c, R_IN, off);
    if (b == 0) return N(exact)(cx, yv == 0 ? 1.0 : 0.0);
    NUM r = SPEC(pow_abs)(cx, y, fabs(b));
    return b < 0 && fmod(yv, 2.0) != 0 ? N(neg)(cx, r) : r;
}

static NUM SPEC(pow)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(pow_task)(cx, c, (int64_t)l->idx[0]); }
