/* The spec half of contracts/rope_common.h (no include guard: compiled once per number
 * type with the spec that includes it).
 *
 * One rotated element (lane encoding in rope_common.h):
 *   forward  first  x0*c - x1*s     second  x1*c + x0*s
 *   backward first  x0*c + x1*s     second  x1*c - x0*s   (sin negated: x*(-s) is exact)
 * Two products and one sum, each rounded once in binary32: the shadow charges each
 * product its rounding error (exactly, the operands being exact inputs) and the sum
 * u * (|result| + propagated).  This covers every admissible evaluation: either product
 * fused into an FMA (its rounding error becomes 0, below the charge), the terms in
 * either order, -(x1*s) + x0*c, sin negated before or after the product (exact). */
static inline NUM SPEC(rope_pair_from)(NCX *cx, const td_case *c, const td_olane *l, int src, int reg_cos,
                                       int reg_sin) {
    NUM x0 = N(in)(cx, c, src, (size_t)l->idx[0]);
    NUM x1 = N(in)(cx, c, src, (size_t)l->idx[1]);
    NUM cs = N(in)(cx, c, reg_cos, (size_t)l->idx[2]);
    NUM sn = N(in)(cx, c, reg_sin, (size_t)l->idx[3]);
    int second = (l->o & 1) != 0, bwd = (l->o & 2) != 0;
    NUM a = N(mul)(cx, second ? x1 : x0, cs);
    NUM b = N(mul)(cx, second ? x0 : x1, sn);
    return (second ^ bwd) ? N(add)(cx, a, b) : N(sub)(cx, a, b);
}

/* the pair read from the lane's own region (in place) */
static inline NUM SPEC(rope_pair)(NCX *cx, const td_case *c, const td_olane *l, int reg_cos, int reg_sin) {
    return SPEC(rope_pair_from)(cx, c, l, (int)l->region, reg_cos, reg_sin);
}

/* The intent (docs/intent.md; the definitions in rope_common.h): the exact rotation of
 * the lane's pair by the table's cos and sin, rounded once to the output.  A rotation
 * has no evaluation order to choose, so its expression is the spec's; the intent's
 * shadow bound is the same any-evaluation bound (an FMA or not, either order). */
static inline NUM SPEC(rope_intent_from)(NCX *cx, const td_case *c, const td_olane *l, int src, int reg_cos,
                                         int reg_sin) {
    return SPEC(rope_pair_from)(cx, c, l, src, reg_cos, reg_sin);
}
