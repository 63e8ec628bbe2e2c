/* The spec of contracts/matmul_dequant_int4.c (vocabulary: contracts/spec.h):
 * dequantSpec k n = (bNibble - zpNibble) * scale, the nibbles read from the 32-bit
 * patterns (low nibble first), their difference exact, one binary32 product. */
static inline int64_t SPEC(mdi4_diff)(const td_case *c, int64_t k, int64_t n) {
    int64_t gs = c->p[P_GS].i;
    uint32_t b = (uint32_t)(int32_t)td_spec_load(c, R_B, (size_t)(k / 8 * c->p[P_SBK].i + n * c->p[P_SBN].i));
    uint32_t z = (uint32_t)(int32_t)td_spec_load(c, R_ZP, (size_t)(k / gs * c->p[P_SBZK].i + n / 8 * c->p[P_SBZN].i));
    return (int64_t)((b >> (4 * (k % 8))) & 15u) - (int64_t)((z >> (4 * (n % 8))) & 15u);
}

static NUM SPEC(mdi4)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t k = l->idx[0], n = l->idx[1], gs = c->p[P_GS].i;
    NUM d = N(exact)(cx, (double)SPEC(mdi4_diff)(c, k, n));
    return N(mul)(cx, d, N(in)(cx, c, R_S, (size_t)(k / gs * c->p[P_SBSK].i + n * c->p[P_SBSN].i)));
}

/* The intent: (q - zp) * scale of the weight's group, rounded once. */
static NUM SPEC(mdi4_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(mdi4)(cx, c, l); }
