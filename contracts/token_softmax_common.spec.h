/* The spec half of contracts/token_softmax_common.h (vocabulary: contracts/spec.h):
 * lane (b, h, j) of the write set is the softmax of program (b, h)'s active row at j. */

#include "softmax_common.spec.h"

static inline NUM SPEC(ts_lane)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1];
    int64_t st = td_geti(c, R_START, (size_t)b), w = ts_w(td_geti(c, R_SEQLEN, (size_t)b), c->p[P_BS].i);
    sm_row r = sm_row_plain(R_LOGICS, (uint64_t)(h * c->p[P_SLH].i + st * c->p[P_SLBS].i), c->p[P_SLBS].i, w,
                            (uint64_t)(b * c->grid[1] + h));
    return SPEC(sm_softmax)(cx, c, &r, l->idx[2]);
}

/* The intent (docs/intent.md): torch.softmax over the sequence's B_Seqlen[b] tokens of
 * head h (ts_gap: the case's tiles hold them); row memo keys above every contract
 * row's (bit 40). */
static inline NUM SPEC(ts_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], h = l->idx[1];
    int64_t st = td_geti(c, R_START, (size_t)b), len = td_geti(c, R_SEQLEN, (size_t)b);
    sm_row r = sm_row_plain(R_LOGICS, (uint64_t)(h * c->p[P_SLH].i + st * c->p[P_SLBS].i), c->p[P_SLBS].i, len,
                            ((uint64_t)1 << 40) | (uint64_t)(b * c->grid[1] + h));
    return SPEC(sm_softmax)(cx, c, &r, l->idx[2]);
}
