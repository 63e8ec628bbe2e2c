/* The spec of contracts/int_scaled_matmul.c (vocabulary: contracts/spec.h); the error
 * model is derived in the contract's header. */

/* mmSpec / smSpec: the exact integer sum over k < K (int64; |sum| < 2^31 under hOvf) */
static inline int64_t SPEC(ism_acc)(const td_case *c, const td_olane *l, const int *map) {
    mm_shape s;
    mm_shape_get(c, map, &s);
    int64_t sum = 0;
    for (int64_t k = 0; k < s.K; k++)
        sum += (int64_t)td_spec_load(c, R_A, (size_t)(l->idx[0] + k * s.sak)) *
               (int64_t)td_spec_load(c, R_B, (size_t)(k * s.sbk + l->idx[1]));
    return sum;
}

/* C = MemCell.of .int mmSpec: exact, tolerance 0 */
static NUM SPEC(ism_mm)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(exact)(cx, (double)SPEC(ism_acc)(c, l, map_mm));
}

/* C = (smSpec : R) * s1[row]; kernel = 1 adds the kernel's int32 -> binary32
 * conversion (exact to 2^24) */
static inline NUM SPEC(ism_scaled)(NCX *cx, const td_case *c, const td_olane *l, int kernel) {
    int64_t acc = SPEC(ism_acc)(c, l, map_sc);
    NUM v = N(exact)(cx, (double)acc);
    if (kernel && (acc > (1 << 24) || acc < -(1 << 24))) v = N(kround_to)(cx, v, ism_f32);
    return N(mul)(cx, v, N(in)(cx, c, R_S1, (size_t)l->idx[2]));
}
static NUM SPEC(ism_sc)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(ism_scaled)(cx, c, l, 1); }

/* The intents: torch._int_mm (exact) and its row-scaled product rounded once. */
static NUM SPEC(ism_mm_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(ism_mm)(cx, c, l); }
static NUM SPEC(ism_sc_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(ism_scaled)(cx, c, l, 0); }
