/* The spec of contracts/bmm_chunk_bwd.c, written once (vocabulary: contracts/spec.h):
 * spec_instantiate.h includes this file once per number type, NUM = td_sh (tolerance)
 * then td_mp (reference). */

#include "matmul_common.spec.h"

static NUM SPEC(bcb)(NCX *cx, const td_case *c, const td_olane *l, const int *pos) {
    int64_t BCS = qv(c, pos, Q_BCS), T = qv(c, pos, Q_NCS);
    return SPEC(mm_kloop)(cx, c, R_DOUT, l->idx[0], qv(c, pos, Q_SDM), R_A, l->idx[1], qv(c, pos, Q_SAS), BCS * T,
                          BCS, T, NULL);
}
static NUM SPEC(bcb_sum)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(bcb)(cx, c, l, pos_sum); }
static NUM SPEC(bcb_io)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(bcb)(cx, c, l, pos_io); }

