/* The spec half of contracts/cross_entropy_fwd_common.h: helpers written once against the vocabulary of
 * contracts/spec.h.  A contract's spec file includes it, so it is compiled once per number
 * type with that spec (no include guard on purpose). */

#include "reduce_common.spec.h"
static NUM SPEC(ce)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(rc_ce)(cx, c, l, &CE); }

/* the intent (docs/intent.md): reduce_common.spec.h's rc_ce_intent */
static NUM SPEC(ce_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(rc_ce_intent)(cx, c, l, &CE); }
