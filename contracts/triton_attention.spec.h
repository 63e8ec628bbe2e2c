/* The spec of contracts/triton_attention.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

/* _bwd_preprocess: NewDO (o = 0) and Delta (o = 1) of row r */
static NUM SPEC(ta_pre)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t r = l->idx[0], dh = TA_P(c, P_DH);
    NUM L = N(in)(cx, c, R_L, (size_t)r);
    if (l->o == 0) return N(cast)(cx, N(div)(cx, N(in)(cx, c, R_DO, (size_t)(r * dh + l->idx[1])), L), C_STORE);
    NACC a, b;
    N(acc_init)(cx, &a, TD_ORDER_ANY, dh); /* tl.sum: a tree; any order charged */
    N(acc_init)(cx, &b, TD_ORDER_ANY, 0);
    for (int64_t d = 0; d < dh; d++) {
        NUM o = N(in)(cx, c, R_OUT, (size_t)(r * dh + d)), g = N(in)(cx, c, R_DO, (size_t)(r * dh + d));
        N(acc_add)(cx, &a, N(mul)(cx, o, N(div)(cx, g, L)));
        N(acc_add)(cx, &b, N(mul)(cx, o, g));
    }
    NUM as_written = N(acc_end)(cx, &a);
    NUM divided_once = N(div)(cx, N(acc_end)(cx, &b), L);
    return N(either)(cx, as_written, divided_once);
}

/* _fwd_kernel: Out (o = 0), L (o = 1), M (o = 2) of one query row (attn_online_common.spec.h) */
#include "attn_online_common.spec.h"

static NUM SPEC(ta_fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    tf_row(c, l, &R);
    return SPEC(at_lane)(cx, c, &R);
}

/* the intent: causal SDPA over keys j <= row (at_intent); L and M lanes: its l and m */
static NUM SPEC(ta_fwd_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    at_row R;
    tf_row(c, l, &R);
    return SPEC(at_intent)(cx, c, &R);
}
