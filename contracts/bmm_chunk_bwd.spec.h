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

/* The intent: the gradient of Mamba2's chunked product out[b, c, h, l, s] = sum_k
 * a[b, c*cs + l, h, k] * b[b, c*cs + s, h, k] (mamba_ssm ops/triton/ssd_bmm.py,
 * bmm_chunk_ref) with respect to b: db[b, c*cs + s, h, k] = sum_l dout[b, c, h, l, s] *
 * a[b, c*cs + l, h, k] over the chunk's L rows l (L = the chunk_size_limit
 * BCS*numCSBlocks, at most chunk_size), any order; addresses from the program and (m, n). */
static NUM SPEC(bcb_intent)(NCX *cx, const td_case *c, const td_olane *l, const int *pos) {
    int64_t cs = qv(c, pos, Q_CS), G = qv(c, pos, Q_G), L = qv(c, pos, Q_BCS) * qv(c, pos, Q_NCS);
    int64_t b = l->pid[1], ch = l->pid[2] / G, h = l->pid[2] % G, m = l->idx[2], n = l->idx[3];
    int64_t d0 = b * qv(c, pos, Q_SDB) + ch * qv(c, pos, Q_SDC) + h * qv(c, pos, Q_SDH) + m * qv(c, pos, Q_SDN);
    int64_t a0 = b * qv(c, pos, Q_SAB) + ch * cs * qv(c, pos, Q_SAS) + h * qv(c, pos, Q_SAH) + n * qv(c, pos, Q_SAK);
    return SPEC(mm_intent_dot)(cx, c, R_DOUT, d0, qv(c, pos, Q_SDM), R_A, a0, qv(c, pos, Q_SAS), L < cs ? L : cs);
}
static NUM SPEC(bcb_sum_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(bcb_intent)(cx, c, l, pos_sum);
}
static NUM SPEC(bcb_io_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(bcb_intent)(cx, c, l, pos_io);
}
