/* The spec of contracts/chunk_gate_recurrence.c (vocabulary: contracts/spec.h; the
 * recurrence steps: oracle/lrec.h).  The forward states fwdClosed(m) and the reverse
 * carries bwdClosed(a) of a head's state cell (k, v) are memoised per case by (head,
 * step, k, v), so a sequence of NUM_BLOCK chunks costs O(NUM_BLOCK) per cell, not per lane; while a
 * lane is explained the memo is off and every step of its chain is traced. */
#include "lrec.h"

#ifndef CGR_SPEC_KEYS
#define CGR_SPEC_KEYS
enum { CGR_TAG_F = 1, CGR_TAG_B = 2 }; /* the intent's: + 2 (its own memo entries) */
static uint64_t cgr_key(const td_case *c, int tag, int64_t bh, int64_t t, int64_t k, int64_t v) {
    int64_t nb = c->p[P_NB].i, DK = c->p[P_DK].i, DV = c->p[P_DV].i;
    return ((uint64_t)tag << 56) | (uint64_t)(((bh * (nb + 1) + t) * DK + k) * DV + v);
}
#endif

/* the chunk-t tile cell (k, v) of head bh in a [B*H, nb, DK, DV] region (S, DS) */
static NUM SPEC(cgr_cell)(NCX *cx, const td_case *c, int reg, int64_t bh, int64_t t, int64_t k, int64_t v) {
    int64_t DK = c->p[P_DK].i, DV = c->p[P_DV].i;
    return N(in)(cx, c, reg, (size_t)((bh * c->p[P_NB].i + t) * DK * DV + k * DV + v));
}
static NUM SPEC(cgr_gate)(NCX *cx, const td_case *c, int64_t bh, int64_t j) {
    return N(in)(cx, c, R_D, (size_t)(bh * c->p[P_NB].i + j));
}

/* fwdClosed(m) = fwdClosed(m-1) d_{m-1} + S_{m-1}, fwdClosed(0) = LastKv or 0 */
static NUM SPEC(cgr_fwd)(NCX *cx, const td_case *c, int64_t bh, int64_t k, int64_t v, int64_t m, int tag) {
    int64_t s = m;
    NUM h;
    double mag[2] = {0, 0};
    while (s > 0 && !N(lrec_memo_get)(cx, cgr_key(c, tag, bh, s, k, v), &h, mag)) s--;
    if (s == 0) {
        int64_t DK = c->p[P_DK].i, DV = c->p[P_DV].i;
        h = c->p[P_HAS_LAST_KV].i ? N(in)(cx, c, R_LASTKV, (size_t)(bh * DK * DV + k * DV + v)) : N(exact)(cx, 0.0);
        N(lrec_init)(cx, h, mag);
    }
    for (int64_t t = s; t < m; t++) {
        h = N(lrec_step)(cx, h, SPEC(cgr_gate)(cx, c, bh, t), SPEC(cgr_cell)(cx, c, R_S, bh, t, k, v), mag);
        N(lrec_memo_put)(cx, cgr_key(c, tag, bh, t + 1, k, v), h, mag);
    }
    return h;
}

/* bwdClosed(a) = bwdClosed(a+1) d_a + DS_a, bwdClosed(nb) = 0 */
static NUM SPEC(cgr_bwd)(NCX *cx, const td_case *c, int64_t bh, int64_t k, int64_t v, int64_t a, int tag) {
    int64_t nb = c->p[P_NB].i, s = a;
    NUM h;
    double mag[2] = {0, 0};
    while (s < nb && !N(lrec_memo_get)(cx, cgr_key(c, tag, bh, s, k, v), &h, mag)) s++;
    if (s == nb) {
        h = N(exact)(cx, 0.0);
        N(lrec_init)(cx, h, mag);
    }
    for (int64_t u = s - 1; u >= a; u--) {
        h = N(lrec_step)(cx, h, SPEC(cgr_gate)(cx, c, bh, u), SPEC(cgr_cell)(cx, c, R_DS, bh, u, k, v), mag);
        N(lrec_memo_put)(cx, cgr_key(c, tag, bh, u, k, v), h, mag);
    }
    return h;
}

/* DG[bh, t, p1, p2] = sum over the program's tile of bwdClosed(t+1) * S_t, any order */
static NUM SPEC(cgr_dg)(NCX *cx, const td_case *c, const td_olane *l) {
    int64_t BMK = c->p[P_BMK].i, BMV = c->p[P_BMV].i, bh = l->pid[0], t = l->t;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_TREE, 0);
    for (int64_t r = 0; r < BMK; r++)
        for (int64_t cc = 0; cc < BMV; cc++) {
            int64_t k = (int64_t)l->pid[1] * BMK + r, v = (int64_t)l->pid[2] * BMV + cc;
            N(acc_add)(cx, &acc, N(mul)(cx, SPEC(cgr_bwd)(cx, c, bh, k, v, t + 1, CGR_TAG_B), SPEC(cgr_cell)(cx, c, R_S, bh, t, k, v)));
        }
    return N(acc_end)(cx, &acc);
}

/* the state lanes (O, DI, DL) with the memo tags tf (forward), tf + 1 (reverse) */
static NUM SPEC(cgr_state)(NCX *cx, const td_case *c, const td_olane *l, int tf) {
    int64_t bh = l->idx[0], k = l->idx[1], v = l->idx[2];
    switch (l->o) {
    case O_O: return SPEC(cgr_fwd)(cx, c, bh, k, v, l->t, tf);
    case O_DI: return SPEC(cgr_bwd)(cx, c, bh, k, v, l->t + 1, tf + 1);
    default: return SPEC(cgr_bwd)(cx, c, bh, k, v, 0, tf + 1); /* O_DL */
    }
}
static NUM SPEC(cgr_summary)(NCX *cx, const td_case *c, const td_olane *l) {
    return l->o == O_DG ? SPEC(cgr_dg)(cx, c, l) : SPEC(cgr_state)(cx, c, l, CGR_TAG_F);
}

/* The intent: ChunkGateRecurrent.apply (the .py's autograd function; RetNet-style gated
 * chunk recurrence): O_m = the state entering chunk m (acc_{m+1} = acc_m d_m + kv_m, acc_0 =
 * last_kv or 0), and its backward given DO (= DS): DI and DL the reverse-mode gradients
 * (bwdClosed, as the contract), DG[t] = sum over the tile of G_{t+1} * O_t with O_t the
 * SAVED FORWARD OUTPUT (backward passes `output` as S), where the contract's bundle reads
 * the input region S (= kv) there. */
static NUM SPEC(cgr_intent)(NCX *cx, const td_case *c, const td_olane *l) {
    if (l->o != O_DG) return SPEC(cgr_state)(cx, c, l, CGR_TAG_F + 2);
    int64_t BMK = c->p[P_BMK].i, BMV = c->p[P_BMV].i, bh = l->pid[0], t = l->t;
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t r = 0; r < BMK; r++)
        for (int64_t cc = 0; cc < BMV; cc++) {
            int64_t k = (int64_t)l->pid[1] * BMK + r, v = (int64_t)l->pid[2] * BMV + cc;
            N(acc_add)(cx, &acc, N(mul)(cx, SPEC(cgr_bwd)(cx, c, bh, k, v, t + 1, CGR_TAG_B + 2), SPEC(cgr_fwd)(cx, c, bh, k, v, t, CGR_TAG_F + 2)));
        }
    return N(acc_end)(cx, &acc);
}

/* the forward store: a copy of the carried tile (idx[0]: the Acc offset) */
static NUM SPEC(cgr_store)(NCX *cx, const td_case *c, const td_olane *l) {
    return N(in)(cx, c, RF_ACC, (size_t)l->idx[0]);
}
