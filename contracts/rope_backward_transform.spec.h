/* The spec of contracts/rope_backward_transform.c (vocabulary: contracts/spec.h): one rotated element of a
 * half-split pair (rope_common.spec.h; the lane carries the pass). */
#include "rope_common.spec.h"

static NUM SPEC(rope_btf)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rope_pair)(cx, c, l, RL_COS, RL_SIN);
}

/* The intent (docs/intent.md): the rotary embedding (rope_common.h). */
static NUM SPEC(rope_btf_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rope_intent_from)(cx, c, l, (int)l->region, RL_COS, RL_SIN);
}
