/* The spec of contracts/fused_rotary_embedding.c (vocabulary: contracts/spec.h).
 *   q:      one rotated element of a half-split pair (rope_common.spec.h)
 *   vcache: v_cache[slot] = v[token, kv head, d], a copy (exact) */
#include "rope_common.spec.h"

static NUM SPEC(frq)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rope_pair)(cx, c, l, RQ_COS, RQ_SIN);
}

static NUM SPEC(frv)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(in)(cx, c, RV_V, (size_t)l->idx[0]);
}

/* The intent (docs/intent.md): the rotary embedding (rope_common.h). */
static NUM SPEC(frq_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rope_intent_from)(cx, c, l, (int)l->region, RQ_COS, RQ_SIN);
}
