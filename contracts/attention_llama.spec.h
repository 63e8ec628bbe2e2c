/* The spec of contracts/attention_llama.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn_online_common.spec.h"

static NUM SPEC(al_nc)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    al_row(c, 0, l, &R);
    return SPEC(at_lane)(cx, c, &R);
}
static NUM SPEC(al_c)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    al_row(c, 1, l, &R);
    return SPEC(at_lane)(cx, c, &R);
}


/* The intent (docs/intent.md): scaled dot-product attention over every key (at_intent). */
static NUM SPEC(al_nc_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    al_intent_row(c, 0, l, &R);
    return SPEC(at_intent)(cx, c, &R);
}
static NUM SPEC(al_c_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    al_intent_row(c, 1, l, &R);
    return SPEC(at_intent)(cx, c, &R);
}
