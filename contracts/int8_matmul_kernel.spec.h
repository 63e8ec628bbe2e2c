/* The spec of contracts/int8_matmul_kernel.c (vocabulary: contracts/spec.h).
 *
 * imSpec is an integer: the sum is formed exactly in int64 (|sum| <= 2^31 under hOvf)
 * and enters the oracle as an exact constant, so the tolerance is 0 for the shadow and
 * the MPFR reference alike (contracts/imm_common.h). */

/* imSpec row col = sum_{f<4} sum_{kk<K/4} A[row, f*K/4 + kk] * (bits_f(B[kk, col]) - 1) */
static NUM SPEC(imk)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t row = l->idx[0], col = l->idx[1], kq = c->p[P_K].i / 4;
    int64_t sam = c->p[P_SAM].i, sak = c->p[P_SAK].i, sbk = c->p[P_SBK].i, sbn = c->p[P_SBN].i;
    int64_t sum = 0;
    for (int64_t f = 0; f < 4; f++)
        for (int64_t kk = 0; kk < kq; kk++) {
            int64_t a = (int64_t)td_spec_load(c, R_A, (size_t)(row * sam + (f * kq + kk) * sak));
            int64_t w = (int64_t)td_spec_load(c, R_B, (size_t)(kk * sbk + col * sbn));
            sum += a * (((w >> (2 * f)) & 3) - 1);
        }
    return N(exact)(cx, (double)sum);
}

/* The intent: torch.matmul(A, W) with W [K, N] unpacked from B (row k of W is field
 * k / (K/4) of B's row k % (K/4)), summed over k in order, exact in int32. */
static NUM SPEC(imk_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t row = l->idx[0], col = l->idx[1], K = c->p[P_K].i, kq = K / 4;
    int64_t sum = 0;
    for (int64_t k = 0; k < K; k++) {
        int64_t a = (int64_t)td_spec_load(c, R_A, (size_t)(row * c->p[P_SAM].i + k * c->p[P_SAK].i));
        int64_t b = (int64_t)td_spec_load(c, R_B, (size_t)(k % kq * c->p[P_SBK].i + col * c->p[P_SBN].i));
        sum += a * (((b >> (2 * (k / kq))) & 3) - 1);
    }
    return N(exact)(cx, (double)sum);
}
