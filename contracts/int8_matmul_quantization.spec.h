/* The spec of contracts/int8_matmul_quantization.c (vocabulary: contracts/spec.h); the
 * error models are derived in the contract's header. */

/* quantize: o = 0 the int8 cell (row idx[0], column idx[1]), o = 1 the row's fp16 scale */
static inline NUM SPEC(q_lane)(NCX *cx, const td_case *c, const td_olane *l, int intent) {
    double m = imq_rowmax(c, l->idx[0]);
    NUM mm = N(exact)(cx, m), k127 = N(exact)(cx, 127.0);
    if (l->o == 1) return N(cast)(cx, N(div)(cx, mm, k127), Q_C_SCALE);
    if (m == 0) return N(cast)(cx, N(exact)(cx, 0.0), Q_C_STORE); /* Lean: x / 0 = 0 */
    NUM x = N(in)(cx, c, Q_RFPA, (size_t)(l->idx[0] * c->p[Q_SFM].i + l->idx[1] * c->p[Q_SFK].i));
    NUM q = N(div)(cx, x, N(div)(cx, mm, k127));            /* the kernel's x / (a_max / 127) */
    NUM alt = intent ? N(div)(cx, N(mul)(cx, k127, x), mm)  /* (127 x) / a_max */
                     : N(mul)(cx, x, N(div)(cx, k127, mm)); /* x * (127 / a_max) */
    return N(cast)(cx, N(either)(cx, q, alt), Q_C_STORE);
}
static NUM SPEC(q)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(q_lane)(cx, c, l, 0); }
/* The intent: trunc(x / (absmax / 127)) in any of its algebraic forms; the scale fp16. */
static NUM SPEC(q_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(q_lane)(cx, c, l, 1); }

/* matmul: the exact integer sum (int64; |sum| < 2^31 under hOvf) */
static inline int64_t SPEC(mi_acc)(const td_case *c, const td_olane *l) {
    int64_t row = l->idx[2], col = l->idx[3], K = c->p[MI_K].i, sum = 0;
    for (int64_t k = 0; k < K; k++)
        sum += (int64_t)td_spec_load(c, MI_RA, (size_t)(row * c->p[MI_SAM].i + k * c->p[MI_SAK].i)) *
               (int64_t)td_spec_load(c, MI_RB, (size_t)(k * c->p[MI_SBK].i + col * c->p[MI_SBN].i));
    return sum;
}

/* fp16((acc : R) * as[row] * bs[col]); kernel = 1 adds acc.to(float32) (exact to 2^24) */
static inline NUM SPEC(mi_lane)(NCX *cx, const td_case *c, const td_olane *l, int kernel) {
    int64_t acc = SPEC(mi_acc)(c, l);
    NUM v = N(exact)(cx, (double)acc);
    if (kernel && (acc > (1 << 24) || acc < -(1 << 24))) v = N(kround_to)(cx, v, imq_f32);
    NUM as = N(in)(cx, c, MI_RAS, (size_t)(l->idx[2] * c->p[MI_SASM].i));
    NUM bs = N(in)(cx, c, MI_RBS, (size_t)(l->idx[3] * c->p[MI_SBSN].i));
    NUM left = N(mul)(cx, N(mul)(cx, v, as), bs), right = N(mul)(cx, v, N(mul)(cx, as, bs));
    return N(cast)(cx, N(either)(cx, left, right), MI_C_STORE);
}
static NUM SPEC(mi)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(mi_lane)(cx, c, l, 1); }
/* The intent: the exact dequantized product rounded once (either association). */
static NUM SPEC(mi_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(mi_lane)(cx, c, l, 0); }
