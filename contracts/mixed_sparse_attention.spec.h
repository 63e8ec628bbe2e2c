/* The spec of contracts/mixed_sparse_attention.c (vocabulary: contracts/spec.h): compiled
 * once per number type by spec_instantiate.h. */

/* The epilogue: xs idx / ys idx.1 (AccPre at the lane's own offset idx[0], LPre at its
 * tile row idx[1]). */
static NUM SPEC(msa_epilogue)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(div)(cx, N(in)(cx, c, E_ACC, (size_t)l->idx[0]), N(in)(cx, c, E_L, (size_t)l->idx[1]));
}

#include "attn_online_common.spec.h"

/* The closed form: one output lane as the online algorithm over the row's 9 * 16 key slots
 * (msa_row), with the error model of attn_online_common.spec.h. */
static NUM SPEC(msa_cf)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    msa_row(c, l, &R);
    return SPEC(at_lane)(cx, c, &R);
}
