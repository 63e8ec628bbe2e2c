/* The spec of contracts/fast_rope_embedding.c (vocabulary: contracts/spec.h): one rotated
 * element, ropeFirstSpec / ropeSecondSpec (rope_common.spec.h); cos and sin are the
 * contract's last two regions. */
#include "rope_common.spec.h"

static NUM SPEC(fast_rope)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rope_pair)(cx, c, l, c->k->nregions - 2, c->k->nregions - 1);
}

/* The intent (docs/intent.md): the rotary embedding (rope_common.h). */
static NUM SPEC(fast_rope_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rope_intent_from)(cx, c, l, (int)l->region, c->k->nregions - 2, c->k->nregions - 1);
}
