/* The spec of contracts/chunk_delta_fwd.c (vocabulary: contracts/spec.h).
 * The exec theorem's states H_j[e, p] and corrected values vNew_j[c, p] of a head are
 * memoised per case by (head, chunk, row, column); a column's states are advanced a
 * chunk at a time in local arrays (a state cell needs every e' of the previous chunk),
 * so a sequence costs O(NT BT BK) per column, not per lane.  While a lane is explained
 * the memo is off and the column is recomputed from H_0, every step traced. */
#include <stdlib.h>

#ifndef CDF_SPEC_KEYS
#define CDF_SPEC_KEYS
enum { CDF_TAG_H = 1, CDF_TAG_VN = 2, CDF_TAG_IH = 3, CDF_TAG_IVN = 4 }; /* 3, 4: the intent's */
static uint64_t cdf_key(const td_case *c, int tag, int64_t bh, int64_t j, int64_t a, int64_t col) {
    int64_t w = c->p[P_K].i > c->p[P_BT].i ? c->p[P_K].i : c->p[P_BT].i;
    return ((uint64_t)tag << 56) | (uint64_t)(((bh * (c->p[P_NT].i + 1) + j) * w + a) * c->p[P_V].i + col);
}
#endif

static NUM SPEC(cdf_qk)(NCX *cx, const td_case *c, int reg, int64_t bh, int64_t t, int64_t e) {
    return N(in)(cx, c, reg, (size_t)(bh * c->p[P_SQKH].i + t * c->p[P_SQKT].i + e * c->p[P_SQKD].i));
}

/* vNew_j[r, col] = v_j[r, col] - sum_{e' < nk} d_j[r, e'] H_j[e', col]: one any-order sum
 * (nk = BK: the contract's keys; K: the intent's) */
static NUM SPEC(cdf_vnew_of)(NCX *cx, const td_case *c, int64_t bh, int64_t j, int64_t r, int64_t col, const NUM *H,
                             int64_t nk) {
    int64_t t = j * c->p[P_BT].i + r;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    N(acc_add)(cx, &acc, N(in)(cx, c, R_V, (size_t)(bh * c->p[P_SVOH].i + t * c->p[P_SVOT].i + col * c->p[P_SVOD].i)));
    for (int64_t e = 0; e < nk; e++)
        N(acc_add)(cx, &acc, N(neg)(cx, N(mul)(cx, SPEC(cdf_qk)(cx, c, R_D, bh, t, e), H[e])));
    return N(acc_end)(cx, &acc);
}

/* H[0..nk) := the column's state H_j[., col] over nk keys (H_0: initial_state or 0),
 * memoised under tag (tag + 1 for the corrected values) */
static void SPEC(cdf_col)(NCX *cx, const td_case *c, int64_t bh, int64_t col, int64_t j, NUM *H, NUM *vn, int64_t nk,
                          int tag) {
    int64_t BK = nk, BT = c->p[P_BT].i, m = j, e;
    for (; m > 0; m--) { /* the latest chunk whose whole column is memoised */
        for (e = 0; e < BK && N(memo_get)(cx, cdf_key(c, tag, bh, m, e, col), &H[e]); e++) {}
        if (e == BK) break;
    }
    if (m == 0)
        for (e = 0; e < BK; e++)
            H[e] = c->p[P_USE_INIT].i
                       ? N(in)(cx, c, R_H0, (size_t)(bh * c->p[P_K].i * c->p[P_V].i + e * c->p[P_V].i + col))
                       : N(exact)(cx, 0.0);
    for (int64_t t = m; t < j; t++) {
        for (int64_t r = 0; r < BT; r++) {
            vn[r] = SPEC(cdf_vnew_of)(cx, c, bh, t, r, col, H, nk);
            N(memo_put)(cx, cdf_key(c, tag + 1, bh, t, r, col), vn[r]);
        }
        for (e = 0; e < BK; e++) { /* H_{t+1}[e] = H_t[e] + sum_r k_t[e, r] vNew_t[r]: one any-order sum */
            NACC acc;
            N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
            N(acc_add)(cx, &acc, H[e]);
            for (int64_t r = 0; r < BT; r++) N(acc_add)(cx, &acc, N(mul)(cx, SPEC(cdf_qk)(cx, c, R_K, bh, t * BT + r, e), vn[r]));
            H[BK + e] = N(acc_end)(cx, &acc); /* the next column, kept apart until every e is done */
        }
        for (e = 0; e < BK; e++) {
            /* H_{t+1} is materialized (stored to h[t+1], the operand of chunk t+1's
             * corrections): the next chunk's sum takes it as ONE term, not as the sum of
             * its leaves (td_sh.leaves would re-associate the whole history into every
             * chunk, a form no kernel that stores h can take; either(x, x) = x, leaves 0) */
            H[e] = N(either)(cx, H[BK + e], H[BK + e]);
            N(memo_put)(cx, cdf_key(c, tag, bh, t + 1, e, col), H[e]);
        }
    }
}

/* the lane's value over nk keys (memo tags tag, tag + 1) */
static NUM SPEC(cdf_lane)(NCX *cx, const td_case *c, const td_olane *l, int64_t nk, int tag) {
    int64_t bh = l->idx[0], a = l->idx[1], col = l->idx[2], j = l->idx[3];
    NUM r;
    if (l->o == O_VNEW && N(memo_get)(cx, cdf_key(c, tag + 1, bh, j, a, col), &r)) return r;
    NUM *H = malloc((size_t)(2 * nk + c->p[P_BT].i) * sizeof(NUM));
    if (!H) abort();
    SPEC(cdf_col)(cx, c, bh, col, j, H, H + 2 * nk, nk, tag);
    r = l->o == O_VNEW ? SPEC(cdf_vnew_of)(cx, c, bh, j, a, col, H, nk) : H[a];
    free(H);
    return r;
}
static NUM SPEC(cdf_exec)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(cdf_lane)(cx, c, l, c->p[P_BK].i, CDF_TAG_H);
}

/* The intent: DeltaNet's chunkwise form (Yang et al. 2024, parallelizing linear
 * transformers with the delta rule, the chunkwise state recurrence with the WY
 * representation: S_{[t+1]} = S_{[t]} + K_{[t]}^T (U_{[t]} - W_{[t]} S_{[t]}), the
 * pseudo-values U - W S stored), here d = W, v = U, chunks of BT, over ALL K keys
 * (the kernel sums e' < BK: the same when BK = K, the host's NK == 1). */
static NUM SPEC(cdf_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    return SPEC(cdf_lane)(cx, c, l, c->p[P_K].i, CDF_TAG_IH);
}

/* the chunk-start state writeback: a copy, read and written at the same offset */
static NUM SPEC(cdf_store)(NCX *cx, const td_case *c, const td_olane *l) { return N(in)(cx, c, RS_HPRE, l->off); }
