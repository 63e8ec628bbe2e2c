/* The spec of contracts/int4_matmul.c (vocabulary: contracts/spec.h): accSpec, the
 * weight (q - zp) * scale one binary32 product of an exact integer, a * w one product,
 * the K-sum in any order (the order given documents the kernel's BK steps only). */
static inline NUM SPEC(i4_weight)(NCX *cx, const td_case *c, int64_t k, int64_t col) {
    int64_t g = k / c->p[P_GS].i;
    uint32_t b = (uint32_t)(int32_t)td_spec_load(c, R_B, (size_t)(k / 8 * c->p[P_SBK].i + col * c->p[P_SBN].i));
    uint32_t z = (uint32_t)(int32_t)td_spec_load(c, R_BZP, (size_t)(g * c->p[P_SBZK].i + col / 8 * c->p[P_SBZN].i));
    int64_t d = (int64_t)((b >> (4 * (k % 8))) & 15u) - (int64_t)((z >> (4 * (col % 8))) & 15u);
    return N(mul)(cx, N(exact)(cx, (double)d), N(in)(cx, c, R_BS, (size_t)(g * c->p[P_SBSK].i + col * c->p[P_SBSN].i)));
}

static NUM SPEC(i4)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t row = l->idx[2], col = l->idx[3], K = c->p[P_K].i;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t k = 0; k < K; k++) {
        NUM a = N(in)(cx, c, R_A, (size_t)(row * c->p[P_SAM].i + k * c->p[P_SAK].i));
        N(acc_add)(cx, &acc, N(mul)(cx, a, SPEC(i4_weight)(cx, c, k, col)));
    }
    return N(acc_end)(cx, &acc);
}

/* The intent: the same dot with the dequantized weight, summed in any order. */
static NUM SPEC(i4_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(i4)(cx, c, l); }
