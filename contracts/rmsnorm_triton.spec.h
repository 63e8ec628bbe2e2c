/* The spec of contracts/rmsnorm_triton.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "rmsnorm_common.spec.h"

static NUM SPEC(rms_sum)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rn_stream)(cx, c, l, &L_SUM, 0, 0);
}
static NUM SPEC(rms_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rn_stream)(cx, c, l, &L_IO, 0, 1);
}


/* Intents (rmsnorm_common.spec.h): RMS norm of each row over its N columns. */
static NUM SPEC(intent_sum)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rn_stream_intent)(cx, c, l, &L_SUM, 0);
}
static NUM SPEC(intent_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rn_stream_intent)(cx, c, l, &L_IO, 1);
}
