/* The spec of contracts/reversed_cumsum.c (vocabulary: contracts/spec.h). */
#include "revcumsum_common.spec.h"

/* z[bh, t, col] = sum_{t <= k < T} s[bh, k, col]  (reversedCumsumClosed, every chunk) */
static NUM SPEC(rcv)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t bh = l->idx[0], t = l->idx[1], col = l->idx[2];
    uint64_t base = (uint64_t)(bh * c->p[P_SH].i + col * c->p[P_SD].i);
    return SPEC(rcs_suffix)(cx, c, R_S, base, c->p[P_ST].i, c->p[P_T].i, t);
}

/* the slices: Z[..] = BC[..], a copy of the precomputed tile */
static NUM SPEC(rcv_copy)(NCX *cx, const td_case *c, const td_olane *l) { return N(in)(cx, c, R_S, l->off); }
static NUM SPEC(rcv_copy_r)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(rcv_copy)(cx, c, l), C_STORE);
}

/* The intent: torch.flip(torch.cumsum(torch.flip(s, [2]), 2), [2]) over T, exact, with the
 * error any implementation of it may make (the two forms of rcs_suffix). */
static NUM SPEC(rcv_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(rcv)(cx, c, l); }
