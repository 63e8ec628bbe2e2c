/* The spec of contracts/flash_attn.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn_online_common.spec.h"

static inline NUM SPEC(fa_lane)(NCX *cx, const td_case *c, const td_olane *l, const fa_idx *X) {
    at_row R;
    fa_row(c, X, l, &R);
    return SPEC(at_lane)(cx, c, &R);
}
static NUM SPEC(fa_out)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fa_lane)(cx, c, l, &X_OUT); }
static NUM SPEC(fa_lse)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fa_lane)(cx, c, l, &X_LSE); }
static NUM SPEC(fa_case1)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fa_lane)(cx, c, l, &X_CASE1); }
static NUM SPEC(fa_case2)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fa_lane)(cx, c, l, &X_CASE2); }
static NUM SPEC(fa_io)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fa_lane)(cx, c, l, &X_IO); }


/* The intent (docs/intent.md): scaled dot-product attention (attn_online_common.spec.h). */
static inline NUM SPEC(fa_intent_lane)(NCX *cx, const td_case *c, const td_olane *l, const fa_idx *X) {
    at_row R;
    fa_row(c, X, l, &R);
    return SPEC(at_intent)(cx, c, &R);
}
static NUM SPEC(fa_out_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fa_intent_lane)(cx, c, l, &X_OUT); }
static NUM SPEC(fa_lse_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fa_intent_lane)(cx, c, l, &X_LSE); }
static NUM SPEC(fa_case1_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fa_intent_lane)(cx, c, l, &X_CASE1); }
static NUM SPEC(fa_case2_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fa_intent_lane)(cx, c, l, &X_CASE2); }
static NUM SPEC(fa_io_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(fa_intent_lane)(cx, c, l, &X_IO); }
