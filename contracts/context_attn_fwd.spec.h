/* The spec of contracts/context_attn_fwd.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference).  The engine is context_attn_llama's (a2c_out_deferred). */

#include "attn2_common.spec.h"

static NUM SPEC(fwd)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ctx x = ctxpc_ctx_of(c, l, &ix);
    return SPEC(k16)(cx, SPEC(a2c_out_deferred)(cx, c, &x, l->idx[2], l->idx[3])); /* the store into the fp16 Out */
}
static NUM SPEC(fwd_io)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ctx x = ctxpc_ctx_of(c, l, &ix);
    return N(cast)(cx, SPEC(a2c_out_deferred)(cx, c, &x, l->idx[2], l->idx[3]), C_STORE);
}

/* The intent (docs/intent.md): scaled dot-product attention over the prompt cache and the
 * sequence's own tokens with the causal mask of their positions; log2 e is folded into
 * sm_scale by the host and the kernel takes exp2, as in context_attn_llama (a2c_intent,
 * base2).  Exact, no fp16 P. */
static NUM SPEC(fwd_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ctx x = ctxpc_ctx_of(c, l, &ix);
    return SPEC(a2c_intent)(cx, c, &x, l->idx[2], l->idx[3], 1);
}
