/* The spec of contracts/matmul_dequantize.c's matmul and matmul4 contracts (vocabulary:
 * contracts/spec.h; the dequantize contract's spec is matmul_dequant_int4.spec.h). */

/* i4BDequant: (bNib - zpNib) * bs, an exact binary32 product (5-bit integer, fp16
 * scale), then the kernel's .to(tl.float16) (erased by the statement: charged) */
static inline NUM SPEC(mq_weight)(NCX *cx, const td_case *c, int64_t k, int64_t col) {
    int64_t g = k / c->p[MQ_GS].i;
    uint32_t b = (uint32_t)(int32_t)td_spec_load(c, MQ_RB, (size_t)(k / 8 * c->p[MQ_SBK].i + col * c->p[MQ_SBN].i));
    uint32_t z =
        (uint32_t)(int32_t)td_spec_load(c, MQ_RBZP, (size_t)(g * c->p[MQ_SBZK].i + col / 8 * c->p[MQ_SBZN].i));
    int64_t d = (int64_t)((b >> (4 * (k % 8))) & 15u) - (int64_t)((z >> (4 * (col % 8))) & 15u);
    NUM w = N(mul)(cx, N(exact)(cx, (double)d), N(in)(cx, c, MQ_RBS, (size_t)(g * c->p[MQ_SBSK].i + col * c->p[MQ_SBSN].i)));
    return N(kround_to)(cx, w, mq_f16);
}

/* fp16(i4AccSpec): the K-sum in any order (the order given documents the BK steps) */
static NUM SPEC(mq)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t row = l->idx[2], col = l->idx[3], K = c->p[MQ_K].i;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    for (int64_t k = 0; k < K; k++) {
        NUM a = N(in)(cx, c, MQ_RA, (size_t)(row * c->p[MQ_SAM].i + k * c->p[MQ_SAK].i));
        N(acc_add)(cx, &acc, N(mul)(cx, a, SPEC(mq_weight)(cx, c, k, col)));
    }
    return N(cast)(cx, N(acc_end)(cx, &acc), MQ_C_STORE);
}

/* The intent: the fp16-dequantized weight (the s1 path's dtype) times A, rounded once. */
static NUM SPEC(mq_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(mq)(cx, c, l); }
