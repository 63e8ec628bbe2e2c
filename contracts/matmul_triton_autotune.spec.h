/* The spec of contracts/matmul_triton_autotune.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "matmul_common.spec.h"

static NUM SPEC(autotune)(NCX *cx, const td_case *c, const td_olane *l, const int *pm, int act) {
    NUM x = SPEC(mm_dot_2d)(cx, c, l, pm, &d2, NULL);
    if (c->p[act].i) x = SPEC(mm_leaky)(cx, x);
    return N(cast)(cx, x, C_STORE);
}
static NUM SPEC(autotune_cf)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(autotune)(cx, c, l, map_cf, PC_ACT);
}
static NUM SPEC(autotune_io)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(autotune)(cx, c, l, map_io, PI_ACT);
}


/* The intent (docs/intent.md): torch.matmul, then leaky_relu(0.01) when ACTIVATION
 * names it (matmul_common.spec.h); the audit rounds once to C's format. */
static NUM SPEC(autotune_intent)(NCX *cx, const td_case *c, const td_olane *l, const int *pm, int act) {
    NUM x = SPEC(mm_intent_2d)(cx, c, l, pm, &d2);
    return c->p[act].i ? SPEC(mm_intent_leaky)(cx, x) : x;
}
static NUM SPEC(autotune_cf_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(autotune_intent)(cx, c, l, map_cf, PC_ACT);
}
static NUM SPEC(autotune_io_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(autotune_intent)(cx, c, l, map_io, PI_ACT);
}
