/* The spec of contracts/attention_kernel.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn2_common.spec.h"

static NUM SPEC(ak)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ak k = ak_of(c);
    return N(cast)(cx, SPEC(a2k_out)(cx, c, &k, l->idx[0], l->idx[1], l->idx[2]), C_STORE);
}


/* The intent (docs/intent.md): decomposed relative-position attention (a2k_intent). */
static NUM SPEC(ak_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ak k = ak_of(c);
    return SPEC(a2k_intent)(cx, c, &k, l->idx[0], l->idx[1], l->idx[2]);
}
