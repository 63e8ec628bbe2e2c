/* The spec of contracts/rotary_emb_nopad.c (vocabulary: contracts/spec.h): rotaryPair of
 * one element (rope_common.spec.h); a KVCache lane reads its pair from K (the v2 kernel
 * stores the rotated key into the cache), every other lane in place. */
#include "rope_common.spec.h"

static NUM SPEC(nopad)(NCX *cx, const td_case *c, const td_olane *l) {
    int src = l->region == R_KVC ? R_K : (int)l->region;
    return SPEC(rope_pair_from)(cx, c, l, src, R_COS, R_SIN);
}

/* The intent (docs/intent.md): the rotary embedding (rope_common.h), the rotated key
 * stored into its cache slot under v2. */
static NUM SPEC(nopad_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int src = l->region == R_KVC ? R_K : (int)l->region;
    return SPEC(rope_intent_from)(cx, c, l, src, R_COS, R_SIN);
}
