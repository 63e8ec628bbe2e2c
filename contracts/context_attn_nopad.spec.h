/* The spec of contracts/context_attn_nopad.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn2_common.spec.h"

static NUM SPEC(nopad)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ctx x = attn2_ctx_of(c, l, &ix_g, 0);
    return SPEC(k16)(cx, SPEC(a2c_out)(cx, c, &x, l->idx[2], l->idx[3])); /* the store into fp16 */
}
static NUM SPEC(nopad_io)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ctx x = attn2_ctx_of(c, l, &ix_io, 0);
    return N(cast)(cx, SPEC(a2c_out)(cx, c, &x, l->idx[2], l->idx[3]), C_STORE);
}


/* The intent (docs/intent.md): scaled dot-product attention (a2c_intent). */
static NUM SPEC(nopad_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ctx x = attn2_ctx_of(c, l, &ix_g, 0);
    return SPEC(a2c_intent)(cx, c, &x, l->idx[2], l->idx[3], 0);
}
static NUM SPEC(nopad_io_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ctx x = attn2_ctx_of(c, l, &ix_io, 0);
    return SPEC(a2c_intent)(cx, c, &x, l->idx[2], l->idx[3], 0);
}
