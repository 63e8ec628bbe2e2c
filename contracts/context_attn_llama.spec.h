/* The spec of contracts/context_attn_llama.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "attn2_common.spec.h"

static NUM SPEC(llama)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ctx x = ctxpc_ctx_of(c, l, &ix);
    return SPEC(k16)(cx, SPEC(a2c_out_deferred)(cx, c, &x, l->idx[2], l->idx[3])); /* the store into the fp16 Out */
}
static NUM SPEC(llama_io)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ctx x = ctxpc_ctx_of(c, l, &ix);
    return N(cast)(cx, SPEC(a2c_out_deferred)(cx, c, &x, l->idx[2], l->idx[3]), C_STORE);
}

/* The intent (docs/intent.md): scaled dot-product attention of query row gi (position
 * gi + plen: the prompt cache's plen tokens come first) over keys 0 .. gi + plen, the
 * rows Req_to_tokens[req, j] of K and V, with the causal mask of those positions; the
 * host folds log2 e into sm_scale and uses exp2, so the operation's scale is
 * sm_scale * ln 2 (a2c_intent, base2).  Exact, no fp16 P. */
static NUM SPEC(ll_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ctx x = ctxpc_ctx_of(c, l, &ix);
    return SPEC(a2c_intent)(cx, c, &x, l->idx[2], l->idx[3], 1);
}
