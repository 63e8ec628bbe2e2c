/* The spec of contracts/attention_fwd_triton3.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn_online_common.spec.h"

static inline NUM SPEC(t3_lane)(NCX *cx, const td_case *c, const td_olane *l, const t3_kind *K) {
    at_row R;
    t3_row(c, K, l, &R);
    return SPEC(at_lane)(cx, c, &R);
}
static NUM SPEC(t3_1)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(t3_lane)(cx, c, l, &K1); }
static NUM SPEC(t3_2)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(t3_lane)(cx, c, l, &K2); }
static NUM SPEC(t3_3)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(t3_lane)(cx, c, l, &K3); }
static NUM SPEC(t3_4)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(t3_lane)(cx, c, l, &K4); }


/* The intent (docs/intent.md): attention with the window as a mask (at_intent). */
static inline NUM SPEC(t3_intent_lane)(NCX *cx, const td_case *c, const td_olane *l, const t3_kind *K) {
    at_row R;
    t3_row(c, K, l, &R);
    return SPEC(at_intent)(cx, c, &R);
}
static NUM SPEC(t3_1_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(t3_intent_lane)(cx, c, l, &K1); }
static NUM SPEC(t3_2_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(t3_intent_lane)(cx, c, l, &K2); }
static NUM SPEC(t3_3_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(t3_intent_lane)(cx, c, l, &K3); }
static NUM SPEC(t3_4_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(t3_intent_lane)(cx, c, l, &K4); }
