/* The spec of contracts/rotary_emb.c (vocabulary: contracts/spec.h): rotaryQ0/Q1/K0/K1Spec,
 * one rotated element of an interleaved pair (rope_common.spec.h). */
#include "rope_common.spec.h"

static NUM SPEC(rotary_emb)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rope_pair)(cx, c, l, R_COS, R_SIN);
}

/* The intent (docs/intent.md): the rotary embedding (rope_common.h). */
static NUM SPEC(rotary_emb_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rope_intent_from)(cx, c, l, (int)l->region, R_COS, R_SIN);
}
