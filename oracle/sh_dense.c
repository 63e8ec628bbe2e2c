/* The dense per-case memo of the shadow pass: see sh_dense.h. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sh_dense.h"
#include "nocov.h"

TD_NOCOV_BEGIN

_Thread_local td_sh_dense td_sh_dense_tl;

/* The hashed memo's key of the sentinel: no contract's key (tag << 56, small tags). */
#define DENSE_SENTINEL 0x7ed5e5e0c0de0001ull

/* a thread's table is freed when the thread exits (pthread key destructor) */
static pthread_key_t dense_key;
static pthread_once_t dense_once = PTHREAD_ONCE_INIT;
static void dense_destroy(void *p) {
    (void)p;
    td_sh_dense_free();
}
static void dense_key_init(void) { (void)pthread_key_create(&dense_key, dense_destroy); }

void td_sh_dense_free(void) {
    free(td_sh_dense_tl.e);
    memset(&td_sh_dense_tl, 0, sizeof td_sh_dense_tl);
}

/* room for n entries (new ones of generation 0: never put); 0 if none */
static int dense_reserve(td_sh_dense *d, size_t n) {
    if (n <= d->cap) return 1;
    if (n > TD_SH_DENSE_MAX) return 0;
    size_t cap = d->cap ? d->cap : 1024;
    while (cap < n) cap *= 2;
    td_sh_dent *e = realloc(d->e, cap * sizeof *e);
    if (!e) return 0;
    if (!d->e) {
        pthread_once(&dense_once, dense_key_init);
        (void)pthread_setspecific(dense_key, &td_sh_dense_tl); /* non-NULL: the destructor runs */
    }
    memset(e + d->cap, 0, (cap - d->cap) * sizeof *e);
    d->e = e;
    d->cap = cap;
    return 1;
}

void td_sh_dense_begin(td_shcx *cx, size_t n) {
    td_sh_dense *d = &td_sh_dense_tl;
    if (cx->trace) { /* as the hashed memo: nothing handed out or stored while traced */
        d->on = 0;
        return;
    }
    /* the case's generation: the sentinel's value, put by its first lane (with no lane
     * flags, so that its lookups add none) */
    td_sh s;
    if (d->cx != cx || !td_sh_memo_get(cx, DENSE_SENTINEL, &s) || s.v != (double)d->gen) {
        d->gen++;
        d->cx = cx;
        uint32_t lf = cx->lane_flags;
        cx->lane_flags = 0;
        td_sh_memo_put(cx, DENSE_SENTINEL, td_sh_exact(cx, (double)d->gen));
        cx->lane_flags = lf;
    }
    d->on = dense_reserve(d, n);
    d->n = n;
}

TD_NOCOV_END
