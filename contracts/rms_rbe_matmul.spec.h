/* The spec of contracts/rms_rbe_matmul.c (vocabulary: contracts/spec.h): the lane of
 * rms_matmul_rbe_common.spec.h. */
#include "rms_matmul_rbe_common.spec.h"

static NUM SPEC(rmr_one)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rmr_lane)(cx, c, l, &ix_one, C_STORE);
}
static NUM SPEC(rmr_one_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rmr_intent)(cx, c, l, &ix_one, C_STORE);
}
