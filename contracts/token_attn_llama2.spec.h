/* The spec of contracts/token_attn_llama2.c (vocabulary: contracts/spec.h): lane
 * (b, h, n) is sm_scale * q·k over BLOCK_DMODEL, k the K row of the token slot
 * B_Loc[b, mil - seqlen + n] and KV head h / kv_group_num. */

static inline NUM SPEC(l2_dot)(NCX *cx, const td_case *c, const td_olane *l, int prescale) {
    int64_t b = l->idx[0], h = l->idx[1], n = l->idx[2];
    int64_t len = td_geti(c, R_SEQLEN, (size_t)b), mil = c->p[P_MIL].i;
    int64_t slot = td_geti(c, R_BLOC, (size_t)(b * c->p[P_SBLB].i + (mil - len + n) * c->p[P_SBLS].i));
    uint64_t qb = (uint64_t)(b * c->p[P_SQBS].i + h * c->p[P_SQH].i);
    uint64_t kb = (uint64_t)(slot * c->p[P_SKBS].i + (h / c->p[P_KVG].i) * c->p[P_SKH].i);
    NUM s = N(exact)(cx, c->p[P_SCALE].r);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_TREE, 0); /* tl.sum over the row (documents the source) */
    for (int64_t d = 0; d < c->p[P_BD].i; d++) {
        NUM q = N(in)(cx, c, R_Q, qb + (uint64_t)(d * c->p[P_SQD].i));
        if (prescale) q = N(mul)(cx, q, s);
        N(acc_add)(cx, &acc, N(mul)(cx, q, N(in)(cx, c, R_K, kb + (uint64_t)(d * c->p[P_SKD].i))));
    }
    NUM dot = N(acc_end)(cx, &acc);
    return prescale ? dot : N(mul)(cx, dot, s);
}

static NUM SPEC(llama2)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(either)(cx, SPEC(l2_dot)(cx, c, l, 0), SPEC(l2_dot)(cx, c, l, 1));
}

/* The intent (docs/intent.md): the scaled score q . k * sm_scale, exact, the dot in any
 * order; its bound admits the scale applied before the dot product (q * sm_scale, then
 * the dot: the same real expression), as an evaluation of the operation. */
static inline NUM SPEC(l2_intent_dot)(NCX *cx, const td_case *c, const td_olane *l, int prescale) {
    int64_t b = l->idx[0], h = l->idx[1], n = l->idx[2];
    int64_t len = td_geti(c, R_SEQLEN, (size_t)b), mil = c->p[P_MIL].i;
    int64_t slot = td_geti(c, R_BLOC, (size_t)(b * c->p[P_SBLB].i + (mil - len + n) * c->p[P_SBLS].i));
    uint64_t qb = (uint64_t)(b * c->p[P_SQBS].i + h * c->p[P_SQH].i);
    uint64_t kb = (uint64_t)(slot * c->p[P_SKBS].i + (h / c->p[P_KVG].i) * c->p[P_SKH].i);
    NUM s = N(exact)(cx, c->p[P_SCALE].r);
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t d = 0; d < c->p[P_BD].i; d++) {
        NUM q = N(in)(cx, c, R_Q, qb + (uint64_t)(d * c->p[P_SQD].i));
        if (prescale) q = N(mul)(cx, q, s);
        N(acc_add)(cx, &acc, N(mul)(cx, q, N(in)(cx, c, R_K, kb + (uint64_t)(d * c->p[P_SKD].i))));
    }
    NUM dot = N(acc_end)(cx, &acc);
    return prescale ? dot : N(mul)(cx, dot, s);
}
static NUM SPEC(llama2_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(either)(cx, SPEC(l2_intent_dot)(cx, c, l, 0), SPEC(l2_intent_dot)(cx, c, l, 1));
}
