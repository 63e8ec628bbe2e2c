/* Spec helpers of the KV-cache int8 quantizers (contracts/kvquant_common.h); no include
 * guard: read once per number type.
 *
 * The scale s = m / 127 (m the row's exact absmax): one binary32 division of exact
 * operands, or m * (1/127) with the reciprocal rounded once (N(either): both are what a
 * competent port writes), then the scale's store cast when the format is narrower
 * (slot >= 0: quantize_copy_kv's `.to(tl.float16)`).  The value q = int8(x / s): the
 * division by the scale as the kernel holds it (the cast value: Lean's valueXsR divides by
 * the R-rounded scale), or x * (1/s) with the reciprocal formed once per row; then the
 * truncating store, whose tolerance is the set of integers over the quotient's error
 * interval.  A zero row (m = 0) stores q = 0 (Lean: x / 0 = 0; the kernel's NaN converts
 * to 0). */
static NUM SPEC(kvq_scale)(NCX *cx, double m, int slot) {
    NUM mm = N(exact)(cx, m), k = N(exact)(cx, KVQ_DIV);
    NUM s = N(either)(cx, N(div)(cx, mm, k), N(mul)(cx, mm, N(div)(cx, N(exact)(cx, 1.0), k)));
    return slot >= 0 ? N(cast)(cx, s, slot) : s;
}

static NUM SPEC(kvq_value)(NCX *cx, NUM x, NUM s, double m, int store) {
    if (m == 0) return N(cast)(cx, N(exact)(cx, 0.0), store);
    NUM q = N(either)(cx, N(div)(cx, x, s), N(mul)(cx, x, N(div)(cx, N(exact)(cx, 1.0), s)));
    return N(cast)(cx, q, store);
}
