/* The spec of contracts/context_attn_bloom.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference).  The engine is context_attn_nopad's normalised online softmax
 * (a2c_out) over the gathered keys and the prompt-cache causal mask. */

#include "attn2_common.spec.h"

static NUM SPEC(bloom)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ctx x = ctxpc_ctx_of(c, l, &ix);
    return SPEC(k16)(cx, SPEC(a2c_out)(cx, c, &x, l->idx[2], l->idx[3])); /* the store into the fp16 Out */
}
static NUM SPEC(bloom_io)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ctx x = ctxpc_ctx_of(c, l, &ix);
    return N(cast)(cx, SPEC(a2c_out)(cx, c, &x, l->idx[2], l->idx[3]), C_STORE);
}

/* The intent (docs/intent.md): scaled dot-product attention over the prompt cache and the
 * sequence's own tokens with the causal mask of their positions, natural base (the kernel
 * takes tl.exp of qk * sm_scale, sm_scale = 1/sqrt(d)): a2c_intent.  Exact, no fp16 P;
 * BLOOM's ALiBi bias is not part of this kernel (no positional bias in the source). */
static NUM SPEC(bloom_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    attn2_ctx x = ctxpc_ctx_of(c, l, &ix);
    return SPEC(a2c_intent)(cx, c, &x, l->idx[2], l->idx[3], 0);
}
