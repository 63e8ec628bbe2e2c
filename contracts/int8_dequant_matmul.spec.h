/* The spec of contracts/int8_dequant_matmul.c (vocabulary: contracts/spec.h); the error
 * model's terms are derived in the contract's header. */

/* accSpec: the exact integer sum (int64; |sum| < 2^31 under hOvf) */
static inline int64_t SPEC(idm_acc)(const td_case *c, const td_olane *l) {
    int64_t row = l->idx[2], col = l->idx[3], K = c->p[P_K].i, sum = 0;
    for (int64_t k = 0; k < K; k++)
        sum += (int64_t)td_spec_load(c, R_A, (size_t)(row * c->p[P_SAM].i + k * c->p[P_SAK].i)) *
               (int64_t)td_spec_load(c, R_B, (size_t)(k * c->p[P_SBK].i + col * c->p[P_SBN].i));
    return sum;
}

/* i8ProdSpec: w[col] * (x[row] * (acc * divfactor)) in the kernel's parenthesization;
 * kernel = 1 adds the int32 -> binary32 conversion the kernel makes (exact to 2^24) */
static inline NUM SPEC(idm_prod)(NCX *cx, const td_case *c, const td_olane *l, int kernel) {
    int64_t acc = SPEC(idm_acc)(c, l);
    NUM v = N(exact)(cx, (double)acc);
    if (kernel && (acc > (1 << 24) || acc < -(1 << 24))) v = N(kround_to)(cx, v, idm_f32);
    v = N(mul)(cx, v, N(exact)(cx, c->p[P_DIV].r));
    v = N(mul)(cx, N(in)(cx, c, R_SX, (size_t)l->idx[2]), v);
    return N(mul)(cx, N(in)(cx, c, R_SW, (size_t)l->idx[3]), v);
}

/* fp16(i8Spec): with has_bias the kernel rounds the product to fp16 before the bias
 * add (charged, the reference unrounded), then the store cast */
static NUM SPEC(idm)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM v = SPEC(idm_prod)(cx, c, l, 1);
    if (c->p[P_HASB].i) {
        v = N(kround_to)(cx, v, idm_f16);
        v = N(kround_abs_to)(cx, v, idm_f16, 1.0, 0.0);
        v = N(add)(cx, v, N(in)(cx, c, R_BIAS, (size_t)l->idx[3]));
    }
    return N(cast)(cx, v, C_STORE);
}

/* The intent: the dequantized product plus the bias, rounded once to fp16. */
static NUM SPEC(idm_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    NUM v = SPEC(idm_prod)(cx, c, l, 0);
    if (c->p[P_HASB].i) v = N(add)(cx, v, N(in)(cx, c, R_BIAS, (size_t)l->idx[3]));
    return N(cast)(cx, v, C_STORE);
}
