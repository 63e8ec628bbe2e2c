/* The spec of contracts/attention_forward_triton.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn_online_common.spec.h"

static NUM SPEC(aft_cf)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    at_sage_row(c, &X_CF, l, &R);
    return SPEC(at_lane)(cx, c, &R);
}
static NUM SPEC(aft_io)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    at_sage_row(c, &X_IO, l, &R);
    return SPEC(at_lane)(cx, c, &R);
}


/* The intent (docs/intent.md): attention over the dequantised scores (at_intent). */
static NUM SPEC(aft_cf_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    at_sage_row(c, &X_CF, l, &R);
    return SPEC(at_intent)(cx, c, &R);
}
static NUM SPEC(aft_io_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    at_sage_row(c, &X_IO, l, &R);
    return SPEC(at_intent)(cx, c, &R);
}
