/* A dense per-case memo for the shadow pass: the same get / put semantics as the hashed
 * memo (td_sh_memo_get / put in shadow.h) for a spec whose keys map onto small indices
 * 0 .. n-1 (the states of a recurrence, the powers of a row's variables): an array read
 * and one compare instead of a hash, a probe loop and three of them for a recurrence
 * state (its value and two magnitudes: lrec.h).  Measured on the spherical harmonics
 * and the retention summary, where the hashed memo was 12% and 30% of all the time.
 *
 * Same semantics, entry by entry: a put stores the value, two auxiliary doubles and the
 * lane flags met so far (cx->lane_flags, as td_sh_memo_put); a get of an index put in
 * this case returns them and ORs the stored flags into the lane's (as td_sh_memo_get);
 * while a lane is traced neither hands out nor stores anything.  So a spec that moves
 * its keys from the hashed memo to this one computes the same values with the same
 * lane flags (tests/oracle/test_sh_dense.c replays random get / put sequences through
 * both).
 *
 * Per case: the table is per thread (thread-local, freed at the thread's exit) and its
 * entries carry a generation; a case is recognised by a sentinel the first lane puts in
 * the hashed memo, which the harness clears at every case (td_shcx_memo_clear), so a
 * new case, or another shadow context, starts a new generation and no entry of an
 * earlier one is ever handed out.  td_sh_dense_begin, at the start of every lane,
 * costs one hashed lookup; where the table cannot hold n entries (a huge case, no
 * memory) the spec falls back to the hashed memo under the same keys for the whole
 * case. */
#ifndef TD_SH_DENSE_H
#define TD_SH_DENSE_H

#include <stddef.h>
#include <stdint.h>

#include "mp.h"
#include "shadow.h"
#include "nocov.h"

TD_NOCOV_BEGIN

typedef struct td_sh_dent {
    td_sh v;
    double aux[2];
    uint64_t gen; /* the generation that put it; 0: never */
    uint32_t flags;
} td_sh_dent;

typedef struct td_sh_dense {
    td_sh_dent *e;
    size_t cap;
    uint64_t gen;           /* the current case's generation (>= 1) */
    const td_shcx *cx;      /* the context of that case */
    size_t n;               /* the lane's indices: 0 .. n-1 (td_sh_dense_begin) */
    int on;                 /* the table serves this lane (not traced, n fits) */
} td_sh_dense;

extern _Thread_local td_sh_dense td_sh_dense_tl;

/* the largest table (entries) a thread keeps; above it the hashed memo serves */
#define TD_SH_DENSE_MAX (1u << 20)

/* At the start of every lane of a spec that uses the table for indices < n. */
void td_sh_dense_begin(td_shcx *cx, size_t n);
void td_sh_dense_free(void); /* the calling thread's table (tests) */

/* key: the hashed memo's key of the same value; i: its index in the table, < n (an
 * index out of range, which no valid case has, goes to the hashed memo under key) */
static inline int td_sh_dense_get(td_shcx *cx, uint64_t key, size_t i, td_sh *out, double aux[2]) {
    td_sh_dense *d = &td_sh_dense_tl;
    if (!d->on || i >= d->n) {
        if (!td_sh_memo_get(cx, key, out)) return 0;
        if (aux) {
            td_sh a;
            if (!td_sh_memo_get(cx, key ^ (1ull << 63), &a)) return 0;
            aux[0] = a.v, aux[1] = a.es;
        }
        return 1;
    }
    const td_sh_dent *e = &d->e[i];
    if (e->gen != d->gen) return 0;
    *out = e->v;
    if (aux) aux[0] = e->aux[0], aux[1] = e->aux[1];
    cx->lane_flags |= e->flags;
    return 1;
}
static inline void td_sh_dense_put(td_shcx *cx, uint64_t key, size_t i, td_sh v, const double aux[2]) {
    td_sh_dense *d = &td_sh_dense_tl;
    if (!d->on || i >= d->n) {
        td_sh_memo_put(cx, key, v);
        if (aux) {
            td_sh a = td_sh_exact(cx, aux[0]);
            a.es = aux[1];
            td_sh_memo_put(cx, key ^ (1ull << 63), a);
        }
        return;
    }
    td_sh_dent *e = &d->e[i];
    e->v = v;
    if (aux) e->aux[0] = aux[0], e->aux[1] = aux[1];
    e->gen = d->gen;
    e->flags = cx->lane_flags;
}

/* The MPFR pass keeps the hashed memo (td_mp_memo_get): the spec names both. */
static inline void td_mp_dense_begin(td_mpcx *cx, size_t n) { (void)cx, (void)n; }
static inline int td_mp_dense_get(td_mpcx *cx, uint64_t key, size_t i, td_mp *out, double aux[2]) {
    (void)i, (void)aux;
    return td_mp_memo_get(cx, key, out);
}
static inline void td_mp_dense_put(td_mpcx *cx, uint64_t key, size_t i, td_mp v, const double aux[2]) {
    (void)i, (void)aux;
    td_mp_memo_put(cx, key, v);
}

TD_NOCOV_END
#endif
