/* The spec of contracts/rms_matmul_rbe.c (vocabulary: contracts/spec.h): the lane of
 * rms_matmul_rbe_common.spec.h for each statement's layout. */
#include "rms_matmul_rbe_common.spec.h"

static NUM SPEC(rmr_one)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rmr_lane)(cx, c, l, &ix_one, C_STORE);
}
static NUM SPEC(rmr_qkv)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rmr_lane)(cx, c, l, &ix_qkv, C_STORE);
}
static NUM SPEC(rmr_one_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rmr_intent)(cx, c, l, &ix_one, C_STORE);
}
static NUM SPEC(rmr_qkv_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(rmr_intent)(cx, c, l, &ix_qkv, C_STORE);
}
