/* The spec of contracts/chunked_cumsum_fwd.c, written once (vocabulary: contracts/spec.h). */

#include "sh_dot.h" /* N(acc_add_mul) */

/* out1: the prepared dt (a copy); out2: the chunk's prefix of dt_k * A_h up to col, each
 * product rounded once, the sum charged for any order; or, the algebraically equal form a
 * kernel may write, A_h times the prefix of dt (N(either): the larger bound). */
static NUM SPEC(lane)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t b = l->idx[0], ck = l->idx[1], h = l->idx[2], col = l->idx[3];
    if (l->o == 0) return N(in)(cx, c, ccf_r(c, Q_DT), (uint64_t)ccf_read1(c, b, ck, h, col));
    NUM a = N(in)(cx, c, ccf_r(c, Q_A), (uint64_t)(h * ccf_p(c, K_SAH)));
    NACC acc, dts;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    N(acc_init)(cx, &dts, TD_ORDER_ANY, 0);
    for (int64_t k = 0; k <= col; k++) {
        NUM dt = N(in)(cx, c, ccf_r(c, Q_DT), (uint64_t)ccf_read1(c, b, ck, h, k));
        N(acc_add_mul)(cx, &acc, dt, a); /* N(acc_add)(acc, N(mul)(dt, a)), bit for bit (sh_dot.h) */
        N(acc_add)(cx, &dts, dt);
    }
    NUM products = N(acc_end)(cx, &acc);
    return N(either)(cx, products, N(mul)(cx, a, N(acc_end)(cx, &dts)));
}

/* Intent: dt unchanged; dA_cumsum = torch.cumsum(dt * A, dim=-1) over each chunk (the
 * reference of Mamba-2's chunked scan), by any algorithm. */
static NUM SPEC(intent)(NCX *cx, const td_case *c, const td_olane *l) { return SPEC(lane)(cx, c, l); }
