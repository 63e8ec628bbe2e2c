/* The spec of contracts/reversed_cumsum_scalar.c (vocabulary: contracts/spec.h). */
#include "revcumsum_common.spec.h"

/* O[row, t] = sum_{t <= k < T} S[row * T + k]  (singleBlockRevClosed / globalRevCumsumClosed) */
static NUM SPEC(rcss)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t T = c->p[P_T].i, row = l->idx[0], t = l->idx[1];
    return SPEC(rcs_suffix)(cx, c, R_S, (uint64_t)(row * T), 1, T, t);
}

/* the slices: O[..] = BO[..], a copy (vecStoreIO ⊨ xs i) */
static NUM SPEC(rcss_copy)(NCX *cx, const td_case *c, const td_olane *l) { return N(in)(cx, c, R_S, l->off); }
/* ⊨[R, .real]: the copy then R's store cast (binary32: exact on a binary32 value) */
static NUM SPEC(rcss_copy_r)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(cast)(cx, SPEC(rcss_copy)(cx, c, l), C_STORE);
}

/* The intent: torch.flip(torch.cumsum(torch.flip(s, [-1]), -1), [-1]), exact, with the
 * error any implementation of it may make (the same two forms). */
static NUM SPEC(rcss_intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(rcss)(cx, c, l); }
