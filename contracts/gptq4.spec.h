/* The spec of the matmul4 contracts (contracts/gptq4_common.h; vocabulary:
 * contracts/spec.h): accSpec with bDequant = nib * s - zNib * s (zeroScaled first, as
 * the kernel and the Lean model), the K-sum in any order. */
static inline NUM SPEC(g4_weight)(NCX *cx, const td_case *c, int64_t k, int64_t col) {
    int64_t g = c->p[G4_NOG].i ? 0 : k / c->p[G4_GS].i;
    uint32_t b = (uint32_t)(int32_t)td_spec_load(c, G4_RB, (size_t)(k / 8 * c->p[G4_SBK].i + col * c->p[G4_SBN].i));
    uint32_t z = (uint32_t)(int32_t)td_spec_load(c, G4_RZ, (size_t)(g * c->p[G4_SZG].i + col / 8 * c->p[G4_SZN].i));
    NUM s = N(in)(cx, c, G4_RS, (size_t)(g * c->p[G4_SSG].i + col * c->p[G4_SSN].i));
    NUM q = N(exact)(cx, (double)((b >> (4 * (k % 8))) & 15u)), zq = N(exact)(cx, (double)((z >> (4 * (col % 8))) & 15u));
    return N(sub)(cx, N(mul)(cx, q, s), N(mul)(cx, zq, s));
}

static NUM SPEC(g4)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t row = l->idx[2], col = l->idx[3], K = c->p[G4_K].i;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t k = 0; k < K; k++) {
        NUM a = N(in)(cx, c, G4_RA, (size_t)(row * c->p[G4_SAM].i + k * c->p[G4_SAK].i));
        N(acc_add)(cx, &acc, N(mul)(cx, a, SPEC(g4_weight)(cx, c, k, col)));
    }
    return N(acc_end)(cx, &acc);
}

/* The intent: the same dot with the dequantized weight, in any order. */
static NUM SPEC(g4_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(g4)(cx, c, l); }
