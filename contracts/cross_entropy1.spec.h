/* The spec of contracts/cross_entropy1.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "reduce_common.spec.h"

static NUM SPEC(ce1)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(rc_ce)(cx, c, l, &CE1); }

/* the intent (docs/intent.md): reduce_common.spec.h's rc_ce_intent */
static NUM SPEC(ce1_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(rc_ce_intent)(cx, c, l, &CE1); }
