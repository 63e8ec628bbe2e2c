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

