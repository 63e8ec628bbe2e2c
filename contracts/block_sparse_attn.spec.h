/* The spec of contracts/block_sparse_attn.c (vocabulary: contracts/spec.h): compiled once per
 * number type by spec_instantiate.h. */

/* The store slices: out = Acc (lane idx[1] = 0) or out2 = Acc2 (idx[1] = 1), read at idx[0]. */
static NUM SPEC(bsa_store)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(in)(cx, c, l->idx[1] ? S_ACC2 : S_ACC, (size_t)l->idx[0]);
}
/* |=[R, .real]: R.round .real of the copied value (the binary32 store) */
static NUM SPEC(bsa_store_r)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(bsa_store)(cx, c, l), C_STORE);
}

#include "attn_online_common.spec.h"

/* The closed form: one output lane as the online algorithm over the row's selected keys
 * (bsa_row), with the error model of attn_online_common.spec.h. */
static NUM SPEC(bsa_cf)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    bsa_row(c, l, &R);
    return SPEC(at_lane)(cx, c, &R);
}

/* The intent (docs/intent.md): scaled dot-product attention over the layout's keys with the
 * causal mask, natural base, exact (at_intent). */
static NUM SPEC(bsa_cf_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    bsa_row(c, l, &R);
    return SPEC(at_intent)(cx, c, &R);
}
